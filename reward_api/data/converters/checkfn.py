"""HumanEval-style ``def check(candidate): ...`` test code, split into one test per assert.

HumanEval, HumanEval+ (HF copy) and LeetCodeDataset grade with a ``check(candidate)``
function called on the entry point. Where its body is nothing but ``assert`` statements,
each becomes its own ``assert`` test with ``candidate`` replaced by the entry point, so
the problem's test count is honest (the 5-test rule) and the host can check each
``assert f(<literals>) == <literal>`` itself (reward_api.verify.plans). Anything else (loops, helpers,
random inputs) stays one test: ``<test>\\ncheck(<entry_point>)``.

``truthiness_as_bool`` rewrites ``assert f(x)`` as ``assert bool(f(x))`` for every family
of assert tests.
"""

from __future__ import annotations

import ast
import builtins

from reward_api.schemas import AssertTest


class _Substitute(ast.NodeTransformer):
    def __init__(self, name: str, replacement: ast.expr) -> None:
        self.name = name
        self.replacement = replacement

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return ast.copy_location(self.replacement, node)
        return node


def _is_trivial(node: ast.Assert) -> bool:
    # HumanEval's `assert True, "This prints if this assert fails ..."` tests nothing.
    return isinstance(node.test, ast.Constant) and bool(node.test.value)


def split_check(test: str, entry_point: str) -> tuple[list[AssertTest], str]:
    """Tests and the setup code (the test module's imports and constants) for ``check``.

    Returns one test per assert when the check body is only asserts, else one test that
    runs the whole check; the setup code is what the test module defines besides ``check``.
    """
    whole = [AssertTest(code=f"{test.rstrip()}\ncheck({entry_point})\n")]
    try:
        module = ast.parse(test)
        replacement = ast.parse(entry_point, mode="eval").body
    except SyntaxError:
        return whole, ""
    checks = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check"]
    if len(checks) != 1 or len(checks[0].args.args) != 1:
        return whole, ""
    check = checks[0]
    param = check.args.args[0].arg
    body = list(check.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    # Imports at the top of the body (`import math`) move to the setup code.
    imports: list[ast.stmt] = []
    while body and isinstance(body[0], (ast.Import, ast.ImportFrom)):
        imports.append(body.pop(0))
    if not body or not all(isinstance(n, ast.Assert) for n in body):
        return whole, ""
    setup_nodes = [n for n in module.body if n is not check] + imports
    # Setup may only hold imports, constants and helper definitions, never calls to check.
    allowed = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.ClassDef)
    if not all(isinstance(n, allowed) for n in setup_nodes):
        return whole, ""
    tests: list[AssertTest] = []
    for node in body:
        assert isinstance(node, ast.Assert)
        if _is_trivial(node):
            continue
        new = _Substitute(param, replacement).visit(ast.Assert(test=node.test, msg=None))
        code = ast.unparse(ast.fix_missing_locations(new))
        tests.append(AssertTest(code=truthiness_as_bool(code)))
    if not tests:
        return whole, ""
    setup = "\n".join(ast.unparse(n) for n in setup_nodes)
    return tests, setup


def _call_like(node: ast.expr) -> bool:
    # Only a direct call of a non-builtin name (the program's function): wrapping a trusted
    # helper such as math.isclose(...) would move the comparison into the sandbox.
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and not hasattr(builtins, node.func.id)
    )


def _is_bool_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool"


def truthiness_as_bool(code: str) -> str:
    """``assert f(x)`` as ``assert bool(f(x))`` (and ``assert not f(x)`` likewise).

    The same test in Python, but the value that leaves the sandbox is a plain bool rather
    than whatever truthy object the program returned (a ``re.Match``, a list), which the
    verifier's encoder may refuse. Code that needs no change is returned as it was.
    """
    try:
        module = ast.parse(code)
    except SyntaxError:
        return code
    changed = False
    for node in module.body:
        if not isinstance(node, ast.Assert):
            continue
        test = node.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            if _call_like(test.operand) and not _is_bool_call(test.operand):
                test.operand = ast.Call(ast.Name("bool", ast.Load()), [test.operand], [])
                changed = True
        elif _call_like(test) and not _is_bool_call(test):
            node.test = ast.Call(ast.Name("bool", ast.Load()), [test], [])
            changed = True
    if not changed:
        return code
    return ast.unparse(ast.fix_missing_locations(module))
