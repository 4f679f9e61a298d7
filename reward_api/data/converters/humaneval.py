"""HumanEval (``openai_humaneval``) and HumanEval+ (EvalPlus) to problems.

Source fields: ``task_id, prompt, canonical_solution, test, entry_point``; HumanEval+
adds ``base_input, plus_input, atol, contract`` in the EvalPlus release JSONL (the HF
``evalplus/humanevalplus`` copy has only the HumanEval fields, its ``test`` holding the
inputs and results). The reference is ``prompt + canonical_solution``.

HumanEval tests come from ``split_check``. HumanEval+ with input lists gets one call test
per base and plus input, expected outputs computed by running the canonical solution
(``oracle``); its ``check`` asserts are kept as well when they split cleanly.
A helper the prompt defines and a test calls (``poly`` of /32, the encoders of /38 and /50)
is the test's own copy, in ``setup_code`` (``prompt_helpers.trusted_helpers``), never the
program's. Known gaps: EvalPlus grades a few tasks specially (``find_zero`` checks
``poly(x) ~ 0``); here their call tests are graded against the canonical solution's own
answer.
"""

from __future__ import annotations

from typing import Any

from reward_api.data.converters.checkfn import split_check
from reward_api.data.converters.conversion import Conversion
from reward_api.data.converters.oracle import call_tests, run_many
from reward_api.data.converters.prompt_helpers import trusted_helpers
from reward_api.schemas import AssertTest, Problem


def _problem(rec: dict[str, Any], tests: list[Any], setup: str, source: str) -> Problem:
    reference = rec["prompt"] + rec["canonical_solution"]
    # the prompt's helpers a test calls (HumanEval/32's poly) are the test's own copies
    codes = "\n".join(t.code for t in tests if isinstance(t, AssertTest))
    helpers, _ = trusted_helpers("python", rec["prompt"], codes, [rec["entry_point"]])
    setup = "\n".join(s for s in (setup, helpers) if s.strip())
    return Problem(
        id=str(rec["task_id"]),
        prompt=rec["prompt"],
        tests=tests,
        reference=reference,
        setup_code=setup or None,
        source=source,
        metadata={"entry_point": rec["entry_point"]},
    )


def convert_humaneval(records: list[dict[str, Any]], conv: Conversion) -> None:
    """HumanEval: one assert test per ``check`` assert (or one whole-check test)."""
    for rec in records:
        tests, setup = split_check(rec["test"], rec["entry_point"])
        conv.report.count("check_split" if len(tests) > 1 else "check_whole")
        p = _problem(rec, list(tests), setup, "humaneval")
        conv.add(p, [p.reference or ""])


def convert_humaneval_plus(records: list[dict[str, Any]], conv: Conversion) -> None:
    """HumanEval+: call tests from base and plus inputs, outputs from the canonical solution."""
    with_inputs = [r for r in records if "base_input" in r or "plus_input" in r]
    inputs = [
        list(r.get("base_input") or []) + list(r.get("plus_input") or []) for r in with_inputs
    ]
    jobs = [
        (r["prompt"] + r["canonical_solution"], r["entry_point"], ins)
        for r, ins in zip(with_inputs, inputs, strict=True)
    ]
    outputs = dict(
        zip((id(r) for r in with_inputs), zip(inputs, run_many(jobs), strict=True), strict=True)
    )
    for rec in records:
        check_tests, setup = split_check(rec.get("test") or "", rec["entry_point"])
        if id(rec) not in outputs:
            p = _problem(rec, list(check_tests), setup, "humaneval_plus")
            conv.add(p, [p.reference or ""])
            continue
        ins, outs = outputs[id(rec)]
        atol = float(rec.get("atol") or 0)
        tests: list[Any] = call_tests(
            rec["entry_point"], ins, outs, atol=atol, counts=conv.report.counts
        )
        dropped = len(ins) - len(tests)
        if len(check_tests) > 1:
            tests = list(check_tests) + tests
        if not tests:
            conv.report.skip(str(rec["task_id"]), "no_tests: no input gave a usable output")
            continue
        p = _problem(rec, tests, setup, "humaneval_plus")
        assert p.metadata is not None
        p.metadata.update(inputs=len(ins), inputs_dropped=dropped)
        if atol:
            p.metadata["atol"] = atol
        conv.add(p, [p.reference or ""])
