# Gateway and queue targets (issue 4). Included by the Makefile; $(PY), $(BIN) come from it.
.PHONY: serve worker test-gateway fuzz-gateway bench-gateway

serve: $(VENV)/.installed ## run the reward gateway on 127.0.0.1:8000 (embedded; set CODEREWARD_BROKER_URL for Celery)
	$(PY) -m reward_api.service_cli serve

worker: $(VENV)/.installed ## run a Celery worker for broker mode (needs CODEREWARD_BROKER_URL)
	$(PY) -m reward_api.service_cli worker

test-gateway: $(VENV)/.installed ## gateway tests: real uvicorn, Redis and Celery workers on loopback
	$(BIN)/pytest -q tests/gateway $(PYTEST_ARGS)

fuzz-gateway: $(VENV)/.installed ## longer schemathesis run against the live OpenAPI spec (400 cases per operation)
	GATEWAY_FUZZ_EXAMPLES=400 $(BIN)/pytest -q tests/gateway/test_gateway_fuzz.py

bench-gateway: $(VENV)/.installed ## gateway req/s, p50/p99, cache hit/miss, embedded vs Celery, overhead ratio
	$(PY) -m reward_api.bench_gateway
