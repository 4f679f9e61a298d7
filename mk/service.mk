# The reward service (reward_api/service): gateway, Celery worker. Included by the Makefile.
.PHONY: serve worker test-service fuzz-service bench-service soak client-venvs

##@ Service

serve: $(VENV)/.installed ## run the reward gateway on 127.0.0.1:8000 (embedded; set CODEREWARD_BROKER_URL for Celery)
	$(BIN)/codereward serve

worker: $(VENV)/.installed ## run a Celery worker for broker mode (needs CODEREWARD_BROKER_URL)
	$(BIN)/codereward worker

test-service: test-deps $(VENV)/.installed ## service tests: real uvicorn, Redis and Celery workers on loopback
	$(BIN)/pytest -q tests/service $(PYTEST_ARGS)

fuzz-service: $(VENV)/.installed ## longer schemathesis run against the live OpenAPI spec (400 cases per operation)
	GATEWAY_FUZZ_EXAMPLES=400 $(BIN)/pytest -q tests/service/test_fuzz.py

bench-service: $(VENV)/.installed ## gateway req/s, p50/p99, cache hit/miss, embedded vs Celery, overhead ratio
	$(PY) -m reward_api.bench.gateway

SOAK_S ?= 600
soak: test-deps $(VENV)/.installed ## the soak: real-client traffic for SOAK_S seconds (600) with a worker SIGKILL, a Redis restart and a broken runtime; figures in runs/soak.json
	@mkdir -p runs
	CODEREWARD_SOAK_S=$(SOAK_S) CODEREWARD_SOAK_LEASE_S= CODEREWARD_SOAK_DOCKER=$(if $(shell docker image inspect $(SANDBOX_IMAGE) >/dev/null 2>&1 && echo y),1,0) \
	  CODEREWARD_SOAK_REPORT=runs/soak.json $(BIN)/pytest -q -s --timeout $$(( $(SOAK_S) + 900 )) tests/service/test_soak.py

client-venvs: $(VENV)/.installed ## the real trainer clients (verl, OpenRLHF 0.8.1/0.9.0/0.11.2, SandboxFusion 0.3.7, TRL 1.16) in $(VENV)/tools/clients, outside the project venv
	$(PY) -c 'import sys; sys.path.insert(0, "tests/service"); import clients; [clients.ensure(n) for n in clients.PACKAGES]'
