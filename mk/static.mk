# Static analysis: semgrep rules, batched scans, reward presets (owner: issue 5).
.PHONY: test-static test-rules bench-static

##@ Static analysis

test-rules: $(VENV)/.installed ## semgrep --test on the shipped rules and their annotated fixtures
	$(BIN)/semgrep --test --metrics=off --disable-version-check reward_api/verify/rules

test-static: $(VENV)/.installed ## static-analysis and scoring tests (rules, batch scan, FP/detection rates)
	$(BIN)/pytest -q tests/verify/static $(PYTEST_ARGS)

bench-static: $(VENV)/.installed ## ms per program: batched semgrep-core scan vs one semgrep CLI call per program
	$(PY) -m reward_api.bench.static
