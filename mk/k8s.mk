# The Helm chart in k8s/codereward: its checks run without a cluster (see k8s/README.md).
# checkov lives in its own virtualenv: its pins clash with the service's dependencies.
CHECKOV_VENV := $(VENV)/tools/checkov
CHECKOV := $(CHECKOV_VENV)/bin/checkov
CHECKOV_SPEC ?= checkov==3.3.30

.PHONY: chart-tools chart-check

$(CHECKOV):
	@test -x $(CHECKOV_VENV)/bin/python || python3 -m venv $(CHECKOV_VENV)
	$(CHECKOV_VENV)/bin/pip install -q '$(CHECKOV_SPEC)'
	@touch $@

chart-tools: $(VENV)/.installed $(CHECKOV) ## install the chart checkers (helm-python-sdk, kubernetes-validate, checkov)

# make install builds the checkov virtualenv too, so `make test` can run tests/k8s.
install: $(CHECKOV)

chart-check: chart-tools ## lint, render, schema-validate and checkov-scan the Helm chart (no cluster)
	$(BIN)/pytest -q tests/k8s $(PYTEST_ARGS)
