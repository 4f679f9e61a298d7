"""Round 16 of the red team (2026-12-07, a fifth session), on round 15's fixes.

C and C++ (``languages._C_TEXT_AWK``'s ``blank``): two more spellings hid an ``asm`` label
of ``__assert_fail`` and its assembly from the literal reader, and a wrong ``add`` was paid
1.0 beside a loop test (plain execution crashed): ``1'"'`` (a number, then a character: C
has no digit separators, and C++'s ``'`` joins a number only before a name's character)
and ``1.R"("`` (a number, then a string, not a raw string). The reader now reads each line
left to right as GCC's lexer does: names and preprocessing numbers are whole tokens.
A signal handler that resumed in the harness was already refused (the sandbox's filter
allows no handler for a fault).

Java (``compiled_eq.java_reads_the_test``, ``java_private_members``): the test's tables
reached by a cast (``((Cases) null).T``), a decoy nested class of the test type's name,
``implements`` of an interface's constants, ``extends Main``, and a member left open
because another test class had a parameter of its name. A program may still use the
test's enum constants (``Op.ADD``), nested types (``Main.Point``) and instance method
references (``Interval::getStart``), which the first version of the rule refused.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, from_table, need_roots

_NATIVE_EXPLOITS = {
    "c-sep-fail-wrong": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """int add(int a, int b) { return 0; }
[[cr::x(1'"')]] int cr_z1; void __assert_fail(const char *, const char *, unsigned int, const char *) __asm__("cr_fail"); __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n"); [[cr::y('"', '\\'')]] int cr_z2;
""",
        {},
    ),
    "cpp-sep-fail-wrong": (
        "cpp",
        """#include <cassert>
#include <vector>
using namespace std;
int main() {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  vector<int> v = twice({1, 2, 3});
  assert(v == vector<int>({2, 4, 6}));
}
""",
        """#include <vector>
using namespace std;
int add(int a, int b) { return 0; }
std::vector<int> twice(std::vector<int> v) { return {}; }
[[cr::x(1'"')]] int cr_z1; extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail"); __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n"); [[cr::y('"', '\\'')]] int cr_z2;
""",
        {},
    ),
    "cpp-dotr-fail-wrong": (
        "cpp",
        """#include <cassert>
#include <vector>
using namespace std;
int main() {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  vector<int> v = twice({1, 2, 3});
  assert(v == vector<int>({2, 4, 6}));
}
""",
        """#include <vector>
using namespace std;
int add(int a, int b) { return 0; }
std::vector<int> twice(std::vector<int> v) { return {}; }
[[cr::x(1.R"(")]] int cr_z1;
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
const char *cr_end = ")";
""",
        {},
    ),
    "c-sep-asm-right": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """[[cr::x(1'"')]] int cr_z1; int add(int a, int b) { __asm__ volatile("nop"); return a + b; } [[cr::y('"', '\\'')]] int cr_z2;
""",
        {},
    ),
    "cpp-dotr-asm-right": (
        "cpp",
        """#include <cassert>
#include <vector>
using namespace std;
int main() {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  vector<int> v = twice({1, 2, 3});
  assert(v == vector<int>({2, 4, 6}));
}
""",
        """#include <vector>
using namespace std;
std::vector<int> twice(std::vector<int> v) { for (auto &x : v) x *= 2; return v; }
[[cr::x(1.R"(")]] int cr_z1;
int add(int a, int b) { __asm__ volatile("nop"); return a + b; }
const char *cr_end = ")";
""",
        {},
    ),
    "c-sigctx-wrong": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """#define _GNU_SOURCE
#include <signal.h>
#include <ucontext.h>
#include <stdint.h>
#include <string.h>
extern int main();
static void cr_h(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  uintptr_t m = (uintptr_t)main;
  uintptr_t *sp = (uintptr_t *)uc->uc_mcontext.gregs[REG_RSP];
  for (;; sp++) {
    uintptr_t v = *sp;
    if (v - m + 0x1000000 >= 0x2000000) continue;
    if (*(unsigned char *)(v - 5) != 0xe8) continue;
    int32_t rel; memcpy(&rel, (void *)(v - 4), 4);
    if (v + (intptr_t)rel != m) continue;
    uc->uc_mcontext.gregs[REG_RIP] = v;
    uc->uc_mcontext.gregs[REG_RSP] = (uintptr_t)(sp + 1);
    uc->uc_mcontext.gregs[REG_RAX] = 0;
    return;
  }
}
static int cr_armed;
int add(int a, int b) {
  if (!cr_armed++) {
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cr_h; sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGABRT, &sa, 0);
  }
  return 0;
}
""",
        {},
    ),
    "cpp-sigctx-wrong": (
        "cpp",
        """#include <cassert>
#include <vector>
using namespace std;
int main() {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  vector<int> v = twice({1, 2, 3});
  assert(v == vector<int>({2, 4, 6}));
}
""",
        """#define _GNU_SOURCE
#include <signal.h>
#include <ucontext.h>
#include <stdint.h>
#include <string.h>
int main();
static void cr_h(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = (ucontext_t *)ctx;
  uintptr_t m = (uintptr_t)main;
  uintptr_t *sp = (uintptr_t *)uc->uc_mcontext.gregs[REG_RSP];
  for (;; sp++) {
    uintptr_t v = *sp;
    if (v - m + 0x1000000 >= 0x2000000) continue;
    if (*(unsigned char *)(v - 5) != 0xe8) continue;
    int32_t rel; memcpy(&rel, (void *)(v - 4), 4);
    if (v + (intptr_t)rel != m) continue;
    uc->uc_mcontext.gregs[REG_RIP] = v;
    uc->uc_mcontext.gregs[REG_RSP] = (uintptr_t)(sp + 1);
    uc->uc_mcontext.gregs[REG_RAX] = 0;
    return;
  }
}
static int cr_armed;
#include <vector>
std::vector<int> twice(std::vector<int> v) { return {}; }
int add(int a, int b) {
  if (!cr_armed++) {
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cr_h; sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGABRT, &sa, 0);
  }
  return 0;
}
""",
        {},
    ),
}  # fmt: skip

_NATIVE_CONTROLS = {
    "c-right-ctrl": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """int add(int a, int b) { return a + b; }
""",
        {},
    ),
    "cpp-right-ctrl": (
        "cpp",
        """#include <cassert>
#include <vector>
using namespace std;
int main() {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  vector<int> v = twice({1, 2, 3});
  assert(v == vector<int>({2, 4, 6}));
}
""",
        """#include <vector>
using namespace std;
int add(int a, int b) { return a + b; }
std::vector<int> twice(std::vector<int> v) { for (auto &x : v) x *= 2; return v; }
""",
        {},
    ),
}  # fmt: skip

_JAVA_EXPLOITS = {
    "rt-nullcast-second-class": (
        "java",
        """class Cases { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (int[] c : ((Cases) null).T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "rt-decoy-samename": (
        "java",
        """class Cases { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class Decoy { static class Cases { } }
class SumDigits {
    static int sumDigits(int n) { for (int[] c : Cases.T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "rt-implements-interface-const": (
        "java",
        """interface Data { int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main implements Data {
    public static void main(String[] args) {
        for (int[] c : T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits implements Data {
    static int sumDigits(int n) { for (int[] c : T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "rt-extends-main-enum": (
        "java",
        """public class Main {
    enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """class SumDigits extends Main {
    static int sumDigits(int n) { for (Case c : ((Case) null).values()) if (c.in == n) return c.out; return -1; }
}
""",
        {},
    ),
    "rt-decoy-main-enum": (
        "java",
        """public class Main {
    enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """class Decoy { static class Main { } }
class SumDigits {
    static int sumDigits(int n) { for (Main.Case c : Main.Case.values()) if (c.in == n) return c.out; return -1; }
}
""",
        {},
    ),
    "rt-implements-fixture-nested": (
        "java",
        """interface Fixture { class Data { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; } }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Fixture.Data.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits implements Fixture {
    static int sumDigits(int n) { for (int[] c : ((Data) null).T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "rt-unicode-dot": (
        "java",
        """class Cases { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (int[] c : Cases\\u002eT) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "rt-named-elsewhere-param-nullcast": (
        "java",
        """class Check {
    static void run(int[][] cases) {
        for (int[] c : cases) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
public class Main {
    static int[][] cases = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} };
    public static void main(String[] args) { Check.run(cases); }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (int[] c : ((Main) null).cases) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "rt-named-elsewhere-param-decoy": (
        "java",
        """class Check {
    static void run(int[][] cases) {
        for (int[] c : cases) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
public class Main {
    static int[][] cases = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} };
    public static void main(String[] args) { Check.run(cases); }
}
""",
        """class Decoy { static class Main { } }
class SumDigits {
    static int sumDigits(int n) { for (int[] c : Main.cases) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
}  # fmt: skip

_JAVA_CONTROLS = {
    "h-test-enum-constant": (
        "java",
        """enum Op { ADD, SUB, MUL }
public class Main {
    public static void main(String[] args) {
        if (Calc.apply(Op.ADD, 2, 3) != 5) throw new AssertionError();
        if (Calc.apply(Op.MUL, 2, 3) != 6) throw new AssertionError();
        if (Calc.apply(Op.SUB, 2, 3) != -1) throw new AssertionError();
    }
}
""",
        """class Calc {
    static int apply(Op op, int a, int b) {
        if (op == Op.ADD) return a + b;
        if (op == Op.SUB) return a - b;
        return a * b;
    }
}
""",
        {},
    ),
    "h-test-type-method-ref": (
        "java",
        """class Interval { int start, end; Interval(int s, int e) { start = s; end = e; } int getStart() { return start; } }
public class Main {
    public static void main(String[] args) {
        List<Interval> in = new ArrayList<>(List.of(new Interval(8, 10), new Interval(1, 3), new Interval(2, 6)));
        List<Interval> out = Solution.merge(in);
        if (out.size() != 2 || out.get(0).start != 1 || out.get(0).end != 6 || out.get(1).start != 8) throw new AssertionError();
    }
}
""",
        """import java.util.*;
class Solution {
    static List<Interval> merge(List<Interval> xs) {
        List<Interval> s = new ArrayList<>(xs);
        s.sort(Comparator.comparingInt(Interval::getStart));
        List<Interval> r = new ArrayList<>();
        for (Interval i : s) {
            if (!r.isEmpty() && r.get(r.size() - 1).end >= i.start) r.get(r.size() - 1).end = Math.max(r.get(r.size() - 1).end, i.end);
            else r.add(new Interval(i.start, i.end));
        }
        return r;
    }
}
""",
        {},
    ),
    "h-test-nested-type": (
        "java",
        """public class Main {
    static class Point { int x, y; Point(int x, int y) { this.x = x; this.y = y; } }
    public static void main(String[] args) {
        Point p = Geo.closest(new Point[] { new Point(5, 5), new Point(1, 1), new Point(3, 0) });
        if (p.x != 1 || p.y != 1) throw new AssertionError();
    }
}
""",
        """class Geo {
    static Main.Point closest(Main.Point[] ps) {
        Main.Point best = null;
        for (Main.Point p : ps) if (best == null || p.x * p.x + p.y * p.y < best.x * best.x + best.y * best.y) best = p;
        return best;
    }
}
""",
        {},
    ),
    "h-listnode-control": (
        "java",
        """class ListNode { int val; ListNode next; ListNode(int v) { val = v; } ListNode(int v, ListNode n) { val = v; next = n; } }
public class Main {
    static ListNode of(int... xs) { ListNode h = null; for (int i = xs.length - 1; i >= 0; i--) h = new ListNode(xs[i], h); return h; }
    public static void main(String[] args) {
        ListNode r = new Solution().reverseList(of(1, 2, 3));
        int[] want = {3, 2, 1};
        for (int w : want) { if (r == null || r.val != w) throw new AssertionError(); r = r.next; }
        if (r != null) throw new AssertionError();
    }
}
""",
        """class Solution {
    public ListNode reverseList(ListNode head) {
        ListNode prev = null;
        while (head != null) { ListNode nx = head.next; head.next = prev; prev = head; head = nx; }
        return prev;
    }
}
""",
        {},
    ),
}  # fmt: skip


BATCH = Batch(
    "round16",
    [
        *from_table(exploit, _NATIVE_EXPLOITS),
        *from_table(control, _NATIVE_CONTROLS),
        *from_table(exploit, _JAVA_EXPLOITS),
        *from_table(control, _JAVA_CONTROLS),
    ],
    timeout_s=600.0,
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c", "cpp", "java")


@pytest.mark.parametrize("name", BATCH.names)
def test_round16(verifier, name):
    BATCH.check(verifier, name)
