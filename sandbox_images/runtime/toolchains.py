"""How each language is compiled once and run many times: the recipes measured in
sandbox_images/README.md ("Languages"), and a plain baseline that uses them.

This file owns the per-language commands (flags, environment, file names) that the
runtimes were built and measured for. It is standard-library Python 3.11 and runs in two
places with the same code, so that the only difference between the two measurements is
the wrapping:

- on the host, as the plain (unsandboxed) baseline: ``toolchains.py LANGUAGE SOURCE
  [INPUT ...]`` compiles SOURCE once and runs the artifact on each INPUT file as stdin;
  with ``--root DIR`` (root only) every command runs under ``chroot DIR``, i.e. with the
  runtime's own compiler but no namespace, no uid change, no read-only bind;
- inside a bubblewrap cell (``measure.py``), fed a job as JSON on stdin (``--job``).

It protects nothing: it is a measuring and benchmarking tool, not the verifier. Programs
are run with a wall-clock timeout only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

PCH_DIR = "/usr/lib/codereward/pch"
JAVAC_ARCHIVE = "/usr/lib/codereward/javac.jsa"
GO_SEED = "/usr/lib/codereward/gocache"
# the sandbox's own build and run flags (reward_api/verify/languages.py says why; a test
# keeps the two copies equal: this file runs inside a root, without the package)
NODE_SNAPSHOT = "/usr/lib/codereward/node.blob"
GOLD = "-fuse-ld=gold"
RUST_FAST = ("-C", "strip=symbols", "-C", f"link-arg={GOLD}", "-C", "lto=off", "-C", "embed-bitcode=no")  # fmt: skip
BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
# Go without network or modules: testify is Debian's GOPATH source (and its installed
# archives); the build cache must be writable, so it lives in the cell's /tmp.
GO_ENV = {
    "GO111MODULE": "off",
    "GOPATH": "/usr/share/gocode",
    "GOCACHE": "/tmp/.gocache",
    "GOPROXY": "off",
    "GOSUMDB": "off",
    "GOTELEMETRY": "off",
    "CGO_ENABLED": "0",
}
GO_BUILD = r"""src=$1 out=$2
for T in /usr/lib/go/pkg/tool/linux_*; do :; done
P=/usr/lib/go/pkg/${T##*/} G=$GOPATH/pkg/${T##*/}
if [ -x "$T/compile" ] && [ -x "$T/link" ]; then
  if "$T/compile" -p main -complete -pack -c=2 -D "_$PWD" -I "$P" -I "$G" -o _go_.a "./$src" >_go_.err 2>&1; then
    if "$T/link" -buildmode=exe -s -w -L "$P" -L "$G" -o "$out" _go_.a >_go_.err 2>&1; then
      rm -f _go_.a _go_.err; exit 0
    fi
  elif ! grep -qE 'could not import|embed' _go_.err; then
    echo '# command-line-arguments' >&2; cat _go_.err >&2; rm -f _go_.a _go_.err; exit 1
  fi
  rm -f _go_.a _go_.err "$out"
fi
exec go build -ldflags="-s -w" -o "$out" "$src"
"""
# The go command's own build, without the go command: reward_api/verify/languages.py's
# GO_BUILD (the verifier's Go recipe; test_verifier checks the two are the same text).
# Short-lived JVMs: C1 only and the serial collector start faster and use less memory
# than the defaults (C2, G1) for programs that run well under a second.
JVM_FAST = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]


@dataclass(frozen=True)
class Recipe:
    """One way to build and run a program; ``{src}`` and ``{out}`` are file names in the
    work directory."""

    root: str
    """Which runtime root holds the toolchain (root-path.sh maps it to a folder)."""
    source: str
    """The file the program (with its test code, one compilation unit) is written to."""
    compile: tuple[str, ...] | None
    """argv of the compile step, or None for an interpreter."""
    run: tuple[str, ...]
    """argv that runs the artifact once (stdin is the test input)."""
    env: dict[str, str] = field(default_factory=dict)
    """Added to BASE_ENV for both steps."""
    server: Server | None = None
    """A warm compiler that replaces ``compile``: started once per job, one request per program."""
    seed_cache: str | None = None
    """A read-only build cache in the root, copied to the recipe's GOCACHE before a compile
    finds none there (timed as part of that compile)."""


@dataclass(frozen=True)
class Server:
    """A long-lived compiler process (warm/): one request line per program, "ok" or
    "error<TAB>diagnostics" back."""

    source: str
    """File in warm/, written to the work root of the job."""
    build: tuple[str, ...] | None
    """argv that compiles the server itself once (not timed as a program's compile)."""
    start: tuple[str, ...]
    mode: str = ""
    """Third field of each request (ts-server.js: transpile or check)."""


def _r(root: str, source: str, compile: list[str] | None, run: list[str], server: Server | None = None,
       seed_cache: str | None = None, **env: str) -> Recipe:  # fmt: skip
    return Recipe(root, source, tuple(compile) if compile else None, tuple(run), env, server, seed_cache)


_JAVAC_SERVER = Server("JavacServer.java", ("javac", "-d", ".", "JavacServer.java"),
                       ("java", "-XX:+UseSerialGC", "-cp", ".", "JavacServer"))  # fmt: skip


_GO = dict(GO_ENV)
RECIPES: dict[str, Recipe] = {
    # the recommended recipe of each language is the one named by the language
    "c": _r("cpp", "main.c", ["gcc", "-std=gnu11", "-O2", "-pipe", GOLD, "-s", "-o", "prog", "main.c", "-lm"], ["./prog"]),
    "c-plain": _r("cpp", "main.c", ["gcc", "-std=gnu11", "-O2", "-pipe", "-o", "prog", "main.c", "-lm"], ["./prog"]),
    "cpp": _r("cpp", "main.cpp", ["g++", "-std=gnu++17", "-O2", "-pipe", f"-I{PCH_DIR}", GOLD, "-s", "-o", "prog", "main.cpp"], ["./prog"]),
    "cpp-bfd": _r("cpp", "main.cpp", ["g++", "-std=gnu++17", "-O2", "-pipe", f"-I{PCH_DIR}", "-o", "prog", "main.cpp"], ["./prog"]),
    "cpp-nopch": _r("cpp", "main.cpp", ["g++", "-std=gnu++17", "-O2", "-pipe", "-o", "prog", "main.cpp"], ["./prog"]),
    "cpp-O0": _r("cpp", "main.cpp", ["g++", "-std=gnu++17", "-O0", "-pipe", "-o", "prog", "main.cpp"], ["./prog"]),
    "java": _r("java", "Main.java",
               ["javac", f"-J-XX:SharedArchiveFile={JAVAC_ARCHIVE}", *[f"-J{f}" for f in JVM_FAST[:2]],
                "-proc:none", "-encoding", "UTF-8", "-nowarn", "-d", ".", "Main.java"],
               ["java", *JVM_FAST, "-cp", ".", "Main"]),
    "java-plain": _r("java", "Main.java", ["javac", "-d", ".", "Main.java"], ["java", "-cp", ".", "Main"]),
    "java-nocds": _r("java", "Main.java",
                     ["javac", *[f"-J{f}" for f in JVM_FAST[:2]], "-proc:none", "-encoding", "UTF-8", "-nowarn", "-d", ".", "Main.java"],
                     ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:off", "-cp", ".", "Main"]),
    "java-warm": _r("java", "Main.java", None, ["java", *JVM_FAST, "-cp", ".", "Main"], _JAVAC_SERVER),
    "java-warm-c1": _r("java", "Main.java", None, ["java", *JVM_FAST, "-cp", ".", "Main"],
                       Server(_JAVAC_SERVER.source, _JAVAC_SERVER.build,
                              ("java", *JVM_FAST[:2], "-cp", ".", "JavacServer"))),
    "javascript": _r("node", "main.js", ["node", "--check", "main.js"], ["node", "main.js"]),
    "javascript-nocheck": _r("node", "main.js", None, ["node", "main.js"]),
    "javascript-snapshot": _r("node", "main.js", ["node", "--check", "main.js"],
                              ["node", "--snapshot-blob", NODE_SNAPSHOT, "main.js"]),
    "typescript": _r("node", "main.ts",
                     ["tsc", "--target", "es2020", "--module", "commonjs", "--skipLibCheck", "--outDir", ".", "main.ts"],
                     ["node", "main.js"]),
    "typescript-snapshot": _r("node", "main.ts",
                              ["tsc", "--target", "es2020", "--module", "commonjs", "--skipLibCheck", "--outDir", ".", "main.ts"],
                              ["node", "--snapshot-blob", NODE_SNAPSHOT, "main.js"]),
    "typescript-nocheck": _r("node", "main.ts", None, ["node", "main.js"],
                             Server("ts-server.js", None, ("node", "ts-server.js"), "transpile")),
    "typescript-warm": _r("node", "main.ts", None, ["node", "main.js"],
                          Server("ts-server.js", None, ("node", "ts-server.js"), "check")),
    "go": _r("go", "main.go", ["go", "build", "-o", "prog", "main.go"], ["./prog"], **_GO),
    "go-direct": _r("go", "main.go", ["sh", "-c", GO_BUILD, "go-build", "main.go", "prog"], ["./prog"], **_GO),
    "go-stripped": _r("go", "main.go", ["go", "build", "-ldflags=-s -w", "-o", "prog", "main.go"], ["./prog"], **_GO),
    "go-test": _r("go", "main_test.go", ["go", "test", "-c", "-ldflags=-s -w", "-o", "prog.test", "main_test.go"], ["./prog.test"],
                  seed_cache=GO_SEED, **_GO),
    "go-test-noseed": _r("go", "main_test.go", ["go", "test", "-c", "-o", "prog.test", "main_test.go"], ["./prog.test"], **_GO),
    "go-test-novet": _r("go", "main_test.go", ["go", "test", "-vet=off", "-c", "-o", "prog.test", "main_test.go"],
                        ["./prog.test"], **_GO),
    "rust": _r("rust", "main.rs", ["rustc", "--edition", "2021", "-O", *RUST_FAST, "-o", "prog", "main.rs"], ["./prog"]),
    "rust-strip": _r("rust", "main.rs", ["rustc", "--edition", "2021", "-O", "-C", "strip=debuginfo", "-o", "prog", "main.rs"], ["./prog"]),
    "rust-plain": _r("rust", "main.rs", ["rustc", "--edition", "2021", "-O", "-o", "prog", "main.rs"], ["./prog"]),
    "rust-O0": _r("rust", "main.rs", ["rustc", "--edition", "2021", "-C", "opt-level=0", "-o", "prog", "main.rs"], ["./prog"]),
    "rust-O1": _r("rust", "main.rs", ["rustc", "--edition", "2021", "-C", "opt-level=1", "-o", "prog", "main.rs"], ["./prog"]),
    "rust-test": _r("rust", "main.rs", ["rustc", "--edition", "2021", "--test", "-O", *RUST_FAST, "-o", "prog", "main.rs"],
                    ["./prog", "--test-threads=1"]),
    "rust-test-strip": _r("rust", "main.rs", ["rustc", "--edition", "2021", "--test", "-O", "-C", "strip=debuginfo", "-o", "prog", "main.rs"],
                          ["./prog", "--test-threads=1"]),
    "rust-test-plain": _r("rust", "main.rs", ["rustc", "--edition", "2021", "--test", "-O", "-o", "prog", "main.rs"], ["./prog", "--test-threads=1"]),
    "rust-test-O0": _r("rust", "main.rs", ["rustc", "--edition", "2021", "--test", "-C", "opt-level=0", "-o", "prog", "main.rs"], ["./prog", "--test-threads=1"]),
    "python": _r("python", "main.py", None, ["python3", "-I", "-B", "main.py"]),
}  # fmt: skip


def _die_with_parent() -> None:
    import ctypes

    ctypes.CDLL(None).prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL


def _timed(argv: list[str], cwd: str, env: dict[str, str], stdin: bytes, timeout_s: float) -> dict:
    """Run one command with a wall clock. It runs in a process group of its own, killed
    whole at the timeout, and dies with this driver: a plain MBCPP run left a looping
    ``./prog`` behind, reparented to init, that spun for 37 minutes after its bench."""
    start = time.perf_counter()
    try:
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True,
                             preexec_fn=_die_with_parent)  # fmt: skip
    except FileNotFoundError as e:
        rc, out, err = "not_found", b"", str(e).encode()
    else:
        try:
            out, err = p.communicate(stdin, timeout=timeout_s)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, err = p.communicate()
            rc = "timeout"
        finally:
            try:
                os.killpg(p.pid, 9)  # what the command left running in its group
            except ProcessLookupError:
                pass
    return {
        "rc": rc,
        "time_s": round(time.perf_counter() - start, 6),
        "stdout": out.decode("utf-8", "replace")[:4000],
        "stderr": err.decode("utf-8", "replace")[-2000:],
    }


class _Warm:
    """A started Server; ``compile`` sends one request and times the answer."""

    def __init__(self, server: Server, work: str, env: dict[str, str], source_text: str) -> None:
        self.server = server
        with open(os.path.join(work, server.source), "w") as f:
            f.write(source_text)
        t = time.perf_counter()
        if server.build is not None:
            subprocess.run(server.build, cwd=work, env=env, check=True, capture_output=True)
        self.proc = subprocess.Popen(server.start, cwd=work, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
        self.start_s = time.perf_counter() - t  # the first request still pays the warm-up

    def compile(self, work: str, source: str) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        start = time.perf_counter()
        self.proc.stdin.write(f"{work}\t{source}\t{self.server.mode}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().rstrip("\n")
        ok = answer == "ok"
        err = "" if ok else answer.partition("\t")[2].replace("\\n", "\n")
        return {"rc": 0 if ok else 1, "time_s": round(time.perf_counter() - start, 6), "stdout": "", "stderr": err}

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def run_job(job: dict) -> dict:
    """Compile each program of ``job["programs"]`` once with ``job["recipe"]`` and run the
    artifact on each of its inputs; a warm compiler (recipe.server) serves the whole job.

    job: recipe; programs, a list of {"source": str, "inputs": [str, ...]}; optional
    timeout_s; cold_cache (Go: empty GOCACHE before every program, as in a fresh cell);
    compiles (compile each program that many times, to time a warm cache); server_source
    (the text of the recipe's server file; read from warm/ when absent); prefix (argv put
    before every compile and run command, e.g. ``prlimit --as=N``).
    """
    recipe = RECIPES[job["recipe"]]
    env = dict(BASE_ENV, **recipe.env)
    timeout_s = float(job.get("timeout_s", 60))
    prefix = list(job.get("prefix", []))
    top = tempfile.mkdtemp(prefix="toolchain-", dir="/tmp")
    result: dict = {"recipe": job["recipe"], "programs": []}
    warm = None
    try:
        if recipe.server is not None:
            warm = _Warm(recipe.server, top, env, with_server_source(job)["server_source"])
            result["server_start_s"] = round(warm.start_s, 6)
        for i, program in enumerate(job["programs"]):
            if job.get("cold_cache"):
                shutil.rmtree(GO_ENV["GOCACHE"], ignore_errors=True)
            work = os.path.join(top, str(i))
            os.mkdir(work)
            with open(os.path.join(work, recipe.source), "w") as f:
                f.write(program["source"])
            r: dict = {"compiles": [], "runs": []}
            result["programs"].append(r)
            for _ in range(int(job.get("compiles", 1))):
                if warm is not None:
                    r["compiles"].append(warm.compile(work, recipe.source))
                elif recipe.compile is not None:
                    seed_s = 0.0
                    if recipe.seed_cache and not os.path.isdir(env["GOCACHE"]):
                        t = time.perf_counter()
                        shutil.copytree(recipe.seed_cache, env["GOCACHE"])
                        seed_s = time.perf_counter() - t
                    c = _timed(prefix + list(recipe.compile), work, env, b"", timeout_s)
                    c["time_s"] = round(c["time_s"] + seed_s, 6)
                    r["compiles"].append(c)
                if r["compiles"] and r["compiles"][-1]["rc"] != 0:
                    break
            if r["compiles"] and r["compiles"][-1]["rc"] != 0:
                continue
            for text in program.get("inputs") or [""]:
                r["runs"].append(_timed(prefix + list(recipe.run), work, env, text.encode(), timeout_s))
        return result
    finally:
        if warm is not None:
            warm.close()
        shutil.rmtree(top, ignore_errors=True)
        shutil.rmtree(GO_ENV["GOCACHE"], ignore_errors=True)


def with_server_source(job: dict) -> dict:
    """The job with the text of its recipe's warm server (from warm/), for a driver that
    runs where that folder is not."""
    server = RECIPES[job["recipe"]].server
    if server is None or "server_source" in job:
        return job
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "warm", server.source)) as f:
        return dict(job, server_source=f.read())


def run_chrooted(root_dir: str, job: dict) -> dict:
    """run_job inside ``chroot root_dir`` (root only): the plain baseline with the runtime's
    own toolchain, as the host's own user, with the host's /proc and /dev bound in (a JVM
    needs /proc) in a private mount namespace that dies with the job. The job's work
    directory is made in the root's own /tmp."""
    with open(__file__) as f:
        driver = f.read()
    script = 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && exec chroot "$0" /usr/bin/python3 -I -B -c "$1" --job'
    argv = ["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, root_dir, driver]
    env = dict(BASE_ENV, PATH="/usr/sbin:/usr/bin:/sbin:/bin")
    p = subprocess.run(argv, input=json.dumps(job).encode(), capture_output=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"chrooted job failed: {p.stderr.decode(errors='replace')[-2000:]}")
    return json.loads(p.stdout)


def main(argv: list[str]) -> int:
    import argparse

    if argv[:1] == ["--job"]:
        json.dump(run_job(json.load(sys.stdin)), sys.stdout)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipe", choices=sorted(RECIPES), help="language (or a measured variant)")
    ap.add_argument("source", help="the program, test code included (one compilation unit)")
    ap.add_argument("inputs", nargs="*", help="files fed as stdin, one run each (none: one run, empty stdin)")
    ap.add_argument("--root", help="run every command under chroot ROOT (the runtime's toolchain; needs root)")
    ap.add_argument("--timeout-s", type=float, default=60)
    a = ap.parse_args(argv)
    with open(a.source) as f:
        program = {"source": f.read(), "inputs": []}
    for path in a.inputs:
        with open(path) as f:
            program["inputs"].append(f.read())
    job = {"recipe": a.recipe, "timeout_s": a.timeout_s, "programs": [program]}
    result = run_chrooted(a.root, with_server_source(job)) if a.root else run_job(job)
    json.dump(result, sys.stdout, indent=1)
    print()
    r = result["programs"][0]
    ok = all(c["rc"] == 0 for c in r["compiles"]) and all(x["rc"] == 0 for x in r["runs"])
    return 0 if ok and r["runs"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
