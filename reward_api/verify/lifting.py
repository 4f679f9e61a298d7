"""Lifting ``assert`` tests so that expected values never enter the sandbox.

An assert test such as ``assert similar_elements((3, 4), (4, 5)) == (4,)`` mixes the
candidate's work (the call) with the expected value (``(4,)``). Run as written, the program
could read the expected value from its caller's frame, or return an object whose ``__eq__``
always says yes. So each ``assert`` is split:

- the *lift points* — the smallest sub-expressions that involve names the program defines
  (``similar_elements(...)``, ``candidate(...)``, a test variable the program mutated) —
  are evaluated in the sandbox by ``__cr_lift__(slot, (p1, p2, ...))``, whose values are
  encoded by the runner's trusted encoder (plain data, or objects of the problem's own setup
  classes such as ``ListNode``; home-made types are refused);
- the rest of the assertion (the comparison, the expected value, helper calls such as
  ``math.isclose`` or ``is_same_list``) is evaluated outside: on the host when it is a
  plain ``==``/``!=``/``is`` against a literal, else by the *judge*, a cell that never runs
  candidate code, over the decoded values.

Trusted names are builtins, names the problem's ``setup_code`` defines, names the test
imports, and test-level helper functions that use only trusted names. Everything else is the
program's. A conversion such as ``list(f(x))`` or ``sorted(f(x))`` is lifted whole, so
generators and other honest iterables still compare as they would unsandboxed.

Under ``and``/``or``/``if-else`` every operand's lift points are computed eagerly, each
behind ``__cr_try__`` so that an exception becomes a value that raises only if the judge's
short-circuit evaluation reaches it. Not liftable (run as written inside the sandbox, where
completion is the pass signal): lift points inside lambdas and comprehensions.
"""

from __future__ import annotations

import ast
import builtins
import copy
import threading
from dataclasses import dataclass, field
from typing import Any

LIFT_FN = "__cr_lift__"
TRY_FN = "__cr_try__"
_NO_ARGS = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
VALUES = "__cr_v"

_CONVERTERS = frozenset(
    {
        "list", "tuple", "set", "frozenset", "sorted", "dict", "str", "len", "sum", "min", "max",
        "any", "all", "abs", "round", "int", "float", "bool", "repr", "type", "complex", "bytes",
    }
)  # fmt: skip
_MISSING = object()


# CPython 3.11's AST constructor keeps a recursion-depth counter that concurrent parses can
# corrupt ("SystemError: AST constructor recursion depth mismatch"); host-side parsing and
# compiling of programs and tests goes through this lock.
PARSE_LOCK = threading.Lock()


def parse(source: str) -> ast.Module:
    """``ast.parse`` under PARSE_LOCK."""
    with PARSE_LOCK:
        return ast.parse(source)


class NotLiftable(Exception):
    """The assertion's shape cannot be split safely."""


@dataclass(frozen=True)
class Check:
    """One assert statement, split."""

    slot: int
    expr: str
    """The assertion over ``__cr_v[i]`` (judge form)."""
    n_values: int
    required: bool
    """Every honest run executes it at least once (not under if/try/while or an uncalled def)."""
    op: str | None = None
    """Fast path: '==', '!=', 'is', 'is not' against ``literal``, the only lift point on one side."""
    literal: Any = None
    has_literal: bool = False


@dataclass(frozen=True)
class LiftedTest:
    sandbox_code: str
    prelude: str
    """Trusted statements the judge runs after the setup code: the test's imports and helpers."""
    checks: list[Check] = field(default_factory=list)


def _bound_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        names.add(n.id)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _assigned_names(tree: ast.Module) -> set[str]:
    """Names stored anywhere in the test outside function parameters."""
    return {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
    }


def _free_names(node: ast.AST) -> set[str]:
    loaded: set[str] = set()
    stored: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            (loaded if isinstance(n.ctx, ast.Load) else stored).add(n.id)
        elif isinstance(n, ast.arg):
            stored.add(n.arg)
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stored.add(n.name)
    return loaded - stored


class _Splitter:
    def __init__(self, trusted: set[str]) -> None:
        self.trusted = trusted
        self.guarded: set[int] = set()
        """ids of points under and/or/if-else: evaluated eagerly, their errors deferred."""

    def is_trusted(self, node: ast.AST) -> bool:
        for n in ast.walk(node):
            if isinstance(n, ast.Await | ast.Yield | ast.YieldFrom | ast.NamedExpr):
                return False
        return _free_names(node) <= self.trusted

    def points(self, node: ast.expr) -> list[ast.expr]:
        if self.is_trusted(node):
            return []
        if isinstance(node, ast.Call):
            if not self.is_trusted(node.func):
                return [node]
            args = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
            args += [k.value for k in node.keywords]
            if (
                isinstance(node.func, ast.Name)
                and node.func.id in _CONVERTERS
                and len(args) == 1
                and self.points(args[0]) == [args[0]]
            ):
                return [node]
            return [p for a in args for p in self.points(a)]
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            return [node]
        if isinstance(node, ast.Starred):
            return self.points(node.value)
        if isinstance(node, ast.BoolOp | ast.IfExp):
            # short-circuit: every operand's points are computed, each behind a guard that
            # turns its exception into a value that raises only if the judge touches it
            found = [
                p
                for c in ast.iter_child_nodes(node)
                if isinstance(c, ast.expr)
                for p in self.points(c)
            ]
            self.guarded.update(id(p) for p in found)
            return found
        if isinstance(
            node,
            ast.Compare
            | ast.BinOp
            | ast.UnaryOp
            | ast.Tuple
            | ast.List
            | ast.Set
            | ast.Dict
            | ast.JoinedStr
            | ast.FormattedValue,
        ):
            return [
                p
                for c in ast.iter_child_nodes(node)
                if isinstance(c, ast.expr)
                for p in self.points(c)
            ]
        raise NotLiftable(type(node).__name__)


class _Replace(ast.NodeTransformer):
    def __init__(self, points: list[ast.expr]) -> None:
        self.index = {id(p): i for i, p in enumerate(points)}

    def visit(self, node: ast.AST) -> ast.AST:
        i = self.index.get(id(node))
        if i is not None:
            return ast.Subscript(
                value=ast.Name(id=VALUES, ctx=ast.Load()), slice=ast.Constant(i), ctx=ast.Load()
            )
        return super().visit(node)


_FAST_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not"}


def _fast_path(test: ast.expr, points: list[ast.expr]) -> tuple[str, Any] | None:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and len(points) == 1):
        return None
    op = _FAST_OPS.get(type(test.ops[0]))
    if op is None:
        return None
    left, right = test.left, test.comparators[0]
    other = right if points[0] is left else left if points[0] is right else None
    if other is None:
        return None
    try:
        value = ast.literal_eval(other)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if op in ("is", "is not") and value not in (None, True, False):
        return None
    return op, value


def _called_names(tree: ast.Module) -> set[str]:
    return {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }


def program_shadows(program: str) -> frozenset[str]:
    """Builtin names the program rebinds at top level (``def sum(a, b)`` in MBPP, say)."""
    try:
        tree = parse(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return frozenset(_bound_names(tree) & set(dir(builtins)))


def lift(
    test_code: str, setup_code: str | None = None, shadowed: frozenset[str] = frozenset()
) -> LiftedTest:
    """Split every assert of ``test_code``; raise NotLiftable or SyntaxError when it can't be.

    ``shadowed``: builtin names the program rebinds; they are the program's, not trusted.
    Names the setup code defines stay trusted even if the program redefines them: the judge
    uses the setup's own ``is_same_list``, never the program's.
    """
    tree = parse(test_code)
    setup_names = _bound_names(parse(setup_code)) if setup_code else set()
    trusted = (set(dir(builtins)) - set(shadowed)) | setup_names
    prelude: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            prelude.append(node)
            trusted |= _bound_names(ast.Module(body=[node], type_ignores=[]))
    for node in tree.body:  # helpers: defs without asserts that use only trusted names
        if (
            isinstance(node, ast.FunctionDef | ast.ClassDef)
            and not any(isinstance(n, ast.Assert) for n in ast.walk(node))
            and _free_names(node) <= trusted | {node.name}
        ):
            prelude.append(node)
            trusted.add(node.name)
    # names the test itself assigns hold the program's values, whatever they shadow
    trusted -= _assigned_names(tree)
    splitter = _Splitter(trusted)
    called = _called_names(tree)
    checks: list[Check] = []

    def rewrite(stmts: list[ast.stmt], required: bool) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, ast.Assert):
                points = splitter.points(stmt.test)
                slot = len(checks)
                memo: dict[int, Any] = {}
                test_copy = copy.deepcopy(stmt.test, memo)
                judge_expr = _Replace([memo[id(p)] for p in points]).visit(test_copy)
                fast = _fast_path(stmt.test, points)
                checks.append(
                    Check(
                        slot=slot,
                        expr=ast.unparse(judge_expr),
                        n_values=len(points),
                        required=required,
                        op=fast[0] if fast else None,
                        literal=fast[1] if fast else None,
                        has_literal=fast is not None,
                    )
                )
                truth = stmt.test
                if isinstance(truth, ast.UnaryOp) and isinstance(truth.op, ast.Not):
                    truth = truth.operand
                if points == [truth]:  # a bare truth test: only the truth value leaves
                    points = [
                        ast.Call(
                            func=ast.Name(id="bool", ctx=ast.Load()), args=[truth], keywords=[]
                        )
                    ]
                points = [
                    ast.Call(
                        func=ast.Name(id=TRY_FN, ctx=ast.Load()),
                        args=[ast.Lambda(args=_NO_ARGS, body=p)],
                        keywords=[],
                    )
                    if id(p) in splitter.guarded
                    else p
                    for p in points
                ]
                call = ast.Call(
                    func=ast.Name(id=LIFT_FN, ctx=ast.Load()),
                    args=[ast.Constant(slot), ast.Tuple(elts=list(points), ctx=ast.Load())],
                    keywords=[],
                )
                out.append(ast.copy_location(ast.Expr(value=call), stmt))
                continue
            if isinstance(stmt, ast.If | ast.Try | ast.While | ast.Match | ast.TryStar):
                sub_required = False
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                sub_required = required and stmt.name in called
            else:
                sub_required = required
            for name in ("body", "orelse", "finalbody"):
                block = getattr(stmt, name, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    keep = sub_required and name == "body"
                    setattr(stmt, name, rewrite(block, keep))
            for handler in getattr(stmt, "handlers", []) or []:
                handler.body = rewrite(handler.body, False)
            for case in getattr(stmt, "cases", []) or []:
                case.body = rewrite(case.body, False)
            out.append(stmt)
        return out

    tree.body = rewrite(tree.body, True)
    ast.fix_missing_locations(tree)
    prelude_mod = ast.Module(body=prelude, type_ignores=[])
    return LiftedTest(
        sandbox_code=ast.unparse(tree),
        prelude=ast.unparse(prelude_mod) if prelude else "",
        checks=checks,
    )
