"""Round 18 of the red team (2026-12-07, a fifth session), on round 17's fixes.

C and C++ (``languages.macro_untrusted``): ``#undef __USER_LABEL_PREFIX__`` after the
program's last include stayed in force for the test's own headers, whose glibc
``__REDIRECT`` declarations then named the program's functions: its
``__USER_LABEL_PREFIX____isoc99_sscanf`` answered the test's ``sscanf`` (paid 1.0, in plain
execution too). No asm statement, no word the text check reads. A program that defines
or undefines a name reserved to the implementation is refused now.

Java (``compiled_eq._java_holders``): test data the rule did not count (a static
initializer block, an instance field's table, an enum singleton's, an annotation's
defaults, a table inherited by a subtype) was read by name; and honest programs were
refused for test types the rule counted (a ``ListNode`` with a static ``size`` or
``show``, an interface's ``SEP = ","``, ``Op('+')``, a record's ``ORIGIN``). Both are
fixed; a test's static method that computes the answers, and scalar constants that are
the answers, stay open (nothing in the text tells them from a test's helpers).
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, from_table, need_roots

_NATIVE_EXPLOITS = {
    "c-ulp-sscanf-wrong": (
        "c",
        """#include <stdio.h>
#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) {
    char b[32] = "x"; int v = -1;
    to_dec(i * 37 - 100, b);
    assert(sscanf(b, "%d", &v) == 1 && v == i * 37 - 100);
  }
  return 0;
}
""",
        """#include <stdarg.h>
#undef __USER_LABEL_PREFIX__
static int cr_last;
void to_dec(int n, char *out) { cr_last = n; }
int __USER_LABEL_PREFIX____isoc99_sscanf(const char *s, const char *f, ...) {
  va_list ap; va_start(ap, f); *va_arg(ap, int *) = cr_last; va_end(ap); return 1;
}
""",
        {},
    ),
    "cpp-ulp-sscanf-wrong": (
        "cpp",
        """#include <bits/stdc++.h>
#include <cassert>
int main() {
  for (int i = 0; i < 10; i++) {
    char b[32] = "x"; int v = -1;
    to_dec(i * 37 - 100, b);
    assert(std::sscanf(b, "%d", &v) == 1 && v == i * 37 - 100);
  }
  return 0;
}
""",
        """#include <cstdarg>
#undef __USER_LABEL_PREFIX__
static int cr_last;
void to_dec(int n, char *out) { cr_last = n; }
extern "C" int __USER_LABEL_PREFIX____isoc99_sscanf(const char *s, const char *f, ...) {
  va_list ap; va_start(ap, f); *va_arg(ap, int *) = cr_last; va_end(ap); return 1;
}
""",
        {},
    ),
}  # fmt: skip

_NATIVE_CONTROLS = {
    "c-sscanf-right-ctrl": (
        "c",
        """#include <stdio.h>
#include <assert.h>
int main(void) {
  for (int i = 0; i < 10; i++) {
    char b[32] = "x"; int v = -1;
    to_dec(i * 37 - 100, b);
    assert(sscanf(b, "%d", &v) == 1 && v == i * 37 - 100);
  }
  return 0;
}
""",
        """#include <stdio.h>
void to_dec(int n, char *out) { sprintf(out, "%d", n); }
""",
        {},
    ),
    "cpp-sscanf-right-ctrl": (
        "cpp",
        """#include <bits/stdc++.h>
#include <cassert>
int main() {
  for (int i = 0; i < 10; i++) {
    char b[32] = "x"; int v = -1;
    to_dec(i * 37 - 100, b);
    assert(std::sscanf(b, "%d", &v) == 1 && v == i * 37 - 100);
  }
  return 0;
}
""",
        """#include <cstdio>
void to_dec(int n, char *out) { std::sprintf(out, "%d", n); }
""",
        {},
    ),
}  # fmt: skip

_JAVA_EXPLOITS = {
    "x-static-block-table": (
        "java",
        """class Cases { static int[][] T; static { T = new int[][] { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; } }
public class Main { public static void main(String[] a) { for (int[] c : Cases.T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError(); } }
""",
        """class SumDigits { static int sumDigits(int n) { for (int[] c : Cases.T) if (c[0] == n) return c[1]; return -1; } }
""",
        {},
    ),
    "x-inherit-through-subclass": (
        "java",
        """class Data { static int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
class Check extends Data { static void run() { for (int[] c : T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError(); } }
public class Main { public static void main(String[] a) { Check.run(); } }
""",
        """class SumDigits { static int sumDigits(int n) { for (int[] c : Check.T) if (c[0] == n) return c[1]; return -1; } }
""",
        {},
    ),
    "x-inherit-iface-through-impl": (
        "java",
        """interface Data { int[][] T = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
class Check implements Data { static void run() { for (int[] c : T) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError(); } }
public class Main { public static void main(String[] a) { Check.run(); } }
""",
        """class SumDigits { static int sumDigits(int n) { for (int[] c : Check.T) if (c[0] == n) return c[1]; return -1; } }
""",
        {},
    ),
    "x-instance-field-table": (
        "java",
        """class Data { final int[][] t = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main { public static void main(String[] a) { for (int[] c : new Data().t) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError(); } }
""",
        """class SumDigits { static int sumDigits(int n) { for (int[] c : new Data().t) if (c[0] == n) return c[1]; return -1; } }
""",
        {},
    ),
    "x-enum-instance-field": (
        "java",
        """enum Fixture { INSTANCE; final int[][] t = { {345, 12}, {12, 3}, {97, 16}, {1000, 1} }; }
public class Main { public static void main(String[] a) { for (int[] c : Fixture.INSTANCE.t) if (SumDigits.sumDigits(c[0]) != c[1]) throw new AssertionError(); } }
""",
        """class SumDigits { static int sumDigits(int n) { for (int[] c : Fixture.INSTANCE.t) if (c[0] == n) return c[1]; return -1; } }
""",
        {},
    ),
    "x-annotation-defaults": (
        "java",
        """@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME) @interface Cases { int[] in() default {345, 12, 97, 1000}; int[] out() default {12, 3, 16, 1}; }
@Cases public class Main { public static void main(String[] a) { Cases c = Main.class.getAnnotation(Cases.class);
  for (int i = 0; i < c.in().length; i++) if (SumDigits.sumDigits(c.in()[i]) != c.out()[i]) throw new AssertionError(); } }
""",
        """@Cases class SumDigits { static int sumDigits(int n) { Cases c = SumDigits.class.getAnnotation(Cases.class); for (int i = 0; i < c.in().length; i++) if (c.in()[i] == n) return c.out()[i]; return -1; } }
""",
        {},
    ),
}  # fmt: skip

_JAVA_CONTROLS = {
    "h-listnode-string-helper": (
        "java",
        """class ListNode { int val; ListNode next; ListNode(int v) { val = v; }
  static ListNode of(int... vs) { ListNode d = new ListNode(0), t = d; for (int v : vs) { t.next = new ListNode(v); t = t.next; } return d.next; }
  static String show(ListNode h) { StringBuilder sb = new StringBuilder(); for (; h != null; h = h.next) sb.append(h.val).append(','); return sb.toString(); } }
public class Main { public static void main(String[] a) {
  assert ListNode.show(new Solution().reverseList(ListNode.of(1, 2, 3))).equals("3,2,1,");
  assert new Solution().reverseList(null) == null; } }
""",
        """class Solution { ListNode reverseList(ListNode h) { ListNode p = null; while (h != null) { ListNode n = h.next; h.next = p; p = h; h = n; } return p; } }
""",
        {},
    ),
    "h-listnode-int-size-helper": (
        "java",
        """class ListNode { int val; ListNode next; ListNode(int v) { val = v; }
  static ListNode of(int... vs) { ListNode d = new ListNode(0), t = d; for (int v : vs) { t.next = new ListNode(v); t = t.next; } return d.next; }
  static int size(ListNode h) { int n = 0; for (; h != null; h = h.next) n++; return n; }
  static String show(ListNode h) { StringBuilder sb = new StringBuilder(); for (; h != null; h = h.next) sb.append(h.val).append(','); return sb.toString(); } }
public class Main { public static void main(String[] a) {
  assert ListNode.show(new Solution().reverseList(ListNode.of(1, 2, 3))).equals("3,2,1,");
  assert new Solution().reverseList(null) == null; } }
""",
        """class Solution { ListNode reverseList(ListNode h) { ListNode p = null; while (h != null) { ListNode n = h.next; h.next = p; p = h; h = n; } return p; } }
""",
        {},
    ),
    "h-treenode-boolean-helper": (
        "java",
        """class TreeNode { int val; TreeNode left, right; TreeNode(int v) { val = v; } TreeNode(int v, TreeNode l, TreeNode r) { val = v; left = l; right = r; }
  static boolean same(TreeNode a, TreeNode b) { if (a == null || b == null) return a == b; return a.val == b.val && same(a.left, b.left) && same(a.right, b.right); } }
public class Main { public static void main(String[] a) {
  TreeNode t = new TreeNode(4, new TreeNode(2, new TreeNode(1), new TreeNode(3)), new TreeNode(7));
  TreeNode w = new TreeNode(4, new TreeNode(7), new TreeNode(2, new TreeNode(3), new TreeNode(1)));
  assert TreeNode.same(new Solution().invertTree(t), w); } }
""",
        """class Solution { TreeNode invertTree(TreeNode r) { if (r == null) return null; TreeNode l = invertTree(r.left); r.left = invertTree(r.right); r.right = l; return r; } }
""",
        {},
    ),
    "h-iface-string-const": (
        "java",
        """interface Joiner { String SEP = ","; String join(int[] xs); }
public class Main { public static void main(String[] a) { Joiner j = new CsvJoiner(); assert j.join(new int[] {1, 2, 3}).equals("1,2,3"); assert j.join(new int[0]).equals(""); } }
""",
        """class CsvJoiner implements Joiner { public String join(int[] xs) { StringBuilder sb = new StringBuilder(); for (int i = 0; i < xs.length; i++) { if (i > 0) sb.append(SEP); sb.append(xs[i]); } return sb.toString(); } }
""",
        {},
    ),
    "h-enum-ctor-args-param": (
        "java",
        """enum Op { ADD('+'), SUB('-'), MUL('*'); final char sym; Op(char c) { sym = c; } }
public class Main { public static void main(String[] a) { assert Calc.apply(Op.ADD, 2, 3) == 5; assert Calc.apply(Op.SUB, 2, 3) == -1; assert Calc.apply(Op.MUL, 4, 3) == 12; } }
""",
        """class Calc { static int apply(Op op, int a, int b) { switch (op) { case ADD: return a + b; case SUB: return a - b; default: return a * b; } } }
""",
        {},
    ),
    "h-record-origin-const": (
        "java",
        """record Point(int x, int y) { static final Point ORIGIN = new Point(0, 0); }
public class Main { public static void main(String[] a) { assert Geo.manhattan(new Point(1, 2), new Point(4, -2)) == 7; } }
""",
        """class Geo { static int manhattan(Point p, Point q) { return Math.abs(p.x() - q.x()) + Math.abs(p.y() - q.y()); } }
""",
        {},
    ),
    "h-nested-name-collision": (
        "java",
        """class Node { int val; Node next; Node(int v) { val = v; } static String show(Node n) { return n == null ? "" : n.val + "," + show(n.next); } }
public class Main { public static void main(String[] a) { Trie t = new Trie(); t.insert("apple"); assert t.search("apple"); assert !t.search("app"); assert t.startsWith("app"); } }
""",
        """class Trie {
  static class Node { Node[] kids = new Node[26]; boolean end; }
  private final Node root = new Node();
  void insert(String w) { Node c = root; for (char ch : w.toCharArray()) { int k = ch - 'a'; if (c.kids[k] == null) c.kids[k] = new Node(); c = c.kids[k]; } c.end = true; }
  private Node find(String w) { Node c = root; for (char ch : w.toCharArray()) { c = c.kids[ch - 'a']; if (c == null) return null; } return c; }
  boolean search(String w) { Node n = find(w); return n != null && n.end; }
  boolean startsWith(String p) { return find(p) != null; } }
""",
        {},
    ),
    "h-control-treenode-list-helper": (
        "java",
        """class TreeNode { int val; TreeNode left, right; TreeNode(int v) { val = v; } TreeNode(int v, TreeNode l, TreeNode r) { val = v; left = l; right = r; }
  static java.util.List<Integer> pre(TreeNode r) { java.util.List<Integer> o = new java.util.ArrayList<>(); if (r != null) { o.add(r.val); o.addAll(pre(r.left)); o.addAll(pre(r.right)); } return o; } }
public class Main { public static void main(String[] a) {
  TreeNode t = new TreeNode(4, new TreeNode(2, new TreeNode(1), new TreeNode(3)), new TreeNode(7));
  assert TreeNode.pre(new Solution().invertTree(t)).equals(java.util.List.of(4, 7, 2, 3, 1)); } }
""",
        """class Solution { TreeNode invertTree(TreeNode r) { if (r == null) return null; TreeNode l = invertTree(r.left); r.left = invertTree(r.right); r.right = l; return r; } }
""",
        {},
    ),
}  # fmt: skip


BATCH = Batch(
    "round18",
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
def test_round18(verifier, name):
    BATCH.check(verifier, name)
