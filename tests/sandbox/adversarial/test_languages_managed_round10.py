"""Exploits of JavaScript and TypeScript assert tests found by a tenth red team, each with an
honest control beside it.

Fixed (``compiled_eq.js_prelude``): ``Object.setPrototypeOf``, ``Reflect.setPrototypeOf``
and the ``__proto__`` setter refuse a builtin's prototype (or constructor) as their target.

Found and left as they are (no case here; the closing note and ``js_prelude``'s docstring
say so): HumanEval-X's helpers are the program's (below: plain execution pays the same,
a dataset's weakness a converter would close by giving the test its own copy), and an
unconditional polyfill over an existing builtin method throws (below: a deliberate
refusal).

- **``Array.prototype``'s own prototype, through ``Error.prototype``**: round 8's
  ``Error[Symbol.hasInstance]`` is fixed, but ``instanceof`` without a hook walks the
  prototype chain, and the prelude fixes the *properties* of the builtin prototypes, never
  their ``[[Prototype]]``: ``Array.prototype`` stays extensible with a mutable prototype.
  The program puts an object of its own, made on ``Error.prototype``, between
  ``Array.prototype`` and ``Object.prototype`` (``Reflect.setPrototypeOf``; the hack gate
  reads only ``Object.setPrototypeOf``), with a ``message`` getter. node 18's loose
  ``innerDeepEqual`` (``internal/util/comparisons``) takes the program's answer (an instance
  of its own class, whose ``Symbol.toStringTag`` says ``Array``, so the tags match; the
  "Answers" copy hands class instances over as they are) down the ``val1 instanceof Error``
  branch, where ``val2 instanceof Error`` of the *expected* array is now true, and
  ``val2.message`` runs the getter with the expected array as ``this``: it copies the
  elements into the answer (``Object.assign``) before ``keyCheck`` compares their keys and
  values. ``assert.deepEqual`` of any array expected holds: MultiPL-E's JavaScript test and
  MBTSP's TypeScript one (``deepStrictEqual`` is safe: it compares prototypes first). Plain
  node passes the same unit (the hook lies there too); without the hook it fails.
- **HumanEval-X's helpers are the program's**: JavaScript/32 checks ``findZero`` with
  ``Math.abs(poly(coeffs, solution)) < 1e-4`` and JavaScript/38 (so /50) checks
  ``decodeCyclic(encodeCyclic(str)) === str``; ``poly`` and ``encodeCyclic`` are in the
  prompt, so in the program, and the problem has no ``setup_code`` holding the trusted
  copy (``reward_api.data.converters.humaneval_x``). A program that declares ``poly`` as
  ``() => 0`` (any ``findZero``) or both functions as the identity is paid 1.0.

Honest, refused: an unconditional polyfill over a method the builtin already has
(``Array.prototype.includes = function (x) {...}``, ``Array.prototype.flat = ...``, or the
same with ``Object.defineProperty``) throws ``Cannot assign to read only property`` (the
prelude's ``fixed`` setter, ``compiled_eq.js_prelude``) at load; plain node runs it and
passes. ``js_prelude``'s docstring states this refusal ("another throws"); it is a case here
because the brief counts every honest program refused. Checked and passing under the
prelude as under plain node: new methods on builtin prototypes (``String.prototype.capitalize``,
``Array.prototype.sum``, ``Object.prototype.size``, ``Number.prototype.times``,
``Set.prototype.union``, ``Math.sum``), ``Object.defineProperty(Array.prototype, 'last',
{get})``, ``Error.prototype.toString`` assigned, conditional polyfills, subclasses of
``Array`` and ``Error``, the program's own ``Symbol.iterator`` and generators,
``structuredClone``, typed arrays, ``Buffer``, the program's own ``require('lodash')``.
"""

from __future__ import annotations

from typing import Any

import pytest

from reward_api import Problem
from reward_api.data.converters.humaneval_x import humaneval_x_problem
from reward_api.data.converters.mbxp import mbxp_sample
from reward_api.data.converters.multipl_e import multipl_e_sample
from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots
from tests.sandbox.adversarial.test_languages_managed_round8 import (
    JS_UNIQUE_HONEST,
    SORT_MATRIX,
    TS_SORT_MATRIX_HONEST,
    UNIQUE,
)


def _problem(p: Problem) -> dict[str, Any]:
    return p.model_dump(exclude={"id"}, exclude_none=True)


_BETWEEN = (
    "class Answer { get [Symbol.toStringTag]() { return 'Array'; } }\n"
    "let mine: any = null;\n"
    "const Between = Object.create(Error.prototype, { message: { configurable: true, get(this: any) {\n"
    "  if (mine !== null && Array.isArray(this)) { Object.assign(mine, this); mine = null; }\n"
    "  return undefined;\n"
    "} } });\n"
    "Reflect.setPrototypeOf(Answer.prototype, Between);\n"
    "Reflect.setPrototypeOf(Array.prototype, Between);\n"
)
JS_ARRAY_PROTO_CHAIN = multipl_e_sample(UNIQUE, "  mine = new Answer();\n  return mine;").code + (
    _BETWEEN.replace("this: any", "").replace(": any", "")
)
TS_ARRAY_PROTO_CHAIN = mbxp_sample(
    SORT_MATRIX, "    mine = new Answer();\n    return mine;\n};\n" + _BETWEEN
).code

# HumanEval-X JavaScript/32 and /38, as CodeGeeX's records hold them
_HX_32 = {
    "task_id": "JavaScript/32",
    "prompt": "/*\n  Evaluates polynomial with coefficients xs at point x.\n  return xs[0] + xs[1] * x + xs[1] * x^2 + .... xs[n] * x^n\n  */\nconst poly = (xs, x) => {\n  return xs.reduce((prev, item, index) => {\n    return prev + item * Math.pow(x, index);\n  }, 0);\n}\n\n/*\n  xs are coefficients of a polynomial.\n  findZero find x such that poly(x) = 0.\n  findZero returns only only zero point, even if there are many.\n  Moreover, findZero only takes list xs having even number of coefficients\n  and largest non zero coefficient as it guarantees\n  a solution.\n  >>> round(findZero([1, 2]), 2) # f(x) = 1 + 2x\n  -0.5\n  >>> round(findZero([-6, 11, -6, 1]), 2) # (x - 1) * (x - 2) * (x - 3) = -6 + 11x - 6x^2 + x^3\n  1.0\n  */\nconst findZero = (xs) => {\n",
    "declaration": "\nconst poly = (xs, x) => {\n  return xs.reduce((prev, item, index) => {\n    return prev + item * Math.pow(x, index);\n  }, 0);\n}\n\nconst findZero = (xs) => {\n",
    "canonical_solution": "  var begin = -1.0, end = 1.0;\n  while (poly(xs, begin) * poly(xs, end) > 0) {\n    begin *= 2.0;\n    end *= 2.0;\n  }\n  while (end - begin > 1e-10) {\n    let center = (begin + end) / 2.0;\n    if (poly(xs, center) * poly(xs, begin) > 0)\n      begin = center;\n    else\n      end = center;\n  }\n  return begin;\n}\n\n",
    "test": "const testfindZero = () => {\n  const getRandomIntInclusive = (min = 0, max = 9) => {\n    min = Math.ceil(min)\n    max = Math.floor(max)\n    return Math.floor(Math.random() * (max - min + 1)) + min\n  }\n\n  for (let i = 0; i < 100; i++) {\n    let ncoeff = 2 * getRandomIntInclusive(1, 4);\n    let coeffs = [];\n    for (let j = 0; j < ncoeff; j++) {\n      let coeff = getRandomIntInclusive(-10, 10);\n      if (coeff === 0)\n        coeff = 1;\n      coeffs.push(coeff);\n    }\n    let solution = findZero(coeffs);\n    console.assert(Math.abs(poly(coeffs, solution)) < 1e-4);\n  }\n}\ntestfindZero()\n",
    "example_test": "",
}
_HX_38 = {
    "task_id": "JavaScript/38",
    "prompt": "/*\n  returns encoded string by cycling groups of three characters.\n  */\nconst encodeCyclic = (s) => {\n  var groups = [], groups2 = [];\n  for (let i = 0; i < Math.floor((s.length + 2) / 3); i++) {\n    groups.push(s.slice(3 * i, Math.min((3 * i + 3), s.length)));\n  }\n  for (const group of groups) {\n    if (group.length == 3)\n      groups2.push(group.slice(1) + group[0]);\n    else\n      groups2.push(group);\n  }\n  return groups2.join('');\n}\n\n/*\n  takes as input string encoded with encode_cyclic function. Returns decoded string.\n  */\nconst decodeCyclic = (s) => {\n",
    "declaration": "const encodeCyclic = (s) => {\n  var groups = [], groups2 = [];\n  for (let i = 0; i < Math.floor((s.length + 2) / 3); i++) {\n    groups.push(s.slice(3 * i, Math.min((3 * i + 3), s.length)));\n  }\n  for (const group of groups) {\n    if (group.length == 3)\n      groups2.push(group.slice(1) + group[0]);\n    else\n      groups2.push(group);\n  }\n  return groups2.join('');\n}\n\nconst decodeCyclic = (s) => {\n",
    "canonical_solution": "  return encodeCyclic(encodeCyclic(s));\n}\n\n",
    "test": "const testDecodeCyclic = () => {\n  const letters = new Array(26)\n    .fill(null)\n    .map((v, i) => String.fromCharCode(97 + i));\n\n  for (let i = 0; i < 100; i++) {\n    let str = new Array(Math.floor(Math.random() * 20)).fill(null);\n    str = str.map(item => letters[Math.floor(Math.random() * letters.length)]).join('');\n    let encoded_str = encodeCyclic(str);\n    console.assert(decodeCyclic(encoded_str) === str);\n  }\n}\n\ntestDecodeCyclic()\n",
    "example_test": "",
}
FIND_ZERO = humaneval_x_problem(_HX_32)
DECODE_CYCLIC = humaneval_x_problem(_HX_38)


CASES = [
    exploit("js-array-prototype-chain-through-error", _problem(UNIQUE), JS_ARRAY_PROTO_CHAIN),
    control("js-honest-unique", _problem(UNIQUE), JS_UNIQUE_HONEST),
    exploit("ts-array-prototype-chain-through-error", _problem(SORT_MATRIX), TS_ARRAY_PROTO_CHAIN),
    control("ts-honest-sort-matrix", _problem(SORT_MATRIX), TS_SORT_MATRIX_HONEST),
    control("hx-js-honest-find-zero", _problem(FIND_ZERO), FIND_ZERO.reference or ""),
    control("hx-js-honest-decode-cyclic", _problem(DECODE_CYCLIC), DECODE_CYCLIC.reference or ""),
]  # fmt: skip
BATCH = Batch("languages-managed-round10", CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("javascript", "typescript")


@pytest.mark.parametrize("name", BATCH.names)
def test_round10_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
