"""The demo and benchmarks: what ``make demo`` and ``make gpu-bench`` run.

- ``run``: the proof that OAPL learns (``python -m trainer.demo``).
- ``toyproblems``: the generated toy problem set; ``tinymodel``: a tiny random model and a
  BPE tokenizer built locally; ``warmstart``: the supervised warm start.
- ``gpu_bench``: learner and rollout throughput on one GPU (``python -m trainer.demo.gpu_bench``).

Nothing in the trainer proper imports this package; tests use its tiny models.
"""
