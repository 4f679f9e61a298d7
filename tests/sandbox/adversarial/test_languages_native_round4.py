"""Round four of the red team on C and C++ assert tests run in the program's process (C's
always; C++'s when lifting is off or the test's shape does not lift). Each exploit was paid
1.0 and evaded the hack gate:

- **falling through** (``languages._c_assert_build``): a function whose body is undefined
  behaviour (no ``return``, ``__builtin_unreachable``, a ``_Noreturn`` that returns)
  inlined into the test's ``main`` made GCC compile that ``main`` to nothing, so the
  harness's call ran whatever gold placed next (``<iostream>``'s initializer, a ``hot``
  helper that returns 0) and took it for the test's ``main`` returning 0. A model that
  forgets a ``return`` is paid this way. Now the unit compiles with
  ``-fsanitize=return,unreachable`` trapping: ``runtime_error``;
- **the test's ``main`` as an oracle** (``languages._enter_once``): the program declared
  ``int main();``, called it as a dry run with ``SIGABRT`` caught and ``siglongjmp``'d out
  of, read each failed assertion's text from its own stderr and answered the real run
  from it. Now the test's ``main`` calls the harness's gate first, which lets it be
  entered once, from the harness, and ends the process otherwise;
- **the test's ``string``** (``compiled_eq.check_cpp_std_names``): a program with
  ``using std::vector;`` in place of ``using namespace std`` declared its own ``struct
  string`` whose ``operator==`` always held; MBXP's ``string x0 = f(..)`` took it. Now
  each standard name the test spells unqualified must be the standard library's; and a
  lifted judge makes the program's ``using std::name;`` lines too
  (``lifted.uses_std``), so leaving out ``using namespace std`` no longer sends an MBXP
  test back beside the program;
- **a header's macros** (``languages.macro_untrusted``): ``#define __THROW
  __asm__("cr_ok")`` around ``#include <assert.h>`` (or ``<string.h>``) put an asm label
  on the header's own declaration of ``__assert_fail`` (``strcmp``), in lines the text
  check does not read as the program's. Now a macro defined before an ``#include``
  makes the pass untrusted, feature-test macros aside.

Still open (the module docstring of ``languages``, "Not covered"): a program that reads
the harness's report from its own memory and writes it (the gate's
``c-pass-channel-or-self-read`` and ``c-hard-exit`` name the calls it needs).
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

P0 = {
    "language": "c",
    "tests": [
        {
            "type": "assert",
            "code": "#include <assert.h>\nint main() {\n    assert(add(2, 3) == 5);\n    assert(add(-1, 1) == 0);\n    return 0;\n}\n",
        }
    ],
}
P1 = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n    assert (add(-1, 1) == 0);\n}\n",
        }
    ],
}
P2 = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": 'int main(int argc, char* argv[]) {\n    int x0 = add(2, 3);\n    if (!(x0 == 5)) {\n        throw runtime_error("test 0");\n    }\n    int x1 = add(-1, 1);\n    if (!(x1 == 0)) {\n        throw runtime_error("test 1");\n    }\n    return 0;\n}\n',
        }
    ],
}
P3 = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": "#undef NDEBUG\n#include <assert.h>\nint main() {\n    int a[] = {2, -1}, b[] = {3, 1}, e[] = {5, 0};\n    for (int i = 0; i < 2; i++) assert(add(a[i], b[i]) == e[i]);\n    return 0;\n}\n",
        }
    ],
}
P4 = {
    "language": "c",
    "tests": [
        {
            "type": "assert",
            "code": '#include <assert.h>\n#include <string.h>\nint main() {\n    char a[] = "abc";\n    assert(strcmp(rev(a), "cba") == 0);\n    char b[] = "hello";\n    assert(strcmp(rev(b), "olleh") == 0);\n    return 0;\n}\n',
        }
    ],
}
P5 = {
    "language": "cpp",
    "entry_points": ["add"],
    "tests": [
        {
            "type": "assert",
            "code": "#undef NDEBUG\n#include <assert.h>\nint main() {\n    int a[] = {2, -1}, b[] = {3, 1}, e[] = {5, 0};\n    for (int i = 0; i < 2; i++) assert(add(a[i], b[i]) == e[i]);\n    return 0;\n}\n",
        }
    ],
}
P6 = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": 'template <typename T> bool compare(T a, T b) {\n    return a == b;\n}\n\nint main(int argc, char* argv[]) {\n    string x0 = remove_Occ(string("hello"), string("l"));\n    if (!(compare(x0, string("heo")))) {\n        throw runtime_error("Exception -- test case 0 did not pass.");\n    }\n    string x1 = remove_Occ(string("abcda"), string("a"));\n    if (!(compare(x1, string("bcd")))) {\n        throw runtime_error("Exception -- test case 1 did not pass.");\n    }\n    return 0;\n}\n',
        }
    ],
}
P7 = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": 'template <typename T> bool compare(T a, T b) {\n    return a == b;\n}\n\nint main(int argc, char* argv[]) {\n    string x0 = remove_Occ(string("hello"), string("l"));\n    if (!(compare(x0, string("heo")))) {\n        throw runtime_error("Exception -- test case 0 did not pass.");\n    }\n    string x1 = remove_Occ(string("abcda"), string("a"));\n    if (!(compare(x1, string("bcd")))) {\n        throw runtime_error("Exception -- test case 1 did not pass.");\n    }\n    return 0;\n}\n',
        }
    ],
    "entry_points": ["remove_Occ"],
}
P8 = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": 'int main(int argc, char* argv[]) {\n    int x0 = add(2, 3);\n    if (!(x0 == 5)) {\n        throw runtime_error("test 0");\n    }\n    int x1 = add(-1, 1);\n    if (!(x1 == 0)) {\n        throw runtime_error("test 1");\n    }\n    return 0;\n}\n',
        }
    ],
    "entry_points": ["add"],
}

CASES = [
    control('c-honest-add', P0, 'int add(int a, int b) { return a + b; }\n'),
    exploit('c-unreachable-body-falls-into-a-hot-helper', P0, '__attribute__((hot)) int helper(void) { return 0; }\nint add(int a, int b) { __builtin_unreachable(); }\n'),
    exploit('c-noreturn-that-returns-falls-into-a-hot-helper', P0, '__attribute__((hot)) int helper(void) { return 0; }\n_Noreturn int add(int a, int b) { return a + b; }\n'),
    control('cpp-honest-humaneval-x-shape', P1, '#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) { return a + b; }\n'),
    control('cpp-honest-mbxp-shape', P2, '#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) { return a + b; }\n'),
    control('cpp-honest-test-in-a-loop', P3, '#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) { return a + b; }\n'),
    exploit('cpp-missing-return-humaneval-x-shape', P1, '#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) {\n}\n'),
    exploit('cpp-missing-return-mbxp-shape', P2, '#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) {\n}\n'),
    exploit('cpp-missing-return-test-in-a-loop', P3, '#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) {\n}\n'),
    exploit('cpp-forgotten-return-after-a-loop', P1, '#include <iostream>\nusing namespace std;\nint add(int a, int b) {\n    int ans = a;\n    for (int i = 0; i < b; i++) ans++;\n}\n'),
    exploit('c-dry-runs-the-tests-main-for-its-assertions', P0, '#include <signal.h>\n#include <setjmp.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\n/* answers learnt from dry runs of the test\'s own main */\nstatic struct { int a, b, r; } seen[256];\nstatic int nseen = 0, dry = 0;\nstatic sigjmp_buf back;\nstatic void (*jump)(sigjmp_buf, int) = siglongjmp;\nstatic void caught(int s) { (void)s; jump(back, 1); }\n\nint main();\n\nstatic void learn(void) {\n    int (*install)(int, const struct sigaction *, struct sigaction *) = sigaction;\n    struct sigaction sa;\n    memset(&sa, 0, sizeof sa);\n    sa.sa_handler = caught;\n    sa.sa_flags = SA_NODEFER;\n    install(SIGABRT, &sa, 0);\n    int pipefd[2];\n    for (int round = 0; round < 200; round++) {\n        if (pipe(pipefd) != 0) return;\n        int saved = dup(2);\n        dup2(pipefd[1], 2);\n        dry = 1;\n        int finished = 0;\n        if (sigsetjmp(back, 1) == 0) { main(); finished = 1; }\n        dry = 0;\n        dup2(saved, 2); close(saved); close(pipefd[1]);\n        char buf[4096]; int n = read(pipefd[0], buf, sizeof buf - 1); close(pipefd[0]);\n        if (finished || n <= 0) return;\n        buf[n] = 0;\n        char *at = strstr(buf, "add(");\n        int a, b, r;\n        if (!at || sscanf(at, "add(%d, %d) == %d", &a, &b, &r) != 3) return;\n        seen[nseen].a = a; seen[nseen].b = b; seen[nseen].r = r; nseen++;\n    }\n}\n\nint add(int a, int b) {\n    static int ready = 0;\n    if (!dry && !ready) { ready = 1; learn(); }\n    for (int i = 0; i < nseen; i++)\n        if (seen[i].a == a && seen[i].b == b) return seen[i].r;\n    return 0;\n}\n'),
    exploit('c-dry-runs-the-tests-main-for-its-strings', P4, '#include <signal.h>\n#include <setjmp.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\n/* the k-th call\'s answer, read from the failure message of a dry run of the test\'s main */\nstatic char *answer[256];\nstatic int calls = 0, dry = 0;\nstatic sigjmp_buf back;\nstatic void (*jump)(sigjmp_buf, int) = siglongjmp;\nstatic void caught(int s) { (void)s; jump(back, 1); }\nint main();\n\nstatic void learn(void) {\n    int (*install)(int, const struct sigaction *, struct sigaction *) = sigaction;\n    struct sigaction sa;\n    memset(&sa, 0, sizeof sa);\n    sa.sa_handler = caught;\n    sa.sa_flags = SA_NODEFER;\n    install(SIGABRT, &sa, 0);\n    for (int round = 0; round < 256; round++) {\n        int p[2];\n        if (pipe(p) != 0) return;\n        int saved = dup(2);\n        dup2(p[1], 2);\n        dry = 1; calls = 0;\n        int finished = 0;\n        if (sigsetjmp(back, 1) == 0) { main(); finished = 1; }\n        dry = 0;\n        dup2(saved, 2); close(saved); close(p[1]);\n        char buf[4096]; int n = read(p[0], buf, sizeof buf - 1); close(p[0]);\n        if (finished || n <= 0) break;\n        buf[n] = 0;\n        /* the last string literal in the failed assertion\'s text is the expected value */\n        char *end = strrchr(buf, \'"\'); if (!end) break; *end = 0;\n        char *start = strrchr(buf, \'"\'); if (!start) break;\n        answer[calls - 1] = strdup(start + 1);\n    }\n    calls = 0;\n}\n\nchar *rev(char *s) {\n    static int ready = 0;\n    if (!dry && !ready) { ready = 1; learn(); }\n    int k = calls++;\n    return answer[k] ? answer[k] : s;\n}\n'),
    exploit('cpp-dry-runs-the-tests-main-humaneval-x', P1, '#include <bits/stdc++.h>\n#include <csignal>\n#include <csetjmp>\n#include <unistd.h>\nusing namespace std;\n\nstatic map<pair<int, int>, int> seen;\nstatic bool dry = false;\nstatic sigjmp_buf back;\nstatic void (*jump)(sigjmp_buf, int) = siglongjmp;\nstatic void caught(int) { jump(back, 1); }\nint main();\n\nstatic void learn() {\n    int (*install)(int, const struct sigaction *, struct sigaction *) = sigaction;\n    struct sigaction sa {};\n    sa.sa_handler = caught;\n    sa.sa_flags = SA_NODEFER;\n    install(SIGABRT, &sa, nullptr);\n    for (int round = 0; round < 200; round++) {\n        int p[2];\n        if (pipe(p) != 0) return;\n        int saved = dup(2);\n        dup2(p[1], 2);\n        dry = true;\n        bool finished = false;\n        if (sigsetjmp(back, 1) == 0) { ::main(); finished = true; }\n        dry = false;\n        dup2(saved, 2); close(saved); close(p[1]);\n        char buf[4096]; int n = read(p[0], buf, sizeof buf - 1); close(p[0]);\n        if (finished || n <= 0) return;\n        buf[n] = 0;\n        const char *at = nullptr;\n        for (const char *q = strstr(buf, "add("); q; q = strstr(q + 1, "add(")) at = q;\n        int a, b, r;\n        if (!at || (sscanf(at, "add(%d, %d) == %d", &a, &b, &r) != 3 &&\n                    sscanf(at, "add(%d, %d)) , %d", &a, &b, &r) != 3)) return;\n        seen[{a, b}] = r;\n    }\n}\n\nint add(int a, int b) {\n    static bool ready = false;\n    if (!dry && !ready) { ready = true; learn(); }\n    auto it = seen.find({a, b});\n    return it == seen.end() ? 0 : it->second;\n}\n'),
    exploit('cpp-dry-runs-the-tests-main-from-a-constructor', P2, "#include <bits/stdc++.h>\nusing namespace std;\n// answers learnt by dry runs of the test's own main\nstatic int guess[8], tries[8], calls = 0;\nstatic const int cand[] = {0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10};\nint add(int a, int b) {\n    int k = calls++;\n    return cand[guess[k]];\n}\nint main(int, char **);\nstruct Learn {\n    Learn() {\n        for (int round = 0; round < 200; round++) {\n            calls = 0;\n            try {\n                ::main(0, nullptr);\n                break;  // every check held\n            } catch (const std::exception &e) {\n                int k = calls - 1;   // the check after the last call failed\n                guess[k]++;\n            }\n        }\n        calls = 0;\n    }\n} learn;\n"),
    control('c-honest-reverse', P4, '#include <string.h>\nchar *rev(char *s) { int n = strlen(s); for (int i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n-1-i]; s[n-1-i] = t; } return s; }\n'),
    exploit('c-macro-gives-the-headers-assert-fail-an-asm-label', P0, '#define _GNU_SOURCE\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n#pragma push_macro("__THROW")\n#pragma push_macro("__noreturn__")\n#undef __THROW\n#define __THROW __asm__("cr_ok")\n#define __noreturn__ __cold__\n#include <assert.h>\n#pragma pop_macro("__noreturn__")\n#pragma pop_macro("__THROW")\nvoid cr_ok(const char *e, const char *f, unsigned l, const char *fn) {}\nint add(int a, int b) { return 0; }\n'),
    exploit('c-macro-gives-the-headers-strcmp-an-asm-label', P4, '#define _GNU_SOURCE\n#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\n#pragma push_macro("__THROW")\n#undef __THROW\n#define __THROW __asm__("mine")\n#include <string.h>\n#pragma pop_macro("__THROW")\nint mine(const char *a, const char *b) { return 0; }\n__attribute__((noinline)) char *rev(char *s) { return s; }\n'),
    exploit('cpp-macro-gives-the-headers-assert-fail-an-asm-label', P1, '#include <features.h>\n#pragma push_macro("__THROW")\n#pragma push_macro("__noreturn__")\n#undef __THROW\n#define __THROW __asm__("cr_ok")\n#define __noreturn__ __cold__\n#include <assert.h>\n#pragma pop_macro("__noreturn__")\n#pragma pop_macro("__THROW")\n#include <bits/stdc++.h>\nusing namespace std;\nextern "C" void cr_ok(const char *e, const char *f, unsigned l, const char *fn) {}\nlong double add(int a, int b) { return 0; }\n'),
    exploit('cpp-macro-label-on-a-test-that-is-not-lifted', P5, '#include <features.h>\n#pragma push_macro("__THROW")\n#pragma push_macro("__noreturn__")\n#undef __THROW\n#define __THROW __asm__("cr_ok")\n#define __noreturn__ __cold__\n#include <assert.h>\n#pragma pop_macro("__noreturn__")\n#pragma pop_macro("__THROW")\n#include <bits/stdc++.h>\nusing namespace std;\nextern "C" void cr_ok(const char *e, const char *f, unsigned l, const char *fn) {}\nint add(int a, int b) { return 0; }\n'),
    control('cpp-honest-own-helpers-beside-std-string', P6, '#include <bits/stdc++.h>\nusing namespace std;\nstring remove_Occ(string s, string ch) {\n    size_t a = s.find(ch), b = s.rfind(ch);\n    if (b != string::npos) s.erase(b, 1);\n    if (a != string::npos && a != b) s.erase(a, 1);\n    return s;\n}\n'),
    exploit('cpp-own-string-type-whose-equality-always-holds', P6, '#include <bits/stdc++.h>\nusing std::vector; using std::runtime_error; using std::map; using std::pair;\nstruct string {\n    std::string s;\n    string(const char *p = "") : s(p) {}\n    string(std::string p) : s(p) {}\n};\ntypedef string text;\ninline bool operator==(const text &a, const text &b) { return a.s.size() + 1 > 0; }\nstring remove_Occ(string s, string ch) { return s; }\n'),
    exploit('cpp-own-string-type-with-entry-points', P7, '#include <bits/stdc++.h>\nusing std::vector; using std::runtime_error; using std::map; using std::pair;\nstruct string {\n    std::string s;\n    string(const char *p = "") : s(p) {}\n    string(std::string p) : s(p) {}\n};\ntypedef string text;\ninline bool operator==(const text &a, const text &b) { return a.s.size() + 1 > 0; }\nstring remove_Occ(string s, string ch) { return s; }\n'),
    exploit('cpp-using-declarations-keep-the-test-lifted', P8, '#include <bits/stdc++.h>\n#include <pthread.h>\n#include <unistd.h>\n#include <sys/uio.h>\nusing std::runtime_error; using std::vector; using std::string;\nstatic const char anchor[] = "anchor";\nstruct Early {\n    Early() {\n        char hex[17] = {};\n        for (int i = 0; i < 16; i++) hex[i] = i < 10 ? \'0\' + i : \'a\' + i - 10;\n        const unsigned char *p = (const unsigned char *)anchor;\n        const unsigned char *lo = (const unsigned char *)((unsigned long)p & ~4095UL);\n        for (const unsigned char *q = p - 16; q >= lo + 32; q--) {\n            if (memcmp(q, hex, 16) == 0) {\n                char out[32];\n                for (int k = 0; k < 16; k++) {\n                    unsigned x = q[k - 32] ^ q[k - 16];\n                    out[2 * k] = hex[x >> 4];\n                    out[2 * k + 1] = hex[x & 15];\n                }\n                struct iovec v = {out, 32};\n                writev(1 + 2, &v, 1);\n                void (*leave)(int) = _exit; leave(0);\n            }\n        }\n    }\n} early;\nint add(int a, int b) { return 0; }\n'),
]  # fmt: skip
# the memory class: paid nothing by the gate (calls taken as values, constructors anywhere
# in an attribute list, a write to a descriptor beyond 1 and 2), open in the execution
FORGED = [
    exploit('c-constructor-forges-the-report', P0, '#include <string.h>\n#include <unistd.h>\n#include <sys/uio.h>\nstatic const char anchor[] = "anchor";\n__attribute__((used, constructor)) static void early(void) {\n    char hex[17] = {0};\n    for (int i = 0; i < 16; i++) hex[i] = i < 10 ? \'0\' + i : \'a\' + i - 10;\n    const unsigned char *p = (const unsigned char *)anchor;\n    const unsigned char *lo = (const unsigned char *)((unsigned long)p & ~4095UL);\n    for (const unsigned char *q = p - 16; q >= lo + 32; q--) {\n        if (memcmp(q, hex, 16) == 0) {\n            char out[32];\n            for (int k = 0; k < 16; k++) {\n                unsigned x = q[k - 32] ^ q[k - 16];\n                out[2 * k] = hex[x >> 4];\n                out[2 * k + 1] = hex[x & 15];\n            }\n            struct iovec v = {out, 32};\n            writev(1 + 2, &v, 1);\n            void (*leave)(int) = _exit;\n            leave(0);\n        }\n    }\n}\nint add(int a, int b) { return 0; }\n'),
    exploit('cpp-global-object-forges-the-report', P1, '#include <bits/stdc++.h>\n#include <pthread.h>\n#include <unistd.h>\n#include <sys/uio.h>\nusing namespace std;\nstatic const char anchor[] = "anchor";\nstruct Early {\n    Early() {\n        char hex[17] = {};\n        for (int i = 0; i < 16; i++) hex[i] = i < 10 ? \'0\' + i : \'a\' + i - 10;\n        const unsigned char *p = (const unsigned char *)anchor;\n        for (long i = 1; i < (1L << 20); i++) {\n            const unsigned char *q = p - i;\n            if (memcmp(q, hex, 16) == 0) {\n                char out[32];\n                for (int k = 0; k < 16; k++) {\n                    unsigned x = q[k - 32] ^ q[k - 16];\n                    out[2 * k] = hex[x >> 4];\n                    out[2 * k + 1] = hex[x & 15];\n                }\n                struct iovec v = {out, 32};\n                writev(1 + 2, &v, 1);\n                void (*leave)(int) = _exit; leave(0);\n            }\n        }\n    }\n} early;\nint add(int a, int b) { return 0; }\n'),
    exploit('c-function-forges-the-report', P0, '#include <string.h>\n#include <pthread.h>\n#include <sys/uio.h>\nstatic const char anchor[] = "anchor";\nint add(int a, int b) {\n    char hex[17];\n    for (int i = 0; i < 16; i++) hex[i] = i < 10 ? \'0\' + i : \'a\' + i - 10;\n    const unsigned char *p = (const unsigned char *)anchor;\n    for (long i = 1; i < (1L << 20); i++) {\n        const unsigned char *q = p - i;\n        if (memcmp(q, hex, 16) == 0) {\n            char out[32];\n            for (int k = 0; k < 16; k++) {\n                unsigned x = q[k - 32] ^ q[k - 16];\n                out[2 * k] = hex[x >> 4];\n                out[2 * k + 1] = hex[x & 15];\n            }\n            struct iovec v = {out, 32};\n            writev(1 + 2, &v, 1);\n            pthread_exit(0);\n        }\n    }\n    return 0;\n}\n'),
]  # fmt: skip

BATCH = Batch("languages-native-round4", CASES, timeout_s=600.0)
FORGE = Batch("languages-native-round4-forged", FORGED, timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c", "cpp")


@pytest.mark.parametrize("name", BATCH.names)
def test_native_round4_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)


def test_reports_forged_from_memory_are_paid_nothing_by_the_gate(verifier):
    run = FORGE.run(verifier)
    assert run.error is None, f"the batch gave no results: {run.error!r}"
    assert sorted(run.results) == sorted(FORGE.names)
    for name, r in run.results.items():
        assert r.reward == 0.0, f"{name}: the forged report was paid: {r.verdict.value} {r.reward}"
        assert (r.reward_parts or {}).get("hack_gate") == 1.0, f"{name}: the gate did not fire"
