# Dataset targets (reward_api/data/converters, data_check, evaluation). Included by the Makefile.
.PHONY: test-data test-fidelity data-convert-shared data-check-shared

##@ Datasets

SHARED_DATA ?= $(abspath $(CURDIR)/../shared/data)
DATA_OUT ?= runs/data

test-data: install ## dataset tests: converters, data check, pass@k, fidelity slices (real sandbox)
	$(BIN)/pytest -q tests/data -m "not slow" $(PYTEST_ARGS)

test-fidelity: install ## every reference of the four shared datasets through the verifier (the slow tier of tests/data; tens of minutes)
	CODEREWARD_SHARED_DATA=$(SHARED_DATA) $(BIN)/pytest -q -m slow --timeout 3600 tests/data/test_data_fidelity.py $(PYTEST_ARGS)

data-convert-shared: $(VENV)/.installed ## convert the shared datasets to problems + reference samples in $(DATA_OUT)
	@mkdir -p $(DATA_OUT)
	$(BIN)/codereward data convert mbpp $(SHARED_DATA)/mbpp.jsonl -o $(DATA_OUT)/mbpp.jsonl --samples $(DATA_OUT)/mbpp.samples.jsonl
	$(BIN)/codereward data convert mbpp_sanitized $(SHARED_DATA)/sanitized-mbpp.json -o $(DATA_OUT)/mbpp_sanitized.jsonl --samples $(DATA_OUT)/mbpp_sanitized.samples.jsonl
	$(BIN)/codereward data convert apps $(SHARED_DATA)/apps_mini_val_150.jsonl -o $(DATA_OUT)/apps.jsonl --samples $(DATA_OUT)/apps.samples.jsonl
	$(BIN)/codereward data convert mbpp_plus $(SHARED_DATA)/MbppPlus-v0.1.0-pre.jsonl -o $(DATA_OUT)/mbpp_plus.jsonl --samples $(DATA_OUT)/mbpp_plus.samples.jsonl

data-check-shared: data-convert-shared ## quality reports of the shared datasets (MBPP+ against MBPP) in $(DATA_OUT)/check-*
	$(BIN)/codereward data check $(DATA_OUT)/mbpp.jsonl -o $(DATA_OUT)/check-mbpp
	$(BIN)/codereward data check $(DATA_OUT)/mbpp_sanitized.jsonl --against $(DATA_OUT)/mbpp.jsonl -o $(DATA_OUT)/check-mbpp_sanitized
	$(BIN)/codereward data check $(DATA_OUT)/apps.jsonl -o $(DATA_OUT)/check-apps
	$(BIN)/codereward data check $(DATA_OUT)/mbpp_plus.jsonl --against $(DATA_OUT)/mbpp.jsonl --runs 1 -o $(DATA_OUT)/check-mbpp_plus
