"""The language runtimes (sandbox_images/runtime/build-language-root.sh) inside a real
bubblewrap cell: each smoke sample gets the verdict its file promises, the precompiled
<bits/stdc++.h> is really used, and the javac class-data archive is valid.

A sample is built the way the contract's "Other languages" section says (the program, then
the test code, as one compilation unit) with the recommended recipe of
sandbox_images/runtime/toolchains.py. The cell is the one measure.py starts (process.py's
mounts and flags); these tests need root, bwrap and the built roots, and skip without them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parents[2] / "sandbox_images" / "runtime"
IMAGES = RUNTIME.parent
sys.path.insert(0, str(RUNTIME))
import measure  # noqa: E402

LANGUAGES = {
    "c": "c/12",
    "cpp": "cpp/12",
    "java": "java/17",
    "javascript": "javascript/18",
    "typescript": "typescript/5.9",
    "go": "go/1.19",
    "rust": "rust/1.63",
}
# the test harness an assert test is built with, where it is not the program's own main
ASSERT_RECIPE = {"go": "go-test", "rust": "rust-test"}


def _root_or_skip(language: str) -> str:
    if os.geteuid() != 0 or shutil.which("bwrap") is None:
        pytest.skip("needs root and bwrap (the cells drop to uid 65534 with setpriv)")
    root = measure.root_dir(language)
    if not (Path(root) / ".codereward-runtime").exists():
        pytest.skip(f"no {language} runtime at {root}: run 'make runtimes'")
    return root


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines()]


def _passes(language: str, problem: dict, code: str) -> bool:
    """Every test of the problem passes (stdio: LiveCodeBench's line rule, exact tokens)."""
    for test in problem["tests"]:
        if test["type"] == "stdio":
            job = {"recipe": language, "programs": [{"source": code, "inputs": [test["input"]]}]}
        else:
            recipe = ASSERT_RECIPE.get(language, language)
            job = {
                "recipe": recipe,
                "programs": [{"source": code + "\n" + test["code"], "inputs": [""]}],
            }
        prog = measure.run_sandboxed(language, job)["programs"][0]
        if (
            any(c["rc"] != 0 for c in prog["compiles"])
            or not prog["runs"]
            or prog["runs"][0]["rc"] != 0
        ):
            return False
        if test["type"] == "stdio" and _lines(prog["runs"][0]["stdout"]) != _lines(test["output"]):
            return False
    return True


def _plain_problems(language: str) -> dict[str, dict]:
    """The smoke problems a plain compile and run can judge (stdio and assert tests; the
    call problems need the verifier's harness: tests/languages/test_verifier.py and the
    docker image tests run them)."""
    problems = {p["id"]: p for p in _smoke(language, "problems")}
    plain = {k: p for k, p in problems.items() if all(t["type"] != "call" for t in p["tests"])}
    assert plain, f"{language}: no smoke problem a plain run can judge"
    return plain


def _code(sample: dict) -> str:
    return sample["code"] if "code" in sample else sample["completion"]


def _smoke(language: str, name: str) -> list[dict]:
    path = IMAGES / LANGUAGES[language] / "smoke" / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_root_path_names_a_root_for_every_contract_language() -> None:
    out = subprocess.run(
        [str(RUNTIME / "root-path.sh"), "--all"], capture_output=True, text=True, check=True
    ).stdout
    roots = {line.split()[0]: line.split()[1] for line in out.splitlines()}
    assert roots == {"python": "python", "c": "cpp", "cpp": "cpp", "java": "java", "javascript": "node",
                     "typescript": "node", "go": "go", "rust": "rust"}  # fmt: skip


def test_python_root_path_is_rootfs_paths() -> None:
    env = dict(os.environ, CODEREWARD_RUNTIME_ROOT="/somewhere/py")
    out = subprocess.run(
        [str(RUNTIME / "root-path.sh"), "python"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert out.stdout.strip() == "/somewhere/py"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_smoke_files_name_their_language_and_problems(language: str) -> None:
    problems = {p["id"]: p for p in _smoke(language, "problems")}
    assert all(p["language"] == language for p in problems.values())
    for name in ("pass", "fail"):
        assert {s["problem_id"] for s in _smoke(language, name)} == set(problems)
    meta = json.loads((IMAGES / LANGUAGES[language] / "metadata.json").read_text())
    assert meta["language"] == language


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_smoke_pass_samples_pass_in_a_cell(language: str) -> None:
    _root_or_skip(language)
    problems = _plain_problems(language)
    for sample in _smoke(language, "pass"):
        if sample["problem_id"] in problems:
            assert _passes(language, problems[sample["problem_id"]], _code(sample)), sample[
                "problem_id"
            ]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_smoke_fail_samples_fail_in_a_cell(language: str) -> None:
    _root_or_skip(language)
    problems = _plain_problems(language)
    for sample in _smoke(language, "fail"):
        if sample["problem_id"] in problems:
            assert not _passes(language, problems[sample["problem_id"]], _code(sample)), sample[
                "problem_id"
            ]


def _in_cell(
    language: str, argv: list[str], stdin: str | None = None, timeout_s: float = 120
) -> subprocess.CompletedProcess[str]:
    root = _root_or_skip(language)
    return subprocess.run(
        measure.bwrap_argv(root) + argv, input=stdin, capture_output=True, text=True,
        timeout=timeout_s,
    )  # fmt: skip


def test_cpp_precompiled_header_is_used_with_the_recommended_flags() -> None:
    # g++ -H prints "! NAME.gch" for a precompiled header it loads, "x" for one it rejects
    flags = [
        a for a in measure.toolchains.RECIPES["cpp"].compile if a not in ("-o", "prog", "main.cpp")
    ]
    script = (
        "printf '#include <bits/stdc++.h>\\nint main(){}\\n' > /tmp/a.cpp && "
        + " ".join(flags)
        + " -H -o /tmp/a /tmp/a.cpp"
    )
    p = _in_cell("cpp", ["/bin/sh", "-c", script])
    assert p.returncode == 0, p.stderr
    assert "! /usr/lib/codereward/pch/bits/stdc++.h.gch" in p.stderr


def test_our_testlib_h_is_on_the_default_include_path_and_a_checker_runs() -> None:
    root = _root_or_skip("cpp")
    ours = IMAGES / "cpp" / "testlib" / "testlib.h"
    assert (Path(root) / "usr/local/include/testlib.h").read_bytes() == ours.read_bytes()
    checker = (
        '#include "testlib.h"\n'
        "int main(int c, char** v) { registerTestlibCmd(c, v);"
        " long long a = ans.readLong(), o = ouf.readLong();"
        ' if (a != o) quitf(_wa, "%lld != %lld", a, o); quitf(_ok, "same"); }\n'
    )
    script = (
        "cd /tmp && cat > c.cpp && g++ -std=gnu++17 -O0 -o c c.cpp && echo 1 > in && echo 5 > ans"
        " && echo 5 > good && echo 6 > bad && ./c in good ans; echo rc=$?; ./c in bad ans; echo rc=$?"
    )
    p = _in_cell("cpp", ["/bin/sh", "-c", script], checker, timeout_s=240)
    assert p.stdout.split() == ["rc=0", "rc=1"], (p.stdout, p.stderr)
    assert "ok same" in p.stderr and "wrong answer 5 != 6" in p.stderr


def test_c_library_symbol_list_is_what_the_libraries_export() -> None:
    # the list a C/C++ assert build reads (languages.C_LIBRARY_SYMBOLS) is written once when
    # the root is built, by the script's own loop over the same libraries
    from reward_api.verify import languages

    script = (RUNTIME / "build-language-root.sh").read_text()
    assert f"for l in {' '.join(languages.C_LIBRARIES)}; do" in script
    listed = _in_cell("cpp", ["/bin/cat", languages.C_LIBRARY_SYMBOLS])
    assert listed.returncode == 0, "the root predates the list: make runtimes"
    live = _in_cell("cpp", ["/bin/sh", "-c", "cd /tmp && " + languages.C_LIBS_FALLBACK
                            .replace("LIBRARY_SYMBOLS", "/nonexistent")
                            .replace("LIBRARIES", " ".join(languages.C_LIBRARIES))
                            .replace("CC", "gcc") + "cat cr_libs"])  # fmt: skip
    assert live.returncode == 0, live.stderr
    names = listed.stdout.split()
    assert names == live.stdout.split() and names == sorted(names, key=str.encode)
    assert {"strcmp", "memcmp", "malloc", "sqrt", "_Znwm"} <= set(names)


def test_javac_class_data_archive_maps() -> None:
    # -Xshare:on makes a missing or stale archive an error instead of a silent fallback
    p = _in_cell(
        "java",
        [
            "/usr/bin/javac",
            "-J-Xshare:on",
            "-J-XX:SharedArchiveFile=/usr/lib/codereward/javac.jsa",
            "-version",
        ],
    )
    assert p.returncode == 0, p.stderr


def test_the_c_judges_compiler_compares_as_gcc_does() -> None:
    """tcc builds a lifted C test's judge (``languages.C_JUDGE_BUILD``): integer promotions
    and conversions, NaN, signed zero, ``float`` and ``long double`` comparisons, literal
    types and the C library's maths come out as gcc -O2's (the program's compiler) do."""
    source = (Path(__file__).with_name("judge_compare.c")).read_text()
    script = (
        "cd /tmp && cat > t.c && tcc -o t1 t.c -lm && gcc -std=gnu11 -O2 -w -o t2 t.c -lm"
        " && ./t1 && ./t2"
    )
    p = _in_cell("cpp", ["/bin/sh", "-c", script], source, timeout_s=240)
    assert p.returncode == 0, p.stderr
    by_tcc, by_gcc = p.stdout.split()
    assert len(by_tcc) == source.count("T(") - 1 and "0" in by_tcc and "1" in by_tcc
    assert by_tcc == by_gcc
