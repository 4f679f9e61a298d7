"""Lying comparisons and borrowed builtins in the compiled languages' assert tests (issue 13).

The test shares the program's process, so a comparison it writes can reach code the
program declared (``reward_api.verify.compiled_eq``). Each exploit below returns a wrong
answer and tries to make the test's comparison say yes anyway:

- C++: a global ``operator==`` (and ``!=``) for ``std::vector``, ``std::string``, ``map``,
  ``pair``, ``tuple``, ``optional``, ``unordered_map`` and ``set``; the same operators
  injected into ``namespace std``; a returned type whose templated ``operator==`` accepts
  anything (and whose conversion to an integer gives a wrong value); the MBXP ``compare``
  template, whose ``a == b`` would find the program's global operator;
- Java: a returned ``ArrayList`` subclass (named, anonymous) or ``HashMap``/``TreeSet``
  subclass whose ``equals`` returns true, and an ``AbstractList`` that lies in ``equals``,
  through ``x.equals(y)``, ``Objects.equals`` and MBXP's ``compare``;
- Rust: a returned type of the program's (or ``impl PartialEq``) whose ``PartialEq``
  accepts anything;
- JavaScript/TypeScript: ``Array.prototype.every``, ``JSON.stringify``, ``Object.is``
  replaced; ``var JSON`` shadowing the builtin at the module's top level; a hoisted
  ``function require`` or an assignment to ``require`` that hands the test a lodash whose
  ``isEqual`` says yes; calling the harness's ``__cr_run`` early with an empty test.

- every language: the pass report read back from the program's own files: the binary
  (``/proc/self/exe``), Java's command line (``sun.java.command``, where the harness class
  is named), the JavaScript prelude in the working directory, then written on fd 3
  before an exit with status 0 (the harness holds the report as two arrays whose XOR it
  is, and names its code with a tag drawn apart from it).

Controls: honest programs with the same shapes (standard containers of every kind compared
through ``==``, a program struct with its own ``operator==`` compared with itself, Java
double-brace initialisation, a type alias in Rust, strict-mode JavaScript that subclasses
``Error``, assigns ``prototype.constructor`` and adds its own ``Array.prototype`` method).
"""

from __future__ import annotations

import pytest

from reward_api.verify.languages import default_root
from tests.sandbox.adversarial.cases import Batch, Case, control, exploit


def _problem(language: str, test: str) -> dict[str, object]:
    return {"language": language, "tests": [{"type": "assert", "code": test}]}


CPP_TEST = """template <typename T> bool compare(T a, T b){ return a == b; }
int main() {
  assert(f(3) == vector<int>({3, 4}));
  if (!(compare(f(1), {1, 2}))) throw runtime_error("x");
  assert(g() == "abc"); assert(g() == string("abc")); assert(!(g() != "abc"));
  assert((h() == map<int,string>{{1,"a"}}));
  assert((u() == unordered_map<string,int>{{"b",2},{"a",1}}));
  assert((p() == pair<int,double>{1, 2.5}));
  assert((t() == tuple<int,string>{1, "x"}));
  assert(o() == optional<int>(3)); assert(o() == 3);
  assert(ll() == 5);
  assert((sv() == set<vector<int>>{{1},{2,3}}));
  assert(pt() == P{1, 2});
  return 0;
}
"""
CPP = _problem("cpp", CPP_TEST)
CPP_HEAD = "#include <bits/stdc++.h>\nusing namespace std;\n"
CPP_P = (
    "struct P { int x, y; bool operator==(const P& o) const { return x == o.x && y == o.y; } };\n"
)
CPP_RIGHT = (
    'vector<int> f(int n){ return {n, n+1}; }\nstring g(){return "abc";}\n'
    'map<int,string> h(){return {{1,"a"}};}\nunordered_map<string,int> u(){return {{"a",1},{"b",2}};}\n'
    'pair<int,double> p(){return {1,2.5};}\ntuple<int,string> t(){return {1,"x"};}\n'
    "optional<int> o(){return 3;}\nset<vector<int>> sv(){return {{1},{2,3}};}\nP pt(){return {1, 2};}\n"
)
CPP_WRONG = (
    'vector<int> f(int n){ return {}; }\nstring g(){return "x";}\nmap<int,string> h(){return {};}\n'
    "unordered_map<string,int> u(){return {};}\npair<int,double> p(){return {0,0};}\n"
    'tuple<int,string> t(){return {0,""};}\noptional<int> o(){return {};}\n'
    "set<vector<int>> sv(){return {};}\nP pt(){return {1, 2};}\n"
)
_LIES = [
    ("const vector<int>&", "const vector<int>&"), ("const string&", "const char*"),
    ("const string&", "const string&"), ("const map<int,string>&", "const map<int,string>&"),
    ("const unordered_map<string,int>&", "const unordered_map<string,int>&"),
    ("const pair<int,double>&", "const pair<int,double>&"),
    ("const tuple<int,string>&", "const tuple<int,string>&"),
    ("const optional<int>&", "const optional<int>&"), ("const optional<int>&", "const int&"),
    ("const set<vector<int>>&", "const set<vector<int>>&"),
]  # fmt: skip
CPP_LIES = "".join(
    f"bool operator==({a}, {b}){{return true;}}\nbool operator!=({a}, {b}){{return false;}}\n"
    for a, b in _LIES
)
CPP_LIAR_TYPE = (
    "struct L { template<class T> bool operator==(const T&) const {return true;}\n"
    "  template<class T> bool operator!=(const T&) const {return false;}\n"
    "  operator long long() const { return 0; } };\n"
)

JAVA = _problem(
    "java",
    """
class Main {
    public static boolean compare(Object obj1, Object obj2) {
        if (obj1 == null && obj2 == null){
            return true;
        } else if (obj1 == null || obj2 == null){
            return false;
        } else {
            return obj1.equals(obj2);
        }
    }
    public static void main(String[] args) throws Exception {
        List<Integer> x0 = F.f(3);
        if (!(compare(x0, Arrays.asList(3, 4)))) throw new java.lang.Exception("0");
        if (!F.dbl(3).equals(Arrays.asList(3, 4))) throw new java.lang.Exception("1");
        Map<String, List<Integer>> e = new HashMap<>(); e.put("a", Arrays.asList(1));
        if (!Objects.equals(F.m(), e)) throw new java.lang.Exception("2");
        if (!(compare(F.s(), new HashSet<>(Arrays.asList(1, 3))))) throw new java.lang.Exception("3");
        if (!"abc".equals(F.g())) throw new java.lang.Exception("4");
        if (!Arrays.equals(F.arr(), new int[]{1})) throw new java.lang.Exception("5");
    }
}
""",
)
JAVA_HEAD = "import java.util.*;\nclass F {\n"
JAVA_TAIL = (
    '  public static String g() { return "abc"; }\n'
    "  public static int[] arr() { return new int[]{1}; }\n}\n"
)
JAVA_RIGHT = (
    "  public static List<Integer> f(int n) { return new ArrayList<>(Arrays.asList(n, n + 1)); }\n"
    "  public static List<Integer> dbl(int n) { return new ArrayList<Integer>() {{ add(n); add(n + 1); }}; }\n"
    "  public static Map<String, List<Integer>> m() { Map<String, List<Integer>> r = new HashMap<>();"
    ' r.put("a", List.of(1)); return r; }\n'
    "  public static Set<Integer> s() { return new TreeSet<>(List.of(3, 1)); }\n"
)
JAVA_SUBCLASSES = (
    "  static class Liar extends ArrayList<Integer> { public boolean equals(Object o) { return true; } }\n"
    "  static class LiarMap extends HashMap<String, List<Integer>> { public boolean equals(Object o) { return true; } }\n"
    "  static class LiarSet extends TreeSet<Integer> { public boolean equals(Object o) { return true; } }\n"
    "  public static List<Integer> f(int n) { return new Liar(); }\n"
    "  public static List<Integer> dbl(int n) { return new ArrayList<Integer>() { public boolean equals(Object o) { return true; } }; }\n"
    "  public static Map<String, List<Integer>> m() { return new LiarMap(); }\n"
    "  public static Set<Integer> s() { return new LiarSet(); }\n"
)
JAVA_ABSTRACT_LIST = (
    "  static class Liar extends AbstractList<Integer> { int[] v; Liar(int... v) { this.v = v; }\n"
    "    public Integer get(int i) { return v[i]; } public int size() { return v.length; }\n"
    "    public boolean equals(Object o) { return true; } }\n"
    "  public static List<Integer> f(int n) { return new Liar(); }\n"
    "  public static List<Integer> dbl(int n) { return new Liar(n, n + 1); }\n"
    "  public static Map<String, List<Integer>> m() { Map<String, List<Integer>> r = new HashMap<>();"
    ' r.put("a", new Liar()); return r; }\n'
    "  public static Set<Integer> s() { return new TreeSet<>(List.of(3, 1)); }\n"
)

RUST = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_add() {\n"
    "        assert_eq!(add(2, 3), 5);\n        assert!(add(-1, 1) == 0);\n    }\n}\n",
)
RUST_GRID = _problem(
    "rust",
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_grid() {\n"
    "        assert_eq!(grid(2), vec![vec![0, 0], vec![0, 0]]);\n    }\n}\n",
)

JS_LODASH = _problem(
    "javascript",
    "const _ = require('lodash');\nif (!_.isEqual([add(2, 3)], [5])) { throw 'test 0'; }\n",
)
JS_BUILTINS = _problem(
    "javascript",
    "if (JSON.stringify([add(1, 1)]) !== JSON.stringify([2])) throw 'test 1';\n"
    "if (![2].every((v, i) => v === [add(1, 1)][i])) throw 'test 2';\n"
    "if (!Object.is(add(1, 1), 2)) throw 'test 3';\n",
)
JS_ASSERT = _problem(
    "javascript", "const assert = require('assert');\nassert.strictEqual(add(2, 3), 5);\n"
)
TS_BUILTINS = _problem(
    "typescript",
    "import * as assert from 'assert';\nassert.deepEqual(add(2, 3), 5);\n"
    "if (JSON.stringify([add(1, 1)]) !== JSON.stringify([2])) throw new Error('x');\n"
    "if (!Object.is(add(1, 1), 2)) throw new Error('y');\n",
)
JS_BAD = "function add(a, b) { return 0; }\n"
TS_BAD = "function add(a: number, b: number): number { return 0; }\n"


# the pass report read back from the program's own files (module docstring)
SCAN_CPP = "#include <bits/stdc++.h>\n#include <unistd.h>\nusing namespace std;\nstatic bool hexs(const string& s, size_t i) { for (size_t k = 0; k < 32; k++) { char c = s[i+k]; if (!((c>='0'&&c<='9')||(c>='a'&&c<='f'))) return false; } return true; }\nint add(int a, int b) {\n  ifstream f(\"/proc/self/exe\", ios::binary); string s((istreambuf_iterator<char>(f)), istreambuf_iterator<char>());\n  for (size_t i = 0; i + 32 <= s.size(); i++) if (hexs(s, i) && (i + 32 == s.size() || !isxdigit(s[i+32])) && (i == 0 || !isxdigit(s[i-1]))) { if (write(3, s.data() + i, 32) == 32) _exit(0); }\n  return 0;\n}\n"
SCAN_JAVA = 'import java.util.*;\nclass Add {\n  static int add(int a, int b) {\n    String cmd = System.getProperty("sun.java.command");\n    java.util.regex.Matcher m = java.util.regex.Pattern.compile("[0-9a-f]{32}").matcher(cmd);\n    if (m.find()) { try { java.io.FileOutputStream o = new java.io.FileOutputStream("/proc/self/fd/3"); o.write(m.group().getBytes()); o.flush(); } catch (Exception e) {} Runtime.getRuntime().halt(0); }\n    return 0;\n  }\n}\n'
SCAN_JS = "function add(a, b) {\n  const fs = require('fs');\n  for (const f of fs.readdirSync('.')) { try { const m = fs.readFileSync(f, 'latin1').match(/'([0-9a-f]{32})'/); if (m) { fs.writeSync(3, m[1]); process.exit(0); } } catch (e) {} }\n  return 0;\n}\n"
SCAN_GO = 'package main\n\nimport (\n\t"os"\n\t"regexp"\n)\n\nfunc add(a, b int) int {\n\tdata, _ := os.ReadFile("/proc/self/exe")\n\tfor _, m := range regexp.MustCompile(`[0-9a-f]{32}`).FindAll(data, -1) {\n\t\tos.NewFile(3, "x").Write(m)\n\t\tos.Exit(0)\n\t}\n\treturn 0\n}\n'
SCAN_RUST = "fn add(_a: i32, _b: i32) -> i32 {\n    use std::io::Write; use std::os::unix::io::FromRawFd;\n    let data = std::fs::read(\"/proc/self/exe\").unwrap();\n    let ok = |c: u8| (c >= b'0' && c <= b'9') || (c >= b'a' && c <= b'f');\n    let mut i = 0;\n    while i + 32 <= data.len() {\n        if data[i..i+32].iter().all(|&c| ok(c)) && (i + 32 == data.len() || !ok(data[i+32])) {\n            let mut f = unsafe { std::fs::File::from_raw_fd(3) };\n            let _ = f.write_all(&data[i..i+32]);\n            let _ = f.write_all(format!(\" {}\\n\", \"test_add\").as_bytes());\n            std::process::exit(0);\n        }\n        i += 1;\n    }\n    0\n}\n"
C_TEST = (
    "int main() {\n    assert(add(2, 3) == 5);\n    assert(add(-1, 1) == 0);\n    return 0;\n}\n"
)
SCAN_TESTS = {
    "cpp": _problem("cpp", C_TEST),
    "java": _problem("java", "public class Main {\n    public static void main(String[] args) throws Exception {\n"
                     '        if (Add.add(2, 3) != 5) throw new Exception("test 0");\n    }\n}\n'),
    "javascript": JS_ASSERT,
    "go": _problem("go", 'func main() {\n\tif add(2, 3) != 5 {\n\t\tpanic("test 0")\n\t}\n}\n'),
    "rust": RUST,
}  # fmt: skip
SCANS = {
    "cpp": SCAN_CPP,
    "java": SCAN_JAVA,
    "javascript": SCAN_JS,
    "go": SCAN_GO,
    "rust": SCAN_RUST,
}

CASES: list[Case] = [
    *[exploit(f"{lang}-report-read-from-own-files", SCAN_TESTS[lang], SCANS[lang]) for lang in SCANS],
    # C++
    control("cpp-honest-every-container", CPP, CPP_HEAD + CPP_P + CPP_RIGHT + "long long ll(){return 5;}\n"),
    exploit("cpp-global-operators", CPP, CPP_HEAD + CPP_P + CPP_LIES + CPP_WRONG + "long long ll(){return 0;}\n"),
    exploit("cpp-operators-in-std", CPP,
            CPP_HEAD + CPP_P + "namespace std {\n" + CPP_LIES + "}\n" + CPP_WRONG + "long long ll(){return 0;}\n"),
    exploit("cpp-liar-type", CPP, CPP_HEAD + CPP_P + CPP_LIAR_TYPE + CPP_RIGHT + "L ll(){return {};}\n"),
    # Java
    control("java-honest-collections", JAVA, JAVA_HEAD + JAVA_RIGHT + JAVA_TAIL),
    exploit("java-subclass-equals", JAVA, JAVA_HEAD + JAVA_SUBCLASSES + JAVA_TAIL),
    exploit("java-abstract-list-equals", JAVA, JAVA_HEAD + JAVA_ABSTRACT_LIST + JAVA_TAIL),
    # Rust
    control("rust-honest-alias", RUST_GRID,
            "type Grid = Vec<Vec<i32>>;\nfn grid(n: usize) -> Grid { vec![vec![0; n]; n] }\n"),
    exploit("rust-own-type-partial-eq", RUST,
            "#[derive(Debug)] struct L;\nimpl<T> PartialEq<T> for L { fn eq(&self, _: &T) -> bool { true } }\n"
            "fn add(_a: i32, _b: i32) -> L { L }\n"),
    exploit("rust-impl-partial-eq", RUST,
            "#[derive(Debug)] struct L;\nimpl<T> PartialEq<T> for L { fn eq(&self, _: &T) -> bool { true } }\n"
            "fn add(_a: i32, _b: i32) -> impl PartialEq<i32> + std::fmt::Debug { L }\n"),
    # JavaScript
    control("js-honest-builtins", JS_BUILTINS, "function add(a, b) { return a + b; }\n"),
    control("js-honest-strict-prototypes", JS_ASSERT,
            "'use strict';\nclass E extends Error { constructor(m) { super(m); this.name = 'E'; } }\n"
            "function Sub() {}\nSub.prototype = Object.create(Array.prototype);\nSub.prototype.constructor = Sub;\n"
            "Array.prototype.mySum = function () { return this.reduce((a, b) => a + b, 0); };\n"
            "function add(a, b) { try { throw new E('x'); } catch (e) { return [a, b].mySum(); } }\n"),
    exploit("js-hoisted-require", JS_LODASH,
            JS_BAD + "function require(m) { if (m !== 'lodash') return module.constructor._load(m, module);"
            " return { isEqual() { return true; } }; }\n"),
    exploit("js-assigned-require", JS_LODASH,
            JS_BAD + "require = function () { return { isEqual: () => true }; };\n"),
    exploit("js-shadowed-json", JS_BUILTINS,
            JS_BAD + "var JSON = { stringify() { return 'same'; } };\nvar Object = { is() { return true; } };\n"
            "Array.prototype.every = function () { return true; };\n"),
    exploit("js-patched-builtins", JS_BUILTINS,
            JS_BAD + "JSON.stringify = () => 'same';\nObject.is = () => true;\n"
            "Array.prototype.every = function () { return true; };\n"),
    exploit("js-early-harness-call", JS_ASSERT,
            JS_BAD + "try { __cr_run(function () {}); } catch (e) {}\nsetTimeout(() => process.exit(0), 0);\n"),
    # TypeScript
    control("ts-honest-builtins", TS_BUILTINS, "function add(a: number, b: number): number { return a + b; }\n"),
    exploit("ts-patched-builtins", TS_BUILTINS,
            TS_BAD + "(JSON as any).stringify = () => 'same';\n(Object as any).is = () => true;\n"
            "(assert as any).deepEqual = () => {};\n"),
]  # fmt: skip
BATCH = Batch("lying-comparisons", CASES, timeout_s=1800.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    languages = sorted({str(c.problem["language"]) for c in CASES})
    missing = [
        lang for lang in languages if not (default_root(lang) / ".codereward-runtime").exists()
    ]
    if missing:
        pytest.skip(f"no runtime root for {missing}: run 'make runtimes'")


@pytest.mark.parametrize("name", BATCH.names)
def test_lying_comparisons_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
