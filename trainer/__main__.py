"""``python -m trainer train CONFIG``: the trainer's CLI without the gateway."""

from trainer.cli import main

if __name__ == "__main__":  # vLLM's spawned workers re-import the main module
    raise SystemExit(main())
