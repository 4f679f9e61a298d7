"""``python -m trainer train CONFIG``: the trainer's CLI without the gateway."""

from trainer.cli import main

raise SystemExit(main())
