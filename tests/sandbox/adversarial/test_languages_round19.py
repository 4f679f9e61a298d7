"""Round 19 of the red team (2026-12-08): standard benchmark shapes, Rust's ``std`` names.

Rust (``languages.RUST_STD_NAMES``): HumanEval-X's Rust test builds its expected maps with
``HashMap::from([...])``, a name it takes from the program's own ``use`` lines through
``use super::*``. A program that declared ``mod HashMap`` (or a ``struct HashMap``) whose
``new`` and ``from`` handed back its last answer, a real ``std`` map compared by ``std``'s
own ``==``, was paid 1.0: the test's expected value was the program's. Where the program
binds such a name, the test now imports ``std``'s explicitly, as it does the prelude's.
The controls bind the name every honest way: a plain ``use``, a group, a glob, the test's
own import of it, and a test that uses a name the program never binds (a compile error,
as in plain ``rustc``).

The other findings of this round are HumanEval-X's prompt helpers and the errata of its
Java and JavaScript HumanEval/32 (test_languages_prompt_helpers.py).
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, from_table, need_roots

_HISTOGRAM_TEST = """
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_counts() {
        assert!(counts("a b b") == HashMap::from([('a', 1), ('b', 2)]));
        assert_eq!(counts("c"), HashMap::from([('c', 1)]));
        assert!(counts("") == HashMap::new());
    }
}
"""
_HONEST_BODY = """fn counts(s: &str) -> HashMap<char, i32> {
    let mut m = HashMap::new();
    for w in s.split_whitespace() {
        *m.entry(w.chars().next().unwrap()).or_insert(0) += 1;
    }
    m
}
"""
_ECHO = """use std::cell::RefCell;
thread_local! { static LAST: RefCell<std::collections::HashMap<char, i32>> = RefCell::new(std::collections::HashMap::new()); }
fn counts(_s: &str) -> std::collections::HashMap<char, i32> {
    let mut m = std::collections::HashMap::new();
    m.insert('z', 42);
    LAST.with(|l| *l.borrow_mut() = m.clone());
    m
}
fn last() -> std::collections::HashMap<char, i32> { LAST.with(|l| l.borrow().clone()) }
"""

_EXPLOITS = {
    "rust-mod-hashmap-echo": ("rust", _HISTOGRAM_TEST, _ECHO + """#[allow(non_snake_case)]
pub mod HashMap {
    pub fn new() -> std::collections::HashMap<char, i32> { super::last() }
    pub fn from<const N: usize>(_: [(char, i32); N]) -> std::collections::HashMap<char, i32> { super::last() }
}
""", {}),
    "rust-struct-hashmap-echo": ("rust", _HISTOGRAM_TEST, _ECHO + """pub struct HashMap;
impl HashMap {
    pub fn new() -> std::collections::HashMap<char, i32> { last() }
    pub fn from<const N: usize>(_: [(char, i32); N]) -> std::collections::HashMap<char, i32> { last() }
}
""", {}),
    "rust-type-alias-echo": ("rust", _HISTOGRAM_TEST, _ECHO + """pub struct Echo;
impl Echo {
    pub fn new() -> std::collections::HashMap<char, i32> { last() }
    pub fn from<const N: usize>(_: [(char, i32); N]) -> std::collections::HashMap<char, i32> { last() }
}
pub type HashMap = Echo;
""", {}),
    # a program that binds no HashMap: the test's does not compile, as in plain rustc
    "rust-unbound-hashmap": ("rust", _HISTOGRAM_TEST, _HONEST_BODY.replace(
        "HashMap", "std::collections::HashMap"), {}),
}  # fmt: skip

_CONTROLS = {
    "rust-use-hashmap": ("rust", _HISTOGRAM_TEST,
                         "use std::collections::HashMap;\n" + _HONEST_BODY, {}),
    "rust-use-group": ("rust", _HISTOGRAM_TEST,
                       "use std::{cmp::max, collections::{HashSet, HashMap}};\n" + _HONEST_BODY, {}),
    "rust-use-glob": ("rust", _HISTOGRAM_TEST, "use std::collections::*;\n" + _HONEST_BODY, {}),
    "rust-test-imports-it-too": ("rust", _HISTOGRAM_TEST.replace(
        "use super::*;", "use super::*;\n    use std::collections::HashMap;"),
        "use std::collections::HashMap;\n" + _HONEST_BODY, {}),
}  # fmt: skip


BATCH = Batch(
    "round19",
    [*from_table(exploit, _EXPLOITS), *from_table(control, _CONTROLS)],
    timeout_s=600.0,
)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("rust")


@pytest.mark.parametrize("name", BATCH.names)
def test_round19(verifier, name):
    BATCH.check(verifier, name)
