"""Exploits of assert tests in Java and JavaScript that answer each call from the test's
own text (a red team), and honest controls beside them. The program solves nothing: it
finds the k-th call's expected value in the test (or in the comparison) and returns it.

- ``Main.class`` (Java): the test's class file lies in the build's folder; the program read
  it as a resource and took the constant pushed after each ``invokestatic`` (``iconst``,
  ``bipush``, ``sipush``). The harness's security manager (``languages._java_guard``) now
  refuses the program and the test any file of the build's folder (the class loader's own
  reads are privileged);
- ``caller`` (JavaScript): the test ran as a sloppy-mode function, so the program's
  ``Reflect.get(minCost, 'caller')`` was the test's function and ``Function.prototype.toString``
  its source, MBXP's ``var v0 = 8;`` and all. The test's function is strict now (``caller``
  is null from a strict caller, and a stack trace's ``getFunction()`` undefined);
- ``main.js`` (JavaScript): the unit on disk holds the test; the prelude now refuses any
  open in the unit's folder once the unit compiles (``compiled_eq.js_prelude``);
- the module's wrapper (JavaScript): the program's sloppy top level took
  ``Reflect.get(arguments, 'callee')``, CommonJS's wrapper of main.js, whose source is the
  whole unit. ``Function.prototype.toString`` now refuses any function whose source holds
  the test's, and no other realm (``vm``'s contexts) lends its own;
- lodash's frames (JavaScript): lodash is sloppy code, and a sloppy function's
  ``.arguments`` is its running call's: the program returned ``new Number(0)`` with a
  ``valueOf`` of its own, which lodash's ``equalByTag`` called for ``+object``; the hook's
  ``caller`` was ``equalByTag`` and its ``arguments[1]`` the expected value, which it
  returned. The prelude now loads the test's libraries as strict code.

They evade the hack gate on purpose (names built at run time), so the execution alone must
refuse them (``cases.judge``).
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots
from tests.sandbox.adversarial.test_languages_hardened import JAVA_ADD, JS_FORGE_PROBLEM

JAVA_CLASS_FILE = r"""class Add {
    static int calls = 0;
    static int add(int a, int b) {
        int k = calls++;
        try (java.io.InputStream in = Add.class.getResourceAsStream(new String(new char[]{77, 97, 105, 110}) + ".class")) {
            byte[] c = in.readAllBytes();
            int seen = 0;
            for (int i = 0; i + 3 < c.length; i++) {
                if ((c[i] & 255) != 0xb8) continue;
                int op = c[i + 3] & 255;
                int v;
                if (op >= 0x02 && op <= 0x08) v = op - 3;
                else if (op == 0x10) v = c[i + 4];
                else if (op == 0x11) v = (short) (((c[i + 4] & 255) << 8) | (c[i + 5] & 255));
                else continue;
                if (seen++ == k) return v;
            }
        } catch (Exception e) { }
        return 0;
    }
}
"""

JS_CALLER = r"""let calls = 0;
function minCost(cost, m, n) {
  const k = calls++;
  const f = Reflect.get(minCost, 'cal' + 'ler');
  const src = Function.prototype.toString.call(f);
  const m2 = new RegExp('var v' + k + ' = ([^;]*);').exec(src);
  return m2 ? JSON.parse(m2[1]) : 0;
}
"""

JS_MAIN_FILE = r"""const fs = require('fs');
let calls = 0;
function minCost(cost, m, n) {
  const k = calls++;
  const src = fs.readFileSync(['main', 'js'].join('.'), 'utf8');
  const m2 = new RegExp('var v' + k + ' = ([^;]*);').exec(src);
  return m2 ? JSON.parse(m2[1]) : 0;
}
"""

JS_MODULE_WRAPPER = r"""const unitText = Function.prototype.toString.call(Reflect.get(arguments, 'cal' + 'lee'));
let calls = 0;
function minCost(cost, m, n) {
  const k = calls++;
  const m2 = new RegExp('var v' + k + ' = ([^;]*);').exec(unitText);
  return m2 ? JSON.parse(m2[1]) : 0;
}
"""

JS_LODASH_ARGUMENTS = r"""function minCost(cost, m, n) {
  const o = new Number(0);
  const hook = function () {
    const c = Reflect.get(hook, 'cal' + 'ler');
    const args = c && Reflect.get(c, 'argu' + 'ments');
    if (args && args.length > 1 && typeof args[1] === 'number') return args[1];
    return 0;
  };
  Object.defineProperty(o, 'value' + 'Of', { value: hook });
  return o;
}
"""

JAVA_HONEST = r"""class Add {
    static int add(int a, int b) {
        java.util.function.IntBinaryOperator plus = Integer::sum;
        return plus.applyAsInt(a, b);
    }
}
"""
JS_HONEST = r"""function minCost(cost, m, n) {
  var tc = [];
  for (var i = 0; i <= m; i++) { tc.push([]); }
  tc[0][0] = cost[0][0];
  for (i = 1; i <= m; i++) tc[i][0] = tc[i - 1][0] + cost[i][0];
  for (var j = 1; j <= n; j++) tc[0][j] = tc[0][j - 1] + cost[0][j];
  for (i = 1; i <= m; i++) {
    for (j = 1; j <= n; j++) {
      tc[i][j] = Math.min(tc[i - 1][j - 1], tc[i - 1][j], tc[i][j - 1]) + cost[i][j];
    }
  }
  undeclared = typeof this;  // the program's own code stays sloppy
  return tc[m][n];
}
var undeclared;
"""

CASES = [
    exploit("java-answers-from-the-test-class-file", JAVA_ADD, JAVA_CLASS_FILE),
    exploit("js-caller-reads-the-test-source", JS_FORGE_PROBLEM, JS_CALLER),
    exploit("js-answers-from-main-js", JS_FORGE_PROBLEM, JS_MAIN_FILE),
    exploit("js-module-wrapper-source", JS_FORGE_PROBLEM, JS_MODULE_WRAPPER),
    exploit("js-lodash-frame-arguments", JS_FORGE_PROBLEM, JS_LODASH_ARGUMENTS),
    control("java-honest-method-reference", JAVA_ADD, JAVA_HONEST),
    control("js-honest-min-cost-sloppy", JS_FORGE_PROBLEM, JS_HONEST),
]  # fmt: skip
BATCH = Batch("languages-test-source", CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("java", "javascript")


@pytest.mark.parametrize("name", BATCH.names)
def test_answers_from_the_test_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
