"""The mutants of the agreement runs (``reward_api.bench.mutants``): single, deterministic
edits of code, never of comments, literals or preprocessor lines. No runtime needed."""

from __future__ import annotations

from reward_api.bench.mutants import mutants, sites


def edits(code: str, language: str) -> list[tuple[str, str]]:
    return [(token, new) for _, token, new in sites(code, language)]


def test_each_operator_kind_has_its_swap() -> None:
    code = "if (a <= b && c != d || e == 1 + f - g) { return true; } return false;"
    assert edits(code, "cpp") == [("<=", "<"), ("&&", "||"), ("!=", "=="), ("||", "&&"),
                                  ("==", "!="), ("1", "2"), ("+", "-"), ("-", "+"),
                                  ("true", "false"), ("false", "true")]  # fmt: skip


def test_javascript_strict_equality_swaps_whole() -> None:
    assert edits("x === y || x !== z", "javascript") == [
        ("===", "!=="),
        ("||", "&&"),
        ("!==", "==="),
    ]


def test_comments_and_literals_are_not_edited() -> None:
    code = "// a < b + 1\n/* x == 2 */ s = \"i < 3 && true\"; c = '+'; n = 0;"
    assert edits(code, "java") == [("0", "1")]
    assert edits("s = `a + ${b}`; t = 'x - 1';", "javascript") == []
    assert edits("s := `a \\` + 1", "go") == [("+", "-"), ("1", "2")]  # a raw string ends at `


def test_a_javascript_regex_literal_is_not_edited() -> None:
    assert edits("s.split(/a+'b/).length - 1", "javascript") == [("-", "+"), ("1", "2")]
    assert edits("x = a / b - 1", "javascript") == [("-", "+"), ("1", "2")]


def test_generic_brackets_and_compound_operators_are_not_sites() -> None:
    code = "vector<vector<int> > v; i++; j -= 2; p->x; cout << k; f = (a) => a; i < n;"
    assert edits(code, "cpp") == [("2", "3"), ("<", "<=")]
    assert edits("#include <bits/stdc++.h>\nint x = 1 + 2;", "cpp") == [
        ("1", "2"),
        ("+", "-"),
        ("2", "3"),
    ]


def test_non_decimal_and_float_literals_are_not_sites() -> None:
    assert edits("x = 0x1F + 1.5 + 2L + 07;", "java") == [("+", "-"), ("+", "-"), ("+", "-")]


def test_mutants_are_distinct_single_edits_spread_over_the_text() -> None:
    code = "return a < b && c > 0 || d == 9;"
    out = mutants(code, "cpp", k=2)
    assert out == ["return a < b || c > 0 || d == 9;", "return a < b && c > 0 || d != 9;"]
    assert mutants(code, "cpp", k=2) == out  # deterministic
    assert all(m != code for m in out)
    assert len(mutants(code, "cpp", k=50)) == len(sites(code, "cpp"))


def test_code_without_a_site_has_no_mutant() -> None:
    assert mutants("return s; // i < 1", "cpp") == []
