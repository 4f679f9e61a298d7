# codereward: `make help` lists the targets by group. CI calls the same targets (.ci/run).
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
BIN := $(VENV)/bin
RUNTIME_ROOT ?= $(shell $(CURDIR)/sandbox_images/runtime/rootfs-path.sh)
export CODEREWARD_RUNTIME_ROOT ?= $(RUNTIME_ROOT)
PYTEST := $(BIN)/pytest -q
# what `make test-fast` leaves out: Docker images, vLLM, the chart tools and the slow tier
FAST := -m "not docker and not vllm and not slow" --ignore=tests/k8s

.PHONY: help system-deps test-deps runtime install install-serve run verify-demo \
        test test-fast test-verify test-sandbox test-core test-slow lint bench clean

##@ Set-up (each target installs what it needs; nothing is manual)
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^##@/ {printf "\n%s\n", substr($$0, 5)} \
	  /^[a-zA-Z_-]+:.*## / {printf "  %-20s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

system-deps: ## bubblewrap and debootstrap for the process sandbox (apt, when missing; needs root)
	@sandbox_images/runtime/system-deps.sh

test-deps: ## what the whole suite needs on the host: the above, a Docker engine, docker-compose, Redis (installed and started)
	@mk/test-deps.sh

runtime: ## build the sandbox root filesystem (debootstrap, once)
	@sandbox_images/runtime/build-rootfs.sh "$(RUNTIME_ROOT)"

# Serving needs the package and its static-analysis extra (the hack gate); nothing else.
$(VENV)/.serve: pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[static]'
	@touch $@

# Development adds the dataset tools and the test and lint tools.
$(VENV)/.installed: $(VENV)/.serve pyproject.toml requirements/data.txt requirements/static.txt
	$(PIP) install -q -e '.[static,data,dev]' -r requirements/data.txt -r requirements/static.txt
	@touch $@

install-serve: system-deps $(VENV)/.serve runtime ## what `make run` needs: the service package (no torch, no chart tools) and the sandbox runtime

install: system-deps $(VENV)/.installed runtime ## the development venv (service, dataset tools, test and lint tools) and the runtime

##@ Run
verify-demo: install-serve ## verify the bundled problem set with `codereward verify` and print the summary
	$(BIN)/codereward verify reward_api/data/bundled/problems.jsonl reward_api/data/bundled/samples.jsonl -o /dev/null

run: verify-demo ## smoke-verify the bundled set, then serve on 127.0.0.1:8000 (embedded workers, no Redis)
	$(BIN)/codereward serve --host $(or $(HOST),127.0.0.1) --port $(or $(PORT),8000)

##@ Test (`make test` is the whole suite, as CI runs it; test-<area> runs one folder)
test: test-deps install trainer-deps chart-tools images service-image ## the whole suite against real sandboxes, Redis, Celery, Docker, semgrep and vLLM (slow tier: test-slow)
	$(PYTEST) -m "not slow" $(PYTEST_ARGS)

test-fast: install trainer-deps ## everything needing neither Docker images nor vLLM nor the chart tools (a few minutes)
	OMP_NUM_THREADS=1 $(PYTEST) $(FAST) $(PYTEST_ARGS)

test-core: install ## the package root: schemas, CLI, JSONL, public surface, import boundaries
	$(PYTEST) tests/core $(PYTEST_ARGS)

test-verify: install ## extraction, comparators, lifting, keys, static analysis and scoring
	$(PYTEST) tests/verify $(PYTEST_ARGS)

test-sandbox: install ## process sandbox: controls, agreement with plain execution, the adversarial suite
	$(PYTEST) tests/sandbox $(PYTEST_ARGS)

test-slow: install ## the slow tier: every reference of every shared dataset (tens of minutes)
	CODEREWARD_SHARED_DATA=$(SHARED_DATA) $(PYTEST) -m slow --timeout 3600 $(PYTEST_ARGS)

lint: $(VENV)/.installed ## ruff (check and format) and mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check reward_api trainer tests
	$(BIN)/mypy

##@ Bench (ratios against baselines measured in the same run; no absolute gates)
bench: install ## speed and memory of verification, docker, static analysis and the gateway
	$(PY) -m reward_api.bench

clean: ## remove the venv and caches
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build

-include mk/*.mk
