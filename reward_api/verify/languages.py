"""Languages other than Python: how a program becomes a build, how its tests run, and what
counts as a pass (CONTRACT.md, "Other languages").

This module owns the production recipe of each language (the flags measured in
sandbox_images/README.md, "Languages"; ``sandbox_images/runtime/toolchains.py`` holds the
same ones for measuring, and a test keeps the two equal), the assembly of a program with
its test code into one compilation unit with a trusted harness around the test, and the
grading of what the runner reported. The runner (``reward_api.sandbox.runner``) compiles
each build once, in the language's own cell, under compile limits, before any program of
the sample runs, and runs each test as a fork and exec of the artifact.

Trust, per test type:

- ``stdio``: the program alone is built; its stdout is compared on the host, so an expected
  output never enters the cell (as for Python).
- ``assert``: the test code must share the program's process (HumanEval-X, MultiPL-E, MBXP
  build them as one unit), so the pass signal cannot be the exit status. The harness
  reports completion on a pipe at fd 3 (the *pass channel*) with a 128-bit nonce drawn
  for this build, written only after the test's own code ran to its end: C/C++: a
  ``__wrap_main`` linked in with ``--wrap=main`` (in its own file, so the program and the
  test compile to the same code as plain execution's) that reports when the test's
  ``main`` returned 0; Go (``func main``): the test's ``main`` renamed and called from
  ours; Go (``func TestX``):
  our ``TestMain`` after ``m.Run()`` returned 0, with the test flags parsed again from
  our own arguments; Java: our class's ``main`` after the test's ``Main.main``
  returned; JavaScript/TypeScript: a call after the test's last statement; Rust: a guard
  in each ``#[test]`` function that reports that function's name when it returns
  without panicking. A test passes only when the channel holds exactly the expected
  report and the process exited 0 within its limits. So an early exit (``exit(0)`` in a
  global constructor, static block, ``init``, exit handler, shutdown hook, panic hook, or
  ``process.exit`` anywhere) is never a pass, and a program that writes on fd 3 itself
  spoils its own report.
- Redefinitions: C/C++: every macro name the program ``#define``s (found on the spliced
  text, comments included, by over-approximation) is ``#undef``ined before the test and
  ``<assert.h>`` is included again without ``NDEBUG``; Rust: ``macro_rules!`` forwarders
  for ``assert``, ``assert_eq``, ``vec``, ``panic`` and the other std macros a test uses
  follow the program, so a shadowing ``macro_rules!`` of the program never reaches the
  test (textual scope: the later definition wins); JavaScript/TypeScript: a prelude that
  runs before the program freezes ``assert``, ``assert/strict``, lodash and ``console`` and
  keeps its own ``fs.writeSync``, so ``console.assert = ...`` or a patched assert or
  lodash has no effect.

What still runs beside the program, and why: the test code and the harness share the
program's process, because these conventions call the program's functions in their own
language with their own types. Not covered: a program that reads its own executable,
source or memory (``/proc/self/exe``, ``arguments.callee``) to find the nonce and writes
it itself; comparison operators the program overloads for the types the test compares
(a C++ ``operator==`` for ``std::vector``, a Java ``equals`` on a returned object of the
program's own class), which only lifting each comparison out of the process (as Python's
judge does) would stop. Compile-time reads of host files see only the language's runtime
root (the compile runs in the cell), and compile-time bombs end at the compile limits as
``compile_error``.

Speed: one compile per build (stdio tests share their program's build; a program seen
again is unpacked from the verifier's artifact cache, keyed by files, toolchain argv and
environment), C++ against the precompiled ``<bits/stdc++.h>``, Go with the seeded build
cache for ``go test``, and for Java, TypeScript and JavaScript a warm compiler: javac in
one JVM (``warm/CompileServer.java``), tsc through TypeScript's compiler API with the lib
files parsed once, and node's own parser for ``node --check`` (``warm/compile-server.js``),
each with the recipe's options, so a build gets the same verdict as the recipe's command.

Warm compilers live in *compile cells* (``Verifier.compile_pool``): cells of the
language's root, limits and network policy that run compilers only, never a program. The
host sends a sample's builds there, gets each artifact back as a pack (or the compiler's
message) and hands it to the cell that runs the sample, which only unpacks it. Why apart:
a cell that runs programs kills every process but its runner after each test, and a
server beside a program (same uid) could be signalled, traced or fed by it, so a later
sample's build would be the program's to decide. What a compile cell still shares between
samples: the server process (javac's file manager caches the platform's class index; the
TypeScript host caches parsed files under ``/usr`` and ``/node_modules``, read-only in the
cell), never a program's files (each build has its own folder, removed after it is packed,
and ``/tmp`` is swept after each request). A server starts and warms up before it takes a
request (not counted in any compile's time), serves ``MAX_SERVER_COMPILES`` builds, and is
killed when a build outlasts its compile time or it dies (a compile bomb ends in
``compile_error``; the next build gets a fresh server); a server that cannot start is
``sandbox_error``, never a verdict. javac runs with ``-proc:none`` and no plugin, so
compiling never runs program code; TypeScript only parses and checks; the JavaScript
check only compiles.
"""

from __future__ import annotations

import functools
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from signal import SIGABRT
from typing import Any

from reward_api.schemas import AssertTest, Problem, StdioTest, TestResult, Verdict
from reward_api.verify.comparators import comparator

COMPILED = frozenset({"c", "cpp", "java", "javascript", "typescript", "go", "rust"})
"""The languages this module builds; python and python3 run in the Python runner."""
ROOT_OF = {"c": "cpp", "cpp": "cpp", "java": "java", "javascript": "node",
           "typescript": "node", "go": "go", "rust": "rust"}  # fmt: skip
"""The runtime root each language's cell runs on (sandbox_images/runtime/root-path.sh)."""
ROOT_DIRS = {"cpp": "bookworm-gcc12", "java": "bookworm-jdk17", "node": "bookworm-node18",
             "go": "bookworm-go119", "rust": "bookworm-rust163"}  # fmt: skip
IMAGES = {"c": "codereward/sandbox-c:12", "cpp": "codereward/sandbox-cpp:12",
          "java": "codereward/sandbox-java:17", "javascript": "codereward/sandbox-javascript:18",
          "typescript": "codereward/sandbox-typescript:5.9", "go": "codereward/sandbox-go:1.19",
          "rust": "codereward/sandbox-rust:1.63"}  # fmt: skip
"""The docker image of each language (sandbox_images/<language>/<version>/metadata.json)."""

COMPILE_TIME_S = 60.0
"""Wall seconds a compile may take (tsc and a cold ``go test`` take seconds on a loaded host)."""
COMPILE_MEMORY_MB = 2048
"""Address space of each compiler process."""
MAX_PROCS = 128
"""Processes and threads of a compiled language's cell (docker's pids limit) and of each
compile or run in it (RLIMIT_NPROC in the process backend's user namespace)."""
COMPILE_CELL_MB = 1536
"""The cell's memory ceiling (less its overhead) while it holds a sample that compiles."""
MAX_COMPILE_MESSAGE_CHARS = 2000
"""The compiler's message in a ``compile_error`` result, its tail."""
PCH_DIR = "/usr/lib/codereward/pch"
JAVAC_ARCHIVE = "/usr/lib/codereward/javac.jsa"
GO_SEED = "/usr/lib/codereward/gocache"
GO_ENV = {"GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOCACHE": "/tmp/.gocache",
          "GOPROXY": "off", "GOSUMDB": "off", "GOTELEMETRY": "off", "CGO_ENABLED": "0",
          "GOFLAGS": "-p=2"}  # fmt: skip
JVM_FAST = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]
# a JVM reserves address space far beyond what it uses: these keep it near Xmx + 300 MB
# (sandbox_images/README.md, "Memory limits and runtimes that reserve address space")
JVM_SMALL = ["-XX:ReservedCodeCacheSize=32m", "-XX:CompressedClassSpaceSize=64m",
             "-XX:MaxMetaspaceSize=128m", "-XX:-UsePerfData"]  # fmt: skip
JVM_EXTRA_MB = 640
GO_EXTRA_MB = 512
"""Go's runtime reserves its page summaries up front (some hundreds of MB of address space)."""


def default_root(language: str) -> Path:
    """Where ``make runtimes`` puts a language's root (as root-path.sh prints it)."""
    root = ROOT_OF[language]
    given = os.environ.get(f"CODEREWARD_RUNTIME_ROOT_{root.upper()}")
    if given:
        return Path(given)
    if os.geteuid() == 0 or os.access("/var/lib/codereward", os.W_OK):
        return Path("/var/lib/codereward/runtime") / ROOT_DIRS[root]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "codereward/runtime" / ROOT_DIRS[root]


@dataclass(frozen=True)
class Recipe:
    """How one compilation unit is built and run in its language's cell."""

    source: str
    compile: tuple[str, ...] | None
    run: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    remove: tuple[str, ...] = ()
    """Files deleted once compiled (a binary's sources: the nonce is not left lying about)."""
    seed_cache: tuple[str, str] | None = None


def _gcc(cc: str, std: str, src: str, *extra: str) -> Recipe:
    return Recipe(src, (cc, f"-std={std}", "-O2", "-pipe", *extra, "-o", "prog", src),
                  ("./prog",), remove=(src,))  # fmt: skip


RECIPES: dict[str, Recipe] = {
    "c": Recipe("main.c", ("gcc", "-std=gnu11", "-O2", "-pipe", "-o", "prog", "main.c", "-lm"),
                ("./prog",), remove=("main.c",)),
    "cpp": _gcc("g++", "gnu++17", "main.cpp", f"-I{PCH_DIR}"),
    "java": Recipe("Main.java",
                   ("javac", f"-J-XX:SharedArchiveFile={JAVAC_ARCHIVE}", *[f"-J{f}" for f in JVM_FAST[:2]],
                    "-J-Xmx768m", *[f"-J{f}" for f in JVM_SMALL],
                    "-proc:none", "-encoding", "UTF-8", "-nowarn", "-d", ".", "Main.java"),
                   ("java", *JVM_FAST, *JVM_SMALL, "-ea", "-cp", ".", "Main"),
                   {"MALLOC_ARENA_MAX": "1"}, remove=("Main.java",)),
    "javascript": Recipe("main.js", ("node", "--check", "main.js"), ("node", "main.js")),
    "typescript": Recipe("main.ts", ("tsc", "--target", "es2020", "--module", "commonjs",
                                     "--skipLibCheck", "--outDir", ".", "main.ts"),
                         ("node", "main.js"), remove=("main.ts",)),
    "go": Recipe("main.go", ("go", "build", "-o", "prog", "main.go"), ("./prog",), GO_ENV,
                 remove=("main.go",)),
    "go-test": Recipe("main_test.go", ("go", "test", "-c", "-o", "prog.test", "main_test.go"),
                      ("./prog.test",), GO_ENV, remove=("main_test.go",), seed_cache=(GO_SEED, GO_ENV["GOCACHE"])),
    "rust": Recipe("main.rs", ("rustc", "--edition", "2021", "-O", "-o", "prog", "main.rs"), ("./prog",),
                   remove=("main.rs",)),
    "rust-test": Recipe("main.rs", ("rustc", "--edition", "2021", "--test", "-O", "-o", "prog", "main.rs"),
                        ("./prog", "--test-threads=1"), remove=("main.rs",)),
}  # fmt: skip


@dataclass(frozen=True)
class Unit:
    """One compilation unit: the build the runner compiles and what its pass report is."""

    recipe: str
    files: dict[str, str]
    run: tuple[str, ...]
    expect: str | None = None
    """For an assert test: exactly what the harness writes on the pass channel."""


# ------------------------------------------------------------------ assembly
def stdio_unit(language: str, program: str) -> Unit:
    """The program alone, for stdio tests (its stdout is compared on the host)."""
    recipe = RECIPES[language]
    if language == "java":
        name = _java_main_class(program)
        return Unit("java", {f"{name}.java": program}, _java_run(name))
    return Unit(language, {recipe.source: program}, recipe.run)


def assert_unit(language: str, program: str, test: str) -> Unit:
    """The program, then the test code, with the harness of this module's docstring."""
    nonce = secrets.token_hex(16)
    if language in ("c", "cpp"):
        cpp = language == "cpp"
        files = {RECIPES[language].source: _c_unit(program, test, cpp),
                 f"harness.{'cpp' if cpp else 'c'}": _c_harness(nonce, cpp)}  # fmt: skip
        return Unit(language, files, RECIPES[language].run, nonce)
    if language == "java":
        harness = f"__CrHarness{nonce}"
        source = f"{program}\n\n{test}\n\n{_java_harness(harness, nonce)}"
        return Unit("java", {"Main.java": source}, _java_run(harness), nonce)
    if language in ("javascript", "typescript"):
        source = _js_unit(program, test, nonce)
        return Unit(language, {RECIPES[language].source: source}, RECIPES[language].run, nonce)
    if language == "go":
        if _GO_TEST_FN.search(test):
            return Unit("go-test", {"main_test.go": _go_test_unit(program, test, nonce)},
                        RECIPES["go-test"].run, nonce)  # fmt: skip
        return Unit(
            "go", {"main.go": _go_main_unit(program, test, nonce)}, RECIPES["go"].run, nonce
        )
    if language == "rust":
        source, names = _rust_unit(program, test, nonce)
        expect = "".join(f"{nonce} {n}\n" for n in sorted(names))
        return Unit("rust-test", {"main.rs": source}, RECIPES["rust-test"].run, expect)
    raise ValueError(f"no build for language {language!r}")


# ------------------------------------------------------------------ warm compilers
WARM_DIR = Path(__file__).with_name("warm")
WARM_MODES = {"java": "javac", "typescript": "tsc", "javascript": "js"}
"""Recipes built by a warm server in a compile cell, and the server's mode for each."""
SERVER_FILES = {"java": "CompileServer.java", "typescript": "compile-server.js",
                "javascript": "compile-server.js"}  # fmt: skip


@functools.cache
def _server_source(name: str) -> str:
    return (WARM_DIR / name).read_text()


def compile_server(recipe: str) -> dict[str, Any] | None:
    """The warm server of a recipe (the runner's ``_CompileServer`` spec), or None when the
    recipe compiles with one process per build in the cell that runs it."""
    if recipe not in WARM_MODES:
        return None
    name = SERVER_FILES[recipe]
    files = {name: _server_source(name)}
    if recipe == "java":  # Java's source launcher compiles the server once, at its start
        start = ["java", *JVM_FAST[:2], "-Xmx768m", *JVM_SMALL, name]
        return {"files": files, "start": start, "env": {"MALLOC_ARENA_MAX": "1"},
                "memory_mb": COMPILE_MEMORY_MB + JVM_EXTRA_MB, "max_procs": MAX_PROCS}  # fmt: skip
    return {"files": files, "start": ["node", name, WARM_MODES[recipe]], "env": {},
            "memory_mb": COMPILE_MEMORY_MB, "max_procs": MAX_PROCS}  # fmt: skip


def build_spec(
    unit: Unit, memory_mb: int, compile_time_s: float = COMPILE_TIME_S
) -> dict[str, Any]:
    """The runner's build for a unit (``_Builds`` in runner.py)."""
    recipe = RECIPES[unit.recipe]
    compile_argv = list(recipe.compile) if recipe.compile else None
    run = list(unit.run)
    spec: dict[str, Any] = {"files": unit.files, "run": run, "env": dict(recipe.env),
                            "time_s": compile_time_s, "memory_mb": COMPILE_MEMORY_MB,
                            "remove": [f for f in unit.files if f in recipe.remove or
                                       (unit.recipe == "java" and f.endswith(".java"))]}  # fmt: skip
    if unit.recipe in ("c", "cpp") and len(unit.files) > 1:  # an assert test's harness
        assert compile_argv is not None
        harness = next(f for f in unit.files if f.startswith("harness."))
        compile_argv += [harness, "-Wl,--wrap=main"]
        spec["remove"] = sorted(unit.files)
    if unit.recipe == "java":
        assert compile_argv is not None
        compile_argv[-1:] = sorted(unit.files)
        run.insert(1, f"-Xmx{memory_mb}m")
        spec["as_extra_mb"] = JVM_EXTRA_MB
    if unit.recipe in ("go", "go-test"):
        spec["as_extra_mb"] = GO_EXTRA_MB
    spec["max_procs"] = MAX_PROCS
    spec["compile"] = compile_argv
    if unit.recipe in WARM_MODES:
        spec["serve"] = WARM_MODES[unit.recipe]
    if recipe.seed_cache:
        spec["seed_cache"] = list(recipe.seed_cache)
    return spec


def artifact_key(spec: dict[str, Any], runtime: str) -> str:
    """Content hash of a build: its files, toolchain argv, environment and the runtime."""
    import hashlib
    import json

    what = [spec.get("files"), spec.get("compile"), spec.get("env"), spec.get("remove"), runtime]
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def units_for(problem: Problem, program: str, indices: list[int]) -> tuple[list[Unit], list[int]]:
    """The builds of a sample and, per selected test, the build it runs."""
    units: list[Unit] = []
    which: list[int] = []
    stdio: int | None = None
    for i in indices:
        test = problem.tests[i]
        if isinstance(test, StdioTest):
            if stdio is None:
                stdio = len(units)
                units.append(stdio_unit(problem.language, program))
            which.append(stdio)
        elif isinstance(test, AssertTest):
            code = test.code if not problem.setup_code else f"{problem.setup_code}\n{test.code}"
            which.append(len(units))
            units.append(assert_unit(problem.language, program, code))
        else:  # refused when the problem is validated; a guard, never a verdict
            raise ValueError(f"{problem.language} problems take stdio and assert tests")
    return units, which


# ------------------------------------------------------------------ C and C++
_SPLICE = re.compile(r"\\[ \t]*\r?\n")
_DEFINE = re.compile(r"define(?:\s|/\*.*?\*/)+([A-Za-z_]\w*)", re.S)


def defined_macros(program: str) -> set[str]:
    """Every name that follows the word ``define`` in the program once lines are spliced:
    a superset of the macros it defines (in comments and strings too, which is harmless:
    ``#undef`` of a name that is no macro does nothing)."""
    return set(_DEFINE.findall(_SPLICE.sub("", program)))


def _c_unit(program: str, test: str, cpp: bool) -> str:
    """The program and the test unchanged, with the program's macros undefined between
    them: the same tokens as plain execution's unit, so the same code (even where a
    program's undefined behaviour makes the code depend on the unit's layout)."""
    undefs = "\n".join(f"#undef {m}" for m in sorted(defined_macros(program) | {"NDEBUG", "main"}))
    return (
        f"{program}\n"
        "\n/* codereward: the test sees the language, not the program's macros */\n"
        f"{undefs}\n#include <assert.h>\n{test}\n"
    )


def _c_harness(nonce: str, cpp: bool) -> str:
    """Linked with ``--wrap=main``: the C runtime calls ``__wrap_main``, which reports
    completion only when the test's own ``main`` returned 0 (an exit anywhere, before or
    during it, never reaches the report)."""
    c = 'extern "C" ' if cpp else ""
    return (
        "#include <unistd.h>\n"
        f"{c}int __real_main(int, char **, char **);\n"
        f"{c}int __wrap_main(int argc, char **argv, char **envp) {{\n"
        "  int rc = __real_main(argc, argv, envp);\n"
        f'  if (rc == 0 && write(3, "{nonce}", 32) != 32) return 1;\n'
        "  return rc;\n}\n"
    )


# ------------------------------------------------------------------ Java
_JAVA_PUBLIC = re.compile(r"^\s*public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", re.M)


def _java_main_class(program: str) -> str:
    m = _JAVA_PUBLIC.search(program)
    return m.group(1) if m else "Main"


def _java_run(main_class: str) -> tuple[str, ...]:
    return (*RECIPES["java"].run[:-1], main_class)


def _java_harness(name: str, nonce: str) -> str:
    return (
        f"class {name} {{\n"
        "    public static void main(String[] args) throws Throwable {\n"
        "        Main.main(args);\n"
        '        java.io.FileOutputStream out = new java.io.FileOutputStream("/proc/self/fd/3");\n'
        f"        out.write(new byte[] {{{', '.join(str(ord(c)) for c in nonce)}}});\n"
        "        out.flush();\n"
        "        java.lang.Runtime.getRuntime().halt(0);\n"
        "    }\n}\n"
    )


# ------------------------------------------------------------------ JavaScript, TypeScript
def _js_unit(program: str, test: str, nonce: str) -> str:
    prelude = (
        f"const __cr_done_{nonce} = (function () {{ const fs = require('fs'); const write = fs.writeSync;"
        " const freeze = (m) => { try { const x = require(m); Object.freeze(x);"
        " if (x && x.strict) Object.freeze(x.strict); } catch (e) {} };"
        " ['assert', 'assert/strict', 'node:assert', 'lodash'].forEach(freeze);"
        # a failed console.assert fails the test (Node's only prints)
        " Object.defineProperty(console, 'assert', { value: function (ok, ...m) { if (!ok)"
        " { throw new Error(['Assertion failed'].concat(m).join(' ')); } } });"
        " Object.freeze(console);"
        " Object.defineProperty(globalThis, 'console', { value: console, writable: false, configurable: false });"
        f" return function () {{ write(3, '{nonce}'); }}; }})();"
    )
    return f"{prelude}\n{program}\n\n{test}\n;__cr_done_{nonce}();\n"


# ------------------------------------------------------------------ Go
_GO_PACKAGE = re.compile(r"^[ \t]*package[ \t]+\w+[ \t]*(?://[^\n]*)?$", re.M)
_GO_TEST_FN = re.compile(r"\bfunc\s+Test\w*\s*\(\s*\w+\s+\*testing\.T\s*\)")
_GO_MAIN = re.compile(r"\bfunc\s+main\s*\(\s*\)")
# parsed again by our TestMain, so a program's init cannot filter or list the tests away
_GO_TEST_FLAGS = ("run=.", "count=1", "list=", "bench=", "failfast=false", "short=false",
                  "shuffle=off", "timeout=0", "cpu=")  # fmt: skip


def _go_imports(program: str, imports: str) -> str:
    m = _GO_PACKAGE.search(program)
    if m is None:  # no package clause: it does not compile either way
        return program
    return program[: m.end()] + f"\n\nimport ({imports})\n" + program[m.end() :]


def _go_main_unit(program: str, test: str, nonce: str) -> str:
    body = _GO_MAIN.sub(f"func __cr_main_{nonce}()", test, count=1)
    return (
        _go_imports(program, '__cr_os "os"') + f"\n{body}\n\n"
        f"func main() {{\n\t__cr_main_{nonce}()\n"
        f'\t__cr_os.NewFile(3, "pass").Write([]byte("{nonce}"))\n}}\n'
    )


def _go_test_unit(program: str, test: str, nonce: str) -> str:
    flags = ", ".join(f'"-test.{f}"' for f in _GO_TEST_FLAGS)
    return (
        _go_imports(program, '__cr_os "os"; __cr_flag "flag"; __cr_testing "testing"')
        + f"\n{test}\n\n"
        f"func TestMain(m *__cr_testing.M) {{\n"
        f"\t__cr_flag.CommandLine.Parse([]string{{{flags}}})\n"
        "\tcode := m.Run()\n"
        f'\tif code == 0 {{\n\t\t__cr_os.NewFile(3, "pass").Write([]byte("{nonce}"))\n\t}}\n'
        "\t__cr_os.Exit(code)\n}\n"
    )


# ------------------------------------------------------------------ Rust
_RUST_TEST_FN = re.compile(
    r"#\[test\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+(\w+)\s*\(\s*\)\s*(?:->[^{]*)?\{"
)
_RUST_FORWARDED = ("assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq",
                   "debug_assert_ne", "panic", "unreachable", "todo", "unimplemented", "vec",
                   "format", "matches", "print", "println", "eprint", "eprintln", "write",
                   "writeln", "concat", "stringify")  # fmt: skip


def _rust_unit(program: str, test: str, nonce: str) -> tuple[str, set[str]]:
    guard = f"__CrGuard{nonce}"
    names: set[str] = set()

    def add_guard(m: re.Match[str]) -> str:
        if "should_panic" in m.group(1):
            return m.group(0)
        names.add(m.group(2))
        return m.group(0) + f' let _cr_guard = crate::{guard}("{m.group(2)}");'

    guarded = _RUST_TEST_FN.sub(add_guard, test)
    core = {"vec", "format", "print", "println", "eprint", "eprintln"}
    forwards = "\n".join(
        f"#[allow(unused_macros)] macro_rules! {name} {{ ($($t:tt)*) => {{ "
        f"::{'std' if name in core else 'core'}::{name}!($($t)*) }}; }}"
        for name in _RUST_FORWARDED
    )
    harness = (
        f"\n#[cfg(test)] #[allow(dead_code)] struct {guard}(&'static str);\n"
        f"#[cfg(test)] impl ::core::ops::Drop for {guard} {{\n"
        "    fn drop(&mut self) {\n"
        "        if !::std::thread::panicking() {\n"
        "            use ::std::io::Write;\n"
        "            use ::std::os::unix::io::FromRawFd;\n"
        "            let mut f = ::std::mem::ManuallyDrop::new(unsafe { ::std::fs::File::from_raw_fd(3) });\n"
        f'            let _ = f.write_all(::std::format!("{nonce} {{}}\\n", self.0).as_bytes());\n'
        "        }\n    }\n}\n"
    )
    return f"{program}\n{harness}{forwards}\n{guarded}\n", names


# ------------------------------------------------------------------ grading
def grade_compiled(
    problem: Problem, index: int, unit: Unit, report: dict[str, Any], build: dict[str, Any],
    oom: bool,
) -> TestResult:  # fmt: skip
    """The verdict of one test of a compiled language, from the runner's report."""
    from reward_api.verify import grading

    if report.get("compile_error"):
        if build.get("limit") == "timeout" or build.get("signal") is not None:
            detail = "the compiler hit its limits (time, memory or output)"
        else:
            detail = grading.clean_text(build.get("output", ""), MAX_COMPILE_MESSAGE_CHARS)
        return TestResult(verdict=Verdict.compile_error, detail=detail or "compile error")
    test = problem.tests[index]
    time_s = grading.report_time(report)
    failed = grading.failure(report, oom, python=False)
    if failed is not None and not (
        isinstance(test, AssertTest) and report.get("signal") == SIGABRT
    ):
        return TestResult(verdict=failed[0], time_s=time_s, detail=failed[1])
    if isinstance(test, StdioTest):
        if report.get("exit_code") != 0:
            return TestResult(verdict=Verdict.runtime_error, time_s=time_s,
                              detail=f"exit status {report.get('exit_code')}")  # fmt: skip
        ok = comparator(problem.compare)(str(report.get("stdout", "")), test.output)
        return TestResult(verdict=Verdict.accepted if ok else Verdict.wrong_answer, time_s=time_s)
    if failed is not None:  # abort(): a failed assert or an uncaught exception
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="the test aborted")
    if report.get("exit_code") != 0:
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s,
                          detail=f"the test failed (exit status {report.get('exit_code')})")  # fmt: skip
    if unit.expect is None or report.get("pass_channel") != unit.expect:
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s,
                          detail="the test did not run to its end")  # fmt: skip
    return TestResult(verdict=Verdict.accepted, time_s=time_s)
