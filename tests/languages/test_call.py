"""Call tests in the compiled languages (``reward_api.verify.calls``), with the real
compilers on the process backend: a LeetCode-style entry point is called with its JSON
arguments converted to its own parameter types, its result is compared on the host, and
every way of not answering is a clear verdict, never a pass and never a sandbox_error.

Exploits kept here, each of which must fail: an ``exit(0)`` inside the entry point (every
language); an exit before the harness runs (a C constructor, a C++ global initializer,
Java's static block of ``Solution``, Go's ``init``, a top-level ``process.exit``); a
program that writes a passing-looking report on fd 3 itself and answers wrong (C++,
JavaScript); a returned object of the program's own class whose ``toString`` prints the
expected answer and whose ``equals`` is always true (Java).

Needs root, bwrap and the language roots (``make runtimes``); skips without them outside CI.
"""

from __future__ import annotations

from typing import Any

import pytest

from reward_api.schemas import Problem, Sample, Verdict
from reward_api.verify import calls, languages
from reward_api.verify.pipeline import Job, Verifier
from tests.conftest import run

LANGUAGES = ("c", "cpp", "java", "javascript", "typescript", "go", "rust")
TYPED = ("c", "cpp", "java", "go", "rust")
"""The languages whose parameters have types the arguments must fit."""


def _needs(language: str) -> None:
    if not (languages.default_root(language) / ".codereward-runtime").exists():
        pytest.skip(f"no {language} runtime at {languages.default_root(language)}: make runtimes")


def _fn(language: str) -> str:
    return "two_sum" if language == "rust" else "twoSum"


TWO_SUM = {
    "c": """#include <stdlib.h>
#define ll long long

/* Note: the returned array must be malloced; the caller frees it. */
int* twoSum(int* nums, int numsSize, int target, int* returnSize) {
    for (int i = 0; i < numsSize; i++) {
        for (int j = i + 1; j < numsSize; j++) {
            if ((ll)nums[i] + nums[j] == target) {
                int* r = malloc(2 * sizeof(int));
                r[0] = i, r[1] = j;
                *returnSize = 2;
                return r;
            }
        }
    }
    *returnSize = 0;
    return NULL;
}
""",
    "cpp": """#include <bits/stdc++.h>
using namespace std;
#define int long long
class Solution {
public:
    vector<int> twoSum(vector<int>& nums, int target) {
        unordered_map<int, int> seen;
        for (int i = 0; i < (int)nums.size(); i++) {
            if (seen.count(target - nums[i])) return {seen[target - nums[i]], i};
            seen[nums[i]] = i;
        }
        return {};
    }
};
""",
    "java": """import java.util.*;

class Solution {
    public int[] twoSum(int[] nums, int target) {
        Map<Integer, Integer> seen = new HashMap<>();
        for (int i = 0; i < nums.length; i++) {
            if (seen.containsKey(target - nums[i])) return new int[] {seen.get(target - nums[i]), i};
            seen.put(nums[i], i);
        }
        return new int[0];
    }
}
""",
    "javascript": """var twoSum = function (nums, target) {
    const seen = new Map();
    for (let i = 0; i < nums.length; i++) {
        if (seen.has(target - nums[i])) return [seen.get(target - nums[i]), i];
        seen.set(nums[i], i);
    }
    return [];
};
""",
    "typescript": """function twoSum(nums: number[], target: number): number[] {
    const seen = new Map<number, number>();
    for (let i = 0; i < nums.length; i++) {
        const j = seen.get(target - nums[i]);
        if (j !== undefined) return [j, i];
        seen.set(nums[i], i);
    }
    return [];
}
""",
    "go": """func twoSum(nums []int, target int) []int {
    seen := map[int]int{}
    for i, x := range nums {
        if j, ok := seen[target-x]; ok {
            return []int{j, i}
        }
        seen[x] = i
    }
    return nil
}
""",
    "rust": """use std::collections::HashMap;

impl Solution {
    pub fn two_sum(nums: Vec<i32>, target: i32) -> Vec<i32> {
        let mut seen = HashMap::new();
        for (i, &x) in nums.iter().enumerate() {
            if let Some(&j) = seen.get(&(target - x)) {
                return vec![j as i32, i as i32];
            }
            seen.insert(x, i);
        }
        vec![]
    }
}
""",
}
CASES = [([[2, 7, 11, 15], 9], [0, 1]), ([[3, 2, 4], 6], [1, 2]), ([[3, 3], 6], [0, 1])]


def _problem(
    language: str, cases: list[tuple[list[Any], Any]] = CASES, **extra: Any
) -> dict[str, Any]:
    tests = [{"type": "call", "fn_name": _fn(language), "args": a, "output": o} for a, o in cases]
    return {"language": language, "tests": tests, **extra}


def _wrong(language: str) -> str:
    """Two-sum that answers the indices in the wrong order."""
    code = TWO_SUM[language]
    swaps = {"c": ("r[0] = i, r[1] = j;", "r[0] = j, r[1] = i;"),
             "cpp": ("{seen[target - nums[i]], i}", "{i, seen[target - nums[i]]}"),
             "java": ("{seen.get(target - nums[i]), i}", "{i, seen.get(target - nums[i])}"),
             "javascript": ("[seen.get(target - nums[i]), i]", "[i, seen.get(target - nums[i])]"),
             "typescript": ("[j, i]", "[i, j]"), "go": ("{j, i}", "{i, j}"),
             "rust": ("vec![j as i32, i as i32]", "vec![i as i32, j as i32]")}  # fmt: skip
    old, new = swaps[language]
    assert old in code
    return code.replace(old, new)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_leetcode_solution_passes_every_call_test_from_one_build(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    before = verifier.builds_compiled
    result = run(verifier, _problem(language), TWO_SUM[language])
    assert result.accepted, [(t.verdict, t.detail) for t in result.tests]
    assert result.passed == len(CASES)
    assert verifier.builds_compiled - before == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wrong_answer_fails(verifier: Verifier, language: str) -> None:
    _needs(language)
    result = run(verifier, _problem(language), _wrong(language))
    assert result.verdict == Verdict.wrong_answer and result.reward == 0.0
    assert [t.verdict for t in result.tests] == [Verdict.wrong_answer] * len(CASES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_program_without_the_entry_point_gets_a_compile_error_naming_it(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    code = TWO_SUM[language].replace(_fn(language), "findPair")
    result = run(verifier, _problem(language), code)
    assert result.verdict == Verdict.compile_error
    assert _fn(language) in (result.tests[0].detail or "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_entry_point_named_only_in_a_comment_is_not_found(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    code = TWO_SUM[language].replace(_fn(language), "findPair") + f"\n// not {_fn(language)}\n"
    result = run(verifier, _problem(language), code)
    # JavaScript has no compile: a missing function is found when called, as in Python
    want = Verdict.runtime_error if language == "javascript" else Verdict.compile_error
    assert result.verdict == want, [(t.verdict, t.detail) for t in result.tests]
    assert result.tests[0].detail


EXIT_IN_CALL = {
    "c": ("for (int i = 0; i < numsSize; i++) {", "exit(0);\n    for (int i = 0; i < numsSize; i++) {"),
    "cpp": ("unordered_map<int, int> seen;", "unordered_map<int, int> seen; exit(0);"),
    "java": ("Map<Integer, Integer> seen = new HashMap<>();",
             "Map<Integer, Integer> seen = new HashMap<>(); System.exit(0);"),
    "javascript": ("const seen = new Map();", "const seen = new Map(); process.exit(0);"),
    "typescript": ("const seen = new Map<number, number>();",
                   "const seen = new Map<number, number>(); if (nums.length) process.exit(0);"),
    "go": ("seen := map[int]int{}", "seen := map[int]int{}\n    os.Exit(0)"),
    "rust": ("let mut seen = HashMap::new();", "let mut seen = HashMap::new(); std::process::exit(0);"),
}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_exit_with_status_0_during_the_call_is_not_a_pass(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    old, new = EXIT_IN_CALL[language]
    code = TWO_SUM[language].replace(old, new)
    if language == "go":
        code = 'import "os"\n\n' + code
    result = run(verifier, _problem(language), code)
    assert result.verdict == Verdict.runtime_error and result.passed == 0
    assert result.tests[0].detail == "the program exited before answering"


EXIT_BEFORE = {
    "c": "__attribute__((constructor)) static void early(void) { exit(0); }\n",
    "cpp": "static int early = (std::exit(0), 0);\n",
    "javascript": "process.exit(0);\n",
    "typescript": "process.exit(0);\n",
    "go": "func init() { os.Exit(0) }\n",
}


@pytest.mark.parametrize("language", [*sorted(EXIT_BEFORE), "java"])
def test_an_exit_before_the_harness_ran_is_not_a_pass(verifier: Verifier, language: str) -> None:
    _needs(language)
    code = TWO_SUM[language] + EXIT_BEFORE.get(language, "")
    if language == "java":  # Solution's static block: it runs when the harness makes one
        code = code.replace("class Solution {", "class Solution { static { System.exit(0); }")
    if language == "go":
        code = 'import "os"\n\n' + code
    result = run(verifier, _problem(language), code)
    assert result.verdict == Verdict.runtime_error and result.passed == 0, result.tests[0]


FD3 = {
    "cpp": ("return {seen[target - nums[i]], i};",
            'return (void)!::write(3, "{\\"ok\\":[0,1]}", 12), vector<int>{9, 9};'),
    "javascript": ("return [seen.get(target - nums[i]), i];",
                   "{ require('fs').writeSync(3, '{\"ok\":[0,1]}'); return [9, 9]; }"),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(FD3))
def test_a_program_that_writes_on_the_pass_channel_spoils_its_own_answer(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    old, new = FD3[language]
    result = run(verifier, _problem(language), TWO_SUM[language].replace(old, new))
    assert result.verdict == Verdict.wrong_answer and result.passed == 0
    assert result.tests[0].detail == "malformed answer"


@pytest.mark.parametrize("language", TYPED)
def test_arguments_that_do_not_fit_the_signature_get_a_runtime_error_naming_them(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    cases = [([["2", "7"], 9], [0, 1]), ([[2, 7], 9, 1], [0, 1]), ([[2, 2**70], 9], [0, 1])]
    result = run(verifier, _problem(language, cases), TWO_SUM[language])
    assert [t.verdict for t in result.tests] == [Verdict.runtime_error] * 3
    details = [t.detail or "" for t in result.tests]
    assert "argument 1: expected an integer, got a string" in details[0]
    assert "takes 2 arguments, the test gives 3" in details[1]
    assert "does not fit" in details[2]


TYPES = {
    "c": """#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
typedef long long i64;

i64* shape(int** grid, int gridSize, int* gridColSize, char** words, int wordsSize, bool flag,
           double scale, char c, int* returnSize) {
    i64* r = malloc(6 * sizeof(i64));
    i64 sum = 0, chars = 0;
    for (int i = 0; i < gridSize; i++) for (int j = 0; j < gridColSize[i]; j++) sum += grid[i][j];
    for (int i = 0; i < wordsSize; i++) chars += strlen(words[i]);
    r[0] = gridSize, r[1] = sum, r[2] = chars, r[3] = flag, r[4] = (i64)floor(scale * 2), r[5] = c;
    *returnSize = 6;
    return r;
}
char** tally(char** words, int wordsSize, int* returnSize) {
    *returnSize = wordsSize;
    return words;
}
double mean(double* xs, int xsSize) {
    double s = 0;
    for (int i = 0; i < xsSize; i++) s += xs[i];
    return s / xsSize;
}
char** flip(char** board, int boardSize, int* boardColSize, int* returnSize, int** returnColumnSizes) {
    for (int i = 0; i < boardSize; i++)
        for (int a = 0, b = boardColSize[i] - 1; a < b; a++, b--) {
            char t = board[i][a];
            board[i][a] = board[i][b], board[i][b] = t;
        }
    *returnSize = boardSize;
    *returnColumnSizes = boardColSize;
    return board;
}
""",
    "cpp": """#include <bits/stdc++.h>
using namespace std;
class Solution {
public:
    vector<long long> shape(vector<vector<int>>& grid, const vector<string>& words, bool flag,
                            double scale, char c) {
        long long sum = 0, chars = 0;
        for (auto& row : grid) for (int x : row) sum += x;
        for (auto& w : words) chars += w.size();
        return {(long long)grid.size(), sum, chars, flag ? 1 : 0, (long long)floor(scale * 2), c};
    }
    map<string, int> tally(vector<string> words) {
        map<string, int> m;
        for (auto& w : words) m[w]++;
        return m;
    }
    double mean(vector<double> xs) { return accumulate(xs.begin(), xs.end(), 0.0) / xs.size(); }
    vector<vector<char>> flip(vector<vector<char>>& board) {
        for (auto& row : board) reverse(row.begin(), row.end());
        return board;
    }
};
""",
    "java": """import java.util.*;
class Solution {
    public long[] shape(int[][] grid, List<String> words, boolean flag, double scale, char c) {
        long sum = 0, chars = 0;
        for (int[] row : grid) for (int x : row) sum += x;
        for (String w : words) chars += w.length();
        return new long[] {grid.length, sum, chars, flag ? 1 : 0, (long) Math.floor(scale * 2), c};
    }
    public Map<String, Integer> tally(String[] words) {
        Map<String, Integer> m = new TreeMap<>();
        for (String w : words) m.merge(w, 1, Integer::sum);
        return m;
    }
    public double mean(List<Double> xs) { return xs.stream().mapToDouble(x -> x).average().orElse(0); }
    public List<List<Character>> flip(char[][] board) {
        List<List<Character>> out = new ArrayList<>();
        for (char[] row : board) {
            List<Character> r = new ArrayList<>();
            for (int i = row.length - 1; i >= 0; i--) r.add(row[i]);
            out.add(r);
        }
        return out;
    }
}
""",
    "javascript": """function shape(grid, words, flag, scale, c) {
    const sum = grid.flat().reduce((a, b) => a + b, 0);
    const chars = words.reduce((a, w) => a + w.length, 0);
    return [grid.length, sum, chars, flag ? 1 : 0, Math.floor(scale * 2), c.charCodeAt(0)];
}
function tally(words) { const m = new Map(); for (const w of words) m.set(w, (m.get(w) || 0) + 1); return m; }
function mean(xs) { return xs.reduce((a, b) => a + b, 0) / xs.length; }
function flip(board) { return board.map((row) => [...row].reverse()); }
""",
    "typescript": """function shape(grid: number[][], words: string[], flag: boolean, scale: number, c: string): number[] {
    const sum = grid.reduce((a, row) => a + row.reduce((x, y) => x + y, 0), 0);
    const chars = words.reduce((a, w) => a + w.length, 0);
    return [grid.length, sum, chars, flag ? 1 : 0, Math.floor(scale * 2), c.charCodeAt(0)];
}
function tally(words: string[]): Record<string, number> {
    const m: Record<string, number> = {};
    for (const w of words) m[w] = (m[w] || 0) + 1;
    return m;
}
function mean(xs: number[]): number { return xs.reduce((a, b) => a + b, 0) / xs.length; }
function flip(board: string[][]): string[][] { return board.map((row) => [...row].reverse()); }
""",
    "go": """import "math"

func shape(grid [][]int, words []string, flag bool, scale float64, c byte) []int64 {
    var sum, chars int64
    for _, row := range grid {
        for _, x := range row {
            sum += int64(x)
        }
    }
    for _, w := range words {
        chars += int64(len(w))
    }
    f := int64(0)
    if flag {
        f = 1
    }
    return []int64{int64(len(grid)), sum, chars, f, int64(math.Floor(scale * 2)), int64(c)}
}

func tally(words []string) map[string]int {
    m := map[string]int{}
    for _, w := range words {
        m[w]++
    }
    return m
}

func mean(xs []float64) float64 {
    s := 0.0
    for _, x := range xs {
        s += x
    }
    return s / float64(len(xs))
}

func flip(board [][]string) [][]string {
    for _, row := range board {
        for i, j := 0, len(row)-1; i < j; i, j = i+1, j-1 {
            row[i], row[j] = row[j], row[i]
        }
    }
    return board
}
""",
    "rust": """use std::collections::HashMap;
impl Solution {
    pub fn shape(grid: Vec<Vec<i32>>, words: &[String], flag: bool, scale: f64, c: char) -> Vec<i64> {
        let sum: i64 = grid.iter().flatten().map(|&x| x as i64).sum();
        let chars: i64 = words.iter().map(|w| w.len() as i64).sum();
        vec![grid.len() as i64, sum, chars, flag as i64, (scale * 2.0).floor() as i64, c as i64]
    }
    pub fn tally(words: Vec<String>) -> HashMap<String, i32> {
        let mut m = HashMap::new();
        for w in words { *m.entry(w).or_insert(0) += 1; }
        m
    }
    pub fn mean(xs: Vec<f64>) -> f64 { xs.iter().sum::<f64>() / xs.len() as f64 }
    pub fn flip(mut board: Vec<Vec<char>>) -> Vec<Vec<char>> {
        for row in board.iter_mut() { row.reverse(); }
        board
    }
}
""",
}
TYPE_TESTS = [
    ("shape", [[[1, 2], [3, 4]], ["ab", "cde"], True, 2.5, "z"], [2, 10, 5, 1, 5, 122]),
    ("tally", [['é"q', "x\n", 'é"q']], {'é"q': 2, "x\n": 1}),
    ("mean", [[1, 2.5]], 1.75),
    ("flip", [[["5", "3", "."], [".", "9", "8"]]], [[".", "3", "5"], ["8", "9", "."]]),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_arguments_and_results_of_many_types_cross_as_json(
    verifier: Verifier, language: str
) -> None:
    """Nested lists, strings (quotes, newlines, UTF-8), bool, float from an integer, char,
    maps; one build per entry point."""
    _needs(language)
    tests = [{"type": "call", "fn_name": f, "args": a, "output": o} for f, a, o in TYPE_TESTS]
    if language == "c":  # no maps in C: its tally answers the words as they came
        tests[1]["output"] = tests[1]["args"][0]
    result = run(verifier, {"language": language, "tests": tests}, TYPES[language])
    assert result.accepted, [(t.verdict, t.detail) for t in result.tests]


def test_a_method_of_the_named_class_is_called_on_a_fresh_instance(verifier: Verifier) -> None:
    _needs("java")
    code = """class Counter {
    private int calls = 0;
    public int next(int step) { calls += step; return calls; }
}
"""
    cases = [
        {"type": "call", "fn_name": "next", "class_name": "Counter", "args": [5], "output": 5}
    ] * 2
    result = run(verifier, {"language": "java", "tests": cases}, code)
    assert result.accepted and result.passed == 2


def test_go_with_a_class_name_calls_the_function_when_there_is_no_such_type(
    verifier: Verifier,
) -> None:
    _needs("go")
    tests = [dict(t, class_name="Solution") for t in _problem("go")["tests"]]
    result = run(verifier, {"language": "go", "tests": tests}, TWO_SUM["go"])
    assert result.accepted, [(t.verdict, t.detail) for t in result.tests]


def test_a_returned_object_of_the_programs_class_is_a_wrong_answer(verifier: Verifier) -> None:
    _needs("java")
    code = """class Pair { int a = 0, b = 1; public String toString() { return "[0, 1]"; }
    public boolean equals(Object o) { return true; } }
class Solution { public Object twoSum(int[] nums, int target) { return new Pair(); } }
"""
    result = run(verifier, _problem("java"), code)
    assert result.verdict == Verdict.wrong_answer
    assert "Pair" in (result.tests[0].detail or "")


def test_a_problem_mixing_call_and_assert_tests_is_verified(verifier: Verifier) -> None:
    _needs("cpp")
    assert_test = """int main() {
    Solution s;
    vector<long long> v{2, 7, 11, 15};
    assert((s.twoSum(v, 9) == vector<long long>{0, 1}));
}
"""
    tests = [*_problem("cpp", CASES[:2])["tests"], {"type": "assert", "code": assert_test}]
    problem = Problem.model_validate({"id": "mixed", "language": "cpp", "tests": tests})
    samples = [Sample(problem_id="mixed", sample_id=k, code=c)
               for k, c in (("right", TWO_SUM["cpp"]), ("wrong", _wrong("cpp")))]  # fmt: skip
    right, wrong = verifier.verify([Job(problem, s) for s in samples])
    assert right.accepted and right.passed == 3, right.tests
    assert [t.verdict for t in wrong.tests] == [Verdict.wrong_answer] * 3


@pytest.mark.parametrize(
    ("code", "why"),
    [("static int f(int x) { return x; }", "static"),
     ("int* f(int* xs, int n) { return xs; }", "returnSize"),
     ("struct P* f(int x) { return 0; }", "returns a type"),
     ("int f(struct P* p) { return 0; }", "parameter p"),
     ("int f(int* xs) { return 0; }", "parameter xs")],
)  # fmt: skip
def test_a_c_signature_outside_leetcodes_conventions_is_refused_with_the_reason(
    code: str, why: str
) -> None:
    built = calls.call_build("c", code, None, "f")
    assert built.refused is not None and why in built.refused


def test_an_entry_name_that_is_not_an_identifier_is_refused_without_a_build() -> None:
    built = calls.call_build("cpp", "int f(){return 1;}", None, "f(); system")
    assert built.refused is not None and not built.files


def test_the_argument_stream_is_self_describing() -> None:
    stream = calls.arg_stream([[1, -2], "é:", True, None, 1.5, {"k": [False]}])
    assert stream == "l6:l2:i1;i-2;s3:é:tnd1.5;m1:s1:kl1:f"


@pytest.mark.parametrize(
    ("channel", "ok"),
    [("N" * 32 + '8\n{"ok":1}', True), ("N" * 32 + '8\n{"ok":1}0', False),
     ("N" * 32 + '9\n{"ok":10}', True), ("x" + "N" * 32 + '8\n{"ok":1}', False),
     ("N" * 32 + '9\n{"ok": 1}', True), ("N" * 32 + "8\n", False), ("", False)],
)  # fmt: skip
def test_a_report_is_read_only_with_its_nonce_and_exact_length(channel: str, ok: bool) -> None:
    assert (calls.read_report(channel, "N" * 32) is not None) == ok


@pytest.mark.parametrize("stop", [False, True])
def test_tests_of_a_missing_entry_point_fail_alone_and_the_others_run(
    verifier: Verifier, stop: bool
) -> None:
    _needs("cpp")
    tests = [*_problem("cpp", CASES[:1])["tests"],
             {"type": "call", "fn_name": "threeSum", "args": [[1, 2, 3]], "output": []},
             *_problem("cpp", CASES[1:2])["tests"]]  # fmt: skip
    result = run(
        verifier, {"language": "cpp", "tests": tests}, TWO_SUM["cpp"], stop_on_first_failure=stop
    )
    third = Verdict.skipped if stop else Verdict.accepted
    assert [t.verdict for t in result.tests] == [Verdict.accepted, Verdict.compile_error, third]
    assert result.verdict == Verdict.compile_error and "threeSum" in (result.tests[1].detail or "")


def test_a_typescript_class_method_is_called_for_class_name(verifier: Verifier) -> None:
    _needs("typescript")
    code = """class Solution {
    private seen = new Map<number, number>();
    twoSum(nums: number[], target: number): number[] {
        for (let i = 0; i < nums.length; i++) {
            const j = this.seen.get(target - nums[i]);
            if (j !== undefined) return [j, i];
            this.seen.set(nums[i], i);
        }
        return [];
    }
}
"""
    tests = [dict(t, class_name="Solution") for t in _problem("typescript")["tests"]]
    result = run(verifier, {"language": "typescript", "tests": tests}, code)
    assert result.accepted, [(t.verdict, t.detail) for t in result.tests]
