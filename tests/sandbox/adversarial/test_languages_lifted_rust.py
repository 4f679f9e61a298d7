"""Rust assert tests lifted out of the program's process (``reward_api.verify.lifted_rust``).

HumanEval-X's ``#[test]`` functions and MultiPL-E's ``fn main()`` share the program's
crate, so the program can read the expected values from its own executable or its
caller's machine code; lifted, the program's build (the recorder) writes each call's
typed value, and the host compares it with the test's literal by Rust's rules. These
cases run lifted (the verifier's ``lifted.host`` counts them) on every backend
(``tests/docker/test_adversarial.py`` globs this file):

- an exploit that finds the expected value in its own executable, paid beside the test
  (``test_the_binary_reader_is_paid_beside_the_test``), and honest controls of both
  datasets' shapes;
- verdicts that must agree with the test run beside the program: a wrong value then a
  panic or a hang (``wrong_answer``: the comparison failed first), a right value then a
  panic (libtest's exit 101) or a hang (``timeout``), an ``exit(0)`` in a call (nothing
  recorded after it: never a pass);
- lines the program writes on the pass channel itself, which spoil its own record and
  never send the test back beside the program (the calls' types are the recorder's first
  line, written before any code of the program's runs: a red team wrote an ``x`` or an
  ``f32`` line, then left, when it saw the recorder's call site), and traits of the
  program's named like the recorder's methods, which change nothing (its uses are
  qualified paths);
- libtest's order of test functions (by name), and a test's ``use`` that renames an
  entry point (not lifted: the recorder would call another function);
- the way back: a type the recorder does not write (the program's own, whose lying
  ``PartialEq`` stays untrusted beside the test; a ``Cow``), an ``f32`` (which the
  host does not round) and a call the recorder cannot type (its build fails in its own
  lines: the unit beside the test decides, here ``compile_error`` with its message) run
  beside the program, as before.
"""

from __future__ import annotations

import pytest

from reward_api import Problem, Verdict, Verifier
from reward_api.verify import languages
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots


def humaneval_x(*lines: str) -> str:
    body = "".join(f"        {line}\n" for line in lines)
    return f"\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n    #[test]\n    fn test_it() {{\n{body}    }}\n}}\n"


def multipl_e(entry: str, *lines: str) -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return f"\nfn main() {{\n    let candidate = {entry};\n{body}}}\n"


ADD = humaneval_x(
    "assert_eq!(add(2, 3), 5);", "assert_eq!(add(10, -4), 6);", "assert!(add(0, 0) == 0);"
)
ADD_MAIN = multipl_e("add", "assert_eq!(candidate(2, 3), 5);", "assert_eq!(candidate(10, -4), 6);")
SECRET = humaneval_x('assert_eq!(secret(1), "zq-expected-value-731-abcdef-qz");')
WORDS = humaneval_x(
    'assert_eq!(words("b a b"), vec![("a".to_string(), 1), ("b".to_string(), 2)]);',
    'assert_eq!(words(""), vec![]);',
)
LARGEST = multipl_e("largest", "assert_eq!(candidate(vec![1, 7, 3]), Some(7));",
                    "assert_eq!(candidate(vec![]), None);")  # fmt: skip
HALF = humaneval_x("assert_eq!(half(3.0), 1.5);", "assert!((half(0.2) - 0.1).abs() < 1e-12);")

HONEST_ADD = "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
# HumanEval-X's declaration opens with an empty main and the crates' uses
HONEST_ADD_X = (
    "\nfn main(){ \n } \n\nuse std::{cmp::{max, self}, collections::{HashSet, HashMap}};\n\n"
    + HONEST_ADD
)
HONEST_WORDS = (
    "use std::collections::HashMap;\n"
    "fn words(text: &str) -> Vec<(String, i32)> {\n"
    "    let mut counts: HashMap<String, i32> = HashMap::new();\n"
    "    for w in text.split_whitespace() { *counts.entry(w.to_string()).or_insert(0) += 1; }\n"
    "    let mut out: Vec<(String, i32)> = counts.into_iter().collect();\n"
    "    out.sort();\n    out\n}\n"
)
HONEST_LARGEST = "fn largest(v: Vec<i32>) -> Option<i32> {\n    v.into_iter().max()\n}\n"
HONEST_HALF = "fn half(x: f64) -> f64 {\n    x / 2.0\n}\n"

# reads its own executable for the expected string: beside the test, the test's literal is
# in the binary; in the recorder, there is nothing to find
READ_OWN_BINARY = r"""
fn secret(_n: i32) -> String {
    let me = std::env::args().next().unwrap_or_default();
    let data = match std::fs::read(&me) { Ok(d) => d, Err(_) => return "none".to_string() };
    let key: Vec<u8> = vec![b'z', b'q', b'-', b'e'];
    let mut at = 0;
    while at + 4 <= data.len() {
        if data[at..at + 4] == key[..] {
            if let Some(end) = data[at..].windows(3).take(64).position(|w| w == b"-qz") {
                return String::from_utf8_lossy(&data[at..at + end + 3]).into_owned();
            }
        }
        at += 1;
    }
    "none".to_string()
}
"""

CALLS = "static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);\n"
BUMP = "let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);\n"
WRONG_THEN_PANIC = (
    CALLS + "fn add(a: i32, b: i32) -> i32 {\n" + BUMP + 'if n == 1 { panic!("x"); } a * b + 1\n}\n'
)
RIGHT_THEN_PANIC = (
    CALLS + "fn add(a: i32, b: i32) -> i32 {\n" + BUMP + 'if n == 1 { panic!("x"); } a + b\n}\n'
)
WRONG_THEN_HANG = (
    CALLS + "fn add(a: i32, b: i32) -> i32 {\n" + BUMP + "if n == 1 { loop {} } a * b + 1\n}\n"
)
RIGHT_THEN_HANG = (
    CALLS + "fn add(a: i32, b: i32) -> i32 {\n" + BUMP + "if n == 1 { loop {} } a + b\n}\n"
)
EXIT_IN_A_CALL = (
    CALLS
    + "fn add(a: i32, b: i32) -> i32 {\n"
    + BUMP
    + "if n == 1 { std::process::exit(0); } a + b\n}\n"
)
WRITE_FD3 = (
    "fn put(s: &str) {\n    use std::io::Write;\n    use std::os::unix::io::FromRawFd;\n"
    "    let mut f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(3) });\n"
    "    let _ = f.write_all(s.as_bytes());\n}\n"
)
# writes every line the recorder would, for values of its choosing, then leaves before the
# recorder writes any: the values must still be the test's
FORGED_LINES = WRITE_FD3 + (
    "fn add(_a: i32, _b: i32) -> i32 {\n"
    '    put("vi32 5;\\nvi32 5;\\nvi32 5;\\n");\n    std::process::exit(0)\n}\n'
)
FORGED_EXTRA_LINE = (
    WRITE_FD3
    + CALLS
    + (
        "fn add(a: i32, b: i32) -> i32 {\n"
        + BUMP
        + '    if n == 2 { put("vi32 0;\\n"); }\n    a + b\n}\n'
    )
)
# blanket traits whose methods have the recorder's methods' names: every use of the
# recorder's own trait is a qualified path, so they neither answer for it nor make its
# calls ambiguous (which would have sent the test back beside the program at will)
BLANKET_LINE = HONEST_ADD + (
    "pub trait Line { fn line(&self) -> String; fn val(&self, o: &mut String); fn ty(o: &mut String); }\n"
    "impl<T: ?Sized> Line for T { fn line(&self) -> String { String::new() }\n"
    '    fn val(&self, o: &mut String) { o.push_str("5;") } fn ty(o: &mut String) { o.push_str("i32") } }\n'
)
# a red team's way back beside the program, chosen at run time: tell the recorder's call
# from the test's by its column, write the line of a type the recorder did not write (or
# one the host does not decide) and leave. The types come from the recorder's first line,
# written before any code of the program's: such a line now only spoils the record
OPT_OUT = (
    "#[track_caller]\nfn add(a: i32, b: i32) -> i32 {\n"
    "    if std::panic::Location::caller().line() > 20 {\n"
    "        use std::io::Write; use std::os::unix::io::FromRawFd;\n"
    "        let mut g = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(3) });\n"
    "        let _ = g.write_all(LINES.as_bytes()); std::process::exit(0)\n    }\n"
    "    a * b\n}\n"
)
OPT_OUT_X = 'const LINES: &str = "x\\nx\\nx\\n";\n' + OPT_OUT
OPT_OUT_F32 = (
    'const LINES: &str = "vf32 40a00000;\\nvf32 40c00000;\\nvf32 00000000;\\n";\n' + OPT_OUT
)
# state across test functions: libtest runs them by name (a before b), as the recorder does
ORDER = "#[test]\nfn b() { assert_eq!(tick(), 0); }\n#[test]\nfn a() { assert_eq!(tick(), 1); }\n"
TICK = (
    "static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);\n"
    "fn tick() -> usize { N.fetch_add(1, std::sync::atomic::Ordering::SeqCst) }\n"
)
RENAMED = (
    "\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::add as plus;\n\n"
    "    #[test]\n    fn t() { assert_eq!(plus(2, 3), 5); }\n}\n"
)
# a test function of the program's own that fails: the unit beside the test runs it (and
# fails), as plain ``rustc --test`` does; the recorder runs its own alone, so such a
# program is not lifted
OWN_FAILING_TEST = (
    HONEST_ADD + "#[cfg(test)]\nmod mine {\n    #[test]\n    fn wrong() { assert_eq!(1, 2); }\n}\n"
)
# a unit struct named like the entry point whose ``Deref`` target is a ``fn`` pointer: a
# call derefs its callee, so ``add(1, 2)`` returned a type whose comparison says yes
# (paid beside the test, where a red team found it); with a ``Drop`` it ran the program's
# code in the recorder's types block and wrote the types' line itself


def _add_through_deref(returns: str) -> str:
    """``fn real``, then a unit struct ``add`` whose ``Deref`` target is a ``fn`` pointer to
    it (``returns``: its return type)."""
    return (
        f"static F: fn(i32, i32) -> {returns} = real;\n"
        "#[allow(non_camel_case_types)]\npub struct add;\n"
        f"impl std::ops::Deref for add {{ type Target = fn(i32, i32) -> {returns};\n"
        "    fn deref(&self) -> &Self::Target { &F } }\n"
    )


UNIT_STRUCT_DEREF = (
    "#[derive(Debug)]\npub struct Liar;\n"
    "impl PartialEq<i32> for Liar { fn eq(&self, _: &i32) -> bool { true } }\n"
    "fn real(_a: i32, _b: i32) -> Liar { Liar }\n" + _add_through_deref("Liar")
)
UNIT_STRUCT_DROP = (
    WRITE_FD3
    + "fn real(a: i32, b: i32) -> i32 { a * b }\n"
    + _add_through_deref("i32")
    + 'impl Drop for add { fn drop(&mut self) { put("t f32 f32\\n"); std::process::exit(0) } }\n'
)
TWO_FUNCTIONS = (
    "fn add(a: i32, b: i32) -> i32 { a * b }\nfn plus(a: i32, b: i32) -> i32 { a + b }\n"
)
OWN_TYPE_LIES = (
    "#[derive(Debug)]\npub struct Any5;\n"
    "impl PartialEq<i32> for Any5 { fn eq(&self, _: &i32) -> bool { true } }\n"
    "fn add(_a: i32, _b: i32) -> Any5 { Any5 }\n"
)
HASH_MAP = humaneval_x('assert_eq!(count("aab").len(), 2);')  # not a plan: a method call
F32 = humaneval_x("assert_eq!(third(1.0), 0.33333334);")
HONEST_F32 = "fn third(x: f32) -> f32 { x / 3.0 }\n"
INFERRED = humaneval_x("assert_eq!(conv(5), 5u64);")
HONEST_INFERRED = "fn conv<T: From<u8>>(x: u8) -> T { T::from(x) }\n"
MAP = humaneval_x(
    "assert_eq!(tally(vec![1, 1]).get(&1), Some(&2));", "assert!(tally(vec![]) == tally(vec![]));"
)
HONEST_MAP = (
    "use std::collections::HashMap;\n"
    "fn tally(v: Vec<i32>) -> HashMap<i32, i32> {\n"
    "    let mut m = HashMap::new();\n    for x in v { *m.entry(x).or_insert(0) += 1; }\n    m\n}\n"
)
COW = humaneval_x('assert_eq!(greet(1), "hi");')
HONEST_COW = 'fn greet(_n: i32) -> std::borrow::Cow<\'static, str> {\n    "hi".into()\n}\n'

ADD_P = asserts(ADD, language="rust", entry_points=["add"])
TIMED = asserts(ADD, language="rust", entry_points=["add"], limits={"time_s": 2})
BATCH = Batch(
    "languages-lifted-rust",
    [
        exploit("reads-its-own-binary", asserts(SECRET, language="rust", entry_points=["secret"]),
                READ_OWN_BINARY),
        exploit("wrong-then-panic", ADD_P, WRONG_THEN_PANIC),
        exploit("right-then-panic", ADD_P, RIGHT_THEN_PANIC),
        exploit("wrong-then-hang", TIMED, WRONG_THEN_HANG),
        exploit("right-then-hang", TIMED, RIGHT_THEN_HANG),
        exploit("exit-in-a-call", ADD_P, EXIT_IN_A_CALL),
        exploit("forged-lines-then-exit", ADD_P, FORGED_LINES),
        exploit("forged-extra-line", ADD_P, FORGED_EXTRA_LINE),
        exploit("own-type-whose-comparison-lies", ADD_P, OWN_TYPE_LIES),
        control("humaneval-x-shape", ADD_P, HONEST_ADD_X),
        control("multipl-e-shape", asserts(ADD_MAIN, language="rust"), HONEST_ADD),
        control("strings-tuples-and-empty-vec", asserts(WORDS, language="rust"), HONEST_WORDS),
        control("option", asserts(LARGEST, language="rust"), HONEST_LARGEST),
        control("floats-and-a-tolerance", asserts(HALF, language="rust"), HONEST_HALF),
        control("blanket-traits-change-nothing", ADD_P, BLANKET_LINE),
        exploit("opts-out-by-an-unwritten-type", ADD_P, OPT_OUT_X),
        exploit("opts-out-by-an-f32-line", ADD_P, OPT_OUT_F32),
        exploit("test-functions-by-name", asserts(ORDER, language="rust"), TICK),
        exploit("renamed-entry-point", asserts(RENAMED, language="rust"), TWO_FUNCTIONS),
        exploit("own-failing-test-function", asserts(ADD_MAIN, language="rust"), OWN_FAILING_TEST),
        exploit("unit-struct-derefs-to-a-liar", ADD_P, UNIT_STRUCT_DEREF),
        exploit("unit-struct-derefs-to-a-liar-multipl-e", asserts(ADD_MAIN, language="rust"),
                UNIT_STRUCT_DEREF),
        exploit("unit-struct-drop-writes-the-types", asserts(ADD_MAIN, language="rust"),
                UNIT_STRUCT_DROP),
        control("f32-goes-back", asserts(F32, language="rust"), HONEST_F32),
        exploit("uninferable-call-goes-back", asserts(INFERRED, language="rust"), HONEST_INFERRED),
        control("unwritten-type-goes-back", asserts(COW, language="rust"), HONEST_COW),
    ],
)  # fmt: skip
EXPECTED = {
    "reads-its-own-binary": Verdict.wrong_answer,
    "wrong-then-panic": Verdict.wrong_answer,
    "right-then-panic": Verdict.wrong_answer,  # libtest's exit 101, as beside the test
    "wrong-then-hang": Verdict.wrong_answer,
    "right-then-hang": Verdict.timeout,
    "exit-in-a-call": Verdict.wrong_answer,
    "forged-lines-then-exit": Verdict.wrong_answer,
    "forged-extra-line": Verdict.wrong_answer,
    "own-type-whose-comparison-lies": Verdict.wrong_answer,
    "opts-out-by-an-unwritten-type": Verdict.wrong_answer,
    "opts-out-by-an-f32-line": Verdict.wrong_answer,
    "test-functions-by-name": Verdict.wrong_answer,
    "renamed-entry-point": Verdict.wrong_answer,
    "own-failing-test-function": Verdict.wrong_answer,
    "unit-struct-derefs-to-a-liar": Verdict.wrong_answer,
    "unit-struct-derefs-to-a-liar-multipl-e": Verdict.wrong_answer,
    "unit-struct-drop-writes-the-types": Verdict.wrong_answer,
    # the recorder cannot type ``conv(5)``; neither can rustc beside the test: its message
    "uninferable-call-goes-back": Verdict.compile_error,
}


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("rust")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_rust_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
    if name in EXPECTED:
        r = BATCH.run(verifier).results[name]
        assert r.verdict == EXPECTED[name], (r.verdict, [t.detail for t in r.tests])
    if name == "uninferable-call-goes-back":  # the unit beside the test's message
        detail = BATCH.run(verifier).results[name].tests[0].detail or ""
        assert "assert_eq!(conv(5), 5u64)" in detail, detail


def test_the_batch_was_decided_on_the_host(verifier):
    """The lifted cases' comparisons were made on the host, not beside the program; the
    shapes that go back did go back."""
    BATCH.run(verifier)
    assert verifier.lifted.host >= 14, verifier.lifted.host
    for test, program, lifted in ((ADD, HONEST_ADD, True), (HASH_MAP, HONEST_MAP, False),
                                  (MAP, HONEST_MAP, False)):  # fmt: skip
        problem = Problem.model_validate({"id": "p", **asserts(test, language="rust")})
        units, _ = languages.units_for(problem, program, [0], lambda unit: True)
        assert (units[0].lift is not None) == lifted


def test_the_candidates_build_holds_no_expected_value():
    """The recorder is the program and the calls: the test's expected values and its
    assertions are nowhere in what the candidate's build compiles."""
    problem = Problem.model_validate(
        {"id": "p", **asserts(SECRET, language="rust", entry_points=["secret"])}
    )
    units, _ = languages.units_for(problem, READ_OWN_BINARY, [0], lambda unit: True)
    assert units[0].lift is not None
    source = "".join(units[0].files.values())
    assert "zq-expected-value-731-abcdef-qz" not in source and "assert_eq!(secret" not in source
    assert units[0].expect is None and units[0].untrusted is None


def test_the_binary_reader_is_paid_beside_the_test(verifier):
    """The exploit is real: run beside the test (lifting off, same backend), the program
    finds the expected value in its own executable and the execution accepts it."""
    case = BATCH.by_name["reads-its-own-binary"]
    settings = verifier.settings.model_copy(update={"lift_asserts": False, "workers": 1})
    with Verifier(settings) as beside:
        r = Batch("beside", [case]).run(beside).results[case.name]
    assert r.verdict == Verdict.accepted, (r.verdict, [t.detail for t in r.tests])
