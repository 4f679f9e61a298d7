"""Rust assert tests decided on the host (``reward_api.verify.lifted_rust``): which tests
it takes, and, checked against rustc itself in the Rust runtime root, that every assertion
it decides compiles and comes out as it says, on values the recorder wrote."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from reward_api.verify import languages, lifted, lifted_rust
from tests.languages.test_runtimes import _in_cell

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "fixtures"

HUMANEVAL_X = """
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_f() {
        assert_eq!(f(vec![1, 2]), 3);
        assert!(f(vec![]) == 0);
    }
}
"""
MULTIPL_E = """
fn main() {
    let candidate = f;
    assert_eq!(candidate(vec![1, 2]), 3);
    assert_eq!(candidate(vec![]), 0);
}
"""


def test_the_datasets_shapes_are_lifted():
    for test in (HUMANEVAL_X, MULTIPL_E):
        plan = lifted_rust.plan(test, ("f",))
        assert plan is not None
        assert [c.kind for c in plan.checks] == ["eq", "eq"]
        assert plan.calls[0].endswith("(vec![1, 2])")
    fixtures = [json.loads(line) for line in (FIXTURES / "humaneval_x.jsonl").open()]
    rust = [f for f in fixtures if f["task_id"].startswith("Rust/")]
    assert rust and all(lifted_rust.plan(f["test"]) is not None for f in rust)


@pytest.mark.parametrize("assertion", [
    "assert!(!(f(1)));",
    "assert!(f(1.0) - 2.0 / 3.0 < 0.000001);",
    "assert!(f64::abs(f(1.0) - 6.00) < 0.01);",
    "assert!(f64::abs(f(1.0) + 1.0) <= 0.01);",
    "assert!((f(1.0) - (1.0 + 2.0) / 3.0).abs() < 1e-9);",
])  # fmt: skip
def test_humaneval_x_s_other_shapes_are_lifted(assertion):
    assert lifted_rust.plan("fn main() { " + assertion + " }", ("f",)) is not None


@pytest.mark.parametrize("assertion", [
    "assert!(f(1.0) - 1.0 - 2.0 < 0.1);",  # (f - 1) - 2
    "assert!(f(1.0) - 2 < 1.0);",  # an integer literal against an f64
    "assert!(f64::abs(f(1.0) - 1.0) < 0.1 && true);",
    "assert!(0.1 > f(1.0) - 1.0);",
    "assert!(f(1.0) - 1.0 / 0.0 < 0.1);",
    "assert!(f(1.0) - 1.0f32 < 0.1);",
    "assert!(!(f(1)) == true);",
])  # fmt: skip
def test_tolerances_of_other_shapes_stay_beside_the_program(assertion):
    assert lifted_rust.plan("fn main() { " + assertion + " }", ("f",)) is None


def test_a_program_s_own_f64_keeps_f64_abs_beside_it():
    test = "fn main() { assert!(f64::abs(f(1.0) - 1.0) < 0.1); }"
    for program in ("mod f64 { pub fn abs(x: f64) -> f64 { 0.0 * x } }\nfn f(x: f64) -> f64 { x }",
                    "use std::f32 as f64;\nfn f(x: f64) -> f64 { x }"):  # fmt: skip
        assert lifted_rust.program_unlifted(program, test) is not None
    assert lifted_rust.program_unlifted("fn f(x: f64) -> f64 { x }", test) is None


@pytest.mark.parametrize("test", [
    # a message, should_panic, ignore, another statement, a helper, a program's name in an
    # argument, a nested call, an expected value of the program's, a block comment
    "fn main() { assert_eq!(f(1), 2, \"msg\"); }",
    "#[test]\n#[should_panic]\nfn t() { assert_eq!(f(1), 2); }",
    "#[test]\n#[ignore]\nfn t() { assert_eq!(f(1), 2); }",
    "fn main() { let x = f(1); assert_eq!(x, 2); }",
    "fn main() { assert_eq!(f(1), 2); }\nfn helper() {}",
    "fn main() { assert_eq!(f(g(1)), 2); }",
    "fn main() { assert_eq!(f(f(1)), 2); }",
    "fn main() { assert_eq!(f(1), g(2)); }",
    "fn main() { assert_eq!(f(1), 2); /* c */ }",
    "fn main() { assert_eq!(f(1), i32::MAX); }",
    "fn main() { assert_eq!(f(|x| x), 2); }",
    "fn main() { assert_eq!(f(&mut v), 2); }",
    "fn main() { assert_eq!(f(1), 2) }",
    "#[cfg(test)]\nmod tests {\n #[test]\n fn t() { assert_eq!(f(1), 2); }\n}",
    "fn main() { if true { assert_eq!(f(1), 2); } }",
    "fn main() { assert!(f(1) < 2); }",
    "fn main() { assert_eq!(f(1), b\"x\"); }",
    "fn main() { assert_eq!(f(1), r\"x\"); }",
])  # fmt: skip
def test_other_shapes_stay_beside_the_program(test):
    assert lifted_rust.plan(test, ("f", "g")) is None


def test_a_named_entry_point_is_the_only_callable():
    assert lifted_rust.plan("fn main() { assert_eq!(g(1), 2); }", ("f",)) is None
    assert lifted_rust.plan("fn main() { let c = g; assert_eq!(c(1), 2); }", ("f",)) is None
    assert lifted_rust.plan("fn main() { let c = f; assert_eq!(c(1), 2); }", ("f",)) is not None


def _decide(test: str, channel: str) -> str:
    plan = lifted_rust.plan(test)
    assert plan is not None
    rec = lifted_rust.read(channel, len(plan.calls))
    if rec is None:
        return "unreadable"
    judged = lifted_rust.decide(plan, rec)
    return "beside" if judged is None else judged.outcome


def test_what_the_channel_holds_decides_nothing_the_program_could_not_return():
    """The types' line is the recorder's, written before any code of the program's ran;
    value lines are the program's to spoil, never to send the test back beside it."""
    test = "fn main() { assert_eq!(f(1), 5); assert_eq!(f(2), 6); }"
    head = "t i32 i32\n"
    assert _decide(test, head + "vi32 5;\nvi32 6;\n") == "passed"
    assert _decide(test, head + "vi32 5;\n") == "ran_out"  # the second call never returned
    assert _decide(test, head + "vi32 4;\n") == "failed"  # a failure before the program's end
    assert _decide(test, head + "vi32 5;\nvi32 6;\nvi32 7;\n") == "unreadable"  # a line too many
    assert _decide(test, head + "vi32 5;\nvi32 6") == "unreadable"  # cut
    assert _decide(test, "vi32 5;\nvi32 6;\n") == "unreadable"  # no types' line
    assert _decide(test, "t i32\nvi32 5;\nvi32 6;\n") == "unreadable"  # types of one call
    assert _decide(test, head + "x\nvi32 6;\n") == "unreadable"
    assert _decide(test, head + "vi8 500;\nvi32 6;\n") == "failed"  # not its call's type
    assert _decide(test, head + "vf32 40a00000;\nvi32 6;\n") == "failed"  # ditto: not back
    assert _decide(test, head + "vString 35;\nvi32 6;\n") == "failed"
    assert _decide(test, head + "vi32 05;\nvi32 6;\n") == "failed"  # not the recorder's spelling
    assert _decide(test, "t i64 i32\nvi64 9999999999;\nvi32 6;\n") == "failed"
    # by the declared types alone: a call whose literal the host does not type goes back
    assert _decide(test, "t String i32\nvString 35;\nvi32 6;\n") == "beside"
    assert _decide(test, "t f32 i32\nvf32 40a00000;\nvi32 6;\n") == "beside"
    assert _decide(test, "t f32 i32\n") == "beside"
    one = 'fn main() { assert_eq!(f(1), "a"); }'
    assert _decide(one, "t String\nvString ff;\n") == "failed"  # not UTF-8


def test_expected_values_rustc_refuses_or_the_host_would_not_finish_go_back():
    """A red team's cases: an array repeat of a value that is not ``Copy``, nested vecs of
    ``&str`` and ``String``, a doc comment, a ``use`` that renames, a literal without
    digits, and a repeat too large to walk."""
    test = "fn main() { assert_eq!(f(), %s); }"
    assert lifted_rust.plan(test % '[String::from("a"); 2]') is None
    assert lifted_rust.plan(test % "[1; 2]") is not None
    assert (
        _decide(test % 'vec![vec!["a"], vec!["b".to_string()]]', "t Vec<Vec<String>>\n") == "beside"
    )
    assert (
        _decide(test % 'vec![Some("a".to_string()), None]', "t Vec<Option<String>>\n") != "beside"
    )
    for shape in (
        "fn main() { assert_eq!(f(1), 1); //! hi\n assert_eq!(f(2), 2); }",
        "fn main() { /// doc\n assert_eq!(f(1), 1); }",
        "#[cfg(test)]\nmod tests {\n use super::*;\n use super::f as g;\n #[test]\n fn t() { assert_eq!(g(1), 2); }\n}",
        "fn main() { assert_eq!(f(1), 0x_); }",
        "fn main() { assert_eq!(f(1), 0b_u8); }",
        "fn main() { assert_eq!(f(), vec![vec![vec![0; 100000]; 100000]; 100000]); }",
        'fn main() { assert_eq!(f(), vec!["%s"; 100000]); }' % ("a" * 100),
        'fn main() { assert_eq!(f(), vec![String::from("%s"); 1000]); }' % ("a" * 20000),
        "fn main() {\n" + "assert_eq!(f(1), 1);\n" * 4097 + "}",
    ):
        assert lifted_rust.plan(shape) is None, shape
    assert lifted_rust.plan("fn main() { assert_eq!(f(1), 1); //// four\n }") is not None
    # a tolerance out of f64's range: rustc refuses the literal, the host would say yes
    near = "fn main() { assert!((f(2.0) - 0.5).abs() < 1e400); }"
    assert _decide(near, "t f64\nvf64 4058000000000000;\n") == "beside"


def test_test_functions_run_in_libtests_order():
    """libtest runs a crate's tests one by one in the order of their names: so does the
    recorder (a program with state sees the calls in the same order)."""
    test = "#[test] fn b() { assert_eq!(f(), 0); }\n#[test] fn a() { assert_eq!(f(), 1); }\n"
    plan = lifted_rust.plan(test)
    assert plan is not None
    assert [c.expected[1] for c in plan.checks] == [1, 0]


def test_programs_that_could_write_before_the_recorder_are_not_lifted():
    for program in ("#[no_mangle] pub extern \"C\" fn f() {}", "#[link_section = \".x\"] static A: u8 = 0;",
                    "#[global_allocator] static A: std::alloc::System = std::alloc::System;",
                    "trait T { fn to_string(&self) -> String; }", "impl From<u8> for S { fn from(x: u8) -> S { S } }",
                    "#[cfg(test)] mod own { #[test] fn t() { assert!(false); } }",
                    "macro_rules! mk { ($n:ident) => { trait Tr { fn $n(&self) -> String; } }; }\nmk!(to_string);"):  # fmt: skip
        assert lifted_rust.program_unlifted(program, MULTIPL_E), program
    assert (
        lifted_rust.program_unlifted("fn f() -> String { 5.to_string() } // fn from", MULTIPL_E)
        is None
    )


# ------------------------------------------------------------------ against rustc
VALUES = {
    "i8": ["0", "-128", "127"], "u8": ["0", "255"], "i32": ["0", "1", "-1", "2147483647"],
    "u32": ["0", "4294967295"], "i64": ["-9223372036854775808", "42"],
    "u64": ["18446744073709551615", "7"], "i128": ["-170141183460469231731687303715884105728"],
    "u128": ["340282366920938463463374607431768211455"], "isize": ["-3"], "usize": ["3"],
    "f64": ["0.1", "-0.0", "f64::NAN", "f64::INFINITY", "1e300", "5e-324", "0.1 + 0.2", "3.0"],
    "f32": ["0.1"],
    "bool": ["true", "false"], "char": ["'a'", "'\\u{e9}'", "'\\n'", "'\\u{1F600}'"],
    "String": ['"a".to_string()', "String::new()", '"\\u{e9}\\n\\"\\\\".to_string()'],
    "&'static str": ['"a"', '""'],
    "Vec<i32>": ["vec![]", "vec![1, 2]", "vec![-1]"], "Vec<Vec<i32>>": ["vec![vec![]]", "vec![]"],
    "Vec<Option<String>>": ["vec![None]"], "Vec<f64>": ["vec![0.5, f64::NAN]", "vec![0.5]"],
    "Vec<String>": ['vec!["a".to_string()]', "vec![]"], "Vec<&'static str>": ['vec!["a", "b"]'],
    "Vec<Vec<String>>": ['vec![vec!["a".to_string()], vec![]]'],
    "Vec<(String, i32)>": ['vec![("a".to_string(), 1)]'], "Option<String>": ['Some("a".to_string())', "None"],
    "Option<i32>": ["Some(3)", "None"], "Option<Vec<i32>>": ["Some(vec![1])"],
    "Result<i32, String>": ["Ok(1)", 'Err("e".to_string())'], "(i32, String)": ['(1, "a".to_string())'],
    "(bool,)": ["(true,)"], "[i32; 3]": ["[1, 2, 3]"], "[String; 2]": ['["a".to_string(), "b".to_string()]'],
    "Vec<Option<i32>>": ["vec![Some(1), None]"], "Vec<bool>": ["vec![true]"], "Vec<char>": ["vec!['a']"],
    "Vec<u8>": ["vec![255]"], "Option<&'static str>": ['Some("a")'],
}  # fmt: skip
LITERALS = [
    "0", "1", "-1", "-0", "3", "42", "7", "127", "128", "-128", "255", "256", "1i32", "1u8", "0x1f",
    "0b1", "0o7", "1_000", "2147483647", "4294967295", "-9223372036854775808", "18446744073709551615",
    "340282366920938463463374607431768211455", "-170141183460469231731687303715884105728", "-3",
    "0.1", "-0.0", "0.0", "3.0", "3.", "3f64", "3.0f32", "1e300", "5e-324", "4.9e-324",
    "0.30000000000000004", "0.1_f64", "1e-400", "true", "false", "'a'", "'\\u{e9}'", "'\\n'",
    "'\\u{1F600}'", "'\\x41'", '"a"', '"a".to_string()', '"a".to_owned()', 'String::from("a")',
    "String::new()", '""', '"\\u{e9}\\n\\"\\\\"', '"\\u{e9}\\n\\"\\\\".to_string()', '"\\x41"',
    "vec![]", "Vec::new()", "vec![1, 2]", "vec![-1]", "vec![1, 2,]", "vec![0.5]", "vec![0.5; 1]",
    'vec!["a"]', 'vec!["a".to_string()]', 'vec!["a", "b"]', 'vec!["a".to_string(), "b"]',
    'vec![vec!["a"], vec![]]', 'vec![vec!["a".to_string()], vec![]]', 'vec![("a".to_string(), 1)]',
    'vec![("a", 1)]', 'Some("a")', 'Some("a".to_string())', "None", "Some(3)", "Some(vec![1])",
    "Ok(1)", 'Err("e")', 'Err("e".to_string())', '(1, "a")', '(1, "a".to_string())', "(true,)",
    "[1, 2, 3]", "[1; 3]", '["a", "b"]', '["a".to_string(), "b".to_string()]', "vec![Some(1), None]",
    "vec![true]", "vec!['a']", "vec![255]", "vec![256]", "vec![1, 2u8]", "(1, 2)", "vec![vec![]]",
    "vec![None]", "vec![vec![], vec![1]]", "vec![vec![\"a\"], vec![]]", "vec![1; 0]",
    "Vec::<String>::new()", "Vec::<&str>::new()", "Vec::<i32>::new()", "Vec::<u8>::new()",
    "Vec::<Vec<String>>::new()", "Vec::<Vec<&str>>::new()", "Vec::<(String, i32)>::new()",
    "Vec::<Option<i32>>::new()", "Vec::<f64>::new()", "Vec::<isize>::new()", "Vec::<(i32,)>::new()",
]  # fmt: skip
FORMS = ["assert_eq!({c}, {e});", "assert_eq!({e}, {c});", "assert_ne!({c}, {e});",
         "assert!({c} == {e});", "assert!({e} != {c});"]  # fmt: skip


def _rustc(source: str, run: str = "./t --test-threads=1") -> str:
    script = f"cd /tmp && cat > t.rs && rustc --edition 2021 --test -o t t.rs 2>&1 && {run}"
    p = _in_cell("rust", ["/bin/sh", "-c", script], source, timeout_s=900)
    assert p.returncode in (0, 101), (p.stdout[-3000:], p.stderr[-2000:])
    return p.stdout


def test_every_assertion_the_host_decides_compiles_and_comes_out_as_rustc_says():
    """Each (type, value) is returned by a function of a program and recorded by the real
    recorder (built and run in the Rust root); each assertion form of each literal against
    it is decided on the host where it can be, and every decided one is then built with
    ``--test`` and run by rustc: it must compile, and pass exactly where the host said."""
    funcs = [(ty, v) for ty, vs in VALUES.items() for v in vs]
    program = "".join(
        f"#[allow(dead_code)] fn r{i}() -> {ty} {{ {v} }}\n" for i, (ty, v) in enumerate(funcs)
    )
    test = "fn main() {\n" + "".join(f"    assert!(r{i}());\n" for i in range(len(funcs))) + "}\n"
    plan = lifted_rust.plan(test)
    assert plan is not None
    unit = languages.lifted_rust_unit(program, test, plan)
    out = _rustc(unit.files["main.rs"], "./t --test-threads=1 3>&1 >/dev/null 2>&1")
    head, *lines = out.splitlines(keepends=True)
    types = head.split()[1:]
    assert len(lines) == len(types) == len(funcs), out[-2000:]
    cases = []
    for (i, _f), literal, form in itertools.product(enumerate(funcs), LITERALS, FORMS):
        one = "fn main() { " + form.format(c=f"r{i}()", e=literal) + " }"
        shape = lifted_rust.plan(one)
        if shape is None:
            continue
        judged = lifted_rust.decide(shape, lifted.Recorded([types[i]], lines[i]))
        if judged is None:
            continue
        assert judged.outcome in ("passed", "failed"), (one, judged)
        cases.append((form.format(c=f"r{i}()", e=literal), judged.outcome == "passed"))
    assert len(cases) > 1500
    truth = program + "".join(
        f"#[test] fn c{n}() {{ {assertion} }}\n" for n, (assertion, _p) in enumerate(cases)
    )
    out = _rustc(truth)
    ran = dict(re.findall(r"^test c(\d+) \.\.\. (ok|FAILED)$", out, re.MULTILINE))
    assert len(ran) == len(cases), out[-3000:]
    wrong = [case for n, case in enumerate(cases) if (ran[str(n)] == "ok") != case[1]]
    assert not wrong, wrong[:20]


def test_near_assertions_as_rustc_computes_them():
    program = "fn f(x: f64) -> f64 { x }\n"
    forms = ["assert!((f({x}) - {e}).abs() < {eps});", "assert!((f({x}) - {e}).abs() <= {eps});",
             "assert!(f64::abs(f({x}) - {e}) < {eps});", "assert!(f64::abs(f({x}) + {e}) < {eps});",
             "assert!(f({x}) - {e} < {eps});", "assert!(f({x}) + {e} <= {eps});"]  # fmt: skip
    cases = []
    for x, e, eps, form in itertools.product(
        ["0.1", "0.30000000000000004", "1e300", "-0.0", "2.5"],
        ["0.1", "0.3", "2.5", "-1e300", "2.0 / 3.0", "0.1 * 3.0", "(0.1 + 0.2) / 3.0",
         "-1e300 / 7.0 * 2.0", "1.0 / (3.0 - 0.5)"],
        ["1e-9", "0.0", "1e-300", "5e-17", "0.2"], forms,
    ):  # fmt: skip
        one = "fn main() { " + form.format(x=x, e=e, eps=eps) + " }"
        shape = lifted_rust.plan(one)
        assert shape is not None, one
        bits = struct_bits(float(x))
        judged = lifted_rust.decide(shape, lifted.Recorded(["f64"], f"vf64 {bits};\n"))
        assert judged is not None
        cases.append((form.format(x=x, e=e, eps=eps), judged.outcome == "passed"))
    truth = program + "".join(f"#[test] fn c{n}() {{ {a} }}\n" for n, (a, _p) in enumerate(cases))
    out = _rustc(truth)
    ran = dict(re.findall(r"^test c(\d+) \.\.\. (ok|FAILED)$", out, re.MULTILINE))
    assert len(ran) == len(cases)
    assert not [c for n, c in enumerate(cases) if (ran[str(n)] == "ok") != c[1]]


def struct_bits(x: float) -> str:
    import struct

    return struct.pack(">d", x).hex()
