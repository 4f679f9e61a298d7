"""``python -m trainer.demo``: the OAPL-vs-GRPO demo (``trainer.demo.run``)."""

from trainer.demo.run import main

if __name__ == "__main__":
    raise SystemExit(main())
