"""Verdicts of the compiled languages agree with plain execution on MBXP's real model
samples (``../shared/data/mbxp``), on its canonical solutions, and on single-edit mutants
of them (``reward_api.bench.mutants``; Go, which has no canonical solutions: of its model
samples): the same program and test, judged by the verifier (process backend, the trusted
harness around the test) and by a plain compile and run with the same toolchain under
``chroot`` (``reward_api.bench.languages``). A bounded subset of each language runs in the
normal tier; every program in the slow tier.

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


EXIT_0 = "System.exit(0) before the test's first comparison"
REJECTED_BY_DESIGN = {
    ("canonical", "mbxp/MBJP/106", "canonical"): EXIT_0,
    ("mutants", "mbxp/MBJP/106", "canonical-m1"): EXIT_0,
    ("canonical", "mbxp/MBJP/325", "canonical"): "reads stdin, finds none, System.exit(0)",
    ("canonical", "mbxp/MBCPP/769", "canonical"): "exit(0) on lists of different sizes, the first test's",
    ("mutants", "mbxp/MBCPP/769", "canonical-m1"): "the same exit(0), mutated",
    # a mutant whose function falls off its end on one test's input (FALLS_OFF's class)
    ("mutants", "mbxp/MBCPP/300", "canonical-m1"): "switch without a case for n = 3: no return",
    ("mutants", "mbxp/MBCPP/638", "canonical-m1"): "switch without a case for t = 100: no return",
}  # fmt: skip
"""(programs, problem, sample): programs that pass plain execution only in a way the
verifier refuses by design, so the sandboxed ``wrong_answer`` is the one allowed
disagreement, and only in that direction. An early exit: plain execution passes any exit
status 0, CONTRACT.md ("Other languages") never does. (MBJSP/243's canonical solution,
which sorts with the test's ``compare``, was here until the test's helpers that hold
nothing of the test's were made again beside the program: ``compiled_eq.js_test_helpers``.)"""


FLIPS = {
    ("mutants", "mbxp/MBGP/362", "72-m1"): "the most frequent value taken in map order",
    ("samples", "mbxp/MBGP/362", "72"): "the model's sample of the same: a tie broken by map order",
    ("samples", "mbxp/MBCPP/340", "501"): "sums three uninitialized ints (undefined behaviour)",
    ("mutants", "mbxp/MBCPP/340", "canonical-m1"): "the canonical's same uninitialized ints",
    ("canonical", "mbxp/MBCPP/340", "canonical"): "the canonical itself: plain flips too",
}
"""(programs, problem, sample): programs whose verdict plain execution itself flips from
run to run, so either disagreement is allowed. MBGP/362's mutant of model sample 72 picks
the value of highest count by ranging over a ``map[int]int`` and a tie goes to whichever
key Go's randomised map order yields first: five plain runs of the same binary passed
once and failed four times, and two verifier runs accepted once; its model sample does the
same. MBCPP/340's model sample adds three ``int``s it never initialized: run again alone,
the sandboxed side agreed once in two (stop 28). Its canonical solution declares the same
three ``int``s without initializing them, and so does its mutant: in the full mutant run
of stop 31 the sandboxed side accepted it and plain execution failed it; run again alone
minutes later, the sandboxed side failed it and plain execution passed it. The canonical
solution itself, in the full canonical run of stop 34: plain execution failed it while the
verifier accepted it; three plain runs of it the same hour passed, failed and passed."""


def _check(language: str, limit: int | None, workers: int, programs: str = "samples") -> None:
    _needs(language)
    pairs = bench.load(language, limit, programs=programs)
    result = bench.agreement(language, pairs, workers=workers)
    print(f"{language} {programs}: {result.agree}/{len(pairs)} agree, "
          f"{sum(result.sandboxed)} accepted")  # fmt: skip
    left = [
        d for d in result.disagreements()
        if (programs, d[0], d[1]) not in FLIPS and not (d[3] and not d[2] and (
            (programs == "samples" and d[0] in FALLS_OFF) or (programs, d[0], d[1]) in REJECTED_BY_DESIGN
        ))
    ]  # fmt: skip
    assert left == []
    if programs != "mutants" or limit is None:  # a few mutants may well all fail
        assert any(result.plain), "no program passes: the comparison would prove little"
    if limit is None or programs == "mutants":
        assert not all(result.plain), "every program passes: the comparison would prove little"


@pytest.mark.parametrize("language", sorted(bench.FILES))
def test_a_subset_of_model_samples_agrees_with_plain_execution(language: str) -> None:
    _check(language, SUBSET, workers=2)


@pytest.mark.slow
@pytest.mark.timeout(7200)  # every program of a language: 15 to 30 min on a quiet 2-core host
@pytest.mark.parametrize("language", sorted(bench.FILES))
def test_every_model_sample_agrees_with_plain_execution(language: str) -> None:
    _check(language, None, workers=2)


CANONICAL = sorted(set(bench.FILES) - {"go"})  # MBGP has no canonical solutions


@pytest.mark.parametrize("language", CANONICAL)
def test_a_subset_of_canonical_solutions_agrees_with_plain_execution(language: str) -> None:
    _check(language, SUBSET, workers=2, programs="canonical")


@pytest.mark.slow
@pytest.mark.timeout(7200)  # every program of a language: 15 to 30 min on a quiet 2-core host
@pytest.mark.parametrize("language", CANONICAL)
def test_every_canonical_solution_agrees_with_plain_execution(language: str) -> None:
    _check(language, None, workers=2, programs="canonical")


@pytest.mark.parametrize("language", sorted(bench.FILES))
def test_a_subset_of_mutants_agrees_with_plain_execution(language: str) -> None:
    _check(language, SUBSET, workers=2, programs="mutants")


@pytest.mark.slow
@pytest.mark.timeout(7200)  # every program of a language: 15 to 30 min on a quiet 2-core host
@pytest.mark.parametrize("language", sorted(bench.FILES))
def test_every_mutant_agrees_with_plain_execution(language: str) -> None:
    _check(language, None, workers=2, programs="mutants")


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


def test_the_bench_go_programs_in_humaneval_x_shape_agree_with_go_test() -> None:
    # the bench's ``go-hx`` programs and a mutant of each: the recorder builds without
    # testify where the program names it nowhere but the setup's import
    # (``languages._go_without_testify``), the plain side is ``go test`` of program and test
    from reward_api.bench.mutants import mutants

    _needs("go")
    pairs = bench.load("go-hx")
    pairs += [(p, s.model_copy(update={"code": m, "sample_id": f"{s.sample_id}-m"}))
              for p, s in pairs for m in mutants(s.code, "go", 1)]  # fmt: skip
    result = bench.agreement("go", pairs, workers=2)
    assert result.disagreements() == []
    assert any(result.plain) and not all(result.plain)
