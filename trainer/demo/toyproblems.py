"""A generated toy code problem set for the demo: tiny arithmetic functions and stdio sums.

Families (K is the problem's constant):

- ``add``/``sub``/``mul``: "write f(x) returning x+K" (call tests, ``fn_name`` f);
- ``sum``: "print the sum of two ints plus K" (stdio tests).

Each problem carries 6 tests and a reference program. Problems are split into training and
held-out sets by (family, K) pair, so held-out problems ask for combinations never trained
on. ``warm_start_examples`` makes the supervised warm-start text: a share of it uses a wrong
constant on purpose, so the warm-started policy knows the format but often misses the
constant, and RL has something to fix.
"""

from __future__ import annotations

import random
from typing import Any

FAMILIES = ("add", "sub", "mul", "sum")
_OPS = {"add": "+", "sub": "-", "mul": "*"}


def prompt_for(family: str, k: int) -> str:
    """The task statement the model sees."""
    if family == "sum":
        return f"# read a b, print a+b+{k}\n"
    return f"# def f(x): return x{_OPS[family]}{k}\n"


def program_for(family: str, k: int) -> str:
    """A program solving (family, k); with a wrong k it is a plausible wrong answer."""
    if family == "sum":
        return f"a,b=map(int,input().split())\nprint(a+b+{k})\n"
    return f"def f(x):\n    return x{_OPS[family]}{k}\n"


def _apply(family: str, k: int, x: int) -> int:
    if family == "add":
        return x + k
    if family == "sub":
        return x - k
    return x * k


def make_problem(family: str, k: int, rng: random.Random, n_tests: int = 6) -> dict[str, Any]:
    """One CONTRACT problem dict for (family, k)."""
    tests: list[dict[str, Any]] = []
    for _ in range(n_tests):
        if family == "sum":
            a, b = rng.randint(-50, 50), rng.randint(-50, 50)
            tests.append({"type": "stdio", "input": f"{a} {b}\n", "output": f"{a + b + k}\n"})
        else:
            x = rng.randint(-30, 30)
            tests.append(
                {"type": "call", "fn_name": "f", "args": [x], "output": _apply(family, k, x)}
            )
    return {
        "id": f"toy-{family}-{k}",
        "prompt": prompt_for(family, k),
        "tests": tests,
        "reference": program_for(family, k),
        "limits": {"time_s": 5},
        "source": "trainer.demo.toyproblems",
        "metadata": {"family": family, "k": k},
    }


def make_split(
    seed: int = 0, k_max: int = 39, heldout_fraction: float = 0.2
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(train, heldout) problem lists over every (family, k) with 1 <= k <= k_max."""
    rng = random.Random(seed)
    pairs = [(family, k) for family in FAMILIES for k in range(1, k_max + 1)]
    rng.shuffle(pairs)
    n_heldout = max(1, int(len(pairs) * heldout_fraction))
    heldout = [make_problem(f, k, rng) for f, k in sorted(pairs[:n_heldout])]
    train = [make_problem(f, k, rng) for f, k in sorted(pairs[n_heldout:])]
    return train, heldout


def warm_start_examples(
    problems: list[dict[str, Any]], n: int, wrong_fraction: float, seed: int = 0
) -> list[tuple[str, str]]:
    """(prompt, completion) pairs; ``wrong_fraction`` of them use a random wrong constant."""
    rng = random.Random(seed)
    k_values = sorted({p["metadata"]["k"] for p in problems})
    out: list[tuple[str, str]] = []
    for _ in range(n):
        problem = rng.choice(problems)
        family, k = problem["metadata"]["family"], problem["metadata"]["k"]
        if rng.random() < wrong_fraction:
            k = rng.choice([v for v in k_values if v != k])
        out.append((problem["prompt"], program_for(family, k)))
    return out
