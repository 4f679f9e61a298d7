"""A Rust test that compares a value of the program's own type, compared as
``#[derive(PartialEq)]`` writes it.

HumanEval-X's Rust/137 has the program declare ``#[derive(Debug, PartialEq)] enum
RtnType<S, F, I>`` and the test compare ``compare_one(&1, &2.5)`` with
``RtnType::Float(2.5)``. The verifier refused every such program (a type whose comparison
the program defines cannot be trusted), so the canonical solution, which plain execution
accepts, got ``wrong_answer``. A derived comparison asks no code of the program's when the
type's fields are standard types: it is trusted now, and only then (no impl of the
program's names the type or any comparison trait, no macro, no field of a type of its
own that is not itself compared as derived). The exploits beside the control keep the
derive's name but answer the comparison with code of their own.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

PICK = {
    "language": "rust",
    "tests": [{"type": "assert", "code": (
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n"
        "    fn test_pick() {\n"
        "        assert_eq!(pick(1, 2), Pick::Int(2));\n"
        "        assert_eq!(pick(3, 2), Pick::Int(3));\n"
        "        assert_eq!(pick(2, 2), Pick::Tie());\n"
        '        assert_eq!(pick(-1, 0), Pick::Named { v: 0, s: "0".to_string() });\n'
        "    }\n}\n")}],
}  # fmt: skip
ENUM = (
    "#[derive(Debug, PartialEq)]\n"
    "pub enum Pick {\n    Tie(),\n    Int(i32),\n    Named { v: i32, s: String },\n}\n"
)
HONEST = ENUM + (
    "fn pick(a: i32, b: i32) -> Pick {\n"
    "    if a == b { return Pick::Tie(); }\n"
    "    let m = a.max(b);\n"
    "    if a < 0 { Pick::Named { v: m, s: m.to_string() } } else { Pick::Int(m) }\n}\n"
)
WRONG = "fn pick(_a: i32, _b: i32) -> Pick { Pick::Tie() }\n"
MANUAL_EQ = ENUM.replace("PartialEq", "Eq").replace("Eq", "") + WRONG.replace(
    "fn pick", "impl PartialEq for Pick {\n    fn eq(&self, _: &Self) -> bool { true }\n}\nfn pick"
)
EXTRA_EQ = (  # the derive kept, and a comparison of its own with what the test compares
    ENUM + "impl PartialEq<i32> for Pick {\n    fn eq(&self, _: &i32) -> bool { true }\n}\n" + WRONG
)
INHERENT_VARIANT = (  # an associated fn named like the variant the test constructs
    ENUM
    + "#[allow(non_snake_case, dead_code)]\nimpl Pick {\n"
    + "    pub fn Int(_: i32) -> Pick { Pick::Tie() }\n}\n"
    + WRONG
)

CASES = [
    control("rust-honest-own-enum-with-derived-eq", PICK, HONEST),
    exploit("rust-own-enum-with-manual-eq", PICK, MANUAL_EQ),
    exploit("rust-own-enum-derived-eq-beside-an-eq-of-its-own", PICK, EXTRA_EQ),
    exploit("rust-own-enum-derived-eq-with-an-fn-named-like-a-variant", PICK, INHERENT_VARIANT),
]
BATCH = Batch("languages-rust-derived-eq", CASES, timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("rust")


@pytest.mark.parametrize("name", BATCH.names)
def test_a_derived_comparison_is_trusted_and_only_it(verifier, name):
    BATCH.check(verifier, name)
