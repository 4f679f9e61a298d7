"""The rewrite of a test's comparisons into the trusted ``eq`` (reward_api.verify.compiled_eq).

Pure text: which ``==``, ``!=``, ``.equals`` and ``Objects.equals`` become calls, with which
operands, and which are left as written (where the operands are not clear from the
tokens, a wrong rewrite could change the test's meaning). What the rewritten tests compute
is checked with the real compilers in tests/sandbox/adversarial/test_lying_comparisons.py
and tests/languages/test_agreement.py.
"""

from __future__ import annotations

import pytest

from reward_api.verify.compiled_eq import (
    JavaProgram,
    java_asserts_always_on,
    java_declared_types,
    java_fresh_literals,
    java_refused,
    java_source_text,
    java_test_in_own_class,
    jdk_types,
    qualify_java_types,
    rename_cpp_test_functions,
    rewrite_cpp_equalities,
    rewrite_java_equals,
    rust_own_return_type,
    rust_reads_files,
    rust_untrusted,
    wrap_java_answers,
)

CPP = [
    ("assert(add(2, 3) == 5);", "assert(NS::eq(add(2, 3) , 5));"),
    ("if (!(x0 == 5)) {}", "if (!(NS::eq(x0 , 5))) {}"),
    ("template <typename T> bool compare(T a, T b){ return a == b; }",
     "template <typename T> bool compare(T a, T b){ return NS::eq(a , b); }"),
    ("bool ok = v.size() != 3 && vector<int>{1,2} == f(x);",
     "bool ok = !NS::eq(v.size() , 3) && NS::eq(vector<int>{1,2} , f(x));"),
    ("x = c ? a == b : d;", "x = c ? NS::eq(a , b) : d;"),
    ("r = (int)x == 3;", "r = NS::eq((int)x , 3);"),
    ("if (a == b) x = 1;", "if (NS::eq(a , b)) x = 1;"),
    ("assert((h() == map<int,string>{{1,\"a\"}}));",
     "assert((NS::eq(h() , map<int,string>{{1,\"a\"}})));"),
    ("assert((s() == set<vector<int>>{{1},{2}}));",
     "assert((NS::eq(s() , set<vector<int>>{{1},{2}})));"),
    ("std::cout << (x == y) << std::endl;", "std::cout << (NS::eq(x , y)) << std::endl;"),
    ('assert(candidate("abc") == "cba");', 'assert(NS::eq(candidate("abc") , "cba"));'),
    ("assert(a.x == b->y[2]);", "assert(NS::eq(a.x , b->y[2]));"),
]  # fmt: skip
CPP_UNCHANGED = [
    "#if A == B\n#endif",  # the preprocessor's
    'auto s = "a == b"; // c == d',  # a string, a comment
    "[](int a){return a;}(3) == 3;",  # a lambda called: not clear
    "a == b == c;",  # a chain
    "bool operator==(const S&, const S&);",  # a declaration
    "assert(compare(x, {1, 2}));",  # nothing to rewrite
]


@pytest.mark.parametrize(("code", "want"), CPP)
def test_cpp_equalities_become_calls_of_the_trusted_eq(code: str, want: str) -> None:
    assert rewrite_cpp_equalities(code, "NS") == want


@pytest.mark.parametrize("code", CPP_UNCHANGED)
def test_cpp_equalities_whose_operands_are_unclear_stay_as_written(code: str) -> None:
    assert rewrite_cpp_equalities(code, "NS") == code


RENAMED = [
    ("template <typename T> bool compare(T a, T b){ return a == b; }\n"
     "int main(int argc, char* argv[]) { if (!(compare(x0, false))) throw 1; }",
     "template <typename T> bool compare_T(T a, T b){ return a == b; }\n"
     "int main(int argc, char* argv[]) { if (!(compare_T(x0, false))) throw 1; }"),
    ("bool issame(vector<int> a,vector<int>b){ return a == b; }\nint main(){ assert (issame(f({}) , {})); }",
     "bool issame_T(vector<int> a,vector<int>b){ return a == b; }\nint main(){ assert (issame_T(f({}) , {})); }"),
    # a member of the name stays the member; a global qualifier is the test's function
    ("bool compare(string a, string b) { return a.compare(b) == 0 && ::compare(a, a); }",
     "bool compare_T(string a, string b) { return a.compare(b) == 0 && ::compare_T(a, a); }"),
    ("struct S { bool compare(int) const; };\nbool compare(int a) { return S().compare(a) && std::compare(a); }",
     "struct S { bool compare(int) const; };\nbool compare_T(int a) { return S().compare(a) && std::compare(a); }"),
    ("auto h(int x) -> int { return x; }\nint main() { return h(0); }",
     "auto h_T(int x) -> int { return x; }\nint main() { return h_T(0); }"),
    # declared, not defined: the program's function (an entry point)
    ("int add(int, int);\nint main() { return add(1, -1); }", "int add(int, int);\nint main() { return add(1, -1); }"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "want"), RENAMED)
def test_cpp_functions_the_test_defines_are_renamed_where_the_test_uses_them(
    code: str, want: str
) -> None:
    assert rename_cpp_test_functions(code, "_T") == want


def test_cpp_entry_points_and_main_keep_their_names() -> None:
    code = "int helper(int x) { return x; }\nint main() { return helper(0); }"
    assert rename_cpp_test_functions(code, "_T", frozenset({"helper"})) == code


def test_cpp_unbalanced_code_is_left_as_written() -> None:
    code = "assert(f(x == 3);"
    assert rewrite_cpp_equalities(code, "NS") == code


JAVA = [
    ("return obj1.equals(obj2);", "return NS.eq(obj1, obj2);"),
    ("if (!(s.f(x).equals(Arrays.asList(1, 2)))) throw new AssertionError();",
     "if (!(NS.eq(s.f(x), Arrays.asList(1, 2)))) throw new AssertionError();"),
    ("Objects.equals(a, b)", "NS.eq(a, b)"),
    ("java.util.Objects.equals(a,b)", "NS.eq(a,b)"),
    ('"x".equals(y)', 'NS.eq("x", y)'),
    ("new ArrayList<>(List.of(1)).equals(z)", "NS.eq(new ArrayList<>(List.of(1)), z)"),
    ("arr[0].equals(y)", "NS.eq(arr[0], y)"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "want"), JAVA)
def test_java_equals_become_calls_of_the_trusted_eq(code: str, want: str) -> None:
    assert rewrite_java_equals(code, "NS") == want


@pytest.mark.parametrize(
    "code", ["x.equals(a, b)", "other.Objects.equals(a, b)", "s.equalsIgnoreCase(t)"]
)
def test_java_calls_that_are_not_equals_of_one_argument_stay(code: str) -> None:
    assert rewrite_java_equals(code, "NS") == code


ANSWERS = [
    ("if (!s.f(x).containsAll(w)) t();", "if (!NS.got(s.f(x)).containsAll(w)) t();"),
    ("int n = new Solution().f(1).size();", "int n = NS.got(new Solution().f(1)).size();"),
    ("y = s.<Integer>f(3);", "y = NS.got(s.<Integer>f(3));"),
    ("y = Solution.f(s.f(1));", "y = NS.got(Solution.f(NS.got(s.f(1))));"),
    ("return Solution.f(1);", "return NS.got(Solution.f(1));"),
    ("List<Integer> r = list(Solution.f(1), 2);", "List<Integer> r = list(NS.got(Solution.f(1)), 2);"),
    # a whole statement (the method may be void), a lambda's body, a declaration: as written
    ("s.f(xs);", "s.f(xs);"),
    ("if (c) s.f(xs);", "if (c) s.f(xs);"),
    ("Runnable r = () -> s.f(1);", "Runnable r = () -> s.f(1);"),
    ("static List<Integer> f(int n) { return null; }", "static List<Integer> f(int n) { return null; }"),
    ("s::f", "s::f"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "want"), ANSWERS)
def test_java_answers_are_handed_to_the_trusted_copy(code: str, want: str) -> None:
    # `f` declared both ways: a whole statement or a lambda's body may be the void one
    program = JavaProgram(frozenset({"Solution"}), void=frozenset({"f"}), valued=frozenset({"f"}))
    assert wrap_java_answers("Solution s = new Solution();" + code, program, "NS") == (
        "Solution s = new Solution();" + want
    )


def test_java_calls_on_the_tests_own_objects_are_not_the_programs() -> None:
    # the program declares `get` and `add`: the test's list calls stay the test's
    program = JavaProgram(frozenset({"Solution"}), valued=frozenset({"get", "add", "f"}))
    code = "List<List<Integer>> g = s.f(); g.get(1).add(4); int x = g.get(0).get(0);"
    assert wrap_java_answers("Solution s = new Solution();" + code, program, "NS") == (
        "Solution s = new Solution();List<List<Integer>> g = NS.got(s.f()); g.get(1).add(4); "
        "int x = g.get(0).get(0);"
    )


def test_java_method_names_are_the_declared_ones() -> None:
    program = (
        "class S { public List<Integer> f(int n) { if (n > 0) return g(n); return null; }\n"
        "  private static <T> T[] h(T[] a) throws Exception { return a; }\n"
        "  int[] k() { return new int[0]; } abstract void z(); }"
    )
    assert JavaProgram.of(program).methods == {"f", "h", "k"}


def _java_literals(code: str, program: JavaProgram = JavaProgram()) -> str:
    keys = iter(range(1, 1000))
    return java_fresh_literals(code, "NS", lambda: next(keys), program)


def test_java_expected_literals_are_made_fresh() -> None:
    out = _java_literals('if (!s.f(x).equals(Arrays.asList("banana", "\\u00e9\\n"))) t();')
    assert '"banana"' not in out and "\\u00e9" not in out
    assert out.count("NS.s(") == 2 and "0x1L)" in out and "0x2L)" in out


def test_java_literals_the_program_is_handed_or_that_must_be_constants_stay() -> None:
    code = (
        'Solution s = new Solution(); if (!s.f("a", List.of("b")).equals(List.of("a", "c"))) t();\n'
        'if (Solution.g("d") == "e") t(); new Solution("f"); @SuppressWarnings("unused") int u;\n'
        'switch (x) { case "g": break; case K: break; } String h = """\n  text\n  """;\n'
        'static final String K = "k";'
    )
    out = _java_literals(code, JavaProgram(frozenset({"Solution"})))
    for kept in ('f("a"', '"b"', '"d"', '"e"', '"f"', '"unused"', '"g"', '"k"'):
        assert kept in out, kept
    # the expected "a" is made fresh, though the program is handed an "a" elsewhere; a text
    # block too
    assert '"c"' not in out and '"""' not in out and out.count("NS.s(") == 3


def test_java_literals_stay_fresh_where_the_program_names_its_types_and_methods_like_the_tests() -> (
    None
):
    code = (
        "class Assert { static void eq(Object a, Object b) {} }\n"
        'want.add("banana"); Arrays.asList("cherry"); Assert.eq("khoor", s.f("fig"));'
    )
    program = JavaProgram(
        frozenset({"Assert", "Solution"}), valued=frozenset({"add", "asList", "eq"})
    )
    out = _java_literals(code, program)
    for fresh in ('"banana"', '"cherry"', '"khoor"', '"fig"'):
        assert fresh not in out, fresh


def test_java_text_blocks_are_read_as_javac_reads_them() -> None:
    from reward_api.verify.compiled_eq import _java_text_block_value

    assert _java_text_block_value('"""\n    khoor\n    world\n    """') == "khoor\nworld\n"
    assert _java_text_block_value('"""\n  a\\tb\n    c"""') == "a\tb\n  c"
    assert _java_text_block_value('"""\n  one \\\n  two\n  """') == "one two\n"
    assert _java_text_block_value('"""x"""') is None  # no line break after the opening


def test_java_calls_of_methods_the_program_declares_with_a_value_are_wrapped_anywhere() -> None:
    program = JavaProgram.of(
        "class Solution { List<Integer> f(int n) { return null; } void g() {} }"
    )
    code = "Solution s = new Solution(); check(() -> s.f(1)); Object o = (Object) s.f(2); s.f(3); s.g();"
    assert wrap_java_answers(code, program, "NS") == (
        "Solution s = new Solution(); check(() -> NS.got(s.f(1))); Object o = (Object) NS.got(s.f(2)); "
        "NS.got(s.f(3)); s.g();"
    )


def test_java_program_types_come_from_its_tokens_not_its_comments() -> None:
    program = JavaProgram.of(
        '// helper: class Assert\nclass Solution { String f() { return "class Main"; } }'
    )
    assert program.types == {"Solution"} and program.methods == {"f"}


def test_java_literal_values_survive_the_scramble() -> None:
    # xorshift64 from 1: 1 ^ 1 << 13 = 0x2001, ^ >> 7 = 0x2041, << 17 leaves the low 16 bits
    from reward_api.verify.compiled_eq import _java_keystream, _java_string_value

    assert _java_string_value('"a\\tb\\101\\u0041\\0\\s"') == "a\tbAA\0 "
    assert _java_string_value('"\\q"') is None
    assert _java_keystream(1, 1) == [0x2041]


JAVA_HEAD = "import java.util.*;\nimport java.math.*;\n"
JAVA_TEST = (
    "class Main {\n    public static void main(String[] args) throws Exception {\n"
    "        List<Integer> v = Arrays.asList(4, 5); // Arrays.asList\n"
    '        if (!S.f(Arrays.asList(1)).equals(v)) throw new java.lang.Exception("Arrays");\n'
    "    }\n}\n"
)


@pytest.mark.parametrize(
    "declaration",
    [
        "class Arrays {}",
        "final class /* a helper */ Arrays {}",
        "final class // a helper\nArrays {}",
        "class \\u0041rrays {}",  # a Unicode escape, decoded before javac reads tokens
        "class \\uuu0041rrays {}",
        "class Arr\\u200bays {}",  # U+200B is ignorable in an identifier: javac reads Arrays
        "class Arr\u200bays {}",
        "interface Arrays {}",
        "enum Arrays { A }",
        "record Arrays(int x) {}",
        "@interface Arrays {}",
        "class S { static class Arrays {} }",
    ],
)
def test_java_declared_types_are_found_however_they_are_spelled(declaration: str) -> None:
    assert "Arrays" in java_declared_types(JAVA_HEAD + declaration)


def test_java_an_escaped_backslash_starts_no_unicode_escape() -> None:
    assert java_source_text('"\\\\u0041" \\\\\\u0041') == '"\\\\u0041" \\\\A'


def test_java_test_names_of_a_shadowing_program_become_the_jdk_types() -> None:
    program = (
        JAVA_HEAD
        + "class S {}\nfinal class Arrays { static <T> List<T> asList(T... a) { return null; } }\n"
    )
    out = qualify_java_types(JAVA_TEST, program)
    assert "List<Integer> v = java.util.Arrays.asList(4, 5); // Arrays.asList" in out
    assert "S.f(java.util.Arrays.asList(1))" in out
    assert 'new java.lang.Exception("Arrays")' in out  # a literal and a qualified name stay


def test_java_lang_and_imported_types_are_qualified_with_their_package() -> None:
    program = JAVA_HEAD + "class String {}\nclass BigInteger {}\nclass List {}\n"
    test = "class Main { static String f(List<BigInteger> x) { return null; } }"
    assert qualify_java_types(test, program) == (
        "class Main { static java.lang.String f(java.util.List<java.math.BigInteger> x) "
        "{ return null; } }"
    )


def test_java_single_type_and_member_type_imports_are_followed() -> None:
    program = "import java.util.Map.*;\nimport java.awt.List;\nclass Entry {}\nclass List {}\n"
    test = "Entry e = null; List l = null;"
    assert (
        qualify_java_types(test, program) == "java.util.Map.Entry e = null; java.awt.List l = null;"
    )


@pytest.mark.parametrize(
    ("program", "test"),
    [
        # the test's entry point, named like a JDK type: the test takes it from the program
        (JAVA_HEAD + "class Stack { int top() { return 0; } }", "new Stack().top();"),
        # a JDK name the program declares but no import makes visible
        ("class Node {}\nclass Pair {}", "Node n; Pair p;"),
        # a name the program does not declare
        (JAVA_HEAD + "class S {}", "List<Integer> x = Arrays.asList(1);"),
        # a member, a method of that name, the test's own class of that name
        (JAVA_HEAD + "class Arrays {} class Stack {}", "x.Arrays(); y::Arrays; Arrays(1);"),
        (JAVA_HEAD + "class Stack {}", "class Stack {} Stack s = new Stack();"),
    ],
)
def test_java_names_the_test_takes_from_the_program_or_declares_stay(
    program: str, test: str
) -> None:
    assert qualify_java_types(test, program, entry=["Stack"]) == test


def test_java_annotations_and_constructors_are_qualified() -> None:
    program = JAVA_HEAD + "@interface Override {}\nclass ArrayList {}\n"
    test = "@Override public String toString() { return new ArrayList<Integer>().toString(); }"
    assert qualify_java_types(test, program) == (
        "@java.lang.Override public String toString() "
        "{ return new java.util.ArrayList<Integer>().toString(); }"
    )


@pytest.mark.parametrize(
    "program",
    [
        "class java { static class util { static class List {} } }",
        "class \\u006aava {}",
        "interface java {}",
    ],
)
def test_java_a_type_named_java_is_refused(program: str) -> None:
    assert java_refused(program) is not None


@pytest.mark.parametrize(
    "program", ["class S { int java = 1; }", "// a class java would be refused\nclass S {}"]
)
def test_java_other_uses_of_the_word_java_are_not_refused(program: str) -> None:
    assert java_refused(program) is None


def test_jdk_types_list_the_packages_tests_import() -> None:
    types = jdk_types()
    assert {"Arrays", "List", "HashMap", "Map"} <= types["java.util"]
    assert {"String", "Integer", "Math", "Override"} <= types["java.lang"]
    assert {"Collectors", "Stream"} <= types["java.util.stream"]
    assert {"BigInteger", "BigDecimal"} <= types["java.math"]
    assert types["java.util.Map"] == {"Entry"}


TEST = "assert_eq!(add(1, 2), 3);"


@pytest.mark.parametrize(
    "program",
    [
        "struct L; impl<T> PartialEq<T> for L { fn eq(&self, _: &T) -> bool { true } }\nfn add(a: i32, b: i32) -> L { L }",
        "fn add(a: i32, b: i32) -> impl PartialEq<i32> + std::fmt::Debug { 0 }",
        "struct L;\ntype G = Vec<L>;\nfn add(a: i32, b: i32) -> G { vec![] }",
        # raw identifiers: `struct r#L` declares L (the pattern once took `r`)
        "#[derive(Debug)] pub struct r#L;\nimpl PartialEq<i32> for L { fn eq(&self, _: &i32) -> bool { true } }\nfn add(a: i32, b: i32) -> L { L }",
        "struct L;\nfn r#add(a: i32, b: i32) -> r#L { L }",
        "enum r#L { A }\ntype r#G = Option<L>;\nfn add(a: i32, b: i32) -> G { None }",
        # a type of the program renamed by `use ... as` (here as a primitive's name)
        "mod m { pub struct L; }\nuse m::L as i32;\nfn add(a: i32, b: i32) -> i32 { m::L }",
        # types declared by a macro, or a macro in the return type's place
        "macro_rules! mk { ($n:ident) => { struct $n; }; }\nmk!(L);\nfn add(a: i32, b: i32) -> L { L }",
        "struct L;\nmacro_rules! ty { () => { L }; }\nfn add(a: i32, b: i32) -> ty!() { L }",
    ],
)
def test_rust_results_of_the_programs_own_types_are_not_trusted(program: str) -> None:
    assert "a test cannot trust it" in (rust_own_return_type(program, TEST) or "")


@pytest.mark.parametrize(
    "program",
    [
        "fn add(a: i32, b: i32) -> i32 { a + b }",
        "type G = Vec<Vec<i32>>;\nfn add(a: i32, b: i32) -> G { vec![] }",
        "struct Helper;\nfn add<T: Into<i64>>(a: T, b: T) -> Vec<(i32, String)> where T: Copy { vec![] }",
        "struct L;\nfn other() -> L { L }\nfn add(a: i32, b: i32) -> i32 { 0 }",  # not called by the test
        # a program's own macros, returning standard types only
        "macro_rules! plus { ($a:expr, $b:expr) => { $a + $b }; }\nfn add(a: i32, b: i32) -> i32 { plus!(a, b) }",
        "macro_rules! m { () => {}; }\nfn add(a: i32, b: i32) -> Option<std::collections::HashMap<&'static str, Vec<u8>>> { None }",
        "use std::collections::HashMap as Map;\nfn add(a: i32, b: i32) -> Vec<i64> { vec![] }",
    ],
)
def test_rust_results_of_standard_types_are_trusted(program: str) -> None:
    assert rust_own_return_type(program, TEST) is None


@pytest.mark.parametrize(
    "program",
    [
        'static SRC: &str = include_str!("main.rs");\nfn add(a: i32, b: i32) -> i32 { SRC.len() as i32 }',
        # the macro's name as an identifier a macro of the program calls
        'macro_rules! grab { ($m:ident) => { $m!("main.rs") }; }\nstatic SRC: &str = grab!(include_str);',
        'static B: &[u8] = r#include_bytes!("main.rs");',
        'const S: &str = include!("x.rs");',
        # what looks like a comment or a literal to a naive scan, but is code to rustc
        '/* /* */ */ static S: &str = include_str!("main.rs");',
        'const Q: char = \'"\'; static S: &str = include_str!("main.rs"); // "',
        'const R: &str = r#"a"b"#; static S: &str = include_str!("main.rs");',
        "fn f<'include>(x: &'include str) -> &'include str { x }",
    ],
)
def test_rust_programs_that_read_files_while_compiling_are_not_trusted(program: str) -> None:
    assert "reads a file while the unit compiles" in (rust_reads_files(program) or "")


@pytest.mark.parametrize(
    "program",
    [
        "// include the last element\nfn add(a: i32, b: i32) -> i32 { a + b }",
        '/* include /* nested: include_str!("main.rs") */ */ fn add(a: i32, b: i32) -> i32 { a + b }',
        'fn add(a: i32, b: i32) -> i32 { let _s = "include_str!(\\"main.rs\\")"; a + b }',
        'fn add(a: i32, b: i32) -> i32 { let _s = r##"include"#"##; let _c = \'"\'; a + b }',
        "fn add(a: i32, b: i32) -> i32 { let including = a; let _args = std::env::args(); including + b }",
    ],
)
def test_rust_programs_that_only_mention_file_reads_are_trusted(program: str) -> None:
    assert rust_reads_files(program) is None


@pytest.mark.parametrize(
    "program",
    [
        '#[no_mangle]\npub extern "C" fn abort() -> ! { loop {} }\nfn add(a: i32, b: i32) -> i32 { a + b }',
        '# [ no_mangle ]\npub extern "C" fn exit(_c: i32) { }\nfn add(a: i32, b: i32) -> i32 { a + b }',
        '#[export_name = "write"]\npub extern "C" fn w() {}\nfn add(a: i32, b: i32) -> i32 { a + b }',
        'std::arch::global_asm!(".globl abort", "abort: ret");\nfn add(a: i32, b: i32) -> i32 { a + b }',
        'fn add(a: i32, b: i32) -> i32 { unsafe { std::arch::asm!("nop") }; a + b }',
    ],
)
def test_rust_programs_that_define_symbols_are_not_trusted(program: str) -> None:
    assert "defines symbols of the binary" in (rust_untrusted(program, TEST) or "")


def test_rust_untrusted_takes_each_reason() -> None:
    assert rust_untrusted("fn add(a: i32, b: i32) -> i32 { a + b } // #[no_mangle]", TEST) is None
    assert "reads a file" in (
        rust_untrusted('const S: &str = include_str!("main.rs");', TEST) or ""
    )
    own = "struct L;\nfn add(a: i32, b: i32) -> L { L }"
    assert "a test cannot trust it" in (rust_untrusted(own, TEST) or "")


MULTIPL_E_PROGRAM = "import java.util.*;\nclass Problem {\n    public static long fib(long n) {\n        return n;\n    }\n"
MULTIPL_E_TEST = (
    "    public static void main(String[] args) {\n"
    "    assert(fib((10l)) == (55l));\n"
    "    assert(sum(new ArrayList<Long>(Arrays.asList((long)1l))).equals(List.of(1l)));\n"
    "    }\n\n}\n\nclass Main {\n    public static void main(String[] args) throws Exception {\n"
    "        Problem.main(args);\n    }\n}\n"
)


def test_java_a_test_inside_the_programs_class_moves_into_its_own() -> None:
    moved = java_test_in_own_class(MULTIPL_E_PROGRAM, MULTIPL_E_TEST, "Own")
    assert isinstance(moved, tuple)
    program, test = moved
    assert program.startswith(MULTIPL_E_PROGRAM) and program.rstrip().endswith("before the test")
    assert test.startswith("final class Own {\n    public static void main(String[] args)")
    assert "assert(Problem.fib((10l)) == (55l));" in test
    assert "Problem.sum(new ArrayList<Long>(Arrays.asList((long)1l))).equals(List.of(1l))" in test
    assert "Own.main(args);" in test and "Problem.main" not in test


def test_java_a_top_level_test_is_left_alone() -> None:
    test = "public class Main {\n    public static void main(String[] args) {\n        assert Problem.fib(1) == 1;\n    }\n}\n"
    assert java_test_in_own_class(MULTIPL_E_PROGRAM + "}\n", test, "Own") is None


@pytest.mark.parametrize(
    "program",
    [
        # a decoy class left open: the test's main would be Decoy's, Problem.main the program's
        MULTIPL_E_PROGRAM
        + "    public static void main(String[] a) {}\n}\nclass Decoy extends Problem {\n",
        MULTIPL_E_PROGRAM + "    static class Inner {\n",  # a nested class left open
        MULTIPL_E_PROGRAM + "}\n",  # nothing left open
        MULTIPL_E_PROGRAM + "    void f() {\n",  # a method's body left open
    ],
)
def test_java_a_test_inside_another_open_scope_is_refused(program: str) -> None:
    assert isinstance(java_test_in_own_class(program, MULTIPL_E_TEST, "Own"), str)


@pytest.mark.parametrize(
    ("code", "want"),
    [
        ("assert(f(1) == 2);", "{ if (!((f(1) == 2))) throw new java.lang.AssertionError(); }"),
        (
            "if (a) assert b; else c();",
            "if (a) { if (!( b)) throw new java.lang.AssertionError(); } else c();",
        ),
        (
            'assert x > 0 ? y : z : "m" + q;',
            '{ if (!( x > 0 ? y : z )) throw new java.lang.AssertionError( "m" + q); }',
        ),
        (
            'assert x instanceof List<?> : "m";',
            '{ if (!( x instanceof List<?> )) throw new java.lang.AssertionError( "m"); }',
        ),
        ('String s = "assert x;";', 'String s = "assert x;";'),
        ("// assert x;", "// assert x;"),
    ],
)
def test_java_assert_statements_become_ifs_that_throw(code: str, want: str) -> None:
    assert java_asserts_always_on(code) == want
