"""MBPP, sanitized MBPP and MBPP+ (EvalPlus) to problems.

- ``mbpp`` (google-research ``mbpp.jsonl``): ``text, code, task_id, test_setup_code,
  test_list, challenge_test_list``. One assert test per ``test_list`` entry; the original
  harness runs ``code``, then ``test_setup_code``, then the asserts, so a non-empty
  ``test_setup_code`` (it builds trees from the program's own ``Node`` class) is put in
  front of each assert rather than into ``setup_code``, which runs before the program.
  ``challenge_test_list`` is kept in metadata, not graded, as upstream does.
- ``mbpp_sanitized`` (``sanitized-mbpp.json``): ``source_file, task_id, prompt, code,
  test_imports, test_list``; ``test_imports`` become ``setup_code``.
- ``mbpp_plus`` (``MbppPlus.jsonl``): ``task_id, prompt, entry_point,
  canonical_solution, base_input, plus_input, atol, contract, assertion``. As EvalPlus
  grades, every base and plus input is a test whose output comes from running
  ``canonical_solution`` (``oracle``); the ``assertion`` lines (which the revised
  canonical solutions sometimes contradict, e.g. ``Mbpp/295``) are not graded: the first
  one is shown in the prompt. JSON stores tuples as
  lists; where the first assertion passes a tuple or a set, inputs are turned back into
  tuples and sets (``oracle.call_shapes``) and graded by ``assert f(<args>) == <output>``
  tests, since call tests carry JSON arguments only.

Prompts follow the MBPP paper: the statement followed by the tests the code must pass
(for MBPP+ only the first assertion, as EvalPlus releases it).
"""

from __future__ import annotations

import ast
from typing import Any

from reward_api.data.converters.checkfn import truthiness_as_bool
from reward_api.data.converters.conversion import Conversion
from reward_api.data.converters.oracle import call_shapes, call_tests, run_many, shapes_needed
from reward_api.schemas import AssertTest, Problem


def _clean(code: str) -> str:
    return code.replace("\r\n", "\n").replace("\r", "\n")


def _prompt(text: str, tests: list[str]) -> str:
    shown = "\n".join(tests)
    return f"{text.strip()}\nYour code should pass these tests:\n\n{shown}\n"


def _split_assertion(block: str) -> tuple[list[str], str]:
    """The assert statements of a block (one string each) and its other lines (imports)."""
    block = _clean(block)
    try:
        module = ast.parse(block)
    except SyntaxError:
        lines = block.splitlines()
        return [line.strip() for line in lines if line.strip().startswith("assert")], ""
    lines = block.splitlines()
    asserts: list[str] = []
    setup: list[str] = []
    for node in module.body:
        end = node.end_lineno or node.lineno
        text = "\n".join(lines[node.lineno - 1 : end]).strip()
        (asserts if isinstance(node, ast.Assert) else setup).append(text)
    return [a for a in asserts if a], "\n".join(setup)


def _graded_by_truth(asserts: list[str], fn_name: str) -> bool:
    """Some assert of the source is ``assert fn(...)`` or ``assert not fn(...)``."""
    for text in asserts:
        try:
            node = ast.parse(text).body[0]
        except (SyntaxError, IndexError):
            continue
        test = node.test if isinstance(node, ast.Assert) else None
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test = test.operand
        if (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == fn_name
        ):
            return True
    return False


def convert_mbpp(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Original MBPP: three assert tests per problem, ``test_setup_code`` before each."""
    for rec in records:
        setup = _clean(rec.get("test_setup_code") or "").strip()
        asserts = [_clean(t).strip() for t in rec.get("test_list") or []]
        if not asserts:
            conv.report.skip(f"mbpp/{rec['task_id']}", "no_tests")
            continue
        if setup:
            conv.report.count("test_setup_code_inlined")
        tests = [
            AssertTest(code=truthiness_as_bool(f"{setup}\n{a}" if setup else a)) for a in asserts
        ]
        challenge = [_clean(t).strip() for t in rec.get("challenge_test_list") or []]
        code = _clean(rec["code"])
        p = Problem(
            id=f"mbpp/{rec['task_id']}",
            prompt=_prompt(rec["text"], asserts),
            tests=list(tests),
            reference=code,
            source="mbpp",
            metadata={"task_id": rec["task_id"], "challenge_test_list": challenge},
        )
        conv.add(p, [code])


def convert_mbpp_sanitized(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Sanitized MBPP: assert tests, ``test_imports`` as setup code."""
    for rec in records:
        asserts = [_clean(t).strip() for t in rec.get("test_list") or []]
        if not asserts:
            conv.report.skip(f"mbpp_sanitized/{rec['task_id']}", "no_tests")
            continue
        imports = "\n".join(rec.get("test_imports") or [])
        code = _clean(rec["code"])
        p = Problem(
            id=f"mbpp_sanitized/{rec['task_id']}",
            prompt=_prompt(rec.get("prompt") or rec.get("text") or "", asserts),
            tests=[AssertTest(code=truthiness_as_bool(a)) for a in asserts],
            reference=code,
            setup_code=imports or None,
            source="mbpp_sanitized",
            metadata={"task_id": rec["task_id"], "source_file": rec.get("source_file")},
        )
        conv.add(p, [code])


def convert_mbpp_plus(records: list[dict[str, Any]], conv: Conversion) -> None:
    """MBPP+: the original assertions plus one call test per base and plus input."""
    inputs = [list(r.get("base_input") or []) + list(r.get("plus_input") or []) for r in records]
    jobs = [
        (_clean(r["canonical_solution"]), r["entry_point"], ins)
        for r, ins in zip(records, inputs, strict=True)
    ]
    # JSON stored the tuples of the original asserts as lists: restore them from the assertion.
    shapes = [call_shapes(_clean(r.get("assertion") or ""), r["entry_point"]) for r in records]
    shapes = [
        sh if shapes_needed(sh, ins) else None for sh, ins in zip(shapes, inputs, strict=True)
    ]
    outputs = run_many(jobs, shapes=shapes)
    for rec, ins, outs, shape in zip(records, inputs, outputs, shapes, strict=True):
        asserts, _assertion_setup = _split_assertion(rec.get("assertion") or "")
        atol = float(rec.get("atol") or 0)
        # `assert f(x)` / `assert not f(x)` in the source: the function is graded by truth value
        truthiness = _graded_by_truth(asserts, rec["entry_point"])
        tests: list[Any] = call_tests(
            rec["entry_point"],
            ins,
            outs,
            atol=atol,
            counts=conv.report.counts,
            truthiness=truthiness,
        )
        if not tests:
            conv.report.skip(str(rec["task_id"]), "no_tests")
            continue
        text = (rec.get("prompt") or "").strip().strip("'\"").strip()
        code = _clean(rec["canonical_solution"])
        meta: dict[str, Any] = {
            "entry_point": rec["entry_point"],
            "inputs": len(ins),
            "inputs_dropped": len(ins) - len(tests),
        }
        if shape:
            conv.report.count("tuple_or_set_arguments")
            meta["argument_shapes"] = shape
        if atol:
            meta["atol"] = atol
        p = Problem(
            id=str(rec["task_id"]),
            prompt=_prompt(text, asserts[:1]),
            tests=tests,
            reference=code,
            source="mbpp_plus",
            metadata=meta,
        )
        conv.add(p, [code])
