"""Exploits of assert tests in the compiled languages (issue 13), and honest controls.

An assert test in C, C++, Java, JavaScript, TypeScript, Go or Rust is the program and the
test code built as one unit (CONTRACT.md, "Other languages"), so the program shares the
test's process. Each exploit below is a wrong ``add`` that tries to be paid anyway:

- early exits with status 0: ``exit``/``_Exit``/``quick_exit`` from a global constructor,
  ``__attribute__((constructor))``, inside the function, or a SIGABRT handler that exits
  0 when the failed ``assert`` aborts; Java's ``static {}`` block, ``halt(0)``, a shutdown
  hook, an uncaught-exception handler; Go's ``init`` and ``os.Exit(0)`` in the function;
  JavaScript's ``process.exit(0)``, an ``uncaughtException`` handler, an ``exit`` handler
  that resets the exit code; Rust's ``std::process::exit(0)`` and a panic hook that exits
  0;
- redefined assertions: ``#define assert(x)``, ``#define NDEBUG``, ``#define main``;
  ``console.assert = ...``, patched ``assert.strictEqual``, ``assert.deepEqual`` and
  lodash's ``isEqual``; an ``assert`` or lodash of the program's own put in
  ``require.cache``, a patched ``Module._load``, the module's ``require`` replaced through
  ``eval``; a shadowing ``macro_rules! assert_eq`` and ``vec``; Go's test
  flags set from ``init`` so that no test runs;
- a forged report: the program writes a guess of the pass report on fd 3 itself, or the
  nonce read from a file name of its working folder (Java's harness class once carried it).
- Java's names: a type of the program named like a JDK type the test uses unqualified
  (``class Arrays`` whose ``asList`` makes the expected values empty, spelled plainly,
  after a comment, as ``\\u0041rrays``, with a U+200B javac ignores, or after a line
  comment ended by a lone carriage return), which beats ``import java.util.*``; a type
  named ``java``, which hides the java package (refused as ``compile_error``).
- Java's comparator: a ``java.lang.reflect.Proxy`` made in the bootstrap loader (its
  handler answered ``equals`` as if it were JDK code), as the result or as its elements;
  ``Collections.unmodifiableSet`` of a set whose ``contains`` says yes (the comparator
  asked the wrapper ``contains(expected)``).

Every exploit must earn a failing verdict and reward 0; every control (honest programs,
including ones with their own macros, classes, static blocks, init functions and
``console.assert``) must be accepted with reward 1 (``cases.judge``).
"""

from __future__ import annotations

import pytest

from reward_api.verify.languages import COMPILED, default_root
from tests.sandbox.adversarial.cases import Batch, Case, control, exploit


def _problem(language: str, test: str) -> dict[str, object]:
    return {"language": language, "tests": [{"type": "assert", "code": test}]}


C_TEST = (
    "int main() {\n    assert(add(2, 3) == 5);\n    assert(add(-1, 1) == 0);\n    return 0;\n}\n"
)
C = _problem("c", C_TEST)
CPP = _problem("cpp", C_TEST)
CPP_MBXP = _problem(
    "cpp",
    "int main(int argc, char* argv[]) {\n    int x0 = add(2, 3);\n"
    '    if (!(x0 == 5)) {\n        throw runtime_error("test 0");\n    }\n}\n',
)
JAVA = _problem(
    "java",
    "public class Main {\n    public static void main(String[] args) throws Exception {\n"
    '        if (Add.add(2, 3) != 5) throw new Exception("test 0");\n'
    "        assert Add.add(-1, 1) == 0;\n    }\n}\n",
)
# MBXP's shape: expected values built with Arrays.asList, compared by the test's equals
JAVA_LISTS = _problem(
    "java",
    "class Main {\n    public static boolean compare(Object obj1, Object obj2) {\n"
    "        return obj1 == null ? obj2 == null : obj1.equals(obj2);\n    }\n"
    "    public static void main(String[] args) throws Exception {\n"
    "        List<Integer> x0 = Similar.similar(Arrays.asList(3, 4, 5, 6), Arrays.asList(5, 7, 4, 10));\n"
    "        List<Integer> v0 = Arrays.asList(4, 5);\n"
    '        if (!(compare(x0, v0))) throw new java.lang.Exception("test 0");\n'
    "    }\n}\n",
)
JAVA_SETS = _problem(
    "java",
    "public class Main {\n    public static void main(String[] args) {\n"
    "        Set<Integer> want = new HashSet<>(Arrays.asList(4, 5));\n"
    "        if (!want.equals(Similar.common(Arrays.asList(3, 4, 5, 6), Arrays.asList(5, 7, 4, 10)))) {\n"
    "            throw new AssertionError();\n        }\n    }\n}\n",
)
JAVA_STACK = {
    **_problem(
        "java",
        "public class Main {\n    public static void main(String[] args) {\n"
        "        Stack s = new Stack();\n        s.push(3);\n"
        "        if (s.top() != 3) throw new AssertionError();\n    }\n}\n",
    ),
    "entry_points": ["Stack"],
}
JAVA_LISTS_HEAD = "import java.util.*;\n\n"
JAVA_LISTS_OK = (
    "class Similar {\n    static List<Integer> similar(List<Integer> a, List<Integer> b) {\n"
    "        List<Integer> r = new ArrayList<>();\n"
    "        for (int x : new TreeSet<>(a)) if (b.contains(x)) r.add(x);\n        return r;\n    }\n}\n"
)
JAVA_LISTS_BAD = "class Similar {\n    static List<Integer> similar(List<Integer> a, List<Integer> b) { return new ArrayList<>(); }\n}\n"
JAVA_SHADOW = (
    "{\n    @SafeVarargs\n    static <T> List<T> asList(T... a) { return new ArrayList<>(); }\n}\n"
)
JAVA_PROXY = (
    "class Fake {\n    static Object any(Class<?> iface) {\n"
    "        return java.lang.reflect.Proxy.newProxyInstance(null, new Class<?>[] {iface}, (p, m, a) -> {\n"
    "            switch (m.getName()) {\n"
    '                case "equals": return Boolean.TRUE;\n                case "hashCode": return 0;\n'
    '                case "toString": return "[]";\n                case "iterator": return new It();\n'
    "                default: return null;\n            }\n        });\n    }\n}\n"
    "class It implements Iterator<Object> {\n    private boolean asked;\n"
    "    public boolean hasNext() { boolean r = !asked; asked = true; return r; }\n"
    "    public Object next() { asked = false; return Fake.any(Comparable.class); }\n}\n"
)
JS_TEST = (
    "const assert = require('assert');\n"
    "assert.strictEqual(add(2, 3), 5);\nassert.deepEqual([add(1, 1)], [2]);\n"
    "console.assert(add(-1, 1) === 0);\n"
)
JS = _problem("javascript", JS_TEST)
JS_LODASH = _problem(
    "javascript",
    "const _ = require('lodash');\nif (!_.isEqual([add(2, 3)], [5])) { throw 'test 0'; }\n",
)
TS = _problem(
    "typescript",
    "import * as assert from 'assert';\nassert.deepEqual(add(2, 3), 5);\n"
    "console.assert(add(-1, 1) === 0);\n",
)
GO_MAIN = _problem("go", 'func main() {\n\tif add(2, 3) != 5 {\n\t\tpanic("test 0")\n\t}\n}\n')
# MBXP's shape: its prompt imports encoding/json and reflect for the test's deepCompare
GO_MBXP = _problem(
    "go",
    "\n\nfunc deepCompare(a interface{}, b interface{}, msg string) bool {\n"
    "\taJSON, err := json.Marshal(a)\n\tif err != nil {\n\t\tpanic(msg)\n\t}\n"
    "\tbJSON, err := json.Marshal(b)\n\tif err != nil {\n\t\tpanic(msg)\n\t}\n"
    "\tvar a2 interface{}\n\tvar b2 interface{}\n\terr = json.Unmarshal(aJSON, &a2)\n"
    "\tif err != nil {\n\t\tpanic(msg)\n\t}\n\terr = json.Unmarshal(bJSON, &b2)\n"
    "\tif err != nil {\n\t\tpanic(msg)\n\t}\n\tif reflect.DeepEqual(a2, b2) {\n\t\treturn true\n"
    '\t}\n\tpanic(msg)\n}\n\nfunc main() {\n\tdeepCompare(add(2, 3), 5, "test 0")\n'
    '\tdeepCompare(add(-1, 1), 0, "test 1")\n}\n',
)
GO_MBXP_HEAD = 'package main\n\nimport (\n\t"encoding/json"\n\t"reflect"\n)\n'
# HumanEval-X's shape: testify's assert.New
GO_TESTIFY = _problem(
    "go",
    "func TestAdd(t *testing.T) {\n\tassert := assert.New(t)\n\tassert.Equal(5, add(2, 3))\n"
    "\tassert.Equal(0, add(-1, 1))\n}\n",
)
GO_TESTIFY_HEAD = (
    'package main\n\nimport (\n\t"testing"\n\t"github.com/stretchr/testify/assert"\n)\n'
)
GO_TEST = _problem(
    "go", 'func TestAdd(t *testing.T) {\n\tif add(2, 3) != 5 {\n\t\tt.Fatal("test 0")\n\t}\n}\n'
)
RUST = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_add() {\n"
    "        assert_eq!(add(2, 3), 5);\n        assert!(add(-1, 1) == 0);\n"
    "        assert_eq!(vec![add(1, 1)], vec![2]);\n    }\n}\n",
)
RUST_EQ = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_add() {\n"
    "        assert_eq!(add(2, 3), 5);\n        assert_eq!(add(-1, 1), 0);\n        assert_eq!(add(10, 20), 30);\n    }\n}\n",
)
RUST_TWO = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn a_first() { assert_eq!(add(2, 3), 5); }\n\n"
    "    #[test]\n    fn b_second() { assert_eq!(mul(2, 3), 6); }\n}\n",
)  # fmt: skip
# Interposes libc's write (a #[no_mangle] definition in the executable wins over libc's):
# when the first test passes, the guard's report goes through it, so the program keeps its
# first 33 bytes (the secret and a space), and in the second test, which it fails, it
# writes that secret with the second test's name and exits 0. Accepted by the guard that
# wrote through std's File (before 87d52f2); the guard's raw syscall never reaches it.
RUST_WRITE_INTERPOSED = """use std::sync::atomic::{AtomicUsize, Ordering};
static mut SEEN: [u8; 33] = [0; 33];
static HAVE: AtomicUsize = AtomicUsize::new(0);
unsafe fn sys_write(fd: isize, buf: *const u8, n: usize) -> isize {
    let r: isize;
    std::arch::asm!("syscall", inlateout("rax") 1isize => r, in("rdi") fd, in("rsi") buf, in("rdx") n,
                    lateout("rcx") _, lateout("r11") _, options(nostack));
    r
}
#[no_mangle]
pub unsafe extern "C" fn write(fd: i32, buf: *const u8, n: usize) -> isize {
    if fd == 3 && n >= 33 && HAVE.load(Ordering::SeqCst) == 0 {
        std::ptr::copy_nonoverlapping(buf, SEEN.as_mut_ptr(), 33);
        HAVE.store(1, Ordering::SeqCst);
    }
    sys_write(fd as isize, buf, n)
}
fn add(a: i32, b: i32) -> i32 { a + b }
fn mul(_a: i32, _b: i32) -> i32 {
    unsafe {
        if HAVE.load(Ordering::SeqCst) == 1 {
            let mut line = SEEN.to_vec();
            line.extend_from_slice(b"b_second\n");
            sys_write(3, line.as_ptr(), line.len());
            std::process::exit(0);
        }
    }
    0
}
"""
# A trait at the crate root, where the guard lives, answers method calls on the guard's
# buffer before the slice's own methods would (the guard calls none by method syntax).
RUST_TRAIT_CAPTURE = """trait Grab { fn as_ptr(&self) -> *const u8; fn len(&self) -> usize; fn iter_mut(&mut self) -> std::slice::IterMut<'_, u8>; }
impl Grab for &[u8] { fn as_ptr(&self) -> *const u8 { std::process::exit(0) } fn len(&self) -> usize { std::process::exit(0) } fn iter_mut(&mut self) -> std::slice::IterMut<'_, u8> { std::process::exit(0) } }
impl Grab for [u8; 33] { fn as_ptr(&self) -> *const u8 { std::process::exit(0) } fn len(&self) -> usize { std::process::exit(0) } fn iter_mut(&mut self) -> std::slice::IterMut<'_, u8> { std::process::exit(0) } }
fn add(a: i32, b: i32) -> i32 { a + b }
fn mul(_a: i32, _b: i32) -> i32 { 0 }
"""

# A foreign (non-Rust) exception raised in add unwinds through the test with
# thread::panicking() false: the guard's Drop reported it as a pass; libtest then cannot
# catch it and aborts, and the program's own abort exits 0. The second one runs each
# test in a process of its own (--skip the ones done, exec) to collect every line.
RUST_FOREIGN_RAISE = """#[repr(C)]
pub struct UnwEx { class: u64, cleanup: usize, private: [u64; 2] }
extern { fn _Unwind_RaiseException(e: *mut UnwEx) -> i32; }
fn raise() {
    let e = Box::leak(Box::new(UnwEx { class: 0x4641_4b45_0000_0000, cleanup: 0, private: [0; 2] }));
    unsafe { _Unwind_RaiseException(e); }
}
fn add(_a: i32, _b: i32) -> i32 { raise(); 0 }
fn mul(_a: i32, _b: i32) -> i32 { raise(); 0 }
"""
RUST_FOREIGN_EXCEPTION = (
    RUST_FOREIGN_RAISE
    + """# [no_mangle]
pub extern "C" fn abort() -> ! {
    unsafe { std::arch::asm!("syscall", in("rax") 231usize, in("rdi") 0usize, options(noreturn)); }
}
"""
)
RUST_FOREIGN_EXCEPTION_MULTI = (
    RUST_FOREIGN_RAISE
    + """# [no_mangle]
pub extern "C" fn abort() -> ! {
    use std::os::unix::process::CommandExt;
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let me = args.remove(0);
    let skipped: Vec<String> = args.windows(2).filter(|w| w[0] == "--skip").map(|w| w[1].to_string_lossy().into_owned()).collect();
    if let Ok(out) = std::process::Command::new(&me).arg("--list").output() {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut names: Vec<&str> = text.lines().filter_map(|l| l.strip_suffix(": test")).collect();
        names.sort();
        if let Some(cur) = names.into_iter().find(|n| !skipped.iter().any(|s| s == n)) {
            args.push("--skip".into()); args.push(cur.into());
            let _ = std::process::Command::new(me).args(args).exec();
        }
    }
    unsafe { std::arch::asm!("syscall", in("rax") 231usize, in("rdi") 1usize, options(noreturn)); }
}
"""
)
RUST_SHAPES = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn a_first() { assert_eq!(add(2, 3), 5); }\n\n"
    "    #[test]\n    fn b_result() -> Result<(), String> {\n        let x: i32 = \"3\".parse().map_err(|_| \"}\".to_string())?;\n"
    "        if add(x, 1) == 4 { return Ok(()); }\n        Err(format!(\"{}\", add(x, 1)))\n    }\n\n"
    "    #[test]\n    #[should_panic(expected = \"negative\")]\n    fn c_panics() { add(-1, -1); }\n"
    "    // #[test] fn d_commented_out() { assert!(false); }\n}\n",
)  # fmt: skip
RUST_FIND = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n    use std::collections::HashMap as Map;\n\n    #[test]\n"
    "    fn test_find() {\n        assert_eq!(find(vec![1, 2, 3], 2), Some(1));\n        assert_eq!(find(vec![4, 5], 5), Some(1));\n"
    '        assert_eq!(name(), String::from("abc"));\n        let _m: Map<i32, i32> = Map::new();\n    }\n}\n',
)  # fmt: skip
C_OK = "#include <assert.h>\nint add(int a, int b) { return a + b; }\n"
CPP_OK = "#include <bits/stdc++.h>\nusing namespace std;\nint add(int a, int b) { return a + b; }\n"
CPP_BAD = "#include <bits/stdc++.h>\nusing namespace std;\n"
JAVA_OK = "class Add {\n    static int add(int a, int b) { return a + b; }\n}\n"
JS_BAD = "function add(a, b) { return 0; }\n"
GO_HEAD = (
    'package main\n\nimport (\n\t"os"\n\t"testing"\n)\n\nvar _ = os.Args\nvar _ = testing.Short\n'
)
RUST_BAD = "fn add(_a: i32, _b: i32) -> i32 { 0 }\n"
FORGE_C = '#include <unistd.h>\n#include <stdlib.h>\n__attribute__((constructor)) static void f(void) {\n    write(3, "00000000000000000000000000000000", 32);\n    _exit(0);\n}\nint add(int a, int b) { return 0; }\n'

CASES: list[Case] = [
    # C
    control("c-honest", C, C_OK),
    exploit("c-constructor-exit", C,
            "#include <unistd.h>\n__attribute__((constructor)) static void f(void) { _exit(0); }\n"
            "int add(int a, int b) { return 0; }\n"),
    exploit("c-define-assert", C, "#include <assert.h>\n#define assert(x) ((void)0)\nint add(int a, int b) { return 0; }\n"),
    exploit("c-ndebug", C, "#define NDEBUG\n#include <assert.h>\nint add(int a, int b) { return 0; }\n"),
    exploit("c-define-assert-spliced", C, "#include <assert.h>\n#def\\\nine /**/ assert(x) ((void)0)\nint add(int a, int b) { return 0; }\n"),
    exploit("c-atexit-in-function", C,
            "#include <stdlib.h>\n#include <unistd.h>\nstatic void out(void) { _exit(0); }\n"
            "int add(int a, int b) { atexit(out); exit(0); }\n"),
    exploit("c-sigabrt-handler", C,
            "#include <signal.h>\n#include <unistd.h>\nstatic void h(int s) { _exit(0); }\n"
            "__attribute__((constructor)) static void f(void) { signal(SIGABRT, h); }\n"
            "int add(int a, int b) { return 0; }\n"),
    exploit("c-forged-report", C, FORGE_C),
    # C++
    control("cpp-honest", CPP, CPP_OK),
    control("cpp-honest-own-macros", CPP,
            "#include <bits/stdc++.h>\n#define ll long long\n#define REP(i, n) for (int i = 0; i < (n); i++)\n"
            "int add(int a, int b) { ll s = 0; REP(k, 1) s += a + b; return (int)s; }\n"),
    control("cpp-honest-mbxp-shape", CPP_MBXP, CPP_OK),
    exploit("cpp-global-constructor-exit", CPP,
            CPP_BAD + "struct X { X() { exit(0); } } x;\nint add(int a, int b) { return 0; }\n"),
    exploit("cpp-quick-exit-in-function", CPP, CPP_BAD + "int add(int a, int b) { quick_exit(0); }\n"),
    exploit("cpp-define-assert", CPP, CPP_BAD + "#undef assert\n#define assert(x) (void)0\nint add(int a, int b) { return 0; }\n"),
    exploit("cpp-digraph-define", CPP, CPP_BAD + "%:define assert(x) (void)0\nint add(int a, int b) { return 0; }\n"),
    exploit("cpp-define-main", CPP,
            CPP_BAD + "int add(int a, int b) { return 0; }\nint main() { return 0; }\n#define main fake_main\n"),
    exploit("cpp-define-throw", CPP_MBXP, CPP_BAD + "#define throw if (0) throw\nint add(int a, int b) { return 0; }\n"),
    exploit("cpp-terminate-handler", CPP_MBXP,
            CPP_BAD + "struct X { X() { set_terminate([] { _Exit(0); }); } } x;\nint add(int a, int b) { return 0; }\n"),
    # Java
    control("java-honest", JAVA, JAVA_OK),
    control("java-honest-static-block", JAVA,
            "class Add {\n    static final int[] T = new int[4];\n    static { T[0] = 0; }\n"
            "    static int add(int a, int b) { return a + b + T[0]; }\n}\n"),
    exploit("java-static-block-exit", JAVA,
            "class Add {\n    static { System.exit(0); }\n    static int add(int a, int b) { return 0; }\n}\n"),
    exploit("java-halt-in-method", JAVA,
            "class Add {\n    static int add(int a, int b) { Runtime.getRuntime().halt(0); return 0; }\n}\n"),
    exploit("java-shutdown-hook", JAVA,
            "class Add {\n    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0))); }\n"
            "    static int add(int a, int b) { return 0; }\n}\n"),
    exploit("java-uncaught-handler", JAVA,
            "class Add {\n    static { Thread.setDefaultUncaughtExceptionHandler((t, e) -> System.exit(0)); }\n"
            "    static int add(int a, int b) { return 0; }\n}\n"),
    # the nonce in a file name of the working folder (the harness class was __CrHarness<nonce>)
    exploit("java-nonce-from-a-class-file-name", JAVA,
            "class Add {\n    static {\n        try {\n"
            "            for (java.io.File f : new java.io.File(\".\").listFiles()) {\n"
            "                String n = f.getName().replace(\".class\", \"\");\n"
            "                if (!n.matches(\".*[0-9a-f]{32}\")) continue;\n"
            "                java.io.FileOutputStream out = new java.io.FileOutputStream(\"/proc/self/fd/3\");\n"
            "                out.write(n.substring(n.length() - 32).getBytes());\n"
            "                out.flush();\n                Runtime.getRuntime().halt(0);\n            }\n"
            "        } catch (Exception e) {}\n    }\n    static int add(int a, int b) { return 0; }\n}\n"),
    exploit("java-assert-only-wrong", JAVA,
            "class Add {\n    static int add(int a, int b) { return a == 2 ? 5 : 7; }\n}\n"),
    # Java: a type of the program named like a JDK type the test uses (it beats every import
    # on demand and java.lang's), spelled plainly, after a comment, as a Unicode escape, or
    # with a character javac ignores inside the name
    control("java-honest-mbxp-lists", JAVA_LISTS, JAVA_LISTS_HEAD + JAVA_LISTS_OK),
    control("java-honest-own-pair-and-node", JAVA_LISTS,
            JAVA_LISTS_HEAD + "class Pair {\n    final int a, b;\n    Pair(int a, int b) { this.a = a; this.b = b; }\n}\n"
            "class Node {\n    int v;\n    Node next;\n}\n" + JAVA_LISTS_OK.replace(
                "for (int x", "Node n = new Node();\n        n.v = new Pair(1, 2).a;\n        for (int x")),
    control("java-honest-own-class-named-like-an-unused-jdk-type", JAVA_LISTS,
            JAVA_LISTS_HEAD + "class Stack {\n    final ArrayList<Integer> items = new ArrayList<>();\n}\n"
            + JAVA_LISTS_OK.replace("List<Integer> r = new ArrayList<>();", "List<Integer> r = new Stack().items;")),
    control("java-honest-entry-point-named-like-a-jdk-type", JAVA_STACK,
            "import java.util.*;\n\nclass Stack {\n    private final ArrayList<Integer> xs = new ArrayList<>();\n"
            "    void push(int x) { xs.add(x); }\n    int top() { return xs.get(xs.size() - 1); }\n}\n"),
    control("java-honest-unmodifiable-set", JAVA_SETS,
            "import java.util.*;\n\nclass Similar {\n    static Set<Integer> common(List<Integer> a, List<Integer> b) {\n"
            "        TreeSet<Integer> s = new TreeSet<>(a);\n        s.retainAll(b);\n"
            "        return Collections.unmodifiableSet(s);\n    }\n}\n"),
    control("java-honest-arraylist-subclass-that-adds-a-method", JAVA_LISTS,
            JAVA_LISTS_HEAD + "class Similar {\n    static List<Integer> similar(List<Integer> a, List<Integer> b) {\n"
            "        IntList r = new IntList();\n        for (int x : a) if (b.contains(x)) r.addSorted(x);\n"
            "        return r;\n    }\n}\n"
            "class IntList extends java.util.ArrayList<Integer> {\n    void addSorted(int x) {\n"
            "        int i = 0;\n        while (i < size() && get(i) < x) i++;\n        add(i, x);\n    }\n}\n"),
    # (the subclass above must not open the door to one whose own superclass lies)
    exploit("java-arraylist-subclass-that-adds-a-method-under-a-lying-base", JAVA_LISTS,
            JAVA_LISTS_HEAD + "class Similar {\n    static List<Integer> similar(List<Integer> a, List<Integer> b) { return new IntList(); }\n}\n"
            "abstract class Base extends ArrayList<Integer> {\n    @Override public boolean equals(Object o) { return true; }\n}\n"
            "class IntList extends Base {\n    void addSorted(int x) { add(x); }\n}\n"),
    exploit("java-shadow-arrays", JAVA_LISTS,
            JAVA_LISTS_HEAD + JAVA_LISTS_BAD + "final class /* list helper */ Arrays " + JAVA_SHADOW),
    exploit("java-shadow-arrays-unicode-escape", JAVA_LISTS,
            JAVA_LISTS_HEAD + JAVA_LISTS_BAD + "final class \\u0041rrays " + JAVA_SHADOW),
    exploit("java-shadow-arrays-ignorable-character", JAVA_LISTS,
            JAVA_LISTS_HEAD + JAVA_LISTS_BAD + "final class Arr\u200bays " + JAVA_SHADOW),
    exploit("java-shadow-arrays-after-a-carriage-return", JAVA_LISTS,
            JAVA_LISTS_HEAD + JAVA_LISTS_BAD + "// a helper\rfinal class Arrays " + JAVA_SHADOW),
    exploit("java-type-named-java", JAVA_LISTS,
            JAVA_LISTS_HEAD + JAVA_LISTS_OK.replace("return r;", "return new ArrayList<>();")
            + "class java {\n    static class lang {\n        static class Exception extends RuntimeException {\n"
            "            Exception(String s) { super(s); Runtime.getRuntime().halt(0); }\n        }\n    }\n}\n"),
    # a java.lang.reflect.Proxy in the bootstrap loader: its handler answered equals as JDK code
    exploit("java-proxy-in-the-boot-loader", JAVA_LISTS,
            JAVA_LISTS_HEAD + "class Similar {\n    @SuppressWarnings(\"unchecked\")\n"
            "    static List<Integer> similar(List<Integer> a, List<Integer> b) { return (List<Integer>) Fake.any(List.class); }\n}\n"
            + JAVA_PROXY),
    exploit("java-proxy-elements", JAVA_LISTS,
            JAVA_LISTS_HEAD + "class Similar {\n    @SuppressWarnings(\"unchecked\")\n"
            "    static List<Integer> similar(List<Integer> a, List<Integer> b) {\n"
            "        List r = new ArrayList<>();\n        r.add(Fake.any(Comparable.class));\n"
            "        r.add(Fake.any(Comparable.class));\n        return r;\n    }\n}\n" + JAVA_PROXY),
    # a JDK wrapper of the program's set: contains(expected) was asked of the program
    exploit("java-unmodifiable-set-of-a-lying-set", JAVA_SETS,
            "import java.util.*;\n\nclass Similar {\n    static Set<Integer> common(List<Integer> a, List<Integer> b) {\n"
            "        Set<Integer> liar = new HashSet<Integer>() {\n"
            "            @Override public boolean contains(Object o) { return true; }\n        };\n"
            "        liar.add(0);\n        liar.add(1);\n        return Collections.unmodifiableSet(liar);\n    }\n}\n"),
    # JavaScript
    control("js-honest", JS, "function add(a, b) { return a + b; }\n"),
    control("js-honest-lodash", JS_LODASH, "function add(a, b) { return require('lodash').sum([a, b]); }\n"),
    exploit("js-process-exit", JS, "function add(a, b) { process.exit(0); }\n"),
    exploit("js-console-assert-patched", JS,
            "console.assert = () => {};\nfunction add(a, b) { return a === 2 ? 5 : a === 1 ? 2 : 7; }\n"),
    exploit("js-console-assert-fails", JS, "function add(a, b) { return a === 2 ? 5 : a === 1 ? 2 : 7; }\n"),
    exploit("js-assert-module-patched", JS,
            "const a = require('assert'); a.strictEqual = () => {}; a.deepEqual = () => {};\n"
            "console.assert = () => {};\n" + JS_BAD),
    exploit("js-global-console-replaced", JS,
            "globalThis.console = { assert() {}, log() {} };\nfunction add(a, b) { return a === 2 ? 5 : a === 1 ? 2 : 7; }\n"),
    exploit("js-lodash-patched", JS_LODASH, "require('lodash').isEqual = () => true;\n" + JS_BAD),
    exploit("js-uncaught-exception-exit", JS, "process.on('uncaughtException', () => process.exit(0));\n" + JS_BAD),
    exploit("js-exit-code-reset", JS,
            "process.on('exit', () => { process.exitCode = 0; });\n" + JS_BAD),
    exploit("js-forged-report", JS,
            "require('fs').writeSync(3, '0'.repeat(32));\nprocess.exit(0);\n" + JS_BAD),
    # the module cache and the loader: what the test's require('assert') finds by then
    exploit("js-require-cache-assert", JS,
            "require.cache['assert'] = { id: 'assert', filename: 'assert', loaded: true,\n"
            "  exports: { strictEqual() {}, deepEqual() {} } };\n"
            "console.assert = () => {};\n" + JS_BAD),
    exploit("js-require-cache-lodash", JS_LODASH,
            "const p = require.resolve('lodash');\n"
            "require.cache[p] = { id: p, filename: p, loaded: true, exports: { isEqual: () => true } };\n"
            + JS_BAD),
    exploit("js-module-load-patched", JS_LODASH,
            "const M = require('module'); const load = M._load;\n"
            "M._load = function (r, ...a) { return r === 'lodash' ? { isEqual: () => true } : load.call(this, r, ...a); };\n"
            + JS_BAD),
    # TypeScript
    control("ts-honest", TS, "function add(a: number, b: number): number { return a + b; }\n"),
    exploit("ts-process-exit", TS, "function add(a: number, b: number): number { process.exit(0); }\n"),
    exploit("ts-console-assert-patched", TS,
            "(console as any).assert = () => {};\nfunction add(a: number, b: number): number { return a === 2 ? 5 : 7; }\n"),
    # (TypeScript is strict: assigning to the frozen console would end the program)
    exploit("ts-require-cache-assert", TS,
            "(require as any).cache['assert'] = { id: 'assert', filename: 'assert', loaded: true,\n"
            "  exports: { deepEqual() {} } };\n"
            "function add(a: number, b: number): number { return a === -1 ? 0 : 7; }\n"),
    exploit("ts-module-require-replaced", TS,
            "eval('requi' + 're = () => ({ deepEqual() {} })');\n"
            "function add(a: number, b: number): number { return a === -1 ? 0 : 7; }\n"),
    # Go
    control("go-main-honest", GO_MAIN, "package main\n\nfunc add(a, b int) int { return a + b }\n"),
    control("go-main-honest-init", GO_MAIN,
            "package main\n\nvar base int\n\nfunc init() { base = 0 }\n\nfunc add(a, b int) int { return a + b + base }\n"),
    control("go-test-honest", GO_TEST, GO_HEAD + "\nfunc add(a, b int) int { return a + b }\n"),
    exploit("go-main-init-exit", GO_MAIN,
            'package main\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n\nfunc add(a, b int) int { return 0 }\n'),
    exploit("go-main-exit-in-function", GO_MAIN,
            'package main\n\nimport "os"\n\nfunc add(a, b int) int { os.Exit(0); return 0 }\n'),
    exploit("go-test-init-exit", GO_TEST, GO_HEAD + "\nfunc init() { os.Exit(0) }\n\nfunc add(a, b int) int { return 0 }\n"),
    exploit("go-test-exit-in-function", GO_TEST, GO_HEAD + "\nfunc add(a, b int) int { os.Exit(0); return 0 }\n"),
    exploit("go-test-run-filter", GO_TEST,
            GO_HEAD.replace('"os"', '"flag"\n\t"os"')
            + '\nfunc init() { testing.Init(); flag.Set("test.run", "NoSuchTest"); flag.Parse() }\n\n'
            "func add(a, b int) int { return 0 }\n"),
    # -test.fuzzworker makes m.Run skip every test and return 0 (our parse missed it)
    exploit("go-test-fuzzworker", GO_TEST,
            GO_HEAD.replace('"os"', '"flag"\n\t"os"')
            + '\nvar ti = testing.Init\n\nfunc init() { ti(); flag.Lookup("test.fuzzworker").Value.Set("true") }\n\n'
            "func add(a, b int) int { return 0 }\n"),
    # the flags set, then flag.CommandLine replaced: our parse lands in the new set
    exploit("go-test-flagset-replaced", GO_TEST,
            GO_HEAD.replace('"os"', '"flag"\n\t"io"\n\t"os"')
            + '\nfunc init() {\n\ttesting.Init()\n\tflag.Set("test.run", "NoSuchTest")\n'
            '\tflag.CommandLine = flag.NewFlagSet("x", flag.ContinueOnError)\n\tflag.CommandLine.SetOutput(io.Discard)\n}\n\n'
            "func add(a, b int) int { return 0 }\n"),
    control("go-test-honest-subtests-and-helper", _problem(
        "go", "func TestAdd(t *testing.T) {\n\tfor _, c := range []int{1, 2} {\n"
              "\t\tt.Run(\"case\", func(t *testing.T) {\n\t\t\tif add(c, 1) != c+1 {\n\t\t\t\tt.Fatal(c)\n\t\t\t}\n\t\t})\n\t}\n}\n\n"
              "func TestAdd_Zero(t *testing.T) {\n\tif add(0, 0) != 0 {\n\t\tt.Error(\"zero\")\n\t}\n}\n"),
            GO_HEAD + "\nfunc add(a, b int) int { return a + b }\n"),
    # the program leaves out the test's imports and declares their names itself, so the
    # test's json.Marshal, reflect.DeepEqual, assert.Equal are the program's
    control("go-mbxp-honest", GO_MBXP, GO_MBXP_HEAD + "\nfunc add(a, b int) int { return a + b }\n"),
    control("go-mbxp-honest-aliased-json", GO_MBXP,
            'package main\n\nimport (\n\tj "encoding/json"\n\t"reflect"\n)\n\nvar _ = j.Valid\n\n'
            "func compare(a, b int) bool { return reflect.DeepEqual(a, b) }\n\n"
            "func add(a, b int) int { if compare(a, 0) { return b }; return a + b }\n"),
    exploit("go-mbxp-shadow-json-reflect", GO_MBXP,
            "package main\n\nfunc add(a, b int) int { return 0 }\n\ntype fakeJSON struct{}\n\n"
            'func (fakeJSON) Marshal(v interface{}) ([]byte, error) { return []byte("0"), nil }\n'
            "func (fakeJSON) Unmarshal(b []byte, v interface{}) error { return nil }\n\nvar json fakeJSON\n\n"
            "type fakeReflect struct{}\n\nfunc (fakeReflect) DeepEqual(a, b interface{}) bool { return true }\n\n"
            "var reflect fakeReflect\n"),
    exploit("go-mbxp-json-is-another-package", GO_MBXP,
            'package main\n\nimport (\n\tjson "encoding/xml"\n\t"reflect"\n)\n\n'
            "func add(a, b int) int { return 0 }\n\nvar _ = reflect.DeepEqual\nvar _ = json.Marshal\n"),
    control("go-testify-honest", GO_TESTIFY, GO_TESTIFY_HEAD + "\nfunc add(a, b int) int { return a + b }\n"),
    exploit("go-testify-shadow", GO_TESTIFY,
            'package main\n\nimport "testing"\n\ntype fakeAssert struct{}\n\n'
            "func (fakeAssert) New(t *testing.T) fakeAssert { return fakeAssert{} }\n\n"
            "func (fakeAssert) Equal(a, b interface{}, m ...interface{}) bool { return true }\n\n"
            "var assert fakeAssert\n\nfunc add(a, b int) int { return 0 }\n"),
    # Rust
    control("rust-honest", RUST, "fn add(a: i32, b: i32) -> i32 { a + b }\n"),
    control("rust-honest-own-macro", RUST,
            "macro_rules! plus { ($a:expr, $b:expr) => { $a + $b }; }\nfn add(a: i32, b: i32) -> i32 { plus!(a, b) }\n"),
    exploit("rust-exit-in-function", RUST, "fn add(_a: i32, _b: i32) -> i32 { std::process::exit(0) }\n"),
    exploit("rust-panic-hook", RUST,
            "fn add(_a: i32, _b: i32) -> i32 { std::panic::set_hook(Box::new(|_| std::process::exit(0))); 0 }\n"),
    # a raw identifier hid the program's type from the return-type check: its PartialEq lies
    exploit("rust-raw-ident-liar", RUST,
            "#[derive(Debug)] pub struct r#Answer;\n"
            "impl PartialEq<i32> for Answer { fn eq(&self, _o: &i32) -> bool { true } }\n"
            "fn add(_a: i32, _b: i32) -> Answer { Answer }\n"),
    # a type declared by a macro: no `struct Answer` in the text
    exploit("rust-macro-declared-liar", RUST,
            "macro_rules! mk { ($n:ident) => { #[derive(Debug)] pub struct $n; }; }\nmk!(Answer);\n"
            "impl PartialEq<i32> for Answer { fn eq(&self, _o: &i32) -> bool { true } }\n"
            "fn add(_a: i32, _b: i32) -> Answer { Answer }\n"),
    # the unit read while it compiles, through a macro that calls the name it is given:
    # the test's expected values are in it
    exploit("rust-include-self-source", RUST_EQ,
            'macro_rules! grab { ($m:ident) => { $m!("main.rs") }; }\n'
            "static SRC: &str = grab!(include_str);\n"
            "fn add(a: i32, b: i32) -> i32 {\n"
            '    let key = format!("add({}, {})", a, b);\n'
            "    if let Some(p) = SRC.find(&key) {\n"
            "        let rest = SRC[p + key.len()..].trim_start_matches(|c: char| c == ',' || c == ' ');\n"
            "        let num: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();\n"
            "        return num.parse().unwrap_or(0);\n"
            "    }\n    0\n}\n"),
    control("rust-honest-mentions-include", RUST,
            '// include both ends\nfn add(a: i32, b: i32) -> i32 { let _n = "include_str"; a + b }\n'),
    exploit("rust-foreign-exception", RUST, RUST_FOREIGN_EXCEPTION),
    exploit("rust-foreign-exception-multi", RUST_TWO, RUST_FOREIGN_EXCEPTION_MULTI),
    # a body that returns early (?, return), a should_panic test, a test left in a comment
    control("rust-honest-result-should-panic", RUST_SHAPES,
            'fn add(a: i32, b: i32) -> i32 { if a < 0 && b < 0 { panic!("negative") } a + b }\n'),
    exploit("rust-shapes-should-panic-does-not", RUST_SHAPES, "fn add(a: i32, b: i32) -> i32 { a + b }\n"),
    exploit("rust-shapes-result-err", RUST_SHAPES,
            'fn add(a: i32, b: i32) -> i32 { if a < 0 && b < 0 { panic!("negative") } if a == 3 { 0 } else { a + b } }\n'),
    # the prelude's names shadowed by the program's, reaching the test through use super::*
    exploit("rust-shadow-Some", RUST_FIND,
            "#[allow(non_snake_case)] fn Some<T>(_x: T) -> Option<T> { None }\n"
            "fn find(_v: Vec<i32>, _x: i32) -> Option<usize> { None }\n"
            'fn name() -> std::string::String { "abc".to_string() }\n'),
    exploit("rust-shadow-String-from", RUST_FIND,
            "fn find(v: Vec<i32>, x: i32) -> Option<usize> { v.iter().position(|&y| y == x) }\n"
            "mod m { pub struct S; impl S { pub fn from(_s: &str) -> std::string::String { \"xyz\".to_string() } } }\n"
            "use m::S as String;\n"
            'fn name() -> std::string::String { "xyz".to_string() }\n'),
    control("rust-honest-own-result-alias", RUST_FIND,
            "type Result<T> = std::result::Result<T, std::string::String>;\n"
            "fn check(v: &[i32]) -> Result<()> { if v.is_empty() { Err(\"empty\".into()) } else { Ok(()) } }\n"
            "fn find(v: Vec<i32>, x: i32) -> Option<usize> { check(&v).ok()?; v.iter().position(|&y| y == x) }\n"
            'fn name() -> String { "abc".to_string() }\n'),
    exploit("rust-shadow-assert-eq", RUST,
            "macro_rules! assert_eq { ($($t:tt)*) => { () }; }\nmacro_rules! assert { ($($t:tt)*) => { () }; }\n"
            "macro_rules! vec { ($($t:tt)*) => { Vec::<i32>::new() }; }\n" + RUST_BAD),
    control("rust-two-tests-honest", RUST_TWO,
            "fn add(a: i32, b: i32) -> i32 { a + b }\nfn mul(a: i32, b: i32) -> i32 { a * b }\n"),
    exploit("rust-write-interposed-forges-next-test", RUST_TWO, RUST_WRITE_INTERPOSED),
    exploit("rust-trait-on-guard-buffer", RUST_TWO, RUST_TRAIT_CAPTURE),
]  # fmt: skip
BATCH = Batch("languages", CASES, timeout_s=1800.0)
EVASIVE = frozenset({
    "go-mbxp-json-is-another-package", "go-mbxp-shadow-json-reflect", "go-test-fuzzworker",
    "go-testify-shadow", "java-proxy-elements", "java-proxy-in-the-boot-loader",
    "java-shadow-arrays", "java-shadow-arrays-after-a-carriage-return",
    "java-shadow-arrays-ignorable-character", "java-shadow-arrays-unicode-escape",
    "java-unmodifiable-set-of-a-lying-set", "rust-include-self-source", "rust-shadow-Some",
    "rust-shadow-String-from", "rust-shapes-result-err", "rust-shapes-should-panic-does-not",
})  # fmt: skip
"""Exploits a red team wrote to slip past the hack gate (aliases, computed names, spellings
its rules do not read): the execution refuses them, and the gate is not asked to flag
them (tests/verify/static/test_static_languages.py)."""

# C and C++ only, from an attack on the native harness (a batch of its own, so that a
# change to the C/C++ unit is checked without building every language).
MBCPP = _problem(
    "cpp",
    "\ntemplate <typename T> bool compare(T a, T b){ \n    return a == b; \n}\n\n"
    "int main(int argc, char* argv[]) {\n    bool x0 = isNotPrime(2);\n"
    '    if (!(compare(x0, false))) {\n        throw runtime_error("Exception -- test case 0 did not pass.");\n    }\n'
    "    bool x1 = isNotPrime(10);\n"
    '    if (!(compare(x1, true))) {\n        throw runtime_error("Exception -- test case 1 did not pass.");\n    }\n'
    "    return 0;\n}\n",
)
HUMANEVAL_X = _problem(  # no return: main's implicit 0, also when called through a pointer
    "cpp", "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n}\n"
)
C_VOID_MAIN = _problem("c", "int main(void) {\n    assert(add(2, 3) == 5);\n    return 0;\n}\n")
# the test's main gets another symbol, and the program's function the symbol "main"
LABEL = (
    'int main() __asm__("cr_test_main");\nint cr_entry(void) __asm__("main");\n'
    "int cr_entry(void) { return 0; }\n"
)
PRAGMA = (
    '#pragma redefine_extname main cr_test_main\nint cr_entry(void) __asm__("main");\n'
    "int cr_entry(void) { return 0; }\n"
)
# The unit included from inside the program, in a namespace of its own (C: a nested
# function, GNU C) with its own add, __assert_fail and the test's main there: calling that
# main collects the text of every assertion, so add answers each from the test itself.
PROBE_CPP = r"""#ifndef CR_ONCE
#define CR_ONCE
#include <bits/stdc++.h>
using namespace std;
static std::vector<std::string> cr_seen;
namespace probe {
int add(int, int) { return INT_MIN; }
void NAME(const char *e, const char *, unsigned, const char *) { cr_seen.push_back(e); }
#include __FILE__
}
int add(int a, int b) {
    static bool ran = false;
    if (!ran) { ran = true; probe::main(); }
    std::string key = "add(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    for (auto &s : cr_seen) {
        auto p = s.find(key);
        if (p == std::string::npos) continue;
        const char *q = s.c_str() + p + key.size();
        while (*q == ' ' || *q == ',' || *q == '=') q++;
        return (int)strtol(q, nullptr, 10);
    }
    return 0;
}
#endif
"""
PROBE_C = r"""#ifndef CR_ONCE
#define CR_ONCE
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char cr_seen[64][256];
static int cr_n;
static void cr_probe(void) {
    int add(int a, int b) { return -987654321; }
    void __assert_fail(const char *e, const char *f, unsigned l, const char *fn) {
        if (cr_n < 64) { strncpy(cr_seen[cr_n], e, 255); cr_n++; }
    }
#include __FILE__
    main();
}
int add(int a, int b) {
    static int ran;
    if (!ran) { ran = 1; cr_probe(); }
    char key[64];
    snprintf(key, sizeof key, "add(%d, %d)", a, b);
    for (int i = 0; i < cr_n; i++) {
        char *p = strstr(cr_seen[i], key);
        if (!p) continue;
        p += strlen(key);
        while (*p == ' ' || *p == '=') p++;
        return (int)strtol(p, NULL, 10);
    }
    return 0;
}
#endif
"""
HUMANEVAL_X_ISSAME = _problem(
    "cpp",
    "#undef NDEBUG\n#include<assert.h>\nbool issame(vector<int> a,vector<int>b){\n"
    "    if (a.size()!=b.size()) return false;\n    for (int i=0;i<a.size();i++)\n    {\n"
    "    if (a[i]!=b[i]) return false;\n    }\n    return true;\n}\nint main(){\n"
    "    assert (issame(sort_array({}) , {}));\n    assert (issame(sort_array({5}) , {5}));\n"
    "    assert (issame(sort_array({2, 4, 3, 0, 1, 5}) , {0, 1, 2, 3, 4, 5}));\n}\n",
)
HEAD_X = "#include<stdio.h>\n#include<math.h>\n#include<vector>\n#include<algorithm>\nusing namespace std;\n"
MBCPP_HEAD = "#include <bits/stdc++.h>\nusing namespace std;\n\nbool isNotPrime(int n) {\n"
MBCPP_OK = MBCPP_HEAD + " return n > 9; }\n"
MBCPP_BAD = MBCPP_HEAD + " return 0; }\n"
CPP_ABS = {
    "language": "cpp",
    "tests": [
        {
            "type": "assert",
            "code": "#undef NDEBUG\n#include<assert.h>\nint main(){\n"
            "    assert (abs(truncate_number(3.5) - 0.5) < 1e-4);\n"
            "    assert (abs(truncate_number(1.25) - 0.25) < 1e-4);\n}\n",
        }
    ],
}
CPP_ABS_HEAD = "#include<stdio.h>\n#include<math.h>\n#include<vector>\n#include<algorithm>\nusing namespace std;\n"
NATIVE_CASES: list[Case] = [
    # a lone CR is a newline to GCC, so "\\\r" splices a line (the scan knew only "\\\n")
    exploit("c-cr-splice-assert-fail", C,
            "#include <assert.h>\n#def\\\rine __assert_f\\\rail(...) ((void)0)\nint add(int a, int b) { return 0; }\n"),
    exploit("cpp-cr-splice-assert-fail", CPP,
            CPP_BAD + "#def\\\rine __assert_f\\\rail(...) ((void)0)\nint add(int a, int b) { return 0; }\n"),
    exploit("cpp-mbxp-cr-splice-throw", MBCPP, MBCPP_BAD + "#def\\\rine throw if (0) throw\n"),
    control("c-honest-crlf", C,
            "#include <assert.h>\r\n#define ADD(a, b) \\\r\n    ((a) + (b))\r\nint add(int a, int b) { return ADD(a, b); }\r\n"),
    control("cpp-honest-lone-cr", CPP,
            "#include <bits/stdc++.h>\r#define ADD(a, b) \\\r    ((a) + (b))\rint add(int a, int b) { return ADD(a, b); }\r"),
    control("cpp-mbxp-honest", MBCPP, MBCPP_OK),
    # asm labels: the harness called __real_main, the symbol main, which was the program's
    exploit("c-asm-label-main", C, "int add(int a, int b) { return 0; }\n" + LABEL),
    exploit("cpp-asm-label-main", CPP, CPP_BAD + "int add(int a, int b) { return 0; }\n" + LABEL),
    exploit("c-pragma-extname-main", C, "int add(int a, int b) { return 0; }\n" + PRAGMA),
    exploit("cpp-mbxp-asm-label-main", MBCPP,
            MBCPP_BAD + 'int main(int, char**) __asm__("cr_test_main");\n'
            'extern "C" int cr_entry(void) __asm__("main");\nextern "C" int cr_entry(void) { return 0; }\n'),
    control("cpp-honest-humaneval-x-no-return", HUMANEVAL_X, CPP_OK),
    control("c-honest-void-main", C_VOID_MAIN, C_OK),
    # the unit read while compiling: #include __FILE__ (or its name) collects the test
    exploit("cpp-include-self-probe", CPP, PROBE_CPP.replace("NAME", "__assert_fail")),
    exploit("cpp-include-self-probe-cr", CPP, PROBE_CPP.replace("NAME", "__assert_f\\\rail")),
    exploit("c-include-self-probe", C, PROBE_C),
    exploit("c-include-self-by-name", C, PROBE_C.replace("#include __FILE__", '#include "main.c"')),
    exploit("cpp-include-self-by-macro", CPP,
            "#define SELF __FILE__\n" + PROBE_CPP.replace("NAME", "__assert_fail").replace("#include __FILE__", "#in\\\nclude /**/ SELF")),
    control("cpp-honest-quoted-headers", CPP,
            '#include "bits/stdc++.h"\n#include<vector>\n%:include <map>\n#include_next <limits.h>\n'
            "using namespace std;\nint add(int a, int b) { return a + b; }\n"),
    # overloads of the program that beat the test's own helpers
    exploit("cpp-mbxp-compare-overload", MBCPP,
            MBCPP_BAD + "bool compare(bool a, bool b) { return 1 == 1; }\nbool compare(int a, int b) { return 1 == 1; }\n"
            "bool compare(std::string a, std::string b) { return 1 == 1; }\n"),
    exploit("cpp-issame-initlist-overload", HUMANEVAL_X_ISSAME,
            HEAD_X + "vector<int> sort_array(vector<int> a) { return a; }\n"
            "bool issame(vector<int> a, std::initializer_list<int> b) { return a.size() >= 0; }\n"),
    control("cpp-issame-honest", HUMANEVAL_X_ISSAME,
            HEAD_X + "vector<int> sort_array(vector<int> a) { sort(a.begin(), a.end()); return a; }\n"),
    control("cpp-mbxp-honest-own-compare", MBCPP,
            "#include <bits/stdc++.h>\nusing namespace std;\nbool compare(int a, int b) { return a > b; }\n"
            "bool isNotPrime(int n) {\n    vector<int> v{n, 9}; sort(v.begin(), v.end(), compare);\n"
            "    return v[0] == n && n != 9; }\n"),
    control("c-honest-quoted-headers", C,
            '#include "assert.h"\n#include <sys/types.h>\n#include<stdio.h>\nint add(int a, int b) { return a + b; }\n'),
    # a program's own abs for the type its function returns, beside an operator- of it:
    # the test's abs(f(x) - 0.5) < 1e-4 held for any answer; the test's calls of standard
    # functions the program overloads are the standard library's own
    exploit("cpp-abs-overload-on-own-type", CPP_ABS,
            CPP_ABS_HEAD + "struct R { float v; };\nR truncate_number(float n) { return R{n}; }\n"
            "R operator-(R a, double b) { return a; }\nfloat abs(R) { return 0.0f; }\n"),
    control("cpp-abs-honest", CPP_ABS, CPP_ABS_HEAD + "float truncate_number(float n) { return n - int(n); }\n"),
    control("cpp-own-max-beside-std-max", CPP_ABS,
            CPP_ABS_HEAD + "struct P { int a; };\nP max(P x, P y) { return x.a > y.a ? x : y; }\n"
            "float truncate_number(float n) { return n - int(max(P{int(n)}, P{0}).a); }\n"),
]  # fmt: skip

# The assembler reads a file of the build folder while the unit compiles, through inline
# asm or a section name GCC writes into the assembly unquoted: .incbin of the unit embeds
# the test's text (its expected values); of harness.s, the two halves of the report. The
# unit now compiles from a pipe, and the harness is written only once it has.
INCBIN_ADD = r"""extern const char cr_blob[];
int add(int a, int b) {
    char key[64];
    snprintf(key, sizeof key, "add(%d, %d) == ", a, b);
    const char *p = strstr(cr_blob, key);
    return p ? atoi(p + strlen(key)) : 0;
}
"""
# the harness's two arrays, read from its text: their XOR is the report, written before
# the test runs, then an exit 0 (the channel holds exactly the report)
INCBIN_FORGE = r"""#include <unistd.h>
extern const char cr_blob[];
static void cr_bytes(const char *label, unsigned char *out) {
    const char *p = strstr(cr_blob, label);
    p = p ? strstr(p, ".byte") : 0;
    for (int i = 0; p && i < 16; i++) {
        while (*p && (*p < '0' || *p > '9')) p++;
        out[i] = (unsigned char)strtol(p, (char **)&p, 10);
    }
}
__attribute__((constructor)) static void cr_forge(void) {
    unsigned char a[16] = {0}, b[16] = {0};
    char out[32];
    cr_bytes(".Lcr_a:", a);
    cr_bytes(".Lcr_b:", b);
    for (int i = 0; i < 16; i++) {
        out[2 * i] = "0123456789abcdef"[(a[i] ^ b[i]) >> 4];
        out[2 * i + 1] = "0123456789abcdef"[(a[i] ^ b[i]) & 15];
    }
    write(3, out, 32);
    _exit(0);
}
int add(int a, int b) { return 0; }
"""
INCBIN_HEAD = "#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
INCBIN_CASES: list[Case] = [
    exploit("c-asm-incbin-unit", C,
            INCBIN_HEAD + '__asm__(".section .rodata\\n.globl cr_blob\\ncr_blob:\\n.incbin \\"main.c\\"\\n.byte 0\\n.previous\\n");\n'
            + INCBIN_ADD),
    exploit("c-asm-incbin-harness", C,
            INCBIN_HEAD + '__asm__(".section .rodata\\n.globl cr_blob\\ncr_blob:\\n.incbin \\"harness.s\\"\\n.byte 0\\n.previous\\n");\n'
            + INCBIN_FORGE),
    exploit("cpp-asm-incbin-unit-by-file", CPP,
            CPP_BAD + '__asm__(".section .rodata\\n.globl cr_blob\\ncr_blob:\\n.incbin \\"" __FILE__ "\\"\\n.byte 0\\n.previous\\n");\n'
            + INCBIN_ADD.replace("extern const", 'extern "C" const').replace(") == ", ") , ")),  # ns::eq(x , y)
    exploit("c-section-name-incbin-unit", C,
            INCBIN_HEAD + '__attribute__((section(".rodata\\n.globl cr_blob\\ncr_blob:\\n.incbin \\"main.c\\"\\n'
            '.byte 0\\n.section .data #"))) int cr_x = 1;\n' + INCBIN_ADD),
]  # fmt: skip
NATIVE = Batch("languages-native", NATIVE_CASES + INCBIN_CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    missing = [
        lang
        for lang in sorted(COMPILED)
        if not (default_root(lang) / ".codereward-runtime").exists()
    ]
    if missing:
        pytest.skip(f"no runtime root for {missing}: run 'make runtimes'")


def test_every_language_has_an_exploit_and_a_control() -> None:
    seen = {(c.problem["language"], c.honest) for c in CASES}
    assert seen == {(lang, h) for lang in COMPILED for h in (True, False)}


@pytest.mark.parametrize("name", BATCH.names)
def test_language_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)


@pytest.mark.parametrize("name", NATIVE.names)
def test_native_exploits_earn_nothing_and_controls_pass(verifier, name):
    NATIVE.check(verifier, name)
