# The Helm chart in k8s/codereward: its checks run without a cluster (see k8s/README.md).
# checkov lives in its own virtualenv: its pins clash with the service's dependencies.
CHECKOV_VENV := $(VENV)/tools/checkov
CHECKOV := $(CHECKOV_VENV)/bin/checkov
CHECKOV_SPEC ?= checkov==3.3.30

.PHONY: chart-tools test-chart

##@ Kubernetes (the Helm chart, checked without a cluster)

$(CHECKOV):
	@test -x $(CHECKOV_VENV)/bin/python || python3 -m venv $(CHECKOV_VENV)
	$(CHECKOV_VENV)/bin/pip install -q '$(CHECKOV_SPEC)'
	@touch $@

$(VENV)/.chart-tools: $(VENV)/.installed requirements/k8s.txt
	$(PIP) install -q -r requirements/k8s.txt
	@touch $@

chart-tools: $(VENV)/.chart-tools $(CHECKOV) ## install the chart checkers (helm-python-sdk, kubernetes-validate, checkov)

test-chart: chart-tools ## lint, render, schema-validate and checkov-scan the Helm chart (no cluster)
	$(BIN)/pytest -q tests/k8s $(PYTEST_ARGS)
