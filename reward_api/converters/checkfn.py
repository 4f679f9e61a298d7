"""HumanEval-style ``def check(candidate): ...`` test code, split into one test per assert.

HumanEval, HumanEval+ (HF copy) and LeetCodeDataset grade with a ``check(candidate)``
function called on the entry point. Where its body is nothing but ``assert`` statements,
each becomes its own ``assert`` test with ``candidate`` replaced by the entry point, so
the problem's test count is honest (the 5-test rule) and the verifier can lift each
``assert <expr> == <expected>`` out of the sandbox. Anything else (loops, helpers,
random inputs) stays one test: ``<test>\\ncheck(<entry_point>)``.
"""

from __future__ import annotations

import ast

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
    if not body or not all(isinstance(n, ast.Assert) for n in body):
        return whole, ""
    setup_nodes = [n for n in module.body if n is not check]
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
        tests.append(AssertTest(code=ast.unparse(ast.fix_missing_locations(new))))
    if not tests:
        return whole, ""
    setup = "\n".join(ast.unparse(n) for n in setup_nodes)
    return tests, setup
