"""Round nine of the red team on compile time and non-assert tests (stdio, call, checkers).

Found, and left as it is (``sandbox_images/README.md``, "What a cell can see of the host"):
a process-backend cell's ``/proc/self/mountinfo`` shows the host paths of its binds (the
runtime root, ``/var/lib/codereward/runtime/<root>``, and the runner's folder,
``/tmp/codereward-runner-<host pid>-<random>``), as a container's shows its overlay's.
No expected value, no test's code and nothing writable is there; a JavaScript program
that printed the runner's path to a stdio problem whose answer was that path was paid
(the hack gate's ``js-reads-a-file`` does not see a computed member,
``fs["readFile" + "Sync"]``), which no dataset's problem asks.

Fixed:

- **an honest Rust program whose binary is over 32 MiB is a ``compile_error``**
  (``runner.MAX_ARTIFACT_BYTES`` in ``_pack``, reached from ``_compile``: Rust is compiled
  apart, ``languages.COMPILED_APART``, so its artifact must be packed to reach the run
  cell; an unpackable one is ``UNPACKABLE``, "the build's files are too large or nested too
  deep to be returned"). ``static mut DIST: [i64; 5_000_000] = [INF; 5_000_000];`` (a
  distance table initialised to infinity: Rust's own idiom, where C would use ``memset``)
  puts 40 MB in ``.data``; plain ``rustc`` with the recipe's flags in the rust root builds
  it in 1.2 s and it prints the right answer. The same program with 2,000,000 entries
  (16 MB) passes. Now a build whose files hold more than 32 MiB is sent compressed
  (``runner.ZLIB_MODE``; at most ``MAX_UNPACKED_BYTES``, 96 MiB, unpacked).

Tried, held (not written as cases): ``.fill`` / ``.incbin "/dev/zero"`` / ``.incbin
"/dev/urandom"`` in C asm (``File too large`` from RLIMIT_FSIZE, ``unable to include``),
Rust ``macro_rules!`` recursion with ``recursion_limit = "100000000"``,
``include_bytes!("/dev/urandom")``, a C++ ``#include __FILE__`` error bomb (compile limits:
``compile_error``), ``#include "/dev/stdin"`` (``/dev/null``), TypeScript lib augmentations
(``declare global``, ``declare module "fs"``) before an honest program in the same warm
tsc server (the shared lib ``SourceFile``s stayed clean), LeetCode call shapes in Rust
(``impl Solution`` without ``struct Solution``, ``Vec<Vec<char>>``, ``f64``), Go (no
``package`` clause, ``[][]byte`` in place), C (``int* returnSize``, ``bool``), C++,
TypeScript and JavaScript (JSDoc): all accepted. A LeetCode Java snippet that uses ``List``
without ``import java.util.*`` (LeetCode's judge imports it) is a ``compile_error``, as
plain ``javac`` says too, so not a case here.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, need_roots


def table(language: str, n: int, out: str) -> dict:
    return {"language": language, "tests": [{"type": "stdio", "input": f"{n}\n", "output": out}]}


RUST_TABLE_40MB = 'use std::io::*;\nconst INF: i64 = i64::MAX / 4;\nstatic mut DIST: [i64; 5_000_000] = [INF; 5_000_000];\nfn main() {\n    let mut s = String::new();\n    stdin().read_to_string(&mut s).unwrap();\n    let n: usize = s.trim().parse().unwrap();\n    let d = unsafe { &mut DIST };\n    d[0] = 0;\n    for i in 1..n { d[i] = d[i - 1] + 1; }\n    let c = d.iter().filter(|&&x| x == INF).count();\n    println!("{} {}", d[n - 1], c);\n}\n'
RUST_TABLE_16MB = RUST_TABLE_40MB.replace("5_000_000", "2_000_000")

CASES = [
    control("rust-honest-static-table-40mb", table("rust", 10, "9 4999990"), RUST_TABLE_40MB),
    control("rust-honest-static-table-16mb", table("rust", 10, "9 1999990"), RUST_TABLE_16MB),
]  # fmt: skip
BATCH = Batch("languages-compile-round9", CASES, timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("rust")


@pytest.mark.parametrize("name", BATCH.names)
def test_compile_round9_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)


def test_a_pack_over_the_bound_is_sent_compressed_and_unpacked_whole(tmp_path) -> None:
    """``runner._pack``: a build's files within ``MAX_ARTIFACT_BYTES`` go as they are; past
    it, compressed (``ZLIB_MODE``); past ``MAX_UNPACKED_BYTES``, or compressing to more
    than the bound, not at all. ``_unpack`` writes them back whole, and refuses a
    compressed file that would hold more than the bound."""
    import base64
    import os
    import zlib

    from reward_api.sandbox import runner

    small, big = tmp_path / "small", tmp_path / "big"
    small.mkdir()
    big.mkdir()
    (small / "prog").write_bytes(b"\x7fELF" + b"x" * 1000)
    (big / "prog").write_bytes(b"\x7fELF" + b"\xff" * (runner.MAX_ARTIFACT_BYTES + 10))
    (big / "lib").mkdir()
    (big / "lib" / "a").write_bytes(b"a")
    os.chmod(big / "prog", 0o755)
    plain = runner._pack(str(small))
    assert plain is not None and plain[0][1] & runner.ZLIB_MODE == 0
    packed = runner._pack(str(big))
    assert packed is not None and all(f[1] & runner.ZLIB_MODE for f in packed)
    assert sum(len(f[2]) for f in packed) < 1 << 20  # a constant table compresses
    out = tmp_path / "out"
    out.mkdir()
    assert runner._unpack(str(out), packed)
    assert (out / "prog").read_bytes() == (big / "prog").read_bytes()
    assert (out / "lib" / "a").read_bytes() == b"a"
    assert os.stat(out / "prog").st_mode & 0o777 == 0o755
    (big / "more").write_bytes(b"\0" * (runner.MAX_UNPACKED_BYTES - runner.MAX_ARTIFACT_BYTES))
    assert runner._pack(str(big)) is None  # more than a cell's /tmp should hold
    noise = tmp_path / "noise"
    noise.mkdir()
    (noise / "prog").write_bytes(os.urandom(runner.MAX_ARTIFACT_BYTES + 10))
    assert runner._pack(str(noise)) is None  # compressed, still past the bound
    bomb = zlib.compress(b"\0" * (runner.MAX_UNPACKED_BYTES + 1), 9)
    entry = ["prog", 0o755 | runner.ZLIB_MODE, base64.b64encode(bomb).decode()]
    assert not runner._unpack(str(tmp_path / "out"), [entry])
    assert not runner._unpack(str(tmp_path / "out"), [["prog", 0o755 | runner.ZLIB_MODE, "AAAA"]])
