"""Measures compile and run times per language, sandboxed and plain, for the README's
"Languages" section.

Sandboxed: the job runs in a bubblewrap cell set up as reward_api/sandbox/process.py's
``_argv`` does (the runtime root bound read-only as /, private /proc, /dev, tmpfs /tmp and
/dev/shm, ``--unshare-all``, uid 65534, cleared environment; as root, setpriv drops to
uid 65534 first), with toolchains.py as the driver inside, so every compile and run is a
fork and exec from a warm process, as the runner's will be. No cgroup is set: limits
are not what is measured. Plain: the same driver under ``chroot ROOT`` (same compiler,
no namespace). Needs root (debootstrap'd roots, chroot) and bwrap.

    python3 sandbox_images/runtime/measure.py [--repeats 5] [--mbxp 8] [--only cpp,go] [-o FILE]

prints a markdown table of medians and writes every raw timing as JSON to FILE.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import toolchains  # noqa: E402

# the shared data folder sits beside the repository (../shared, as CONTRACT.md is)
MBXP = Path(os.environ.get("CODEREWARD_MBXP_DIR", HERE.parents[1].parent / "shared" / "data" / "mbxp"))
MBXP_FILES = {
    "cpp": "mbcpp_release_v1.2.jsonl",
    "java": "mbjp_release_v1.2.jsonl",
    "javascript": "mbjsp_release_v1.2.jsonl",
    "typescript": "mbtsp_release_v1.2.jsonl",
    "go": "mbgp_release_v1.1.jsonl",
}
STDIN_INPUTS = [f"{n}\n" + " ".join(str(i * 7 % 101) for i in range(n)) + "\n" for n in range(1, 11)]
# the same program in every language: read n, then n integers; print their sum
TRIVIAL = {
    "c": '#include <stdio.h>\nint main(void){long long n,s=0,x;if(scanf("%lld",&n)!=1)return 1;'
    'for(long long i=0;i<n;i++){scanf("%lld",&x);s+=x;}printf("%lld\\n",s);return 0;}\n',
    "cpp": "#include <bits/stdc++.h>\nusing namespace std;\nint main(){long long n,s=0,x;cin>>n;"
    'for(long long i=0;i<n;i++){cin>>x;s+=x;}cout<<s<<"\\n";}\n',
    "java": "import java.util.*;\npublic class Main{public static void main(String[] a){Scanner in=new Scanner(System.in);"
    "long n=in.nextLong(),s=0;for(long i=0;i<n;i++)s+=in.nextLong();System.out.println(s);}}\n",
    "javascript": "const t=require('fs').readFileSync(0,'utf8').trim().split(/\\s+/).map(Number);"
    "let s=0;for(let i=1;i<=t[0];i++)s+=t[i];console.log(s);\n",
    "typescript": "import * as fs from 'fs';\nconst t: number[] = fs.readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);"
    "\nlet s: number = 0;\nfor (let i = 1; i <= t[0]; i++) s += t[i];\nconsole.log(s);\n",
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar n, s, x int64\n\tfmt.Scan(&n)\n'
    "\tfor i := int64(0); i < n; i++ {\n\t\tfmt.Scan(&x)\n\t\ts += x\n\t}\n\tfmt.Println(s)\n}\n",
    "rust": "use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();"
    "let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();"
    'let t:i64=v[1..=v[0] as usize].iter().sum();println!("{}",t);}\n',
    "python": "import sys\nv=list(map(int,sys.stdin.read().split()))\nprint(sum(v[1:v[0]+1]))\n",
}
# assert-style programs for the test harnesses (HumanEval-X's Go and Rust conventions)
GO_TEST = (
    'package main\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\n'
    "func add(a, b int) int { return a + b }\n\n"
    "func TestAdd(t *testing.T) {\n\tassert := assert.New(t)\n\tassert.Equal(5, add(2, 3))\n"
    "\tassert.Equal([]int{1, 2}, []int{1, 2})\n}\n"
)
RUST_TEST = (
    "fn add(a: i64, b: i64) -> i64 { a + b }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
    "    #[test]\n    fn test_add() {\n        assert_eq!(add(2, 3), 5);\n        assert_eq!(vec![1, 2], vec![1, 2]);\n    }\n}\n"
)


def root_dir(language: str) -> str:
    return subprocess.run([str(HERE / "root-path.sh"), language], capture_output=True, text=True, check=True).stdout.strip()


def bwrap_argv(root: str) -> list[str]:
    """process.py's cell, with the driver in place of the runner."""
    uid = "65534"
    argv = [
        "bwrap", "--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session",
        "--hostname", "sandbox", "--ro-bind", root, "/", "--proc", "/proc", "--dev", "/dev",
        "--tmpfs", "/tmp", "--tmpfs", "/dev/shm", "--uid", uid, "--gid", uid, "--clearenv",
        "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp",
        "--chdir", "/tmp",
    ]  # fmt: skip
    if os.geteuid() == 0:
        argv = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", *argv]  # fmt: skip
    return argv


def run_sandboxed(language: str, job: dict) -> dict:
    job = toolchains.with_server_source(job)
    driver = (HERE / "toolchains.py").read_text()
    argv = [*bwrap_argv(root_dir(language)), "/usr/bin/python3", "-I", "-B", "-c", driver, "--job"]
    start = time.perf_counter()
    p = subprocess.run(argv, input=json.dumps(job).encode(), capture_output=True, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise RuntimeError(f"sandboxed job failed: {p.stderr.decode(errors='replace')[-3000:]}")
    result = json.loads(p.stdout)
    result["cell_wall_s"] = wall
    return result


def run_plain(language: str, job: dict) -> dict:
    return toolchains.run_chrooted(root_dir(language), toolchains.with_server_source(job))


def mbxp_programs(language: str, k: int) -> list[dict]:
    """The first k problems with a canonical solution (Go has none: the model samples)."""
    rows = [json.loads(line) for line in (MBXP / MBXP_FILES[language]).read_text().splitlines()]
    if language == "go":
        samples = {}
        for line in (MBXP / "mbgp_samples.jsonl").read_text().splitlines():
            s = json.loads(line)
            samples[s["task_id"]] = s["completion"]
        body = [(r["task_id"], r["prompt"] + samples[r["task_id"]] + "\n" + r["test"]) for r in rows if r["task_id"] in samples]
    else:
        body = [(r["task_id"], r["prompt"] + r["canonical_solution"] + "\n" + r["test"]) for r in rows if r.get("canonical_solution")]
    return [{"id": tid, "source": src, "inputs": [""]} for tid, src in body[:k]]


def summarize(results: list[dict], skip_first_compile: bool = False) -> dict:
    compiles, runs, ok, total = [], [], 0, 0
    for res in results:
        for i, prog in enumerate(res["programs"]):
            total += 1
            c = prog["compiles"]
            if c and not (skip_first_compile and i == 0):
                compiles.append(c[-1]["time_s"])
            if (not c or c[-1]["rc"] == 0) and prog["runs"] and all(r["rc"] == 0 for r in prog["runs"]):
                ok += 1
            runs.extend(r["time_s"] for r in prog["runs"])
    med = lambda xs: round(statistics.median(xs), 4) if xs else None  # noqa: E731
    return {"compile_s": med(compiles), "run_s": med(runs), "ok": ok, "total": total}


def measure(name: str, language: str, recipe: str, programs: list[dict], repeats: int, modes: tuple[str, ...],
            **job_extra: object) -> list[dict]:  # fmt: skip
    rows = []
    for mode in modes:
        results = []
        for _ in range(repeats):
            job = {"recipe": recipe, "programs": programs, **job_extra}
            results.append((run_sandboxed if mode == "sandboxed" else run_plain)(language, job))
        s = summarize(results, skip_first_compile=toolchains.RECIPES[recipe].server is not None)
        row = {"case": name, "language": language, "recipe": recipe, "mode": mode, **s, "raw": results}
        if toolchains.RECIPES[recipe].server is not None:
            row["first_compile_s"] = round(statistics.median(r["programs"][0]["compiles"][0]["time_s"] for r in results), 4)
            row["server_start_s"] = round(statistics.median(r["server_start_s"] for r in results), 4)
        rows.append(row)
        print(f"{name:34} {recipe:20} {mode:9} compile {s['compile_s']}  run {s['run_s']}  ok {s['ok']}/{s['total']}", file=sys.stderr)
    return rows


def plan(repeats: int, k: int, only: set[str] | None) -> list[dict]:
    both = ("sandboxed", "plain")
    box = ("sandboxed",)
    trivial = lambda lang: [{"source": TRIVIAL[lang], "inputs": STDIN_INPUTS}]  # noqa: E731
    rows: list[dict] = []
    want = lambda lang: only is None or lang in only  # noqa: E731
    if want("python"):
        rows += measure("trivial stdio x10", "python", "python", trivial("python"), repeats, both)
    if want("c"):
        rows += measure("trivial stdio x10", "c", "c", trivial("c"), repeats, both)
    if want("cpp"):
        rows += measure("trivial stdio x10", "cpp", "cpp", trivial("cpp"), repeats, both)
        rows += measure("trivial stdio x10", "cpp", "cpp-nopch", trivial("cpp"), repeats, both)
        rows += measure(f"MBXP x{k}", "cpp", "cpp", mbxp_programs("cpp", k), 1, both)
        rows += measure(f"MBXP x{k}", "cpp", "cpp-nopch", mbxp_programs("cpp", k), 1, both)
        rows += measure(f"MBXP x{k}", "cpp", "cpp-O0", mbxp_programs("cpp", k), 1, box)
    if want("java"):
        rows += measure("trivial stdio x10", "java", "java", trivial("java"), repeats, both)
        rows += measure("trivial stdio x10", "java", "java-plain", trivial("java"), repeats, box)
        rows += measure("trivial stdio x10", "java", "java-nocds", trivial("java"), repeats, box)
        rows += measure(f"MBXP x{k}", "java", "java", mbxp_programs("java", k), 1, both)
        rows += measure(f"MBXP x{k}", "java", "java-plain", mbxp_programs("java", k), 1, box)
        rows += measure(f"MBXP x{k}", "java", "java-warm", mbxp_programs("java", k), 1, both)
        rows += measure(f"MBXP x{k}", "java", "java-warm-c1", mbxp_programs("java", k), 1, box)
    if want("javascript"):
        rows += measure("trivial stdio x10", "javascript", "javascript", trivial("javascript"), repeats, both)
        rows += measure(f"MBXP x{k}", "javascript", "javascript", mbxp_programs("javascript", k), 1, both)
    if want("typescript"):
        rows += measure("trivial stdio x10", "typescript", "typescript", trivial("typescript"), repeats, both)
        rows += measure(f"MBXP x{k}", "typescript", "typescript", mbxp_programs("typescript", k), 1, both)
        rows += measure(f"MBXP x{k}", "typescript", "typescript-warm", mbxp_programs("typescript", k), 1, both)
        rows += measure(f"MBXP x{k}", "typescript", "typescript-nocheck", mbxp_programs("typescript", k), 1, both)
    if want("go"):
        rows += measure("trivial stdio x10", "go", "go", trivial("go"), repeats, both, cold_cache=True)
        rows += measure("trivial, warm GOCACHE", "go", "go", trivial("go"), repeats, box, compiles=2)
        rows += measure("trivial stripped", "go", "go-stripped", trivial("go"), repeats, box, cold_cache=True)
        rows += measure("testify test, cold GOCACHE", "go", "go-test", [{"source": GO_TEST, "inputs": [""]}], repeats, both, cold_cache=True)
        rows += measure("testify test, cold, no seed", "go", "go-test-noseed", [{"source": GO_TEST, "inputs": [""]}], repeats, box, cold_cache=True)
        rows += measure("testify test, cold, -vet=off", "go", "go-test-novet", [{"source": GO_TEST, "inputs": [""]}], repeats, box, cold_cache=True)
        rows += measure("testify test, warm GOCACHE", "go", "go-test", [{"source": GO_TEST, "inputs": [""]}], repeats, box, compiles=2)
        rows += measure(f"MBXP x{k} (samples), cold", "go", "go", mbxp_programs("go", k), 1, both, cold_cache=True)
        rows += measure(f"MBXP x{k} (samples), warm", "go", "go", mbxp_programs("go", k), 1, box)
    if want("rust"):
        for recipe in ("rust", "rust-O1", "rust-O0"):
            rows += measure("trivial stdio x10", "rust", recipe, trivial("rust"), repeats, both if recipe == "rust" else box)
        for recipe in ("rust-test", "rust-test-O0"):
            rows += measure("#[test] harness", "rust", recipe, [{"source": RUST_TEST, "inputs": [""]}], repeats, both)
    return rows


def typescript_checking(k: int) -> dict:
    """How many MBXP TypeScript canonical solutions pass when types are only erased
    (transpileModule) and how many of those tsc's type check would refuse."""
    programs = mbxp_programs("typescript", k)
    results = {}
    for recipe in ("typescript-nocheck", "typescript-warm"):
        res = run_sandboxed("typescript", {"recipe": recipe, "programs": programs})
        results[recipe] = [bool(p["compiles"]) and p["compiles"][-1]["rc"] == 0 and bool(p["runs"]) and p["runs"][0]["rc"] == 0
                           for p in res["programs"]]  # fmt: skip
    erased, checked = results["typescript-nocheck"], results["typescript-warm"]
    row = {"case": "typescript type checking", "problems": len(programs), "pass_erased": sum(erased),
           "pass_checked": sum(checked), "refused_by_types_only": sum(e and not c for e, c in zip(erased, checked, strict=True))}  # fmt: skip
    print(row, file=sys.stderr)
    return row


def address_space(limit_mb: int) -> list[dict]:
    """Which recipes compile and run the trivial program under RLIMIT_AS (the runner's
    per-test memory limit is an address-space limit: its own size plus memory_mb)."""
    rows = []
    for language, recipe in (("c", "c"), ("cpp", "cpp"), ("java", "java"), ("java", "java-plain"),
                             ("javascript", "javascript"), ("typescript", "typescript"), ("go", "go"), ("rust", "rust")):  # fmt: skip
        job = {"recipe": recipe, "programs": [{"source": TRIVIAL[language], "inputs": STDIN_INPUTS[-1:]}],
               "prefix": ["prlimit", f"--as={limit_mb << 20}"]}  # fmt: skip
        prog = run_sandboxed(language, job)["programs"][0]
        compiled = all(c["rc"] == 0 for c in prog["compiles"])
        ran = compiled and bool(prog["runs"]) and prog["runs"][0]["rc"] == 0
        why = "" if ran else (prog["compiles"] or prog["runs"])[-1]["stderr"][-300:]
        rows.append({"case": f"RLIMIT_AS {limit_mb} MB", "language": language, "recipe": recipe,
                     "compiles": compiled, "runs": ran, "why": why})  # fmt: skip
        print(rows[-1], file=sys.stderr)
    return rows


def cell_start(repeats: int) -> list[dict]:
    """Wall time of an empty job per root: what a bigger read-only root costs a cell."""
    rows = []
    for language in ("python", "cpp", "java", "javascript", "go", "rust"):
        walls = [run_sandboxed(language, {"recipe": "python", "programs": []})["cell_wall_s"] for _ in range(repeats)]
        size = subprocess.run(["du", "-sm", root_dir(language)], capture_output=True, text=True).stdout.split()[0]
        rows.append({"case": "cell start", "language": language, "root_mb": int(size), "wall_s": round(statistics.median(walls), 4)})
        print(f"cell start {language:10} root {size} MB  {rows[-1]['wall_s']} s", file=sys.stderr)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--mbxp", type=int, default=8, help="MBXP problems per language")
    ap.add_argument("--only", help="comma-separated languages")
    ap.add_argument("--no-cell-start", action="store_true")
    ap.add_argument("--address-space", type=int, default=768, metavar="MB",
                    help="probe which recipes work under this RLIMIT_AS (0: skip)")
    ap.add_argument("--typescript-check", type=int, default=200, metavar="K",
                    help="MBXP TypeScript problems to compare type-checked and erased builds on (0: skip)")
    ap.add_argument("-o", "--output", default="build/measure/languages.json")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    rows = [] if a.no_cell_start else cell_start(a.repeats)
    rows += plan(a.repeats, a.mbxp, only)
    if a.address_space:
        rows += address_space(a.address_space)
    if a.typescript_check and (only is None or "typescript" in only):
        rows.append(typescript_checking(a.typescript_check))
    Path(a.output).parent.mkdir(parents=True, exist_ok=True)
    Path(a.output).write_text(json.dumps(rows, indent=1))
    print("| case | language | recipe | mode | compile s | run s | ok |\n|---|---|---|---|---|---|---|")
    for r in rows:
        if r["case"] == "typescript type checking" or r["case"].startswith("RLIMIT_AS"):
            continue
        if "recipe" in r:
            extra = f" (first {r['first_compile_s']}, server start {r['server_start_s']})" if "first_compile_s" in r else ""
            print(f"| {r['case']} | {r['language']} | {r['recipe']} | {r['mode']} | {r['compile_s']}{extra} | {r['run_s']} | {r['ok']}/{r['total']} |")
        else:
            print(f"| {r['case']} | {r['language']} | root {r['root_mb']} MB | sandboxed | | {r['wall_s']} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
