"""How each test runs, decided on the host before anything runs, and what it takes from the
program.

Four plans, all of which keep the test's logic and expected values out of the candidate's
cell (CONTRACT.md, trust rule):

- ``stdio``: the program reads the input on stdin; the host compares its stdout.
- ``call`` (a contract ``call`` test): the candidate calls ``fn_name(*args)`` (or
  ``class_name().fn_name(*args)``, or ``Solution().fn_name``) and returns the value as
  data; the host compares it with the expected JSON (tuples as lists).
- ``checked``: an ``assert`` test made only of statements ``assert NAME(literals) OP
  LITERAL`` (``OP`` one of ``==``, ``!=``, ``is``, ``is not``; either side), ``assert
  NAME(literals)`` and ``assert not NAME(literals)``, where ``NAME`` is an entry point and
  the problem's setup defines no classes. The candidate is called with the literal
  arguments and answers with the value; the host evaluates each statement over the decoded
  value: exactly what the judge would compute, without a judge cell (MBPP's shape).
- ``judge``: every other ``assert`` test. Its code (check functions, loops, helpers, data
  arrays, the problem's setup) runs in a judge cell that never runs candidate code; each
  use of an entry-point name is a call into the candidate (``runner.Judge``).

Entry points are the names a test takes from the program: the problem's ``entry_points``
when given; else the names the test uses without defining or importing them (builtins and
names the setup code defines excluded), plus every such name that the ``reference``
defines at top level even if it is a builtin's (MBPP's ``def sum``). Names of the
standard library's modules (and numpy's ``np``) are never entry points: the judge imports
its own.
"""

from __future__ import annotations

import ast
import builtins
import functools
import json
import sys
from dataclasses import dataclass, field
from typing import Any, Literal

from reward_api.sandbox.runner import Encoder
from reward_api.schemas import PARSE_LOCK, AssertTest, CallTest, Problem, StdioTest

PlanKind = Literal["stdio", "call", "checked", "judge"]
CheckOp = Literal["==", "!=", "is", "is not", "truthy", "falsy"]
_BUILTINS = frozenset(dir(builtins))
_MODULES = frozenset(sys.stdlib_module_names) | {"numpy", "np", "sortedcontainers"}
_OPS: dict[type[ast.cmpop], CheckOp] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
}


@dataclass(frozen=True)
class HostCheck:
    """One ``assert NAME(args) OP literal`` statement the host evaluates."""

    name: str
    args: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]
    op: CheckOp
    literal: Any = None


@dataclass(frozen=True)
class Plan:
    """How test ``index`` of a problem runs."""

    kind: PlanKind
    index: int
    checks: tuple[HostCheck, ...] = ()
    entry: tuple[str, ...] = ()
    calls: tuple[str, ...] = field(default=(), repr=False)
    """The request payloads the runner sends the candidate (``call`` and ``checked``)."""


def _parse(source: str) -> ast.Module:
    with PARSE_LOCK:
        return ast.parse(source)


def names_of(tree: ast.AST, parameters: bool = True) -> tuple[set[str], set[str]]:
    """(names loaded, names bound) anywhere in the code: assignments, defs, classes,
    imports, parameters (unless ``parameters`` is False), ``except ... as`` and ``match``
    captures bind."""
    loaded: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.arg) and parameters:
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return loaded, bound


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            names |= {
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            }
    return names


@functools.lru_cache(maxsize=4096)
def _code_names(source: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(names loaded, names bound) of a piece of code; None if it does not parse."""
    try:
        tree = _parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    loaded, bound = names_of(tree)
    # a name the module's own statements use and only a function's parameter binds is the
    # program's at the module's level: HumanEval-X's Python ``def check(find_zero): ...``
    # then ``check(find_zero)``
    only_parameters = bound - names_of(tree, parameters=False)[1]
    bound -= only_parameters & _module_loads(tree)
    return frozenset(loaded), frozenset(bound)


def _module_loads(tree: ast.AST) -> set[str]:
    """The names a module's own statements load, outside every function and class body
    (and lambda: its parameters are its own)."""
    out: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            # what the module evaluates of a def: its decorators and defaults
            todo += [
                *node.decorator_list,
                *node.args.defaults,
                *filter(None, node.args.kw_defaults),
            ]
        elif isinstance(node, ast.ClassDef):
            todo += [*node.decorator_list, *node.bases]
        elif not isinstance(node, ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return out


@functools.lru_cache(maxsize=4096)
def _defined(source: str | None) -> frozenset[str]:
    if not source:
        return frozenset()
    try:
        return frozenset(_top_level_names(_parse(source)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()


def entry_points(problem: Problem, test_code: str) -> tuple[str, ...]:
    """The names ``test_code`` takes from the program (see the module docstring)."""
    if problem.entry_points is not None:
        return tuple(sorted(set(problem.entry_points)))
    names = _code_names(test_code)
    if names is None:
        return ()
    loaded, bound = names
    free = loaded - bound - _defined(problem.setup_code)
    reference = _defined(problem.reference)
    # a module the test uses without importing it (``math.isclose``) is the judge's own,
    # never the program's: a ``class math`` in the program must not become the test's math
    return tuple(sorted((free - _BUILTINS - _MODULES) | (free & reference - _MODULES)))


def _literal(node: ast.expr) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _call_of(
    node: ast.expr, entry: frozenset[str]
) -> tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]] | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id not in entry:
        return None
    args: list[Any] = []
    for a in node.args:
        if isinstance(a, ast.Starred):
            return None
        ok, value = _literal(a)
        if not ok:
            return None
        args.append(value)
    kwargs: list[tuple[str, Any]] = []
    for k in node.keywords:
        if k.arg is None:
            return None
        ok, value = _literal(k.value)
        if not ok:
            return None
        kwargs.append((k.arg, value))
    return node.func.id, tuple(args), tuple(kwargs)


def _check_of(stmt: ast.stmt, entry: frozenset[str]) -> HostCheck | None:
    if not isinstance(stmt, ast.Assert):
        return None
    test = stmt.test
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    call = _call_of(inner, entry)
    if call is not None:
        return HostCheck(*call, op="falsy" if negated else "truthy")
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    op = _OPS.get(type(test.ops[0]))
    if op is None:
        return None
    left, right = test.left, test.comparators[0]
    for call_side, other in ((left, right), (right, left)):
        call = _call_of(call_side, entry)
        if call is None:
            continue
        ok, value = _literal(other)
        if not ok:
            return None
        if op in ("is", "is not") and value not in (None, True, False):
            return None
        return HostCheck(*call, op=op, literal=value)
    return None


@functools.lru_cache(maxsize=8192)
def _host_checks(code: str, entry: tuple[str, ...]) -> tuple[HostCheck, ...] | None:
    try:
        tree = _parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not tree.body:
        return None
    checks = []
    names = frozenset(entry)
    for stmt in tree.body:
        check = _check_of(stmt, names)
        if check is None:
            return None
        checks.append(check)
    return tuple(checks)


def _defines_classes(setup: str | None) -> bool:
    if not setup:
        return False
    try:
        tree = _parse(setup)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return any(isinstance(n, ast.ClassDef) for n in ast.walk(tree))


def call_payload(op: dict[str, Any], args: list[Any], kwargs: dict[str, Any]) -> str:
    """A request to the candidate with its arguments in the runner's codec."""
    item, nodes = Encoder().encode([list(args), dict(kwargs)])
    return json.dumps({**op, "a": item, "n": nodes}, separators=(",", ":"), allow_nan=False)


def plan_tests(problem: Problem, indices: list[int]) -> list[Plan]:
    """The plan of each chosen test, in order."""
    plans = []
    host_ok = not _defines_classes(problem.setup_code)
    for i in indices:
        test = problem.tests[i]
        if isinstance(test, StdioTest):
            plans.append(Plan("stdio", i))
        elif isinstance(test, CallTest):
            op = {"op": "calltest", "fn": test.fn_name, "cls": test.class_name, "plain": True}
            plans.append(Plan("call", i, calls=(call_payload(op, test.args, {}),)))
        else:
            assert isinstance(test, AssertTest)
            entry = entry_points(problem, test.code)
            checks = _host_checks(test.code, entry) if host_ok else None
            if checks is not None:
                try:
                    calls = tuple(_check_payload(c) for c in checks)
                except (ValueError, TypeError, OverflowError):
                    checks = None
                else:
                    plans.append(Plan("checked", i, checks=checks, entry=entry, calls=calls))
                    continue
            plans.append(Plan("judge", i, entry=entry))
    return plans


def _check_payload(check: HostCheck) -> str:
    op: dict[str, Any] = {"op": "call", "t": check.name, "plain": True}
    if check.op in ("truthy", "falsy"):
        op["truth"] = True
    return call_payload(op, list(check.args), dict(check.kwargs))
