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
    rewrite_cpp_equalities,
    rewrite_java_equals,
    rust_own_return_type,
    rust_reads_files,
    rust_untrusted,
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
