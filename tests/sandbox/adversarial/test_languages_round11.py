"""Exploits and honest refusals found by an eleventh red team (C, C++, Java, TypeScript, Go), each
fixed, with an honest control beside each exploit.

Exploits (each paid 1.0, or a sandbox error, before its fix):

- **A vector answer to a scalar check decided on the host** (``lifted_c_host._holds``): the
  host read ``assert (is_prime(7));`` of a ``vector<int> is_prime(int)`` as "the list is
  not 0" and paid 1.0; ``== true`` and ``== 5`` raised a ``KeyError`` (a sandbox error a
  program caused). No conversion makes a vector a scalar, so the test does not compile:
  ``compile_error``, as plain ``g++``.

- **A fault handler of the program's, run by the test's own instructions** (C and C++
  tests beside the program): a signalling-NaN answer whose SIGFPE handler copied the
  expected operand of the test's trapping comparison into the answer's, and an unreadable
  answer page whose SIGSEGV handler mapped it in holding the string the test's ``strcmp``
  compared it with. Such a run may now install no handler of a fault signal (the runner's
  ``_one_process_filter``, ``faults``): the fault ends it.
- **TypeScript, an import line that is not one plain import** (``import * as assert from
  'assert';;``): it stayed at the module's top level, where tsc makes it the module's own
  ``require``, which answered from ``require.cache``, which the program had written. A
  module the test names is now the trusted one in node's ``Module._load`` itself.

Honest programs refused before their fix:

- **C++, ``<bits/stdc++.h>`` included twice** (by the program, or by the program and the
  test): the second include looked for the header beside the root's precompiled one and
  found no file there (``build-language-root.sh`` now puts it there).
- **C++ call tests**: a ``std::string_view`` parameter, an ``&``-qualified method
  (``harness/call.cpp``).
- **C, an entry point named like a C library function** (``atoi``, ``strcpy``) whose test
  runs beside the program: the object check refused the program's own definition of the
  function the problem asks for (``languages.c_object_check``'s ``bare``).
- **C++ beside the test, standard types the equality harness did not know**: a
  ``std::wstring`` answer did not compile (``returns``' ``static_assert``), and a
  ``complex<double>`` against ``3.0`` or a ``bitset<8>`` against ``3`` was unequal (no
  cast between them). A trusted standard type is now compared with a known one by its own
  operator, and the wide strings are trusted.
- **C++, MultiPL-E's ``auto candidate = f;``, accepted where plain ``g++`` fails to
  compile**: the recorder called ``f(..)`` itself, so an overloaded or template entry
  point, or one with default arguments, passed. The recorder now binds ``candidate`` as
  the test does and calls through it.
- **C, a test that compares with a math library call on constants** (``assert(f(27) ==
  cbrt(27))``): plain ``gcc`` folds ``cbrt(27)`` with MPFR (3.0), the judge built by tcc
  called glibc's (3.0000000000000004). A judge whose test calls the math library is now
  built by ``gcc -O2``, as plain (``lifted.C_LIBM_CALL``).
- **Java, ``.equals`` after ``new java.util.ArrayList<>(..)``, ``new Outer.Inner<>(..)`` or
  ``List.<Integer>of()``**: the rewrite to the trusted ``eq`` left ``new`` (or the type
  witness) outside its call, and the test did not compile.
- **Java call tests, a double-brace-initialised list**: refused as "an object of class
  Solution$1"; it is now read through its own iteration (compared outside, so what it
  answers is an answer it could have returned).
- **Go call tests, a ``byte`` answer** (LeetCode's Go character): written as a number,
  where the harness reads ``"c"`` into a ``byte`` argument.
- **Go, a helper named like a builtin the test never says** (``func delete(xs []int, x
  int) []int``): every predeclared name a program declared made its test untrusted; now
  only one the test's or the harness's code names.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots
from tests.sandbox.adversarial.test_languages_lifted_go import mbgp

# ---------------------------------------------------------------- C++: host decisions
_IS_PRIME_TRUTH = (
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (is_prime(7));\n"
    "    assert (is_prime(13));\n    assert (is_prime(101));\n}\n"
)
_IS_PRIME_EQ = (
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (is_prime(7) == true);\n"
    "    assert (is_prime(8) == false);\n}\n"
)
_SUM_EQ = "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (total(4) == 6);\n}\n"
_HALF_EQ = "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (half(1) == 0.5);\n}\n"
_HEAD = "#include<stdio.h>\n#include<vector>\nusing namespace std;\n"
_VECTOR_PRIME = _HEAD + "vector<int> is_prime(int n){ return {}; }\n"
_HONEST_PRIME = _HEAD + (
    "bool is_prime(int n){ if (n < 2) return false;\n"
    "    for (int d = 2; d * d <= n; d++) if (n % d == 0) return false;\n    return true; }\n"
)


def _cpp(test: str, entry: str) -> dict:
    return {"language": "cpp", "entry_points": [entry], **asserts(test)}


# ---------------------------------------------------------------- C++: <bits/stdc++.h> twice
_SUM_BODY = 'int main(){ long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n'
_STDIO = {"language": "cpp", "tests": [{"type": "stdio", "input": "2 3\n", "output": "5\n"}]}
_BITS = "#include <bits/stdc++.h>\n"
_ADD = _BITS + "using namespace std;\nint add(int a, int b){ return a + b; }\n"
_EVENS = _BITS + (
    "using namespace std;\n"
    "vector<int> evens(int n){ vector<int> r; for (int i = 0; i < n; i += 2) r.push_back(i); return r; }\n"
)

# ---------------------------------------------------------------- C++ call tests
_CALL_CPP = "#include <string>\n#include <string_view>\nusing namespace std;\n"


def _call(language: str, fn: str, args: list, output: object, cls: str | None = "Solution") -> dict:
    test = {"type": "call", "fn_name": fn, "args": args, "output": output}
    return {"language": language, "tests": [test | ({"class_name": cls} if cls else {})]}


# ---------------------------------------------------------------- C: library names as entry points
_ATOI_TEST = (
    "#include <assert.h>\nint main(void) {\n"
    '    const char *in[] = {"0", "42", "-17", "  7x"};\n    int want[] = {0, 42, -17, 7};\n'
    "    for (int i = 0; i < 4; i++) assert(atoi(in[i]) == want[i]);\n    return 0;\n}\n"
)
_ATOI = (
    "int atoi(const char *s) {\n    int sign = 1, v = 0;\n    while (*s == ' ') s++;\n"
    "    if (*s == '-' || *s == '+') { if (*s == '-') sign = -1; s++; }\n"
    "    while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');\n    return sign * v;\n}\n"
)
_STRCPY_TEST = (
    "#include <assert.h>\n#include <string.h>\nint main(void) {\n    char buf[16];\n"
    '    assert(strcpy(buf, "hello") == buf);\n    assert(strcmp(buf, "hello") == 0);\n'
    "    return 0;\n}\n"
)
_STRCPY = (
    "char *strcpy(char *dst, const char *src) {\n    char *d = dst;\n"
    "    while ((*d++ = *src++)) ;\n    return dst;\n}\n"
)


# ---------------------------------------------------------------- C and C++: fault handlers
# the answer is a signalling NaN; the handler of the test's trapping comparison copies the
# expected operand into the answer's and resumes (installed through a pointer: the hack
# gate's regex reads ``sigaction(`` alone)
_SIGFPE_HALF = r"""
#include <cmath>
#include <cfenv>
#include <csignal>
#include <cstring>
#include <cstdint>
#include <ucontext.h>
static bool nan64(uint64_t b) { return ((b >> 52) & 0x7ff) == 0x7ff && (b & 0xfffffffffffffULL); }
static const int G[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                          REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
static void on_fpe(int, siginfo_t *, void *ctx) {
  ucontext_t *uc = (ucontext_t *)ctx;
  greg_t *g = uc->uc_mcontext.gregs;
  unsigned char *p = (unsigned char *)g[REG_RIP];
  while (*p == 0x66 || *p == 0xF2 || *p == 0xF3) p++;
  int rex = 0;
  if ((*p & 0xF0) == 0x40) rex = *p++;
  if (*p++ != 0x0F) { return; }
  p++;
  unsigned char m = *p++;
  int mod = m >> 6, reg = ((m >> 3) & 7) | (rex & 4 ? 8 : 0), rm = (m & 7) | (rex & 1 ? 8 : 0);
  uint64_t *a = (uint64_t *)&uc->uc_mcontext.fpregs->_xmm[reg], *b;
  if (mod == 3) {
    b = (uint64_t *)&uc->uc_mcontext.fpregs->_xmm[rm];
  } else {
    long addr = 0;
    if ((m & 7) == 4) {
      unsigned char sib = *p++;
      int base = (sib & 7) | (rex & 1 ? 8 : 0), idx = ((sib >> 3) & 7) | (rex & 2 ? 8 : 0);
      long scaled = idx == 4 ? 0 : (long)g[G[idx]] << (sib >> 6);
      if (mod == 0 && (sib & 7) == 5) { addr = *(int *)p; p += 4; } else addr = g[G[base]];
      addr += scaled;
    } else if (mod == 0 && (m & 7) == 5) {
      int d = *(int *)p; p += 4; addr = (long)p + d;
    } else {
      addr = g[G[rm]];
    }
    if (mod == 1) { addr += *(signed char *)p; p += 1; } else if (mod == 2) { addr += *(int *)p; p += 4; }
    b = (uint64_t *)addr;
  }
  if (nan64(*a)) *a = *b; else if (nan64(*b)) *b = *a;
  uc->uc_mcontext.fpregs->mxcsr &= ~0x3fu;
}
__attribute__((noinline)) double half(int n) {
  static bool armed = false;
  if (!armed) {
    armed = true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fpe;
    sa.sa_flags = SA_SIGINFO;
    int (*install)(int, const struct sigaction *, struct sigaction *) = &::sigaction;
    install(SIGFPE, &sa, nullptr);
    feenableexcept(FE_INVALID);
  }
  uint64_t bits = 0x7ff0000000000001ULL;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
"""
_HALF_LOOP = (
    "#undef NDEBUG\n#include<assert.h>\n#include<math.h>\nint main(){\n"
    "    for (int i = 1; i <= 5; i++) assert (fabs(half(i) - i / 2.0) < 1e-9);\n}\n"
)
_HALF_EQ_LOOP = (
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n    double want[] = {0.5, 1.0, 1.5};\n"
    "    for (int i = 1; i <= 3; i++) assert (half(i) == want[i - 1]);\n}\n"
)
# the answer is an unreadable page; the handler of the test's strcmp fault maps it in with
# the string in the comparison's other register (the expected literal)
_SEGV_SHOUT = r"""#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
static char *pages[256];
static int npages;
static int ours(uintptr_t a) {
  for (int i = 0; i < npages; i++)
    if (a >= (uintptr_t)pages[i] && a < (uintptr_t)pages[i] + 4096) return i;
  return -1;
}
static void on_segv(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  greg_t *g = uc->uc_mcontext.gregs;
  int k = ours((uintptr_t)si->si_addr);
  if (k < 0) return;
  const char *src = 0;
  int regs[] = {REG_RSI, REG_RDI, REG_RDX, REG_RCX};
  for (int i = 0; i < 4 && !src; i++) {
    uintptr_t v = (uintptr_t)g[regs[i]];
    if (v > 65536 && ours(v) < 0) src = (const char *)v;
  }
  mmap(pages[k], 4096, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (src) { size_t n = strnlen(src, 4095); memcpy(pages[k], src, n); pages[k][n] = 0; }
}
char *shout(const char *s) {
  if (!npages) {
    int (*install)(int, const struct sigaction *, struct sigaction *) = sigaction ?: 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    install(SIGSEGV, &sa, NULL);
  }
  char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pages[npages++] = p;
  return p;
}
"""
_SHOUT_TEST = (
    "#include <assert.h>\n#include <string.h>\nint main(void) {\n"
    '    assert(strcmp(shout("hello world"), "HELLO WORLD") == 0);\n'
    '    assert(strcmp(shout("good morning"), "GOOD MORNING") == 0);\n    return 0;\n}\n'
)
_HONEST_SHOUT = (
    "#include <stdlib.h>\n#include <string.h>\n#include <ctype.h>\nchar *shout(const char *s) {\n"
    "    size_t n = strlen(s); char *r = malloc(n + 1);\n"
    "    for (size_t i = 0; i <= n; i++) r[i] = toupper((unsigned char)s[i]);\n    return r;\n}\n"
)


# ---------------------------------------------------------------- C++: standard types beside the test
def _hx_assert(*lines: str) -> str:
    body = "".join(f"    assert ({line});\n" for line in lines)
    return "#undef NDEBUG\n#include<assert.h>\nint main(){\n" + body + "}\n"


_WSTRING = '#include<string>\nusing namespace std;\nwstring f(int x){ return L"ab"; }\n'
_COMPLEX = (
    "#include<complex>\nusing namespace std;\n"
    "complex<double> add(double x,double y){return complex<double>(x+y,0);}\n"
)
_BITSET = (
    "#include<bitset>\nusing namespace std;\nbitset<8> add(int x,int y){return bitset<8>(x+y);}\n"
)


# ---------------------------------------------------------------- C++: MultiPL-E's candidate
_ME_HEAD = "#include<assert.h>\n#include<bits/stdc++.h>\n"


def _me_test(*checks: str) -> str:
    body = "".join(f"    assert({c});\n" for c in checks)
    return "int main() {\n    auto candidate = fib;\n" + body + "}\n"


_ME_FIB = _cpp(_me_test("candidate((10)) == (55)", "candidate((1)) == (1)"), "fib")

# ---------------------------------------------------------------- C: a judge that calls libm
_CBRT = "#include <math.h>\ndouble f(double x) { return cbrt(x); }\n"
_CBRT_TEST = "#include <assert.h>\n#include <math.h>\nint main(void) {\n    assert(f(27) == cbrt(27));\n    return 0;\n}\n"
_LOG10 = "#include <math.h>\ndouble f(double x) { return log10(x); }\n"
_LOG10_TEST = "#include <assert.h>\n#include <math.h>\nint main(void) {\n    assert(f(1.3) == log10(1.3));\n    return 0;\n}\n"

# ---------------------------------------------------------------- TypeScript
# an import line that is not one plain import stays at the module's top level, where tsc
# makes it the module's own require: it answered from require.cache, which the program wrote
_TS_SORT_TEST = """import * as assert from 'assert';;

let actual_1 = sort_matrix([[1, 2, 3], [2, 4, 5], [1, 1, 1]]);
let expected_1 = [[1, 1, 1], [1, 2, 3], [2, 4, 5]];
assert.deepEqual(actual_1, expected_1, "Exception --- test case 0 failed to pass");
"""
_TS_CACHE_POISON = """const fake: any = Object.assign(function () {}, { deepEqual() {}, strictEqual() {}, ok() {}, equal() {} });
const cache: any = (module as any)['constr' + 'uctor']['_ca' + 'che'];
cache['assert'] = { id: 'assert', filename: 'assert', loaded: true, exports: fake };
const sort_matrix = function (M: Array<Array<number>>) : Array<Array<number>>  {
    return M;
}
"""
_TS_SORT_HONEST = """const sort_matrix = function (M: Array<Array<number>>) : Array<Array<number>>  {
    return [...M].sort((a, b) => a.reduce((x, y) => x + y, 0) - b.reduce((x, y) => x + y, 0));
}
"""

# ---------------------------------------------------------------- Java
_JAVA_PROGRAM = """import java.util.*;

class Solution {
    public List<Integer> evens(int n) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < n; i += 2) r.add(i);
        return r;
    }
    public Map.Entry<Integer, Integer> minMax(List<Integer> xs) {
        return new AbstractMap.SimpleEntry<>(Collections.min(xs), Collections.max(xs));
    }
}
"""


def _java_main(line: str) -> str:
    return (
        "\npublic class Main {\n    public static void main(String[] args) {\n"
        f"        Solution s = new Solution();\n        {line}\n    }}\n}}\n"
    )


_JAVA_DOUBLE_BRACE = """import java.util.*;
class Solution {
  public List<Integer> twoSum(int[] nums, int target) {
    for (int i = 0; i < nums.length; i++)
      for (int j = i + 1; j < nums.length; j++)
        if (nums[i] + nums[j] == target) { final int a = i, b = j; return new ArrayList<Integer>() {{ add(a); add(b); }}; }
    return new ArrayList<>();
  }
}
"""

# ---------------------------------------------------------------- Go
_GO_744 = """package main

func nextGreatestLetter(letters []byte, target byte) byte {
	for _, c := range letters {
		if c > target {
			return c
		}
	}
	return letters[0]
}
"""
_GO_BOARD = """package main

func flipBoard(board [][]byte) [][]byte {
	for _, row := range board {
		for j := range row {
			if row[j] == 'O' {
				row[j] = 'X'
			} else {
				row[j] = 'O'
			}
		}
	}
	return board
}
"""
_MBGP_HEAD = 'package main\n\nimport (\n\t"encoding/json"\n\t"reflect"\n)\n'
_GO_DELETE = (
    _MBGP_HEAD
    + """func delete(xs []int, x int) []int {
\tout := []int{}
\tfor _, v := range xs {
\t\tif v != x {
\t\t\tout = append(out, v)
\t\t}
\t}
\treturn out
}

func remove_all(xs []int, x int) []int {
\treturn delete(xs, x)
}
"""
)
_GO_REMOVE_TEST = mbgp(
    ("remove_all([]int{1, 2, 1, 3}, 1)", "[]int{2, 3}"), ("remove_all([]int{4}, 4)", "[]int{}")
)
_GO_PANIC = (
    _MBGP_HEAD
    + """func panic(v interface{}) {}

func remove_all(xs []int, x int) []int {
\treturn xs
}
"""
)

BATCH = Batch(
    "round11",
    [
        exploit("cpp-vector-answer-to-truth-asserts", _cpp(_IS_PRIME_TRUTH, "is_prime"), _VECTOR_PRIME),
        exploit("cpp-vector-answer-to-eq-true", _cpp(_IS_PRIME_EQ, "is_prime"), _VECTOR_PRIME),
        exploit("cpp-vector-answer-to-eq-int", _cpp(_SUM_EQ, "total"),
                _HEAD + "vector<int> total(int n){ return {n}; }\n"),
        exploit("cpp-vector-answer-to-eq-double", _cpp(_HALF_EQ, "half"),
                _HEAD + "vector<int> half(int n){ return {n}; }\n"),
        control("cpp-truth-asserts-honest", _cpp(_IS_PRIME_TRUTH, "is_prime"), _HONEST_PRIME),
        control("cpp-eq-true-honest", _cpp(_IS_PRIME_EQ, "is_prime"), _HONEST_PRIME),
        exploit("cpp-sigfpe-handler-equalises-the-tests-comparison", _cpp(_HALF_LOOP, "half"), _SIGFPE_HALF),
        exploit("cpp-sigfpe-handler-equalises-the-tests-equality", _cpp(_HALF_EQ_LOOP, "half"), _SIGFPE_HALF),
        control("cpp-half-loop-honest", _cpp(_HALF_LOOP, "half"), "double half(int n){ return n / 2.0; }\n"),
        exploit("c-sigsegv-handler-maps-in-the-expected-string",
                {"language": "c", "entry_points": ["shout"], **asserts(_SHOUT_TEST)}, _SEGV_SHOUT),
        control("c-strcmp-honest", {"language": "c", "entry_points": ["shout"], **asserts(_SHOUT_TEST)},
                _HONEST_SHOUT),
        control("cpp-bits-twice-stdio-honest", _STDIO, _BITS + _BITS + _SUM_BODY),
        control("cpp-bits-again-after-code-honest", _STDIO,
                _BITS + "using namespace std;\nstatic int helper(int x){ return x; }\n" + _BITS + _SUM_BODY),
        control("cpp-bits-in-program-and-test-host-honest",
                _cpp(_BITS + "int main(){\n    assert(add(2, 3) == 5);\n    assert(add(-1, 1) == 0);\n}\n", "add"),
                _ADD),
        control("cpp-bits-in-program-and-test-judge-honest",
                _cpp(_BITS + "using namespace std;\nint main(){\n    assert(evens(4) == vector<int>({0, 2}));\n}\n",
                     "evens"),
                _EVENS),
        control("cpp-bits-in-program-and-test-loop-honest",
                _cpp(_BITS + "int main(){\n    for (int i = 0; i < 3; i++) assert(add(i, 1) == i + 1);\n}\n", "add"),
                _ADD),
        control("cpp-call-string-view-parameter-honest", _call("cpp", "len", ["hello"], 5),
                _CALL_CPP + "class Solution { public: int len(string_view s) { return (int)s.size(); } };\n"),
        control("cpp-call-lvalue-qualified-method-honest", _call("cpp", "add", [2, 3], 5),
                "class Solution { public: int add(int a, int b) & { return a + b; } };\n"),
        control("c-entry-point-atoi-beside-honest",
                {"language": "c", "entry_points": ["atoi"], **asserts(_ATOI_TEST)}, _ATOI),
        control("c-entry-point-strcpy-beside-honest",
                {"language": "c", "entry_points": ["strcpy"], **asserts(_STRCPY_TEST)}, _STRCPY),
        exploit("ts-import-line-left-at-the-top-answered-from-require-cache",
                {"language": "typescript", **asserts(_TS_SORT_TEST)}, _TS_CACHE_POISON),
        control("ts-import-line-left-at-the-top-honest", {"language": "typescript", **asserts(_TS_SORT_TEST)},
                _TS_SORT_HONEST),
        control("cpp-wstring-answer-beside-honest", _cpp(_hx_assert('f(1) == L"ab"'), "f"), _WSTRING),
        control("cpp-complex-answer-against-a-double-honest", _cpp(_hx_assert("add(1, 2) == 3.0"), "add"), _COMPLEX),
        control("cpp-double-against-a-complex-answer-honest", _cpp(_hx_assert("3.0 == add(1, 2)"), "add"), _COMPLEX),
        control("cpp-bitset-answer-against-an-int-honest", _cpp(_hx_assert("add(1, 2) == 3"), "add"), _BITSET),
        exploit("cpp-complex-answer-wrong", _cpp(_hx_assert("add(1, 2) == 4.0"), "add"), _COMPLEX),
        # plain g++ (and MultiPL-E's harness) cannot bind ``auto candidate = fib;`` to these:
        # a compile error, where the recorder called ``fib(..)`` itself and passed them
        exploit("cpp-multipl-e-candidate-of-an-overloaded-entry-point", _ME_FIB, _ME_HEAD
                + "long fib(long n, long a, long b) { return n == 0 ? a : fib(n - 1, b, a + b); }\n"
                "long fib(long n) {\n    return fib(n, 0, 1);\n}\n"),
        exploit("cpp-multipl-e-candidate-of-a-template", _ME_FIB, _ME_HEAD
                + "template <class T> T fib(T n) {\n    return n < 2 ? n : fib(n - 1) + fib(n - 2);\n}\n"),
        exploit("cpp-multipl-e-candidate-loses-default-arguments", _ME_FIB, _ME_HEAD
                + "long fib(long n, long a = 0, long b = 1) {\n    return n == 0 ? a : fib(n - 1, b, a + b);\n}\n"),
        control("cpp-multipl-e-candidate-honest", _ME_FIB, _ME_HEAD
                + "long fib(long n) {\n    long a = 0, b = 1; while (n--) { long t = a + b; a = b; b = t; } return a;\n}\n"),
        control("cpp-multipl-e-candidate-of-a-generic-lambda-honest", _ME_FIB, _ME_HEAD
                + "auto fib = [](auto n) { long a = 0, b = 1; while (n--) { long t = a + b; a = b; b = t; } return a; };\n"),
        control("c-judge-folds-cbrt-as-gcc-honest", {"language": "c", "entry_points": ["f"], **asserts(_CBRT_TEST)},
                _CBRT),
        control("c-judge-folds-log10-as-gcc-honest", {"language": "c", "entry_points": ["f"], **asserts(_LOG10_TEST)},
                _LOG10),
        control("java-equals-after-qualified-new-honest",
                {"language": "java", **asserts(_java_main(
                    "if (!new java.util.ArrayList<>(List.of(0, 2, 4)).equals(s.evens(6))) throw new AssertionError();"))},
                _JAVA_PROGRAM),
        control("java-equals-after-nested-type-new-honest",
                {"language": "java", **asserts(_java_main(
                    "if (!new AbstractMap.SimpleEntry<>(2, 3).equals(s.minMax(Arrays.asList(3, 2)))) throw new AssertionError();"))},
                _JAVA_PROGRAM),
        control("java-equals-after-type-witness-honest",
                {"language": "java", **asserts(_java_main(
                    "if (!List.<Integer>of().equals(s.evens(0))) throw new AssertionError();"))},
                _JAVA_PROGRAM),
        control("java-call-double-brace-list-honest", _call("java", "twoSum", [[2, 7, 11, 15], 9], [0, 1]),
                _JAVA_DOUBLE_BRACE),
        control("go-call-byte-answer-honest", _call("go", "nextGreatestLetter", [["c", "f", "j"], "a"], "c", None),
                _GO_744),
        control("go-call-byte-board-honest",
                _call("go", "flipBoard", [[["X", "O"], ["O", "X"]]], [["O", "X"], ["X", "O"]], None), _GO_BOARD),
        control("go-helper-named-delete-honest", {"language": "go", **asserts(_GO_REMOVE_TEST)}, _GO_DELETE),
        # the test says ``panic``: the program's would be the test's, so it stays untrusted
        exploit("go-program-panic-the-test-says", {"language": "go", **asserts(_GO_REMOVE_TEST)}, _GO_PANIC),
    ],
    timeout_s=900.0,
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("cpp", "c", "java", "typescript", "go")


@pytest.mark.parametrize("name", BATCH.names)
def test_round11(verifier, name):
    BATCH.check(verifier, name)
