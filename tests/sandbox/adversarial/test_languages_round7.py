"""Red team round seven on the changes of one day: C/C++ assert builds compiled in a
compile cell with their checks beside the compile, JavaScript's builtin methods made
accessors, and build folders closed but while their own test runs. No case here was paid;
each is kept so that what stops it keeps stopping it.

- **the check's text was not the compiler's** (``languages._c_assert_build``): the unit
  was preprocessed twice, once for the text check (``_C_TEXT_AWK``, in the background) and
  once by the compiler itself, and the preprocessor sees the file system. The check's own
  output ``main.ii`` existed while it was written and was removed once read, so a program
  whose few ``constexpr`` loops held the compiler's preprocessor back wrote ``#if
  !__has_include("main.ii")`` around an ``__assert_fail`` overload, an asm label on
  ``main``, ``#pragma redefine_extname`` or a specialisation of ``std::vector<int>::size``:
  the check read none of it, the compiler compiled all of it (a probe's ``#error`` showed
  which text was compiled; ``__has_include`` can be pasted by ``##`` or named by a macro, so
  no word scan stops it). The payloads tried were stopped by the harness and the lifted
  comparisons (the test aborted): none was paid, but the check they escaped was the only
  one for some classes. Now the unit is preprocessed once and the compiler compiles that
  text (``-x cpp-output``), which the check reads beside it; C++ keeps its precompiled
  header (``-fpch-preprocess``) and preprocesses again without it when a line of the
  program comes before the header's pragma (a ``#pragma GCC target`` first);
- **a builtin's setter on another receiver** (``compiled_eq.js_prelude``'s ``fixed``): the
  setters of ``Object.prototype``'s hooks and of ``Array.prototype[Symbol.iterator]``,
  taken with ``Object.getOwnPropertyDescriptor`` and called on ``Array.prototype``, make
  only what ``Object.defineProperty`` could (an own property of an extensible receiver, or
  a ``TypeError`` on a builtin's fixed one): the test's comparisons read the originals.

The preprocessed unit now lives until the build ends (the compiler reads it): a program
that answers only where ``main.i`` or ``main.ii`` is found is not paid (the build's
``remove`` takes it before any test runs).

A JavaScript test that calls a method of the program's answer (``got.every((v, i) => v
=== exp[i])``, ``got.join(',')``) ran the program's method: an own ``every``
(``Object.defineProperty``, paid before today too; since the builtins' methods became
accessors, a plain ``r.every = () => true`` as well, which threw or did nothing before),
or a subclass of ``Array`` whose ``every`` holds (``OWN_METHODS``, paid 1.0 by the
execution; the hack gate's ``js-own-array-method`` zeroed them). Now the execution refuses
them: the program's functions the test calls reach it as wrappers whose results are
copies of plain data (``compiled_eq.js_prelude``'s "Answers"; more variants in
test_languages_js_copies.py), so the test never calls the program's ``every`` or ``join``.

Open: the compile-time oracle itself (``__has_include`` of any path, ``/proc/self/fd/N``)
still answers the program, it just no longer tells the check and the compiler apart.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

C_TEST = (
    "int main() {\n    assert(add(2, 3) == 5);\n    assert(add(-1, 1) == 0);\n    return 0;\n}\n"
)
C = {"language": "c", "tests": [{"type": "assert", "code": C_TEST}]}
CPP = {"language": "cpp", "tests": [{"type": "assert", "code": C_TEST}]}
# MultiPL-E's shape with an argument the test builds itself: it stays beside the program
ISSAME = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": "#undef NDEBUG\n#include<assert.h>\nbool issame(vector<int> a,vector<int>b){\n"
            "    if (a.size()!=b.size()) return false;\n    for (int i=0;i<a.size();i++)\n    {\n"
            "    if (a[i]!=b[i]) return false;\n    }\n    return true;\n}\nint main(){\n"
            "    vector<int> v = {2, 4, 3, 0, 1, 5};\n"
            "    assert (issame(sort_array(v) , {0, 1, 2, 3, 4, 5}));\n}\n",
        }
    ],
}
HEAD = "#include <bits/stdc++.h>\nusing namespace std;\n"
HEAD_X = "#include<stdio.h>\n#include<math.h>\n#include<vector>\n#include<algorithm>\nusing namespace std;\n"
# an __int128 answer is outside the lifted recorder's alphabet: the test runs beside it
BAD_128 = HEAD + "__int128 add(int a, int b) { return 0; }\n"
# about 2 s of constant evaluation before the compiler's preprocessor reaches what follows
SLOW = "".join(
    f"constexpr long cr_spin{k}() {{ long s = 0; for (long i = 0; i < 100000; i++) s += i ^ 7; "
    f'return s; }}\nstatic_assert(cr_spin{k}() != 1, "");\n'
    for k in range(15)
)


def unseen(payload: str, name: str = "main.ii") -> str:
    """``payload`` where the check's preprocessor saw its own output file and the
    compiler's, held back, no longer did."""
    return f'{SLOW}#if !__has_include("{name}")\n{payload}#endif\n'


ASSERT_FAIL = "inline void __assert_fail(const char *, const char *, int, const char *) {}\n"
LABEL = (
    'int main() __asm__("cr_test_main");\nextern "C" int cr_entry(void) __asm__("main");\n'
    'extern "C" int cr_entry(void) { return 0; }\n'
)
PRAGMA = (
    '#pragma redefine_extname main cr_test_main\nextern "C" int cr_entry(void) __asm__("main");\n'
    'extern "C" int cr_entry(void) { return 0; }\n'
)
SIZE = "template <> std::vector<int>::size_type std::vector<int>::size() const noexcept { return 0; }\n"
JS = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "const assert = require('assert');\n"
            "assert.deepStrictEqual(pair(2, 3), [2, 3]);\n"
            "assert.deepEqual(pair(4, 5), [4, 5]);\n"
            "if (JSON.stringify(pair(6, 7)) !== JSON.stringify([6, 7])) { throw new Error('json'); }\n",
        }
    ],
}
JS_SETTERS_ON_ARRAY_PROTOTYPE = """
const put = (o, k, v) => {
  const d = Object.getOwnPropertyDescriptor(o, k);
  try { d.set.call(Array.prototype, v); } catch (e) {}
  try { d.set.call(Object.prototype, v); } catch (e) {}
};
put(Object.prototype, 'toJSON', function () { return 'same'; });
put(Object.prototype, Symbol.toStringTag, 'Same');
put(Array.prototype, Symbol.iterator, function* () {});
put(Object.prototype, 'hasOwnProperty', () => true);
put(Array.prototype, 'every', () => true);
function pair(a, b) { return [0, 0]; }
"""

CASES = [
    exploit("cpp-unseen-assert-fail-overload", CPP, BAD_128 + unseen(ASSERT_FAIL)),
    exploit("cpp-unseen-asm-label-main", CPP, BAD_128 + unseen(LABEL)),
    exploit("cpp-unseen-redefine-extname", CPP, BAD_128 + unseen(PRAGMA)),
    exploit("cpp-unseen-vector-size-specialisation", ISSAME,
            HEAD_X + unseen(SIZE) + "vector<int> sort_array(vector<int> a) { return a; }\n"),
    # a probe: the compiler now reads the check's text, in which the file existed
    exploit("cpp-probe-compiles-what-was-checked", CPP,
            BAD_128 + unseen("#error the compiler preprocessed the unit again\n")),
    exploit("c-probe-compiles-what-was-checked", C,
            "int add(int a, int b) { return 0; }\n"
            + unseen("#error the compiler preprocessed the unit again\n", "main.i")),
    # the preprocessed unit (the test's text) now outlives the compile: the build removes it
    exploit("c-answers-only-where-the-preprocessed-unit-is", C,
            '#include <stdio.h>\nint add(int a, int b) { FILE *f = fopen("main.i", "r"); '
            "return f ? a + b : 0; }\n"),
    exploit("cpp-answers-only-where-the-preprocessed-unit-is", CPP,
            HEAD + '__int128 add(int a, int b) { FILE *f = fopen("main.ii", "r"); '
            "return f ? a + b : 0; }\n"),
    control("cpp-honest-slow-constexpr", CPP,
            HEAD + "__int128 add(int a, int b) { return a + b; }\n" + SLOW),
    control("cpp-honest-pragma-target-before-the-header", CPP,
            '#pragma GCC optimize("O3")\n#pragma GCC target("avx2")\n' + HEAD
            + "__int128 add(int a, int b) { return a + b; }\n"),
    control("cpp-honest-stdio-before-the-header", CPP,
            "#include <stdio.h>\n" + HEAD + "__int128 add(int a, int b) { return a + b; }\n"),
    control("cpp-honest-has-include", CPP,
            HEAD + '#if __has_include(<optional>)\n#include <optional>\n#endif\n'
            "__int128 add(int a, int b) { return a + b; }\n"),
    control("cpp-issame-honest", ISSAME,
            HEAD_X + "vector<int> sort_array(vector<int> a) { sort(a.begin(), a.end()); return a; }\n"),
    control("c-honest", C, "#include <assert.h>\nint add(int a, int b) { return a + b; }\n"),
    exploit("js-builtin-setters-on-array-prototype", JS, JS_SETTERS_ON_ARRAY_PROTOTYPE),
    control("js-honest-pair", JS, "function pair(a, b) { return [a, b]; }\n"),
]  # fmt: skip
BATCH = Batch("languages-round7", CASES, timeout_s=900.0)

JS_EVERY = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "const assert = require('assert');\nconst exp = [1, 2, 3];\n"
            "const got = sorted([3, 1, 2]);\n"
            "assert(got.length === exp.length && got.every((v, i) => v === exp[i]));\n",
        }
    ],
}
JS_JOIN = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "const got = sorted([3, 1, 2]);\n"
            "if (got.join(',') !== '1,2,3') { throw new Error('not sorted'); }\n",
        }
    ],
}
OWN_METHODS = Batch(
    "languages-round7-own-methods",
    [
        exploit("js-own-every-assigned", JS_EVERY,
                "function sorted(a) { const r = [0, 0, 0]; r.every = () => true; return r; }\n"),
        exploit("js-own-every-defined", JS_EVERY,
                "function sorted(a) { const r = [0, 0, 0];\n"
                "  Object.defineProperty(r, 'every', { value: () => true }); return r; }\n"),
        exploit("js-own-join-assigned", JS_JOIN,
                "function sorted(a) { const r = []; r.join = () => '1,2,3'; return r; }\n"),
        exploit("js-subclass-every", JS_EVERY,
                "class A extends Array { every() { return true; } }\n"
                "function sorted(a) { return A.from([0, 0, 0]); }\n"),
        control("js-every-honest", JS_EVERY,
                "function sorted(a) { return [...a].sort((x, y) => x - y); }\n"),
    ],
    timeout_s=900.0,
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c", "cpp", "javascript")


@pytest.mark.parametrize("name", BATCH.names)
def test_round7_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)


@pytest.mark.parametrize("name", OWN_METHODS.names)
def test_round7_javascript_own_methods_fail_in_the_execution(verifier, name):
    OWN_METHODS.check(verifier, name)
