"""The verification library: from (problem, sample) to ``Result``, with no service around it.

``pipeline`` is the spine (extract -> dedupe -> sandbox -> grade -> judge -> scan ->
score); ``keys`` is the one content hash a result depends on; ``extract`` takes the
program out of a completion; ``plans``, ``grading`` and ``comparators`` turn what the
sandbox reports into verdicts; ``static_analysis`` (rules in ``rules/``) and ``scoring``
compose rewards. It runs programs only through ``reward_api.sandbox`` and imports nothing
from ``reward_api.service``, ``reward_api.data``, ``reward_api.bench`` or ``trainer``.
"""
