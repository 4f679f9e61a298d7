"""A JavaScript test's helper functions, which a program may call as in one module.

The contract's unit is the program, then the test, as one module: node hoists the test's
``function compare(a, b) { return _.isEqual(a, b) }`` into the scope the program shares,
and MBJSP/243's canonical solution sorts with it (``result.sort(compare)``). The verifier
runs the test as a function of its own, out of the program's reach, so such a helper is
made again beside the program (``compiled_eq.js_test_helpers``), only where it can hold
nothing of the test's: no literal, string, comment or regular expression in its body, no
name but its parameters, the builtins and the modules the test requires. A ``check`` that
names the test's values stays the test's own; a program's own ``compare`` is the
program's, and the test still compares with its own.
"""

from __future__ import annotations

import pytest

from reward_api.verify import compiled_eq
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots

MBJSP_TEST = """
const _ = require("lodash")

function compare(object1, object2){
    return _.isEqual(object1, object2)
}

var arg00 = [3, 1, 2];
var x0 = sortedCopy(arg00);
var v0 = [1, 2, 3];
if(!compare(x0, v0)){
    throw 'Error at 1th assert statement. Value = ' + JSON.stringify(x0)
}
"""
# calls the test's compare, as MBJSP/243's canonical solution does (``result.sort(compare)``)
CALLS_COMPARE = (
    "function sortedCopy(a) {\n  const out = [...a].sort((x, y) => x - y);\n"
    "  return compare(out, out) ? out : [];\n}\n"
)
# the test's ``check`` names its own values: never copied, so calling it is an error
CHECK_TEST = """
const assert = require('node:assert');
const expected = [1, 2, 3];
function check(candidate) {
    assert.deepStrictEqual(candidate([3, 1, 2]), expected);
}
check(sortedCopy);
"""
CALLS_CHECK = (
    "function sortedCopy(a) {\n  try { check((x) => x); } catch (e) { return e.expected || []; }\n"
    "  return [];\n}\n"
)
# the program's own compare, always true: the test compares with the test's
OWN_COMPARE = "function compare() { return true; }\nfunction sortedCopy(a) { return a; }\n"

BATCH = Batch(
    "languages-js-test-helpers",
    [
        control("calls-the-tests-compare",
                asserts(MBJSP_TEST, language="javascript", entry_points=["sortedCopy"]),
                CALLS_COMPARE),
        exploit("calls-the-tests-check",
                asserts(CHECK_TEST, language="javascript", entry_points=["sortedCopy"]),
                CALLS_CHECK),
        exploit("its-own-compare",
                asserts(MBJSP_TEST, language="javascript", entry_points=["sortedCopy"]),
                OWN_COMPARE),
    ],
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("javascript")


@pytest.mark.parametrize("name", BATCH.names)
def test_js_test_helpers(verifier, name):
    BATCH.check(verifier, name)


def test_which_helpers_are_made_again():
    helpers = compiled_eq.js_test_helpers(MBJSP_TEST, CALLS_COMPARE)
    assert helpers.startswith('const _ = require("lodash")\nfunction compare(object1, object2)')
    # the program's own ``_`` serves; its own ``compare`` is its own
    with_lodash = compiled_eq.js_test_helpers(MBJSP_TEST, "const _ = require('lodash');\n")
    assert with_lodash.startswith("function compare(")
    assert compiled_eq.js_test_helpers(MBJSP_TEST, OWN_COMPARE) == ""
    assert compiled_eq.js_test_helpers(CHECK_TEST, "") == ""
    for body in ["return a === 3;", "return a === 'x';", "return v0;", "return a; // x",
                 "return /a/.test(a);", "return `${a}`;"]:  # fmt: skip
        assert compiled_eq.js_test_helpers(f"function h(a) {{ {body} }}\n", "") == "", body
    kept = "function same(a, b) { return JSON.stringify(a) === JSON.stringify(b) }"
    assert compiled_eq.js_test_helpers(kept + "\n", "") == kept + "\n"
