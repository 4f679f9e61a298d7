"""Dataset tooling: converters to the contract's format, quality checks, pass@k, reward comparison.

``converters`` (MBPP, MBPP+, HumanEval(+), APPS, TACO, CodeContests, LiveCodeBench,
LeetCode, DeepCoder), ``check`` (``codereward data check``: the 5-test rule, duplicates,
contamination, broken references), ``passk`` (``codereward eval``), ``compare_rewards``
(``codereward rewards compare``), ``cli`` and the ``bundled`` demo set.
"""
