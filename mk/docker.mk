# Docker sandbox, images and the compose stack (issue 3). Included by the Makefile;
# $(PY), $(BIN), $(PIP), $(VENV) and RUNTIME_ROOT come from it.
.PHONY: images images-official service-image compose-up compose-down test-docker bench-docker

##@ Docker and deployment

SANDBOX_IMAGE ?= codereward/sandbox-python:3.11

images: runtime ## build the Docker sandbox image codereward/sandbox-python:3.11 from the local runtime (no registry needed)
	@RUNTIME_ROOT="$(RUNTIME_ROOT)" sandbox_images/build-image.sh python/3.12 $(SANDBOX_IMAGE) runtime

images-official: $(VENV)/.installed ## build codereward/sandbox-python:3.12 FROM python:3.12-slim (needs a registry) with host-built wheels
	@sandbox_images/build-image.sh python/3.12 codereward/sandbox-python:3.12 python:3.12-slim $(PIP)

service-image: images $(VENV)/.installed ## build codereward/service (gateway, worker, redis) from the runtime base and a host-built wheelhouse
	@services/build-image.sh $(PIP)

compose-up: service-image ## start redis, gateway and a worker with docker-compose (needs CODEREWARD_API_KEYS)
	docker-compose up -d

compose-down: ## stop the compose stack and remove its containers
	docker-compose --profile monitoring down --remove-orphans

test-docker: test-deps images service-image $(VENV)/.installed ## docker backend tests: parity with the process backend, cleanup on exit/signals, compose stack
	$(BIN)/pytest -q -m docker tests/docker $(PYTEST_ARGS)

bench-docker: images $(VENV)/.installed ## per-test cost: docker cells vs a bare python3 spawn vs `docker run` per test
	$(PY) -m reward_api.bench.docker
