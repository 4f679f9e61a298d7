"""Writes the bundled demo set (problems.jsonl, samples.jsonl) that ``make run`` verifies.

Small original problems, each with at least 5 tests of the three contract types, plus
correct, wrong and hostile samples. Run ``python -m reward_api.data.bundled.make_bundled`` to
regenerate; the files are committed so ``make run`` needs nothing else.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent


def _stdio(pairs: list[tuple[str, str]]) -> list[dict[str, object]]:
    return [{"type": "stdio", "input": i, "output": o} for i, o in pairs]


def _calls(fn: str, cases: list[tuple[list[object], object]]) -> list[dict[str, object]]:
    return [{"type": "call", "fn_name": fn, "args": a, "output": o} for a, o in cases]


def _asserts(lines: list[str]) -> list[dict[str, object]]:
    return [{"type": "assert", "code": line} for line in lines]


PROBLEMS = [
    {
        "id": "demo/sum-pairs",
        "prompt": "Read T, then T lines of two integers; print each sum on its own line.",
        "tests": _stdio(
            [
                ("1\n1 2\n", "3\n"),
                ("2\n5 5\n-1 1\n", "10\n0\n"),
                ("1\n0 0\n", "0\n"),
                ("3\n100 200\n7 8\n-5 -5\n", "300\n15\n-10\n"),
                ("1\n999999999 1\n", "1000000000\n"),
            ]
        ),
        "difficulty": "easy",
    },
    {
        "id": "demo/gcd",
        "prompt": "Write gcd(a, b) returning the greatest common divisor of two non-negative ints.",
        "tests": _calls(
            "gcd", [([12, 18], 6), ([7, 13], 1), ([0, 5], 5), ([100, 75], 25), ([1, 1], 1)]
        ),
        "difficulty": "easy",
    },
    {
        "id": "demo/reverse-words",
        "prompt": "Write reverse_words(s) returning the words of s in reverse order, single-spaced.",
        "tests": _asserts(
            [
                "assert reverse_words('a b c') == 'c b a'",
                "assert reverse_words('hello') == 'hello'",
                "assert reverse_words('  x   y ') == 'y x'",
                "assert reverse_words('') == ''",
                "assert reverse_words('one two') == 'two one'",
            ]
        ),
        "difficulty": "easy",
    },
    {
        "id": "demo/max-subarray",
        "prompt": "Read n and n integers; print the largest sum of a non-empty contiguous subarray.",
        "tests": _stdio(
            [
                ("5\n1 -2 3 4 -1\n", "7\n"),
                ("3\n-1 -2 -3\n", "-1\n"),
                ("1\n5\n", "5\n"),
                ("6\n2 -1 2 -1 2 -1\n", "4\n"),
                ("4\n0 0 0 0\n", "0\n"),
            ]
        ),
        "difficulty": "medium",
    },
    {
        "id": "demo/two-sum",
        "prompt": "LeetCode style: Solution().twoSum(nums, target) returns the two indices, smaller first.",
        "tests": [
            {"type": "call", "class_name": "Solution", "fn_name": "twoSum", "args": a, "output": o}
            for a, o in [
                ([[2, 7, 11, 15], 9], [0, 1]),
                ([[3, 2, 4], 6], [1, 2]),
                ([[3, 3], 6], [0, 1]),
                ([[1, 5, 9], 14], [1, 2]),
                ([[0, -1, 1], 0], [1, 2]),
            ]
        ],
        "difficulty": "easy",
    },
    {
        "id": "demo/primes",
        "prompt": "Write primes_below(n) returning the sorted list of primes below n.",
        "tests": _asserts(
            [
                "assert primes_below(10) == [2, 3, 5, 7]",
                "assert primes_below(2) == []",
                "assert primes_below(3) == [2]",
                "assert len(primes_below(1000)) == 168",
                "def check(candidate):\n    assert candidate(30)[-1] == 29\n    assert sum(candidate(20)) == 77\ncheck(primes_below)",
            ]
        ),
        "difficulty": "medium",
    },
]

RIGHT = {
    "demo/sum-pairs": "t = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(a + b)\n",
    "demo/gcd": "def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n",
    "demo/reverse-words": "def reverse_words(s):\n    return ' '.join(reversed(s.split()))\n",
    "demo/max-subarray": "input()\nbest = cur = None\nfor x in map(int, input().split()):\n    cur = x if cur is None or cur < 0 else cur + x\n    best = cur if best is None else max(best, cur)\nprint(best)\n",
    "demo/two-sum": "class Solution:\n    def twoSum(self, nums, target):\n        seen = {}\n        for i, n in enumerate(nums):\n            if target - n in seen:\n                return [seen[target - n], i]\n            seen[n] = i\n",
    "demo/primes": "def primes_below(n):\n    sieve = [True] * max(n, 0)\n    out = []\n    for i in range(2, n):\n        if sieve[i]:\n            out.append(i)\n            for j in range(i * i, n, i):\n                sieve[j] = False\n    return out\n",
}
WRONG = {
    "demo/sum-pairs": "t = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(a - b)\n",
    "demo/gcd": "def gcd(a, b):\n    return min(a, b)\n",
    "demo/max-subarray": "input()\nprint(sum(map(int, input().split())))\n",
    "demo/primes": "def primes_below(n):\n    return [i for i in range(2, n) if i % 2]\n",
}
HOSTILE = {
    "demo/gcd": "class Yes:\n    def __eq__(self, o):\n        return True\ndef gcd(a, b):\n    return Yes()\n",
    "demo/reverse-words": "import sys\ndef reverse_words(s):\n    return s\nsys.exit(0)\n",
    "demo/sum-pairs": "while True:\n    pass\n",
}


def main() -> None:
    with open(HERE / "problems.jsonl", "w") as f:
        for p in PROBLEMS:
            f.write(json.dumps(p) + "\n")
    with open(HERE / "samples.jsonl", "w") as f:
        for kind, table in (("right", RIGHT), ("wrong", WRONG), ("hostile", HOSTILE)):
            for pid, code in table.items():
                completion = f"Here is my solution:\n```python\n{code}```\n"
                f.write(
                    json.dumps({"problem_id": pid, "sample_id": kind, "completion": completion})
                    + "\n"
                )


if __name__ == "__main__":
    main()
