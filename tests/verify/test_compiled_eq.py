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
    rename_cpp_test_functions,
    rewrite_cpp_equalities,
    rewrite_java_equals,
    rust_own_return_type,
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


TEST = "assert_eq!(add(1, 2), 3);"


@pytest.mark.parametrize(
    "program",
    [
        "struct L; impl<T> PartialEq<T> for L { fn eq(&self, _: &T) -> bool { true } }\nfn add(a: i32, b: i32) -> L { L }",
        "fn add(a: i32, b: i32) -> impl PartialEq<i32> + std::fmt::Debug { 0 }",
        "struct L;\ntype G = Vec<L>;\nfn add(a: i32, b: i32) -> G { vec![] }",
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
    ],
)
def test_rust_results_of_standard_types_are_trusted(program: str) -> None:
    assert rust_own_return_type(program, TEST) is None
