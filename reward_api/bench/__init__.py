"""``make bench``: speed and memory as ratios against baselines measured in the same run.

``__main__`` (``python -m reward_api.bench``) runs the verifier benches and the others:
``docker`` (docker cells vs ``docker run``), ``gateway`` (the HTTP service), ``static``
(batched semgrep). ``unsandboxed`` is the plain reference execution the benches and the
agreement tests compare against: no sandbox, never for untrusted code in production.
"""
