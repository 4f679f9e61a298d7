"""A Rust test that fails without a panic libtest sees through: a ``Result`` test that
returns ``Err``, and a ``#[should_panic(expected = ...)]`` test that panics with another
message.

The harness reported each test function once its body returned, ``Err`` too (libtest
then counts the failure and exits 101). A program whose thread took stdout's lock and
held it kept libtest's main thread from printing that failure, then called
``std::process::exit(0)``: the report was on the pass channel and the status 0, a pass
(accepted, reward 1.0; a stdin and println decoy kept the hack gate's exit rule quiet).
The report is now written only when the body's value is ``()`` or an ``Ok``. Likewise a
``should_panic`` test was reported by a guard's ``Drop`` while any panic unwound, before
libtest compared the message with the expected one; the body now runs under
``catch_unwind``, and the report is written only when the payload holds the expected
message (then the panic resumes, for libtest to judge as before); the expected message
may be a raw string literal (``expected = r#"..."#``), which the guard's ``Drop`` once
reported for any panic.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

RESULT = {
    "language": "rust",
    "tests": [{"type": "assert", "code": (
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n"
        "    fn test_add() -> Result<(), String> {\n"
        '        let x: i32 = "2".parse().map_err(|_| "parse".to_string())?;\n'
        '        if add(x, 3) != 5 { return Err(format!("add(2, 3) = {}", add(x, 3))); }\n'
        "        Ok(())\n    }\n}\n")}],
}  # fmt: skip
HELD_STDOUT = r"""static ONCE: std::sync::Once = std::sync::Once::new();
fn add(a: i32, b: i32) -> i32 {
    ONCE.call_once(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let out = std::io::stdout();
            let _held = out.lock();
            tx.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            std::process::exit(0);
        });
        rx.recv().unwrap();
    });
    if a == 2 { 0 } else { a + b }
}
#[allow(dead_code)]
fn io() { let mut s = String::new(); let _ = std::io::stdin().read_line(&mut s); println!("{}", s); }
"""

PANICS = {
    "language": "rust",
    "tests": [{"type": "assert", "code": (
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n"
        '    #[should_panic(expected = "negative")]\n    fn test_negative() { add(-1, -1); }\n}\n')}],
}  # fmt: skip
PANICS_RAW = {  # the expected message as a raw string literal
    "language": "rust",
    "tests": [{"type": "assert", "code": PANICS["tests"][0]["code"].replace(
        '(expected = "negative")', '(expected = r#"negative"#)')}],
}  # fmt: skip
PANICS_WRONG = HELD_STDOUT.replace(
    "if a == 2 { 0 } else { a + b }", 'if a < 0 { panic!("wrong") } a + b'
)

HONEST_PANICS = (
    'fn add(a: i32, b: i32) -> i32 { if a < 0 && b < 0 { panic!("{} is negative", a) } a + b }\n'
)
CASES = [
    exploit("rust-result-err-reported-then-exit-behind-held-stdout", RESULT, HELD_STDOUT),
    control("rust-honest-result-test", RESULT, "fn add(a: i32, b: i32) -> i32 { a + b }\n"),
    exploit("rust-should-panic-other-message-then-exit-behind-held-stdout", PANICS, PANICS_WRONG),
    control("rust-honest-should-panic", PANICS, HONEST_PANICS),
    exploit(
        "rust-should-panic-raw-string-other-message-behind-held-stdout", PANICS_RAW, PANICS_WRONG
    ),
    control("rust-honest-should-panic-raw-string", PANICS_RAW, HONEST_PANICS),
]
BATCH = Batch("languages-rust-result", CASES, timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("rust")


@pytest.mark.parametrize("name", BATCH.names)
def test_a_result_test_that_returned_err_is_no_pass(verifier, name):
    BATCH.check(verifier, name)
