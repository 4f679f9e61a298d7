"""The experiment protocol: OAPL against GRPO at equal generations, offline against online.

- ``config``: the protocol's typed TOML config (``full.toml``, ``short.toml`` beside it).
- ``task``: the toy code task that does not saturate (easy and hard families; train,
  validation and held-out (family, constants) pairs).
- ``protocol``: the spine: task → warm start → validation sweep → arms × seeds → report.
- ``intervals``: Student-t intervals over paired seeds.
- ``report``: summaries, the Markdown report, raw JSON and PNGs (``docs/experiments``).
- ``cli``: ``codereward experiment CONFIG`` (``make experiments``, ``make experiments-short``).
"""
