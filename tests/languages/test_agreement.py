"""Verdicts of the compiled languages agree with plain execution on MBXP's real model
samples (``../shared/data/mbxp``): the same ``prompt + completion`` and test, judged by the
verifier (process backend, the trusted harness around the test) and by a plain compile and
run with the same toolchain under ``chroot`` (``reward_api.bench.languages``). A bounded
subset of each language runs in the normal tier; every sample in the slow tier.

Needs root (chroot), bwrap, the language roots and the data; skips without them outside CI.
"""

from __future__ import annotations

import os

import pytest

from reward_api.bench import languages as bench
from reward_api.verify.languages import default_root

SUBSET = 10
FALLS_OFF = {
    "mbxp/MBCPP/455": "bool checkMonthnumbNumber(int) { // Your code here. }",
    "mbxp/MBCPP/762": "bool checkMonthnumberNumber(int) { /* comments only */ }",
}
"""Model samples whose function has no return statement (undefined behaviour): GCC compiles
the function, and the ``main`` that calls it, to nothing, so plain execution falls off into
whatever code follows and exits 0 without running one comparison: a pass plain execution
gives to an empty body (a reward an RL policy would learn to take). Lifted
(``reward_api.verify.lifted``), no call ever returns a value: ``wrong_answer``, the one
disagreement this suite allows, and only in that direction."""


def _needs(language: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("plain execution runs under chroot, which needs root")
    if not (default_root(language) / ".codereward-runtime").exists():
        pytest.skip(f"no {language} runtime: make runtimes")
    if not (bench.MBXP / bench.FILES[language][1]).exists():
        pytest.skip(f"no MBXP data at {bench.MBXP} (set CODEREWARD_MBXP_DIR)")


def _check(language: str, limit: int | None, workers: int) -> None:
    _needs(language)
    pairs = bench.load(language, limit)
    result = bench.agreement(language, pairs, workers=workers)
    print(f"{language}: {result.agree}/{len(pairs)} agree, {sum(result.sandboxed)} accepted")
    left = [d for d in result.disagreements() if not (d[0] in FALLS_OFF and d[3] and not d[2])]
    assert left == []
    assert any(result.plain), "no sample passes: the comparison would prove little"
    if limit is None:
        assert not all(result.plain), "every model sample passes: the comparison would prove little"


@pytest.mark.parametrize("language", sorted(bench.FILES))
def test_a_subset_of_model_samples_agrees_with_plain_execution(language: str) -> None:
    _check(language, SUBSET, workers=2)


@pytest.mark.slow
@pytest.mark.parametrize("language", sorted(bench.FILES))
def test_every_model_sample_agrees_with_plain_execution(language: str) -> None:
    _check(language, None, workers=2)


def test_a_failed_console_assert_fails_the_plain_run() -> None:
    # HumanEval-X's JavaScript tests are console.assert calls, which print "Assertion
    # failed" and exit 0: the canonical JavaScript/112 and /155 are wrong, the verifier
    # says wrong_answer, and a plain run that looked at the exit code alone passed them
    def run(rc: int, stderr: str) -> dict:
        return {"compiles": [{"rc": 0}], "runs": [{"rc": rc, "stderr": stderr}]}

    assert bench.plain_passed("javascript", run(0, ""))
    assert not bench.plain_passed("javascript", run(0, "Assertion failed\n"))
    assert not bench.plain_passed("javascript", run(1, ""))
    assert bench.plain_passed("go", run(0, "Assertion failed\n"))
    compiled = {"compiles": [{"rc": 0}], "runs": [{"rc": 0, "stderr": ""}]}
    assert bench.plain_passed("cpp", compiled)
    assert not bench.plain_passed("cpp", {**compiled, "compiles": [{"rc": 1}]})
