"""``python -m trainer.experiment CONFIG``: the experiment protocol (``trainer.experiment.cli``)."""

from trainer.experiment.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
