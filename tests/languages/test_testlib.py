"""Our own testlib.h (sandbox_images/cpp/testlib/testlib.h): checkers, validators and
generators written against testlib's interface compile with it and give testlib's verdicts
(exit codes _ok 0, _wa 1, _pe 2, _fail 3, _dirt 4, _unexpected_eof 8).

Built with the host's g++ (the compiler the cpp root carries is the same Debian g++ 12;
test_runtimes.py checks the header installed in the root and runs a checker there).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HEADER_DIR = Path(__file__).resolve().parents[2] / "sandbox_images" / "cpp" / "testlib"

CHECKER = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
  registerTestlibCmd(argc, argv);
  int n = inf.readInt(1, 100, "n");
  for (int i = 0; i < n; ++i) {
    double want = ans.readDouble();
    double got = ouf.readDouble(-1e9, 1e9, "x");
    if (!doubleCompare(want, got, 1e-6))
      quitf(_wa, "%d%s number: expected %.9f, found %.9f", i + 1, englishEnding(i + 1).c_str(),
            want, got);
  }
  quitf(_ok, "%d numbers", n);
}
"""

VALIDATOR = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
  registerValidation(argc, argv);
  int n = inf.readInt(1, 10, "n");
  inf.readEoln();
  inf.readToken("[a-z]{1,200000}", "s");
  inf.readEoln();
  inf.readToken("(ab|c)+x?", "t");
  inf.readEoln();
  std::vector<int> xs = inf.readInts(n, -5, 5, "x");
  inf.readEoln();
  inf.readEof();
  ensuref(xs.size() == size_t(n), "read %d", n);
}
"""

GENERATOR = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
  registerGen(argc, argv, 1);
  int n = opt<int>("n");
  std::string s = rnd.next("[a-c]{3,6}");
  std::vector<int> p = rnd.perm(n, 1);
  std::cout << n << ' ' << s << ' ' << rnd.next(10, 20) << '\n';
  for (int x : p) std::cout << x << ' ';
  std::cout << '\n';
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    gxx = shutil.which("g++")
    assert gxx, "g++ is needed on the host (Debian's g++ 12, as in the cpp root)"
    out = tmp_path_factory.mktemp("testlib")
    programs = {}
    for name, source in (("checker", CHECKER), ("validator", VALIDATOR), ("gen", GENERATOR)):
        (out / f"{name}.cpp").write_text(source)
        subprocess.run(
            [gxx, "-std=gnu++17", "-O1", "-Wall", "-Wextra", "-Werror", f"-I{HEADER_DIR}",
             "-o", str(out / name), str(out / f"{name}.cpp")],
            check=True, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        programs[name] = out / name
    return programs


def _check(built: dict[str, Path], tmp: Path, inp: str, output: str | None, answer: str):
    (tmp / "in").write_text(inp)
    (tmp / "ans").write_text(answer)
    out = tmp / "out"
    if output is None:
        out.unlink(missing_ok=True)
    else:
        out.write_text(output)
    return subprocess.run(
        [str(built["checker"]), str(tmp / "in"), str(out), str(tmp / "ans"), str(tmp / "res")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("output", "code", "message"),
    [
        ("1.0000001 2\n", 0, "ok 2 numbers"),
        ("  1\n\n 2.0  \n", 0, "ok 2 numbers"),  # checkers read tokens: spacing is free
        ("1 2.5\n", 1, "wrong answer 2nd number: expected 2.000000000, found 2.500000000"),
        ("1 2e10\n", 1, "x=2e+10 violates the range"),  # a range on ouf is a wrong answer
        ("1 two\n", 2, 'expected a real number, found "two" (output)'),
        ("1 nan\n", 2, "expected a real number"),
        ("1\n", 8, "unexpected end of file"),
        ("1 2 3\n", 4, "extra information in the output file"),
        (None, 2, "output file not found"),
    ],
)
def test_checker_verdicts(
    built: dict[str, Path], tmp_path: Path, output: str | None, code: int, message: str
) -> None:
    p = _check(built, tmp_path, "2\n", output, "1 2\n")
    assert p.returncode == code, p.stderr
    assert message in p.stderr
    assert message in (tmp_path / "res").read_text()  # the optional result file


def test_a_broken_answer_file_is_the_checkers_failure(built: dict[str, Path], tmp_path: Path):
    p = _check(built, tmp_path, "2\n", "1 2\n", "1 oops\n")
    assert p.returncode == 3, p.stderr
    assert p.stderr.startswith("FAIL")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("3\nabc\nababcx\n1 -2 5\n", 0),
        ("3\n" + "z" * 200000 + "\nc\n0 0 0\n", 0),  # long tokens: no deep recursion
        ("3\nabc\nababcxx\n1 -2 5\n", 1),  # pattern mismatch
        ("3\nabC\nc\n1 -2 5\n", 1),
        ("3 \nabc\nc\n1 -2 5\n", 2),  # strict: a trailing space is not an end of line
        ("3\nabc\nc\n1  -2 5\n", 2),  # strict: one space between numbers
        ("03\nabc\nc\n1 -2 5\n", 2),  # strict: no leading zeros
        ("3\nabc\nc\n1 -2 6\n", 1),  # range
        ("3\nabc\nc\n1 -2 5\n\n", 2),  # strict: nothing after the last line
    ],
)
def test_validator_reads_strictly(built: dict[str, Path], text: str, code: int) -> None:
    p = subprocess.run(
        [str(built["validator"])], input=text, capture_output=True, text=True, timeout=60
    )
    assert p.returncode == code, p.stderr


def test_generator_options_and_seeding(built: dict[str, Path]) -> None:
    def run(*args: str) -> str:
        return subprocess.run(
            [str(built["gen"]), *args], capture_output=True, text=True, timeout=60, check=True
        ).stdout

    first = run("-n=6", "seed1")
    assert first == run("-n=6", "seed1")  # the same arguments, the same test
    assert first != run("-n=6", "seed2")
    head, perm = first.splitlines()
    n, s, k = head.split()
    assert n == "6" and 3 <= len(s) <= 6 and set(s) <= set("abc") and 10 <= int(k) <= 20
    assert sorted(map(int, perm.split())) == [1, 2, 3, 4, 5, 6]
    missing = subprocess.run([str(built["gen"])], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 3 and 'option "n" is not given' in missing.stderr
