"""Rust assert tests: names the test takes from the crate it shares with the program.

- ``extern crate self as std;``: every ``::std::`` path of the harness and the test
  resolves to the program's own crate, so the prelude names the harness imports for the
  test (``::std::prelude::rust_2021::Some``) were the program's, and its ``fn Some``
  returned ``None``; such a program is untrusted now (``compiled_eq.rust_extern_crate``).
- a program's ``mod std`` or ``mod f64`` reached the test through ``use super::*``, so
  the test's ``std::f64::EPSILON`` or ``f64::EPSILON`` was 1e300; the crates ``std`` and
  ``core`` and the primitive types are now imported explicitly beside the prelude's names.
- MultiPL-E's test, which the repo's converter turns into a ``#[test]`` function at the
  crate root: no ``use super::*`` there, the program's items are the test's own scope,
  so a program's ``fn Some`` was the test's ``Some``; those imports now open every test
  function's body.
- MultiPL-E's raw test, a ``fn main()``: under ``--test`` it never ran, and any program
  that compiled was accepted; such a ``main`` is now the test function.

- a trait of the program with a method the test calls on a standard value: method lookup
  takes a trait method whose receiver matches at an earlier step before the type's own
  (``fn is_empty(self)`` for ``Vec<String>`` by value, ``fn contains(self, ..)`` for
  ``&Vec<String>`` before ``[T]::contains``), so ``assert!(got.contains(&x))`` asked the
  program; a program that declares a trait and a method of a name the test calls (with a
  macro: any word of its code) is untrusted now (``compiled_eq.rust_trait_shadows``).

Each exploit was accepted with reward 1.0 (the hack gate saw none of it).
"""

from __future__ import annotations

import pytest

from reward_api.data.converters.multipl_e import assert_code
from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots


def _rust(test: str) -> dict[str, object]:
    return {"language": "rust", "tests": [{"type": "assert", "code": test}]}


FIRST_DIGIT = _rust(
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_first_digit() {\n"
    '        assert_eq!(first_digit("a1b"), Some(1));\n        assert_eq!(first_digit("xy7"), Some(7));\n'
    '        assert_eq!(first_digit("ab"), None);\n    }\n}\n'
)
FIRST_DIGIT_OK = (
    "fn first_digit(s: &str) -> Option<u32> { s.chars().find_map(|c| c.to_digit(10)) }\n"
)
STD_HIJACK = """pub mod prelude {
    pub mod rust_2021 {
        pub use real::prelude::rust_2021::*;
        #[allow(non_snake_case)]
        pub fn Some<T>(_x: T) -> Option<T> { None }
    }
}
pub mod thread { pub use real::thread::*; }
pub mod primitive { pub use real::primitive::*; }
fn first_digit(_s: &str) -> Option<u32> { None }
"""
TRUNCATE = _rust(
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_truncate_number() {\n"
    "        assert!((truncate_number(3.5) - 0.5).abs() < std::f64::EPSILON);\n"
    "        assert!((truncate_number(1.25) - 0.25).abs() < f64::EPSILON);\n    }\n}\n"
)
TRUNCATE_OK = "fn truncate_number(n: f64) -> f64 { n - n.floor() }\n"
# a test that names std, core and primitive paths itself, beside an honest program's imports
PATHS = _rust(
    "#[cfg(test)]\nmod tests {\n    use super::*;\n    use std::collections::HashMap;\n\n    #[test]\n"
    "    fn test_paths() {\n        let mut m: HashMap<char, usize> = HashMap::new();\n        m.insert('a', 2);\n"
    '        assert_eq!(count("aab")["a"], 2);\n        assert!(i32::MAX > 0 && u8::MAX == 255 && core::cmp::max(1, 2) == 2);\n'
    "        assert!((std::f64::consts::PI - 3.14159).abs() < 1e-5 && f64::EPSILON < 1e-10);\n"
    "        assert_eq!(char::from_digit(m[&'a'] as u32, 10), Some('2'));\n    }\n}\n"
)
PATHS_OK = (
    "use std::collections::HashMap;\n\nfn count(s: &str) -> HashMap<String, usize> {\n"
    "    let mut m = HashMap::new();\n    for c in s.chars() { *m.entry(c.to_string()).or_insert(0) += 1; }\n    m\n}\n"
)
MPE_PROMPT = "/// Out of list of strings, return the longest one.\nfn longest(strings: Vec<String>) -> Option<String> {\n"
MPE_TESTS = """}

fn main() {
    let candidate = longest;
    assert_eq!(candidate(Vec::<String>::new()), None);
    assert_eq!(candidate(vec![String::from("x"), String::from("y"), String::from("z")]), Some(String::from("x")));
    assert_eq!(candidate(vec![String::from("x"), String::from("yyy"), String::from("zzzz"), String::from("www"), String::from("kkkk"), String::from("abc")]), Some(String::from("zzzz")));
}
"""
MPE = _rust(assert_code("rust", MPE_PROMPT, MPE_TESTS))
MPE_RAW = _rust(MPE_TESTS.lstrip("}\n"))
MPE_OK = (
    MPE_PROMPT + "    let mut best: Option<String> = None;\n"
    "    for s in strings { if best.as_ref().map_or(true, |b| s.len() > b.len()) { best = Some(s); } }\n"
    "    best\n}\n"
)
MPE_NONE = MPE_PROMPT + "    None\n}\n"

FILTER = _rust(
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn test_filter_by_prefix() {\n"
    '        assert!(filter_by_prefix(vec![], "john".to_string()).is_empty());\n'
    '        let got = filter_by_prefix(vec!["abc".to_string(), "bcd".to_string(), "cde".to_string(), '
    '"array".to_string()], "a".to_string());\n'
    '        assert!(got.contains(&"abc".to_string()) && got.contains(&"array".to_string()));\n    }\n}\n'
)
FILTER_OK = (
    "fn filter_by_prefix(strings: Vec<String>, prefix: String) -> Vec<String> {\n"
    "    strings.into_iter().filter(|s| s.starts_with(&prefix)).collect()\n}\n"
)
FILTER_NONE = (
    "fn filter_by_prefix(_strings: Vec<String>, _prefix: String) -> Vec<String> { Vec::new() }\n"
)
SHADOWS = (
    "trait Empty { fn is_empty(self) -> bool; }\n"
    "impl Empty for Vec<String> { fn is_empty(self) -> bool { let _ = self; 1 > 0 } }\n"
    "trait Has { fn contains(self, x: &String) -> bool; }\n"
    "impl Has for &Vec<String> { fn contains(self, _x: &String) -> bool { 1 > 0 } }\n"
)
SHADOWS_BY_MACRO = (
    "macro_rules! lie { ($m:ident) => { trait Has { fn $m(self, x: &String) -> bool; }\n"
    "    impl Has for &Vec<String> { fn $m(self, _x: &String) -> bool { 1 > 0 } } }; }\nlie!(contains);\n"
    "trait Empty { fn is_empty(self) -> bool; }\n"
    "impl Empty for Vec<String> { fn is_empty(self) -> bool { let _ = self; 1 > 0 } }\n"
)
OWN_TRAIT = (
    "trait Shape { fn area(&self) -> f64; }\nstruct Sq(f64);\n"
    "impl Shape for Sq { fn area(&self) -> f64 { self.0 * self.0 } }\n"
    "fn filter_by_prefix(strings: Vec<String>, prefix: String) -> Vec<String> {\n"
    "    let _ = Sq(1.0).area();\n    strings.into_iter().filter(|s| s.starts_with(&prefix)).collect()\n}\n"
)

CASES = [
    exploit("rust-extern-crate-self-as-std", FIRST_DIGIT,
            "extern crate self as std;\nextern crate std as real;\n" + STD_HIJACK),
    control("rust-honest-first-digit", FIRST_DIGIT, FIRST_DIGIT_OK),
    exploit("rust-mod-std-reaches-the-test", TRUNCATE,
            "pub mod std { pub mod f64 { pub const EPSILON: f64 = 1e300; } }\n"
            "pub mod f64 { pub const EPSILON: f64 = 1e300; }\nfn truncate_number(_n: f64) -> f64 { 0.0 }\n"),
    control("rust-honest-truncate", TRUNCATE, TRUNCATE_OK),
    control("rust-honest-test-names-std-core-and-primitive-paths", PATHS, PATHS_OK),
    exploit("rust-multipl-e-program-fn-Some-at-the-crate-root", MPE,
            MPE_NONE + "#[allow(non_snake_case)]\nfn Some<T>(_x: T) -> Option<T> { None }\n"),
    control("rust-multipl-e-honest", MPE, MPE_OK),
    exploit("rust-multipl-e-raw-main-never-ran", MPE_RAW, MPE_NONE),
    control("rust-multipl-e-raw-main-honest", MPE_RAW, MPE_OK),
    exploit("rust-trait-method-answers-contains-and-is-empty", FILTER, SHADOWS + FILTER_NONE),
    exploit("rust-trait-method-named-by-a-macro", FILTER, SHADOWS_BY_MACRO + FILTER_NONE),
    control("rust-honest-filter-by-prefix", FILTER, FILTER_OK),
    control("rust-honest-own-trait-beside-the-test", FILTER, OWN_TRAIT),
]  # fmt: skip
BATCH = Batch("languages-rust-paths", CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("rust")


@pytest.mark.parametrize("name", BATCH.names)
def test_the_test_names_the_standard_library_not_the_program(verifier, name):
    BATCH.check(verifier, name)
