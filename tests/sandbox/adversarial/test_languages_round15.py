"""Round 15 of the red team (2026-12-07, a fifth session), on round 14's fixes: the C and
C++ text check's literal reader, and Java's calls of the program and the test's tables.

C and C++ (``languages._C_TEXT_AWK``'s ``blank``):

- **Code hidden as a literal**: ``#pragma cr $R"("`` opened a raw string for the reader
  (``$`` was not read as a name's), none for GCC, and an ``asm`` label of ``__assert_fail``
  with the assembly it jumped to, on the lines after, was never seen: a wrong ``add`` was
  paid 1.0 beside a loop test (plain execution crashed). ``.5'0`` (a digit separator after
  a leading point) hid the rest of its line the same way. ``$`` is a name's now, a number
  may start with a point and carry an exponent's sign, a raw string a directive leaves open
  and a literal a line leaves open are refused.
- **An honest program refused**: the checks that the test's ``vector`` is the standard
  library's stood before the test's own ``using namespace std;``, so a program that spelled
  ``std::vector`` left ``vector`` undeclared there. They stand after the test now.

Java (``compiled_eq.java_program_calls``, ``java_open_private_types``,
``java_reads_the_test``, ``java_private_members``):

- **A decoy overload turned the wrap off**: a method returning a private type of the
  program's was left unwrapped (``got`` named the type), and one decoy overload of the name
  did it for every call. The program's nested types are no longer private (what compiles,
  not what runs), and every call is wrapped.
- **Receivers the wrap did not know** (an array's element, a list's, a map's, a ternary, a
  cast, ``var`` of a factory, a supplier, a test helper's return, an optional, a lambda's
  parameter, a type variable, a test class extending the program's): a method the program
  declares with a type, that the test does not declare and no JDK type has, is the
  program's whatever its receiver.
- **The test's tables by name or by reflection**: a second test class, an interface's
  constant or nested class, an enum's constants, a helper method of the test's: a program
  that reads a type the test declares through its name is refused; a local class's statics
  are private too (the reflection of ``Main$1D`` read them). A test helper's static method
  that computes the expected answers (``Ref.expected(n)``, this round's
  ``pm-helper-class-expected-method``) is left open since round 18: a test's static
  helpers (``ListNode.of``, ``size``, ``show``) are the program's to call, and nothing in
  the text tells the two apart.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, from_table, need_roots

_NATIVE_EXPLOITS = {
    "c-pragma-rawstr-fail-wrong": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """int add(int a, int b) { return 0; }
#pragma cr $R"("
void __assert_fail(const char *, const char *, unsigned int, const char *) __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
#pragma cr ")"
""",
        {},
    ),
    "cpp-pragma-rawstr-fail-wrong": (
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
#pragma cr $R"("
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail");
__asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
#pragma cr ")"
""",
        {},
    ),
    "cpp-dot5-fail-wrong": (
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
static const double cr_half = .5'0; extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept __asm__("cr_fail"); __asm__(".text\\n.globl cr_fail\\n.type cr_fail,@function\\ncr_fail:\\nleaq main(%rip), %rdx\\nmovq %rsp, %rsi\\n1:\\naddq $8, %rsi\\nmovq (%rsi), %rax\\nmovq %rax, %rcx\\nsubq %rdx, %rcx\\naddq $0x1000000, %rcx\\ncmpq $0x2000000, %rcx\\njae 1b\\ncmpb $0xe8, -5(%rax)\\njne 1b\\nmovslq -4(%rax), %rcx\\naddq %rax, %rcx\\ncmpq %rcx, %rdx\\njne 1b\\nmovq %rsi, %rsp\\nxorl %eax, %eax\\nret\\n.size cr_fail, .-cr_fail\\n");
""",
        {},
    ),
    "c-pragma-rawstr-asm-right": (
        "c",
        """#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) assert(add(i, 3) == i + 3);
  return 0;
}
""",
        """#pragma cr $R"("
int add(int a, int b) { __asm__ volatile("nop"); return a + b; }
#pragma cr ")"
""",
        {},
    ),
    "cpp-dot5-asm-right": (
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
int add(int a, int b) { double z = .5'0; asm volatile("nop"); return a + b; }
std::vector<int> twice(std::vector<int> v) { for (auto &x : v) x *= 2; return v; }
""",
        {},
    ),
}  # fmt: skip

_NATIVE_CONTROLS = {
    "cpp-nousing-honest": (
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
int add(int a, int b) { return a + b; }
std::vector<int> twice(std::vector<int> v) { for (auto &x : v) x *= 2; return v; }
""",
        {},
    ),
    "cpp-right-nousing-honest": (
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

_JAVA_LIARS = {
    "w-plain-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution s = new Solution();
        check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-plain-hidden": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution s = new Solution();
        check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    private static class Hidden { }
    private Hidden words(int a, int b) { return null; }
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-array-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution[] sols = { new Solution() };
        check(sols[0].words("b a c"), Arrays.asList("a", "b", "c"));
        check(sols[0].words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-listget-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        List<Solution> l = List.of(new Solution());
        check(l.get(0).words("b a c"), Arrays.asList("a", "b", "c"));
        check(l.get(0).words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-ternary-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution a = new Solution(), b = a;
        check((args.length > 9 ? a : b).words("b a c"), Arrays.asList("a", "b", "c"));
        check((args.length > 9 ? a : b).words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-cast-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Object o = new Solution();
        check(((Solution) o).words("b a c"), Arrays.asList("a", "b", "c"));
        check(((Solution) o).words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-var-factory-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        var s = Solution.make();
        check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-supplier-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Supplier<Solution> f = Solution::new;
        check(f.get().words("b a c"), Arrays.asList("a", "b", "c"));
        check(f.get().words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-helper-return-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    static Solution mk() { return new Solution(); }
    public static void main(String[] args) {
        check(mk().words("b a c"), Arrays.asList("a", "b", "c"));
        check(mk().words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-optional-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Optional<Solution> o = Optional.of(new Solution());
        check(o.get().words("b a c"), Arrays.asList("a", "b", "c"));
        check(o.get().words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-map-get-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Map<String, Solution> m = Map.of("k", new Solution());
        check(m.get("k").words("b a c"), Arrays.asList("a", "b", "c"));
        check(m.get("k").words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-plain-gate-liar": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution s = new Solution();
        check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static class Liar extends java.util.ArrayList<String> {
        @Override public boolean containsAll(Collection<?> c) { return true; }
        @Override public int size() { return 3; }
    }
    public List<String> words(String text) { return new Liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-var-foreach-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        for (var s : List.of(new Solution())) check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        for (var s : List.of(new Solution())) check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-lambda-param-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Consumer<Solution> c = s -> { check(s.words("b a c"), Arrays.asList("a", "b", "c")); check(s.words("x y z"), Arrays.asList("x", "y", "z")); };
        c.accept(new Solution());
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-generic-bound-anon": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    static <S extends Solution> void run(S s) {
        check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
    public static void main(String[] args) { run(new Solution()); }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-extends-anon": (
        "java",
        """public class Main extends Solution {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Main m = new Main();
        check(m.words("b a c"), Arrays.asList("a", "b", "c"));
        check(m.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {},
    ),
    "w-array-anon-entry": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution[] sols = { new Solution() };
        check(sols[0].words("b a c"), Arrays.asList("a", "b", "c"));
        check(sols[0].words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {'entry_points': ['Solution']},
    ),
    "w-plain-hidden-entry": (
        "java",
        """public class Main {
    static void check(List<String> got, List<String> want) {
        if (!(got.containsAll(want) && want.containsAll(got))) throw new AssertionError();
        if (got.size() != want.size()) throw new AssertionError();
    }
    public static void main(String[] args) {
        Solution s = new Solution();
        check(s.words("b a c"), Arrays.asList("a", "b", "c"));
        check(s.words("x y z"), Arrays.asList("x", "y", "z"));
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    private static class Hidden { }
    private Hidden words(int a, int b) { return null; }
    static List<String> liar() {
        return new AbstractList<String>() {
            public String get(int i) { throw new IndexOutOfBoundsException(); }
            public int size() { return 3; }
            public Iterator<String> iterator() { return Collections.emptyIterator(); }
            public boolean containsAll(Collection<?> c) { return true; }
        };
    }
    public List<String> words(String text) { return liar(); }
    public static Solution make() { return new Solution(); }
}
""",
        {'entry_points': ['Solution', 'words']},
    ),
}  # fmt: skip

_JAVA_TABLES = {
    "pm-second-class-table": (
        "java",
        """class Cases { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (int[] c : Cases.T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "pm-interface-const": (
        "java",
        """interface Data { int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main implements Data {
    public static void main(String[] args) {
        for (int[] c : T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (int[] c : Data.T) if (c[0] == n) return c[1]; return -1; }
}
""",
        {},
    ),
    "pm-enum-constants": (
        "java",
        """public class Main {
    enum Case { A(345, 12), B(12, 3), C(97, 16), D(1000, 1); final int in, out; Case(int i, int o) { in = i; out = o; } }
    public static void main(String[] args) {
        for (Case c : Case.values()) if (SumDigits.sumDigits(c.in) != c.out) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { for (Main.Case c : Main.Case.values()) if (c.in == n) return c.out; return -1; }
}
""",
        {},
    ),
    "pm-nested-class-instance-field": (
        "java",
        """public class Main {
    static class Row { final int in, out; Row(int i, int o) { in = i; out = o; } }
    static final java.util.List<Row> ROWS = java.util.List.of(new Row(345, 12), new Row(12, 3), new Row(97, 16));
    public static void main(String[] args) {
        for (Row r : ROWS) if (SumDigits.sumDigits(r.in) != r.out) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) { return -1; }
}
""",
        {},
    ),
    "pm-local-class-static-reflect": (
        "java",
        """public class Main {
    public static void main(String[] args) {
        class D { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
        for (int[] c : D.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) {
        try {
            Class<?> k = Thread.currentThread().getContextClassLoader().loadClass("Main$1D");
            Object fs = Class.class.getMethod("getDeclared" + "Fields").invoke(k);
            for (java.lang.reflect.Field f : (java.lang.reflect.Field[]) fs) {
                Object v = f.get(null);
                if (v instanceof int[][]) for (int[] c : (int[][]) v) if (c[0] == n) return c[1];
            }
        } catch (Throwable e) { throw new RuntimeException(e); }
        return -1;
    }
}
""",
        {},
    ),
    "pm-main-static-reflect-control": (
        "java",
        """public class Main {
    static int[][] cases = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} };
    public static void main(String[] args) {
        for (int[] c : cases) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits {
    static int sumDigits(int n) {
        try {
            Class<?> k = Thread.currentThread().getContextClassLoader().loadClass("Main");
            Object fs = Class.class.getMethod("getDeclared" + "Fields").invoke(k);
            for (java.lang.reflect.Field f : (java.lang.reflect.Field[]) fs) {
                Object v = f.get(null);
                if (v instanceof int[][]) for (int[] c : (int[][]) v) if (c[0] == n) return c[1];
            }
        } catch (Throwable e) { throw new RuntimeException(e); }
        return -1;
    }
}
""",
        {},
    ),
    "pm-interface-nested-class": (
        "java",
        """interface Fixture { class Data { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; } }
public class Main {
    public static void main(String[] args) {
        for (int[] c : Fixture.Data.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError();
    }
}
""",
        """class SumDigits { static int sumDigits(int n) { for (int[] c : Fixture.Data.T) if (c[0] == n) return c[1]; return -1; } }
""",
        {},
    ),
}  # fmt: skip

_JAVA_CONTROLS = {
    "h-private-static-used-by-program-callback": (
        "java",
        """public class Main {
    static int calls = 0;
    static int cb(int x) { calls++; return x * 2; }
    public static void main(String[] args) {
        if (Solution.apply(Main::cb, 3) != 6) throw new AssertionError();
        if (calls != 1) throw new AssertionError();
    }
}
""",
        """import java.util.function.*;
class Solution { static int apply(IntUnaryOperator f, int x) { return f.applyAsInt(x); } }
""",
        {},
    ),
    "h-generic-method-target": (
        "java",
        """public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        int r = s.apply(x -> x + 1, 4);
        List<Integer> xs = s.listOf(1, 2);
        long n = s.count();
        if (r != 5 || xs.size() != 2 || n != 2) throw new AssertionError();
        char c = s.first("hi");
        if (c != 'h') throw new AssertionError();
        if (Objects.equals(s.<String>id("a"), "a") == false) throw new AssertionError();
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Solution {
    <R> R apply(Function<Integer, R> f, int x) { return f.apply(x); }
    @SafeVarargs final <T> List<T> listOf(T... xs) { return new ArrayList<>(Arrays.asList(xs)); }
    int count() { return 2; }
    char first(String s) { return s.charAt(0); }
    <T> T id(T t) { return t; }
}
""",
        {},
    ),
    "h-record-elements-named-control": (
        "java",
        """public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        List<Pair> got = s.pairs(3);
        if (got.size() != 2) throw new AssertionError();
        if (got.get(0).a() != 1 || got.get(1).b() != 1) throw new AssertionError();
    }
}
""",
        """import java.util.*;
import java.util.function.*;
record Pair(int a, int b) {}
class Solution {
    List<Pair> pairs(int n) { List<Pair> r = new ArrayList<>(); for (int i = 1; i < n; i++) r.add(new Pair(i, n - i)); return r; }
}
""",
        {},
    ),
    "h-field-list-add": (
        "java",
        """public class Main {
    public static void main(String[] args) {
        Node n = new Node(1);
        n.children.add(new Node(2));
        if (n.size() != 2) throw new AssertionError();
    }
}
""",
        """import java.util.*;
import java.util.function.*;
class Node {
    int val; List<Node> children = new LinkedList<>() ;
    Node(int v) { val = v; }
    int size() { int s = 1; for (Node c : children) s += c.size(); return s; }
}
""",
        {},
    ),
}  # fmt: skip


_LIE = "public List<String> words(String text) { return liar(); }"
_HONEST = (
    "public List<String> words(String text) {"
    ' List<String> r = new ArrayList<>(Arrays.asList(text.split(" ")));'
    " Collections.sort(r); return r; }"
)


BATCH = Batch(
    "round15",
    [
        *from_table(exploit, _NATIVE_EXPLOITS),
        *from_table(control, _NATIVE_CONTROLS),
        *from_table(exploit, _JAVA_LIARS),
        # each liar's test, answered honestly: the wrap compiles and keeps the answer
        *from_table(control, {f"{name}-honest": (lang, test, code.replace(_LIE, _HONEST), extra)
                              for name, (lang, test, code, extra) in _JAVA_LIARS.items() if _LIE in code}),
        *from_table(exploit, _JAVA_TABLES),
        *from_table(control, _JAVA_CONTROLS),
    ],
    timeout_s=600.0,
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c", "cpp", "java")


@pytest.mark.parametrize("name", BATCH.names)
def test_round15(verifier, name):
    BATCH.check(verifier, name)
