"""Compiled languages against plain execution: agreement, and the speed ratios of the
issue (measured in the same run; no absolute gate).

For each language, the same samples (``prompt + completion``, then the record's test, as
MBXP's own harness builds them; C and Rust: the small hand-written set ``HANDWRITTEN``,
MBXP has neither) are judged twice in the same run:

- sandboxed: ``Verifier`` (process backend, one worker), which builds each sample once in
  the language's cell (Java, TypeScript, JavaScript: by the warm compiler of a compile
  cell) with the trusted harness around the test;
- plain: ``sandbox_images/runtime/toolchains.py`` under ``chroot`` into the same runtime
  root (same compiler, no namespace, no limits but a wall clock): the program and the test
  as one file, compiled, run once; it passes when both exit 0 (and, in JavaScript and
  TypeScript, no ``console.assert`` failed: ``plain_passed``).

The programs are MBXP's model samples, or (``load``'s ``programs``) the canonical solutions
or deterministic single-edit mutants of them (``reward_api.bench.mutants``): programs that
fail in every way a near-miss fails, beside ones that pass.

``agreement`` returns per-sample verdicts of both and the wall times, which the agreement
test (tests/languages/test_agreement.py) compares. ``bench_languages`` prints, per
language and plain recipe, the **per-sample** ratio (sandboxed wall per sample over plain
compile + run per sample; plain recipes: what a user types, ``g++ -O2``, ``javac`` +
``java``, ``tsc`` + ``node``, ``node``, ``go build``, ``rustc``, and for C++, Java and
JavaScript also our own tuned recipe, the stricter baseline) for two workloads:

- ``distinct``: every sample a different program (MBXP: one model sample per problem),
  the worst case for the sandbox: nothing to share but warm cells and servers;
- ``rl batch``: what an RL step sends, G = 8 samples per problem of which 4 are distinct
  (each distinct program twice, in order): the verifier builds each distinct program once
  (duplicates share the result), a plain harness compiles and runs all 8.

``bench_per_test`` prints the **per-test** ratio: one stdio program with many tests, the
marginal cost of a test in the sandbox (fork and exec of the cached artifact in a warm
cell, pipes, limits, the kill and reap after it, grading) over a plain run of the same
artifact (``subprocess.run`` under chroot). The plain side runs in a CPU cgroup beside the
cells' (``beside_cells``), so on a shared host both compete for CPU on the same terms.
Needs root (chroot) and the language roots (``make runtimes``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# ../shared beside the repository (CONTRACT.md's place), or beside a worktree's parent
MBXP = Path(
    os.environ.get("CODEREWARD_MBXP_DIR")
    or next((p / "shared/data/mbxp" for p in ROOT.parents if (p / "shared/data/mbxp").is_dir()),
            ROOT.parent / "shared/data/mbxp")
)  # fmt: skip
FILES = {
    "cpp": ("mbcpp_release_v1.2.jsonl", "mbcpp_samples.jsonl"),
    "java": ("mbjp_release_v1.2.jsonl", "mbjp_samples.jsonl"),
    "javascript": ("mbjsp_release_v1.2.jsonl", "mbjsp_samples.jsonl"),
    "typescript": ("mbtsp_release_v1.2.jsonl", "mbtsp_samples.jsonl"),
    "go": ("mbgp_release_v1.1.jsonl", "mbgp_samples.jsonl"),
}
PLAIN_RECIPE = {"cpp": "cpp", "java": "java", "javascript": "javascript",
                "typescript": "typescript", "go": "go", "c": "c", "rust": "rust-test"}  # fmt: skip
"""The plain recipe of the agreement test: the sandbox's own compile flags (gold, the
precompiled header, Rust's ``RUST_FAST``), run as a user runs them; JavaScript and
TypeScript on a plain ``node main.js``, never from the sandbox's startup snapshot, so
agreement checks that the snapshot changes no verdict."""
BENCH_RECIPES = {"cpp": ["cpp-nopch", "cpp"], "c": ["c-plain", "c"], "java": ["java-plain", "java"],
                 "javascript": ["javascript-nocheck", "javascript-snapshot"], "typescript": ["typescript"],
                 "go": ["go"], "rust": ["rust-test-plain", "rust-test"], "cpp-hx": ["cpp-nopch"],
                 "cpp-hx-first": ["cpp-nopch"], "go-hx": ["go-test"]}  # fmt: skip
"""Plain baselines of the speed bench, per language: first what a user types (g++ -O2 with
no precompiled header, gcc -O2, javac and java with their defaults, node with no syntax
check, rustc --test -O), then the sandbox's own recipe where it differs (its compile flags,
linker and precompiled header; node started from the sandbox's snapshot)."""

# C and Rust (MBXP has neither): small problems in MBXP's shape, a program and its assert
# test; some programs are wrong on purpose, so agreement means something.
HANDWRITTEN: list[tuple[str, str, str, str]] = [
    ("c", "sum", "int sum(int a, int b) { return a + b; }\n",
     "#include <assert.h>\nint main(void) { assert(sum(2, 3) == 5); assert(sum(-1, 1) == 0); return 0; }\n"),
    ("c", "max3", "int max3(int a, int b, int c) { int m = a > b ? a : b; return m > c ? m : c; }\n",
     "#include <assert.h>\nint main(void) { assert(max3(1, 9, 3) == 9); assert(max3(7, 2, 5) == 7); return 0; }\n"),
    ("c", "rev", "#include <string.h>\nvoid rev(char *s) { int n = strlen(s);"
     " for (int i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }\n",
     "#include <assert.h>\n#include <string.h>\nint main(void) { char s[] = \"abc\"; rev(s);"
     " assert(strcmp(s, \"cba\") == 0); return 0; }\n"),
    ("c", "fact", "long fact(int n) { long r = 1; for (int i = 2; i < n; i++) r *= i; return r; }\n",
     "#include <assert.h>\nint main(void) { assert(fact(5) == 120); return 0; }\n"),
    ("c", "prime", "#include <math.h>\nint is_prime(int n) { if (n < 2) return 0;"
     " for (int i = 2; i <= (int)sqrt(n); i++) if (n % i == 0) return 0; return 1; }\n",
     "#include <assert.h>\nint main(void) { assert(is_prime(13)); assert(!is_prime(21)); return 0; }\n"),
    ("c", "count", "int count(const int *a, int n, int x) { int c = 0; for (int i = 0; i <= n; i++)"
     " c += a[i] == x; return c; }\n",
     "#include <assert.h>\nint main(void) { int a[] = {1, 2, 1, 3}; assert(count(a, 4, 1) == 2); return 0; }\n"),
    ("rust", "sum", "fn sum(v: &[i64]) -> i64 { v.iter().sum() }\n",
     "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(sum(&[1, 2, 3]), 6); }\n}\n"),
    ("rust", "rev", "fn rev(s: &str) -> String { s.chars().rev().collect() }\n",
     "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(rev(\"abc\"), \"cba\"); }\n}\n"),
    ("rust", "dedup", "fn dedup(mut v: Vec<i32>) -> Vec<i32> { v.sort(); v.dedup(); v }\n",
     "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(dedup(vec![3, 1, 3, 2]), vec![1, 2, 3]); }\n}\n"),
    ("rust", "fib", "fn fib(n: u64) -> u64 { if n < 2 { 1 } else { fib(n - 1) + fib(n - 2) } }\n",
     "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(fib(10), 55); }\n}\n"),
    ("rust", "words", "use std::collections::HashMap;\nfn words(s: &str) -> HashMap<String, usize> {"
     " let mut m = HashMap::new(); for w in s.split_whitespace() { *m.entry(w.to_string()).or_insert(0) += 1; } m }\n",
     "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(words(\"a b a\")[\"a\"], 2); }\n}\n"),
    ("rust", "maxv", "fn maxv(v: &[i32]) -> Option<i32> { v.iter().copied().max() }\n",
     "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { assert_eq!(maxv(&[4, 9, 2]), Some(9)); assert_eq!(maxv(&[]), None); }\n}\n"),
]  # fmt: skip

# C++ in HumanEval-X's shape (its files are not in ../shared/data: ``load_humaneval_x``
# reads them from a path): a prompt's few headers, not <bits/stdc++.h>, and tests that call
# the function in ``assert``s (lifted) or in loops (beside the program); two programs wrong
# (``vowels`` misses HumanEval's final ``y``, ``fib`` is off by one)
_HX = "#include<stdio.h>\n{}using namespace std;\n"
HANDWRITTEN += [
    ("cpp-hx", "close", _HX.format("#include<vector>\n#include<math.h>\n")
     + "bool has_close_elements(vector<float> v, float t){\n    for (int i=0;i<v.size();i++)"
       " for (int j=i+1;j<v.size();j++) if (fabs(v[i]-v[j])<t) return true;\n    return false;\n}\n",
     "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (has_close_elements({1.0, 2.0, 3.9, 4.0}, 0.3)==true);\n"
     "    assert (has_close_elements({1.0, 2.0, 5.9}, 0.8) == false);\n}\n"),
    ("cpp-hx", "vowels", _HX.format("#include<string>\n")
     + "int vowels_count(string s){\n    int n=0;\n    for (char c: s) if (string(\"aeiouAEIOU\").find(c)!=string::npos) n++;\n"
       "    return n;\n}\n",
     "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (vowels_count(\"abcde\") == 2);\n"
     "    assert (vowels_count(\"Alone\") == 3);\n    assert (vowels_count(\"key\") == 2);\n}\n"),
    ("cpp-hx", "sort_even", _HX.format("#include<vector>\n#include<algorithm>\n")
     + "vector<int> sort_even(vector<int> l){\n    vector<int> e;\n    for (int i=0;i<l.size();i+=2) e.push_back(l[i]);\n"
       "    sort(e.begin(), e.end());\n    for (int i=0;i<l.size();i+=2) l[i]=e[i/2];\n    return l;\n}\n",
     "#undef NDEBUG\n#include<assert.h>\nbool issame(vector<int> a, vector<int>b){ return a==b; }\nint main(){\n"
     "    assert (issame(sort_even({5, 6, 3, 4}), {3, 6, 5, 4}));\n    assert (issame(sort_even({1, 2, 3}), {1, 2, 3}));\n}\n"),
    ("cpp-hx", "add", _HX.format("#include<stdlib.h>\n") + "int add(int x,int y){\n    return x+y;\n}\n",
     "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n    for (int i=0;i<100;i+=1)\n"
     "    {\n        int x=rand()%1000;\n        int y=rand()%1000;\n        assert (add(x, y) == x + y);\n    }\n}\n"),
    ("cpp-hx", "base", _HX.format("#include<string>\n")
     + "string change_base(int x,int base){\n    string out=\"\";\n    while (x>0) { out=to_string(x%base)+out; x=x/base; }\n"
       "    return out;\n}\n",
     "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (change_base(8, 3) == \"22\");\n"
     "    for (int x=2;x<8;x++)\n        assert (change_base(x, x + 1) == to_string(x));\n}\n"),
    ("cpp-hx", "fib", _HX.format("#include<vector>\n")
     + "int fib(int n){\n    vector<int> f={0, 1};\n    for (int i=2;i<n;i++) f.push_back(f[i-1]+f[i-2]);\n"
       "    return f[n-1];\n}\n",
     "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (fib(10) == 55);\n    assert (fib(1) == 1);\n}\n"),
]  # fmt: skip
# Go in HumanEval-X's shape: the test's setup (``testing`` and testify's ``assert``) before
# the program, a ``func TestX`` of ``assert.Equal``s run by ``go test``; one program wrong
# (``below`` misses the equal case)
_GX = 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n{}\n'


def _gx_test(name: str, *lines: str) -> str:
    body = "".join(f"    assert.Equal({line})\n" for line in lines)
    return f"func Test{name}(t *testing.T) {{\n    assert := assert.New(t)\n{body}}}\n"


HANDWRITTEN += [
    ("go-hx", "sum", _GX.format("") + "func SumTo(n int) int {\n    s := 0\n    for i := 1; i <= n; i++ {\n"
     "        s += i\n    }\n    return s\n}\n", _gx_test("SumTo", "15, SumTo(5)", "0, SumTo(0)")),
    ("go-hx", "words", _GX.format('import "strings"\n') + "func Words(s string) []string {\n"
     "    return strings.Fields(s)\n}\n",
     _gx_test("Words", '[]string{"a", "b"}, Words(" a  b ")', '[]string{"x"}, Words("x")')),
    ("go-hx", "below", _GX.format("") + "func Below(l []int, t int) bool {\n    for _, x := range l {\n"
     "        if x > t {\n            return false\n        }\n    }\n    return true\n}\n",
     _gx_test("Below", "true, Below([]int{1, 2, 4}, 5)", "false, Below([]int{1, 20}, 5)",
              "false, Below([]int{5}, 5)")),
    ("go-hx", "count", _GX.format("") + "func Count(s string) map[rune]int {\n    m := map[rune]int{}\n"
     "    for _, c := range s {\n        m[c]++\n    }\n    return m\n}\n",
     _gx_test("Count", "map[rune]int{'a': 2, 'b': 1}, Count(\"aba\")", "map[rune]int{}, Count(\"\")")),
    ("go-hx", "fib", _GX.format("") + "func Fib(n int) int {\n    a, b := 0, 1\n    for i := 0; i < n; i++ {\n"
     "        a, b = b, a+b\n    }\n    return a\n}\n", _gx_test("Fib", "55, Fib(10)", "1, Fib(1)")),
    ("go-hx", "rev", _GX.format("") + "func Rev(s string) string {\n    r := []rune(s)\n"
     "    for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n        r[i], r[j] = r[j], r[i]\n    }\n"
     "    return string(r)\n}\n", _gx_test("Rev", '"cba", Rev("abc")', '"", Rev("")')),
]  # fmt: skip
BENCH_LANGUAGE = {"cpp-hx": "cpp", "cpp-hx-first": "cpp", "go-hx": "go"}
"""A bench case's language, where its name is another (``cpp-hx``: C++ in HumanEval-X's
shape; ``go-hx``: Go's)."""
BENCH_PROGRAMS_OF = {"cpp-hx-first": "cpp-hx"}
"""A bench case that measures another's programs another way: ``cpp-hx-first``, the
``cpp-hx`` programs on a verifier that never saw their headers (only its seeds built:
``reward_api.verify.headers``), where ``cpp-hx`` warms them first."""

# per-test bench: one stdio program per language that reads two integers and prints the sum
STDIO_SUM = {
    "c": "#include <stdio.h>\nint main(void) { long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1;"
         " printf(\"%ld\\n\", a + b); return 0; }\n",
    "cpp": "#include <bits/stdc++.h>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << \"\\n\"; }\n",
    "java": "import java.util.*;\npublic class Main { public static void main(String[] x) {"
            " Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + s.nextLong()); } }\n",
    "javascript": "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\n"
                  "console.log(a + b);\n",
    "typescript": "import * as fs from 'fs';\nconst [a, b] = fs.readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\n"
                  "console.log(a + b);\n",
    "go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n",
    "rust": "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();"
            " let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect(); println!(\"{}\", v[0] + v[1]); }\n",
}  # fmt: skip
STDIO_PLAIN = {"c": "c", "cpp": "cpp", "java": "java", "javascript": "javascript-nocheck",
               "typescript": "typescript", "go": "go", "rust": "rust"}  # fmt: skip
PLAIN_TIMEOUT_S = 30.0


@dataclass
class Agreement:
    language: str
    ids: list[str]
    sample_ids: list[str]
    sandboxed: list[bool]
    plain: list[bool]
    verdicts: list[str]
    sandboxed_s: float
    plain_s: float
    compile_s: float
    plain_compile_s: list[float]

    @property
    def agree(self) -> int:
        return sum(a == b for a, b in zip(self.sandboxed, self.plain, strict=True))

    def disagreements(self) -> list[tuple[str, str, bool, bool, str]]:
        """(problem id, sample id, sandboxed accepted, plain passed, verdict) of each pair
        whose two verdicts differ."""
        return [(i, s, a, b, v) for i, s, a, b, v in
                zip(self.ids, self.sample_ids, self.sandboxed, self.plain, self.verdicts, strict=True)
                if a != b]  # fmt: skip


def toolchains() -> Any:
    """sandbox_images/runtime/toolchains.py (the plain baseline), imported from its folder."""
    here = str(ROOT / "sandbox_images" / "runtime")
    if here not in sys.path:
        sys.path.insert(0, here)
    import toolchains as module

    return module


PROGRAMS = ("samples", "canonical", "mutants")
"""What ``load`` pairs with each problem: MBXP's model samples (one per problem), the
canonical solutions (``prompt + canonical_solution``; MBGP has none), or mutants
(``reward_api.bench.mutants``) of the canonical solutions' bodies, in Go (no canonical
solutions) of the model samples' completions."""


def load(
    language: str,
    limit: int | None = None,
    start: int = 0,
    programs: str = "samples",
    mutants_per_problem: int = 2,
) -> list[tuple[Any, Any]]:
    """(problem, sample) pairs in ``language``, in file order (C and Rust: ``HANDWRITTEN``,
    whatever ``programs`` says); ``programs``: one of ``PROGRAMS``; ``limit`` and ``start``
    count pairs, so a problem's mutants may be cut."""
    from reward_api.bench.mutants import mutants
    from reward_api.data.converters.mbxp import mbxp_problem, mbxp_sample, problem_id

    if programs not in PROGRAMS:
        raise ValueError(f"programs: {programs!r} is not one of {PROGRAMS}")
    if language not in FILES:
        from reward_api.schemas import Problem, Sample

        hand = []
        for lang, name, program, test in HANDWRITTEN:
            if lang == BENCH_PROGRAMS_OF.get(language, language):
                p = Problem.model_validate({"id": f"hand/{lang}/{name}",
                                            "language": BENCH_LANGUAGE.get(lang, lang),
                                            "tests": [{"type": "assert", "code": test}]})  # fmt: skip
                hand.append((p, Sample(problem_id=p.id, sample_id=name, code=program)))
        return hand[start:][:limit] if limit is not None else hand[start:]
    problems_file, samples_file = FILES[language]
    with open(MBXP / problems_file) as f:
        records = list(map(json.loads, f))
    problems = {problem_id(r["task_id"]): mbxp_problem(r) for r in records}
    # (problem, program id, body after the prompt)
    bodies: list[tuple[Any, str, str]] = []
    if programs == "samples" or (programs == "mutants" and language == "go"):
        with open(MBXP / samples_file) as f:
            for k, rec in enumerate(map(json.loads, f)):
                bodies.append((problems[problem_id(rec["task_id"])], str(k), rec["completion"]))
    else:
        for r in records:
            if r.get("canonical_solution"):
                bodies.append(
                    (problems[problem_id(r["task_id"])], "canonical", r["canonical_solution"])
                )
    pairs = []
    for p, name, body in bodies:
        if programs == "mutants":
            for j, mutant in enumerate(mutants(body, language, mutants_per_problem)):
                pairs.append((p, mbxp_sample(p, mutant, sample_id=f"{name}-m{j}")))
        else:
            pairs.append((p, mbxp_sample(p, body, sample_id=name)))
    return pairs[start:][:limit] if limit is not None else pairs[start:]


def load_humaneval_x(
    language: str, path: str | Path, programs: str = "canonical", mutants_per_problem: int = 2
) -> list[tuple[Any, Any]]:
    """(problem, sample) pairs of a HumanEval-X file (CodeGeeX's ``humaneval_LANG.jsonl``,
    not in ``../shared/data``: give its path), converted as ``eval`` converts it
    (``reward_api.data.converters.humaneval_x``); ``programs``: ``canonical`` (each
    record's canonical solution) or ``mutants`` of it (``reward_api.bench.mutants``)."""
    from reward_api.bench.mutants import mutants
    from reward_api.data.converters.humaneval_x import humaneval_x_problem, humaneval_x_sample

    if programs not in ("canonical", "mutants"):
        raise ValueError(f"programs: {programs!r} is not canonical or mutants")
    pairs = []
    with open(path) as f:
        for rec in map(json.loads, f):
            p = humaneval_x_problem(rec)
            if p.language != language:
                continue
            body = str(rec["canonical_solution"])
            bodies = (
                [body] if programs == "canonical" else mutants(body, language, mutants_per_problem)
            )
            for j, b in enumerate(bodies):
                name = "canonical" if programs == "canonical" else f"canonical-m{j}"
                pairs.append((p, humaneval_x_sample(p, b, sample_id=name)))
    return pairs


PLAIN_TEST_RECIPE = {"go": "go-test"}
"""The plain recipe of a test run by the language's test tool (Go's ``func TestX``:
``go test``), where ``PLAIN_RECIPE`` builds a ``main``."""


def agreement(
    language: str, pairs: list[tuple[Any, Any]], workers: int = 1, plain_recipe: str | None = None
) -> Agreement:
    """Judge ``pairs`` sandboxed and plain in the same run (``plain_recipe``: another
    toolchains.py recipe for the plain side, e.g. ``cpp-nopch``: g++ as a user runs it)."""
    from reward_api.verify import languages
    from reward_api.verify.pipeline import Job, Verifier
    from reward_api.verify.settings import VerifierSettings

    settings = VerifierSettings(sandbox="process", workers=workers)
    with Verifier(settings) as verifier:
        verifier.language_pool(language).warm(1)
        t0 = time.perf_counter()
        results = verifier.verify([Job(p, s) for p, s in pairs])
        sandboxed_s = time.perf_counter() - t0
        compile_s = verifier.stage_seconds.get("compile", 0.0)
    tc = toolchains()
    go_test = language == "go" and any("*testing.T" in p.tests[0].code for p, _s in pairs)
    job = {
        "recipe": plain_recipe or (PLAIN_TEST_RECIPE["go"] if go_test else PLAIN_RECIPE[language]),
        "timeout_s": PLAIN_TIMEOUT_S,
        "programs": [{"source": plain_source(p, s), "inputs": [""]} for p, s in pairs],
    }
    t0 = time.perf_counter()
    plain = tc.run_chrooted(str(languages.default_root(language)), tc.with_server_source(job))
    plain_s = time.perf_counter() - t0
    plain_ok = [plain_passed(language, r) for r in plain["programs"]]
    return Agreement(
        language=language,
        ids=[s.problem_id for _, s in pairs],
        sample_ids=[str(s.sample_id) for _, s in pairs],
        sandboxed=[r.accepted for r in results],
        plain=plain_ok,
        verdicts=[r.verdict.value for r in results],
        sandboxed_s=sandboxed_s,
        plain_s=plain_s,
        compile_s=compile_s,
        plain_compile_s=[c["time_s"] for r in plain["programs"] for c in r["compiles"]],
    )


def plain_source(problem: Any, sample: Any) -> str:
    """One file of a sample's program and its problem's first test, as a user's harness
    builds it: the program, then the test's code, its problem's ``setup_code`` first (in
    every language but Python, the start of the test's code: ``languages.units_for``)."""
    return f"{sample.code}\n{problem.setup_code or ''}{problem.tests[0].code}"


def plain_passed(language: str, program: dict[str, Any]) -> bool:
    """Whether a plain run (one program of ``toolchains.run_job``'s answer) passed: it
    compiled and every run exited 0; JavaScript and TypeScript also without a failed
    ``console.assert``, which prints ``Assertion failed`` and exits 0 (HumanEval-X's
    tests are such calls, and its harness fails a run that wrote to stderr)."""
    ok = bool(program["compiles"]) and all(c["rc"] == 0 for c in program["compiles"])
    ok = ok and bool(program["runs"]) and all(x["rc"] == 0 for x in program["runs"])
    if language in ("javascript", "typescript"):
        ok = ok and not any("Assertion failed" in x.get("stderr", "") for x in program["runs"])
    return ok


def _own_cpu_cgroup(v1: bool) -> Path:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if (v1 and "cpu" in controllers.split(",")) or (not v1 and controllers == ""):
            return Path("/sys/fs/cgroup/cpu" if v1 else "/sys/fs/cgroup") / path.lstrip("/")
    raise OSError("no cpu cgroup of this process")


@contextmanager
def beside_cells() -> Iterator[None]:
    """This process (and what it starts) in a CPU cgroup beside the sandbox cells', with no
    quota, while the plain baseline runs: a cell's cgroup sits under ``codereward``, which
    the scheduler weighs as one task against everything outside it, so on a shared, loaded
    host a plain baseline in the root cgroup would win CPU that the cells' parent cannot
    (a property of the host, not of the sandbox). Without writable cgroups: as it is."""
    parents = [Path("/sys/fs/cgroup/cpu/codereward"), Path("/sys/fs/cgroup/codereward")]
    found = [p for p in parents if (p / "cgroup.procs").exists()]
    moved: tuple[Path, Path] | None = None
    if found:
        v1 = found[0] == parents[0]
        try:
            home = _own_cpu_cgroup(v1)
            d = found[0] / f"bench-plain-{os.getpid()}"
            d.mkdir(exist_ok=True)
            (d / "cgroup.procs").write_text(str(os.getpid()))
            moved = (home, d)
        except OSError:
            pass
    try:
        yield
    finally:
        if moved is not None:
            (moved[0] / "cgroup.procs").write_text(str(os.getpid()))
            moved[1].rmdir()


def _plain(language: str, recipe: str, pairs: list[tuple[Any, Any]]) -> tuple[float, list[float]]:
    """Wall seconds of a plain compile + run of every pair, and each compile's seconds."""
    from reward_api.verify import languages

    tc = toolchains()
    job = {
        "recipe": recipe,
        "timeout_s": PLAIN_TIMEOUT_S,
        "programs": [{"source": plain_source(p, s), "inputs": [""]} for p, s in pairs],
    }
    with beside_cells():
        t0 = time.perf_counter()
        out = tc.run_chrooted(str(languages.default_root(language)), tc.with_server_source(job))
        wall = time.perf_counter() - t0
    return wall, [c["time_s"] for r in out["programs"] for c in r["compiles"]]


def _rl_batch(
    pairs: list[tuple[Any, Any]], group: int = 8, distinct: int = 4
) -> list[tuple[Any, Any]]:
    """Each pair's problem with ``group`` samples of which ``distinct`` are different
    programs (the sample, then copies with a trailing comment), each program twice."""
    batch = []
    for p, s in pairs:
        note = "#" if p.language == "python" else "//"
        variants = [s.code] + [f"{s.code}\n{note} sample {k}\n" for k in range(1, distinct)]
        for k in range(group):
            code = variants[k * distinct // group]
            batch.append(
                (p, s.model_copy(update={"code": code, "sample_id": f"{s.sample_id}-{k}"}))
            )
    return batch


def _variants(pairs: list[tuple[Any, Any]], tag: str) -> list[tuple[Any, Any]]:
    """Each pair's program made another by a trailing comment (no artifact is reused)."""
    return [(p, s.model_copy(update={"code": f"{s.code}\n// {tag}\n",
                                     "sample_id": f"{s.sample_id}-{tag}"}))
            for p, s in pairs]  # fmt: skip


def _warm_cpp() -> tuple[Any, Any]:
    """A C++ stdio program of no prompt's, whose first lines are includes (it asks for a
    header, and so for the seeds)."""
    from reward_api.schemas import Problem, Sample

    p = Problem.model_validate({"id": "bench/warm-cpp", "language": "cpp",
                                "tests": [{"type": "stdio", "input": "2 3\n", "output": "5\n"}]})  # fmt: skip
    code = ("#include <vector>\n#include <cstdio>\nint main() { long a, b;"
            ' if (scanf("%ld %ld", &a, &b) != 2) return 1; printf("%ld\\n", a + b); }\n')  # fmt: skip
    return p, Sample(problem_id=p.id, sample_id="warm", code=code)


def _median(xs: list[float]) -> float | None:
    return round(sorted(xs)[len(xs) // 2], 3) if xs else None


def bench_languages(
    per_language: int = 24, languages: list[str] | None = None
) -> list[dict[str, Any]]:
    """Per language: the sandboxed per-sample wall time over each plain recipe's compile +
    run, on distinct samples and on an RL-shaped batch (module docstring)."""
    from reward_api.verify.pipeline import Job, Verifier
    from reward_api.verify.settings import VerifierSettings

    rows = []
    for language in languages or list(BENCH_RECIPES):
        real = BENCH_LANGUAGE.get(language, language)
        pairs = load(language, per_language)
        warmup = load(language, 1, start=per_language) or pairs[:1]
        if language == "cpp-hx":  # a serving verifier has met its prompts' headers before
            warmup = _variants(pairs, "warm-a") + _variants(pairs, "warm-b")
        if language == "cpp-hx-first":  # it has met one C++ program: its seeds are built
            warmup = [_warm_cpp()]
        batch = _rl_batch(pairs[: max(1, per_language // 4)])
        with Verifier(VerifierSettings(sandbox="process", workers=1)) as verifier:
            verifier.language_pool(real).warm(1)
            t0 = time.perf_counter()  # the first build also starts a compile cell's server
            verifier.verify([Job(p, s) for p, s in warmup])
            if verifier.headers is not None:  # the headers the warm-up asked for, built
                verifier.headers.settle()
            first_s = time.perf_counter() - t0
            before = verifier.stage_seconds.get("compile", 0.0)
            built = verifier.builds_compiled
            t0 = time.perf_counter()
            results = verifier.verify([Job(p, s) for p, s in pairs])
            sandboxed_s = time.perf_counter() - t0
            compile_s = verifier.stage_seconds.get("compile", 0.0) - before
            builds = verifier.builds_compiled - built
            judges = verifier.lifted.compiles
            t0 = time.perf_counter()
            verifier.verify([Job(p, s) for p, s in batch])
            batch_s = time.perf_counter() - t0
        n = len(pairs)
        for recipe in BENCH_RECIPES[language]:
            plain_s, plain_compiles = _plain(real, recipe, pairs)
            plain_batch_s, _ = _plain(real, recipe, batch)
            rows.append({
                "case": f"{language} vs plain {recipe}",
                "samples": n,
                "accepted": sum(r.accepted for r in results),
                "sandboxed_s_per_sample": round(sandboxed_s / n, 3),
                "plain_s_per_sample": round(plain_s / n, 3),
                "ratio_per_sample_distinct": round(sandboxed_s / plain_s, 2),
                "ratio_per_sample_rl_batch_g8_4_distinct": round(batch_s / plain_batch_s, 2),
                "compile_s_per_build_sandboxed": round(compile_s / max(1, builds), 3),
                "compile_s_median_plain": _median(plain_compiles),
                "judge_builds (lifted C, C++ and Go asserts, apart)": judges,
                "first_sample_s_sandboxed (cell server start)": round(first_s, 3),
            })  # fmt: skip
    return rows


PER_TEST_TESTS = {"c": 240, "cpp": 240, "go": 240, "rust": 240}
"""Tests per run of the per-test bench: a native test costs a fraction of a millisecond, so
the slope between a run of one test and a run of many needs many to rise above the noise of
a verify call (24 gave -0.02 ms for C); a JVM or node start costs tens of milliseconds."""


def bench_per_test(
    n_tests: int | None = None, languages: list[str] | None = None
) -> list[dict[str, Any]]:
    """Per language: the marginal cost of one stdio test of a compiled program in the
    sandbox over one plain run of the same artifact (module docstring); ``n_tests``
    overrides ``PER_TEST_TESTS`` (default 24)."""
    from reward_api.schemas import Problem, Sample
    from reward_api.verify import languages as langs
    from reward_api.verify.pipeline import Job, Verifier
    from reward_api.verify.settings import VerifierSettings

    rows = []
    tc = toolchains()
    for language in languages or list(STDIO_SUM):
        code = STDIO_SUM[language]
        n = n_tests or PER_TEST_TESTS.get(language, 24)
        inputs = [f"{k} {2 * k + 1}\n" for k in range(n)]

        def problem(count: int, tag: str, lang: str = language, xs: list[str] = inputs) -> Problem:
            tests = [{"type": "stdio", "input": x, "output": str(3 * k + 1)}
                     for k, x in enumerate(xs[:count])]  # fmt: skip
            return Problem.model_validate(
                {"id": f"sum-{tag}-{count}", "language": lang, "tests": tests}
            )

        with Verifier(VerifierSettings(sandbox="process", workers=1)) as verifier:
            sample = Sample(problem_id="x", code=code)
            (first,) = verifier.verify([Job(problem(1, "warm"), sample)])  # compiled and cached
            if not first.accepted:
                raise RuntimeError(f"{language}: the sum program was not accepted: {first.verdict}")
            ones, manys = [], []
            for r in range(3):
                t0 = time.perf_counter()
                verifier.verify([Job(problem(1, f"a{r}"), sample)])
                ones.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                (many,) = verifier.verify([Job(problem(n, f"b{r}"), sample)])
                manys.append(time.perf_counter() - t0)
                if not many.accepted:
                    raise RuntimeError(f"{language}: {many.verdict}")
        sandboxed = (min(manys) - min(ones)) / (n - 1)
        job = {"recipe": STDIO_PLAIN[language], "timeout_s": PLAIN_TIMEOUT_S,
               "programs": [{"source": code, "inputs": inputs}]}  # fmt: skip
        with beside_cells():
            out = tc.run_chrooted(str(langs.default_root(language)), job)
        runs = [x["time_s"] for x in out["programs"][0]["runs"]]
        plain = sum(runs) / len(runs)
        rows.append({
            "case": f"{language}: {n} stdio tests, cached artifact",
            "ms_per_test_sandboxed": round(1000 * sandboxed, 2),
            "ms_per_run_plain": round(1000 * plain, 2),
            "ratio_per_test": round(sandboxed / plain, 2),
        })  # fmt: skip
    return rows
