"""Round 17 of the red team (2026-12-07, a fifth session), on round 16's fixes.

C and C++: an ``asm`` label of ``__assert_fail`` and the assembly it named were hidden from
the text check four more ways: ``1'$'`` and ``1'é'`` (GCC ends a number before ``'``
unless a letter, digit or ``_`` follows), ``"a"R"("`` (a literal's suffix, not a raw
string), and a form feed before ``# 1 "/usr/include/cr.h" 1 3 4``, ``#line`` or
``#define`` (GCC's horizontal space; the checks knew spaces and tabs). Each is closed in
the reader or the directive checks, and the unit now compiles to assembly first: any asm
statement leaves ``#APP`` in GCC's own output, which is refused whatever the text said.

Java (``compiled_eq.java_reads_the_test``): the test's tables read through a qualified
cast (``((Main.Case) null)``), an enum's constants (``EnumSet.complementOf``,
``getEnumConstants``, ``new Case[0].getClass()``) and a generic expression
(``Optional.<Cases>empty()``). A program now may not name a test type that holds data at
all; the test's other types are its to use, and nine honest programs and tests the rounds
before refused or broke (``extends VersionControl``, ``Op.values()``, ``ListNode.of``, an
interface's ``EPS``, a test's ``Util::isSorted`` from another class) pass.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, from_table, need_roots

_NATIVE_EXPLOITS = {
    "cpp-dsep-fail-wrong": (
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
[[cr::x(1'$')]] int cr_z1; extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail"); __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n"); [[cr::y('\\'')]] int cr_z2;
""",
        {},
    ),
    "cpp-usep-fail-wrong": (
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
[[cr::x(1'é')]] int cr_z1; extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail"); __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n"); [[cr::y('\\'')]] int cr_z2;
""",
        {},
    ),
    "cpp-udr-fail-wrong": (
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
[[cr::x("a"R"(")]] int cr_z1;
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
const char *cr_e = ")";
""",
        {},
    ),
    "cpp-dsep-asm-right": (
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
[[cr::x(1'$')]] int cr_z1; int add(int a, int b) { __asm__ volatile("nop"); return a + b; } [[cr::y('\\'')]] int cr_z2;
""",
        {},
    ),
    "cpp-udr-asm-right": (
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
[[cr::x("a"R"(")]] int cr_z1;
int add(int a, int b) { __asm__ volatile("nop"); return a + b; }
const char *cr_e = ")";
""",
        {},
    ),
    "cpp-plain-fail-wrong-ctrl": (
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
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail"); __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
""",
        {},
    ),
    "c-ffmark-fail-wrong": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """int add(int a, int b) { return 0; }
# 1 "/usr/include/cr.h" 1 3 4
void __assert_fail(const char *, const char *, unsigned int, const char *) __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
""",
        {},
    ),
    "c-ffline-fail-wrong": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """int add(int a, int b) { return 0; }
#line 100000 "cr.c"
void __assert_fail(const char *, const char *, unsigned int, const char *) __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
""",
        {},
    ),
    "cpp-ffmark-fail-wrong": (
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
# 1 "/usr/include/cr.h" 1 3 4
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
""",
        {},
    ),
    "c-ffdefine-fail-wrong": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """#include <sys/cdefs.h>
#undef __THROW
#define __THROW __asm__("cr_fail")
#undef __END_DECLS
#define __END_DECLS __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
#include <assert.h>
int add(int a, int b) { return 0; }
""",
        {},
    ),
    "c-ffmark-asm-right": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """# 1 "/usr/include/cr.h" 1 3 4
int add(int a, int b) { __asm__ volatile("nop"); return a + b; }
""",
        {},
    ),
    "c-plain-fail-wrong-ctrl": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """int add(int a, int b) { return 0; }
void __assert_fail(const char *, const char *, unsigned int, const char *) __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
""",
        {},
    ),
}  # fmt: skip

_NATIVE_CONTROLS = {
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
}  # fmt: skip

_JAVA_EXPLOITS = {
    "x-qualified-cast-nested-enum": (
        "java",
        """public class Main {
    enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (Main.Case c : ((Main.Case) null).values()) if (c.in == n) return c.out; return -1; }
}
""",
        {},
    ),
    "x-qualified-cast-nested-table": (
        "java",
        """public class Main {
    static class Cases { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
    public static void main(String[] args) { Check.run(); }
}
class Check {
    static void run() { for (int[] c : Main.Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError(); }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (int[] c : ((Main.Cases) null).T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "x-enum-const-complementof": (
        "java",
        """enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
public class Main {
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """import java.util.*;
class SumDigits {
    static int sumDigits(int n) {
        EnumSet<Case> s = EnumSet.of(Case.A); s.addAll(EnumSet.complementOf(s));
        for (Case c : s) if (c.in == n) return c.out; return -1;
    }
}
""",
        {},
    ),
    "x-enum-const-paren-member": (
        "java",
        """enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
public class Main {
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (Case c : (Case.A).getDeclaringClass().getEnumConstants()) if (c.in == n) return c.out; return -1; }
}
""",
        {},
    ),
    "x-enum-array-class": (
        "java",
        """enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
public class Main {
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """import java.util.*;
class SumDigits {
    @SuppressWarnings("unchecked")
    static int sumDigits(int n) {
        Class<Case> k = (Class<Case>) new Case[0].getClass().getComponentType();
        for (Case c : EnumSet.allOf(k)) if (c.in == n) return c.out; return -1;
    }
}
""",
        {},
    ),
    "x-generic-optional-expr": (
        "java",
        """class Cases { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """import java.util.*;
class SumDigits {
    static int sumDigits(int n) { for (int[] c : Optional.<Cases>empty().orElse(null).T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
}  # fmt: skip

_JAVA_CONTROLS = {
    "h-first-bad-version": (
        "java",
        """class VersionControl {
    static int bad;
    boolean isBadVersion(int v) { return v >= bad; }
}
public class Main {
    public static void main(String[] args) {
        for (int n = 1; n <= 50; n++) for (int b = 1; b <= n; b++) {
            VersionControl.bad = b;
            if (new Solution().firstBadVersion(n) != b) throw new AssertionError(n + " " + b);
        }
    }
}
""",
        """class Solution extends VersionControl {
    public int firstBadVersion(int n) {
        int lo = 1, hi = n;
        while (lo < hi) { int mid = lo + (hi - lo) / 2; if (isBadVersion(mid)) hi = mid; else lo = mid + 1; }
        return lo;
    }
}
""",
        {},
    ),
    "h-enum-values": (
        "java",
        """enum Direction { NORTH, EAST, SOUTH, WEST }
public class Main {
    public static void main(String[] args) {
        if (Robot.turnRight(Direction.NORTH) != Direction.EAST) throw new AssertionError();
        if (Robot.turnRight(Direction.WEST) != Direction.NORTH) throw new AssertionError();
    }
}
""",
        """class Robot {
    static Direction turnRight(Direction d) { Direction[] all = Direction.values(); return all[(d.ordinal() + 1) % all.length]; }
}
""",
        {},
    ),
    "h-enum-valueof": (
        "java",
        """enum Op { ADD, SUB, MUL }
public class Main {
    public static void main(String[] args) {
        if (Calc.parse("add") != Op.ADD) throw new AssertionError();
        if (Calc.parse("MUL") != Op.MUL) throw new AssertionError();
    }
}
""",
        """class Calc {
    static Op parse(String s) { return Op.valueOf(s.toUpperCase()); }
}
""",
        {},
    ),
    "h-enum-switch-control": (
        "java",
        """enum Op { ADD, SUB, MUL }
public class Main {
    public static void main(String[] args) {
        if (Calc.apply(Op.ADD, 2, 3) != 5) throw new AssertionError();
        if (Calc.apply(Op.MUL, 2, 3) != 6) throw new AssertionError();
    }
}
""",
        """class Calc {
    static int apply(Op op, int a, int b) { switch (op) { case ADD: return a + b; case SUB: return a - b; default: return a * b; } }
}
""",
        {},
    ),
    "h-test-static-methodref": (
        "java",
        """class Util {
    static boolean isSorted(int[] a) { for (int i = 1; i < a.length; i++) if (a[i - 1] > a[i]) return false; return true; }
}
public class Main {
    public static void main(String[] args) {
        java.util.List<int[]> outs = java.util.List.of(Sorter.sort(new int[] {3, 1, 2}), Sorter.sort(new int[] {5, 4}));
        if (!outs.stream().allMatch(Util::isSorted)) throw new AssertionError();
    }
}
""",
        """import java.util.*;
class Sorter { static int[] sort(int[] a) { int[] b = a.clone(); Arrays.sort(b); return b; } }
""",
        {},
    ),
    "h-test-static-witness": (
        "java",
        """class Util {
    static <T> T first(java.util.List<T> l) { return l.get(0); }
}
public class Main {
    public static void main(String[] args) {
        if (Util.<Integer>first(Sorter.sorted(java.util.List.of(3, 1, 2))) != 1) throw new AssertionError();
    }
}
""",
        """import java.util.*;
class Sorter { static List<Integer> sorted(List<Integer> a) { List<Integer> b = new ArrayList<>(a); Collections.sort(b); return b; } }
""",
        {},
    ),
    "h-anon-subclass-static": (
        "java",
        """abstract class Case {
    static boolean near(double a, double b) { return Math.abs(a - b) < 1e-9; }
    abstract boolean run();
}
public class Main {
    public static void main(String[] args) {
        Case[] cases = {
            new Case() { boolean run() { return near(Geo.area(1.0), Math.PI); } },
            new Case() { boolean run() { return near(Geo.area(2.0), 4 * Math.PI); } },
        };
        for (Case c : cases) if (!c.run()) throw new AssertionError();
    }
}
""",
        """class Geo { static double area(double r) { return Math.PI * r * r; } }
""",
        {},
    ),
    "h-implements-iface-const": (
        "java",
        """interface Shape { double EPS = 1e-9; double area(); }
public class Main {
    public static void main(String[] args) {
        Shape s = new Circle(1.0);
        if (Math.abs(s.area() - Math.PI) > Shape.EPS) throw new AssertionError();
    }
}
""",
        """class Circle implements Shape {
    private final double r;
    Circle(double r) { this.r = r; }
    public double area() { return Math.PI * r * r; }
}
""",
        {},
    ),
    "h-listnode-static-of": (
        "java",
        """class ListNode {
    int val; ListNode next;
    ListNode(int v) { val = v; }
    static ListNode of(int... vs) { ListNode d = new ListNode(0), t = d; for (int v : vs) { t.next = new ListNode(v); t = t.next; } return d.next; }
}
public class Main {
    public static void main(String[] args) {
        ListNode r = new Solution().reverse(ListNode.of(1, 2, 3));
        if (r.val != 3 || r.next.val != 2 || r.next.next.val != 1) throw new AssertionError();
    }
}
""",
        """class Solution {
    ListNode reverse(ListNode h) {
        java.util.List<Integer> vs = new java.util.ArrayList<>();
        for (ListNode p = h; p != null; p = p.next) vs.add(0, p.val);
        return ListNode.of(vs.stream().mapToInt(Integer::intValue).toArray());
    }
}
""",
        {},
    ),
    "h-static-through-instance": (
        "java",
        """class Counter { static int made; Counter() { made++; } }
class Check {
    static void run() { Counter c = new Counter(); if (c.made != 1) throw new AssertionError(); if (Adder.add(2, 3) != 5) throw new AssertionError(); }
}
public class Main { public static void main(String[] args) { Check.run(); } }
""",
        """class Adder { static int add(int a, int b) { return a + b; } }
""",
        {},
    ),
}  # fmt: skip


BATCH = Batch(
    "round17",
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
def test_round17(verifier, name):
    BATCH.check(verifier, name)
