"""The OAPL trainer: lagged rollouts, batched rewards from the verifier, the OAPL update.

Importing this package is cheap (no torch); ``trainer.train`` and the engines import torch.
The spine is ``trainer/train.py``; ``trainer/README.md`` says how to run it.
"""
