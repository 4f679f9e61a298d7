"""A compiled program makes its own result ``sandbox_error`` through the size of what crosses
between the host and its cell (one sample's answer or request), not through any single
test's output.

- Invalid UTF-8 on stdout: each test's stdout is capped (16 MiB), but the runner's answer
  holds every test's stdout as JSON text, where an invalid byte is U+FFFD, six bytes
  (``\\ufffd``). A C program that wrote 16 MiB of ``0xff`` in each of four stdio tests (each
  within its cap, exit 0, so the sample went on) made a 400 MB answer; the host reads frames
  of up to 256 MiB: ``FrameError``, three retries, ``sandbox_error``. The runner now bounds
  the answer (``runner.MAX_ANSWER_BYTES``): the test that would pass it keeps none of its
  output and is ``output_limit``, and the sample stops there. A Python program's tests
  share the same answer, and the same Python program did the same.
- A big binary in several builds: a Rust program with a 30 MB static array has a 40 MB pack
  in each of its builds (one per call entry point). The compile cell returned both, and the
  request that carried them to the run cell was over the runner's 64 MiB frame limit: the
  runner died reading it, ``sandbox_error`` (seven such builds were also over the host's
  256 MiB limit in the compile cell's own answer). The runner now reads the host's frames
  up to the host's own bound, the packs of one answer or one request are bounded
  (``pipeline.MAX_REQUEST_ARTIFACT_BYTES``: a cached pack past it is compiled again in the
  cell, a pack compiled apart past it is the program's ``compile_error``).
- A big program: every build carries the program's text (the stdio build, one per call entry
  point, one per assert test), and nothing bounded its size: a C program of 40 MB (a
  comment) in two builds made a request over the runner's frame limit (the runner died,
  ``sandbox_error``). The source text of one sample's builds is now bounded
  (``pipeline.MAX_REQUEST_SOURCE_BYTES``); past it the sample is a ``compile_error``.
- A file name of the program's choosing: a Java stdio program's source file is named after
  its public class, and a class named with 300 letters is a file name too long; the
  runner's ``open`` raised, the request failed, ``sandbox_error``. A build file that cannot
  be written (that, or a full ``/tmp``) is now the build's failure (``compile_error``, as
  javac's own "File name too long" for the class file would be).
- Folders of the program's choosing: javac writes a class of ``package p.p.p...`` in a
  folder per name; 1,100 of them made the compile cell's ``os.walk`` (packing the build)
  recurse past Python's limit: ``RecursionError``, ``sandbox_error``. Builds are now
  packed, unpacked and removed without recursion, and a build nested deeper than
  ``runner.MAX_PACK_DEPTH`` is not packed (its ``compile_error`` says so). A plain
  package clause is blanked since (``compiled_eq.java_without_package``), so the case
  spells it with a unicode escape, which is left as written and still nests the folders.

Each exploit is a wrong program (a failing verdict is what it must get, never
``sandbox_error``), verified beside an honest program of the same problem.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

FOUR = [{"type": "stdio", "input": f"{i} 2\n", "output": f"{i + 2}\n"} for i in range(4)]
C_FOUR = {"language": "c", "tests": FOUR}
C_OK = (
    '#include <stdio.h>\nint main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);return 0;}\n'
)
C_INVALID_UTF8 = (
    "#include <stdio.h>\n#include <string.h>\nstatic char b[(16 << 20) - 16];\n"
    "int main(){memset(b, 0xff, sizeof b); fwrite(b, 1, sizeof b, stdout); return 0;}\n"
)
PY_FOUR = {"tests": FOUR}
PY_INVALID_UTF8 = "import sys\nsys.stdout.buffer.write(b'\\xff' * ((16 << 20) - 16))\n"
PY_OK = "a, b = map(int, input().split())\nprint(a + b)\n"
RUST_TWO = {
    "language": "rust",
    "tests": [
        {"type": "call", "fn_name": "inc", "args": [1], "output": 2},
        {"type": "call", "fn_name": "dec", "args": [1], "output": 0},
    ],
}
RUST_BLOAT = (
    "pub static PAD: [u8; 30 << 20] = [1; 30 << 20];\n"
    "pub fn inc(a: i64) -> i64 { a + PAD[(a as usize) % PAD.len()] as i64 * 2 }\n"
    "pub fn dec(a: i64) -> i64 { a - PAD[(a as usize) % PAD.len()] as i64 * 2 }\n"
)
RUST_OK = "pub fn inc(a: i64) -> i64 { a + 1 }\npub fn dec(a: i64) -> i64 { a - 1 }\n"
C_STDIO_AND_CALL = {
    "language": "c",
    "tests": [
        {"type": "stdio", "input": "1 2\n", "output": "3\n"},
        {"type": "call", "fn_name": "add", "args": [1, 2], "output": 3},
    ],
}
C_ADD = (
    "int add(int a, int b) { return a OP b; }\n#include <stdio.h>\n"
    'int main(){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",add(a,b));return 0;}\n'
)
C_FORTY_MB = C_ADD.replace("OP", "-") + "/*" + "x" * (40 << 20) + "*/\n"

JAVA_STDIO = {"language": "java", "tests": [{"type": "stdio", "input": "1 2\n", "output": "3\n"}]}
JAVA_ADD = (
    "import java.util.*;\npublic class NAME { public static void main(String[] a) {\n"
    "    Scanner s = new Scanner(System.in);\n    System.out.println(s.nextInt() OP s.nextInt());\n"
    "} }\n"
)
JAVA_DEEP_PACKAGE = (
    "\\u0070ackage "  # a clause java_without_package leaves as written (a plain one it blanks)
    + ".".join(["p"] * 1100)
    + ";\n"
    + JAVA_ADD.replace("NAME", "Main").replace("OP", "+")
)

CASES = [
    exploit("c-16-mib-of-invalid-utf8-in-each-of-four-tests", C_FOUR, C_INVALID_UTF8),
    control("c-honest-beside-invalid-utf8", C_FOUR, C_OK),
    exploit("python-16-mib-of-invalid-utf8-in-each-of-four-tests", PY_FOUR, PY_INVALID_UTF8),
    control("python-honest-beside-invalid-utf8", PY_FOUR, PY_OK),
    exploit("rust-30-mb-static-in-two-call-builds", RUST_TWO, RUST_BLOAT),
    control("rust-honest-beside-big-builds", RUST_TWO, RUST_OK),
    exploit("c-40-mb-program-in-two-builds", C_STDIO_AND_CALL, C_FORTY_MB),
    control("c-honest-beside-a-40-mb-program", C_STDIO_AND_CALL, C_ADD.replace("OP", "+")),
    exploit(
        "java-public-class-named-with-300-letters",
        JAVA_STDIO,
        JAVA_ADD.replace("NAME", "A" * 300).replace("OP", "-"),
    ),
    exploit("java-package-nested-1100-deep", JAVA_STDIO, JAVA_DEEP_PACKAGE),
    # the same clause written plainly is blanked: the program builds in the unnamed package
    control(
        "java-plain-package-nested-1100-deep",
        JAVA_STDIO,
        JAVA_DEEP_PACKAGE.replace("\\u0070ackage", "package", 1),
    ),
    control(
        "java-honest-beside-a-long-class-name",
        JAVA_STDIO,
        JAVA_ADD.replace("NAME", "Main").replace("OP", "+"),
    ),
]
BATCH = Batch("languages-infra-round3", CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c", "rust", "java")


@pytest.mark.parametrize("name", BATCH.names)
def test_what_crosses_the_cell_cannot_make_sandbox_error(verifier, name):
    BATCH.check(verifier, name)


# The host reads a C call test's signature from the program's text before anything is built;
# two regular expressions there backtracked quadratically on a few hundred kB of program
# (minutes of the host's CPU with the GIL held: the whole verifier, every sample of every
# request, stood still). The batch's timeout is what fails on the unfixed code.
C_CALL = {
    "language": "c",
    "tests": [{"type": "call", "fn_name": "add", "args": [1, 2], "output": 3}],
}
C_HOST_REGEX = Batch(
    "languages-infra-round3-c-signature",
    [
        exploit(
            "c-parameter-of-100000-letters-and-a-stray-character",
            C_CALL,
            "int add(int " + "a" * 100000 + "!) { return 0; }\n",
        ),
        exploit(
            "c-100000-lines-of-words-before-the-definition",
            C_CALL,
            "a\n" * 100000 + "#\nint add(int a, int b) { return a - b; }\n",
        ),
        control(
            "c-honest-add-beside-the-signature-bombs",
            C_CALL,
            "int add(int a, int b) { return a + b; }\n",
        ),
    ],
    timeout_s=240.0,
)


@pytest.mark.parametrize("name", C_HOST_REGEX.names)
def test_reading_a_c_signature_takes_linear_time(verifier, name):
    C_HOST_REGEX.check(verifier, name)


# The same on a Rust assert build's checks of the program (compiled_eq.rust_own_return_type):
# ``\buse\b[^;]*;`` scanned to the end of the program from every ``use`` with no ``;`` after.
RUST_ADD = {
    "language": "rust",
    "tests": [{"type": "assert", "code": (
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n"
        "    fn test_add() { assert_eq!(add(1, 2), 3); }\n}\n")}],
}  # fmt: skip
RUST_HOST_REGEX = Batch(
    "languages-infra-round3-rust-uses",
    [
        exploit("rust-use-without-semicolon-200000-times", RUST_ADD, "use a::" * 200000),
        control(
            "rust-honest-add-beside-the-use-bomb",
            RUST_ADD,
            "fn add(a: i32, b: i32) -> i32 { a + b }\n",
        ),
    ],
    timeout_s=240.0,
)


@pytest.mark.parametrize("name", RUST_HOST_REGEX.names)
def test_reading_a_rust_program_takes_linear_time(verifier, name):
    RUST_HOST_REGEX.check(verifier, name)
