"""The experiment's toy code task: small Python functions from short word descriptions.

It is built so that a warm-started tiny model does not saturate it (the demo's task does:
pass@16 1.0 after warm-up), while one step of the whole protocol stays cheap on a CPU:

- Easy families take one constant K (``add``, ``sub``, ``mul``, ``mod``, ``div``, ``max``
  as ``f(x)`` call tests, ``sum`` on stdin); hard families take two (``affine``, ``affsub``,
  ``shift``, ``clamp``, ``modadd`` as call tests, ``lin2`` on stdin). The prompt is words
  ("# f(x): times 7 plus 12"), so the model must map words to operators as well as copy
  digits.
- Every problem is one (family, constants) pair. The pairs of each family are dealt into
  held-out, validation and training problems, so held-out and validation problems ask for
  combinations never trained on; each problem's ``metadata.difficulty`` is "easy" or
  "hard" (held-out pass@k is also reported per difficulty).
- ``warm_start_examples`` gives noisy supervised text: a share of the solutions carries a
  wrong constant and a smaller share the operator of another family of the same
  difficulty, so the warm start knows the format but often misses the content.

Problems are CONTRACT problem dicts with six tests and a reference program (the reference
is what the similarity reward compares with).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

EASY = ("add", "sub", "mul", "mod", "div", "max", "sum")
HARD = ("affine", "affsub", "shift", "clamp", "modadd", "lin2")
STDIO = ("sum", "lin2")

_WORDS = {
    "add": "plus {a}",
    "sub": "minus {a}",
    "mul": "times {a}",
    "mod": "mod {a}",
    "div": "div {a}",
    "max": "at least {a}",
    "affine": "times {a} plus {b}",
    "affsub": "times {a} minus {b}",
    "shift": "plus {a} then times {b}",
    "clamp": "between {a} and {b}",
    "modadd": "mod {a} plus {b}",
}
_EXPR = {
    "add": "x+{a}",
    "sub": "x-{a}",
    "mul": "x*{a}",
    "mod": "x%{a}",
    "div": "x//{a}",
    "max": "max(x,{a})",
    "affine": "x*{a}+{b}",
    "affsub": "x*{a}-{b}",
    "shift": "(x+{a})*{b}",
    "clamp": "min(max(x,{a}),{b})",
    "modadd": "x%{a}+{b}",
}


def prompt_for(family: str, a: int, b: int = 0) -> str:
    """The task statement the model sees."""
    if family == "sum":
        return f"# read a b, print a+b+{a}\n"
    if family == "lin2":
        return f"# read a b, print a times {a} plus b times {b}\n"
    return "# f(x): " + _WORDS[family].format(a=a, b=b) + "\n"


def program_for(family: str, a: int, b: int = 0) -> str:
    """A program solving (family, a, b); with wrong constants, a plausible wrong answer."""
    if family == "sum":
        return f"a,b=map(int,input().split())\nprint(a+b+{a})\n"
    if family == "lin2":
        return f"a,b=map(int,input().split())\nprint(a*{a}+b*{b})\n"
    return "def f(x):\n    return " + _EXPR[family].format(a=a, b=b) + "\n"


def _apply(family: str, a: int, b: int, x: int) -> int:
    table = {
        "add": x + a,
        "sub": x - a,
        "mul": x * a,
        "mod": x % a,
        "div": x // a,
        "max": max(x, a),
        "affine": x * a + b,
        "affsub": x * a - b,
        "shift": (x + a) * b,
        "clamp": min(max(x, a), b),
        "modadd": x % a + b,
    }
    return table[family]


def constants(family: str) -> list[tuple[int, int]]:
    """Every (a, b) pair a family is posed with (b = 0 for one-constant families)."""
    if family in EASY:
        low = 2 if family in ("mod", "div", "mul") else 1
        return [(a, 0) for a in range(low, 40)]
    if family == "clamp":
        return [(a, b) for a in range(1, 15) for b in range(a + 2, 30)]
    return [(a, b) for a in range(2, 10) for b in range(1, 20)]


def make_problem(family: str, a: int, b: int, rng: random.Random) -> dict[str, Any]:
    """One CONTRACT problem dict for (family, a, b), with six tests."""
    tests: list[dict[str, Any]] = []
    for _ in range(6):
        if family in STDIO:
            x, y = rng.randint(-40, 40), rng.randint(-40, 40)
            want = x + y + a if family == "sum" else x * a + y * b
            tests.append({"type": "stdio", "input": f"{x} {y}\n", "output": f"{want}\n"})
        else:
            x = rng.randint(-5, 35) if family == "clamp" else rng.randint(-30, 30)
            tests.append(
                {"type": "call", "fn_name": "f", "args": [x], "output": _apply(family, a, b, x)}
            )
    difficulty = "easy" if family in EASY else "hard"
    suffix = f"{a}" if family in EASY else f"{a}-{b}"
    return {
        "id": f"task-{family}-{suffix}",
        "prompt": prompt_for(family, a, b),
        "tests": tests,
        "reference": program_for(family, a, b),
        "limits": {"time_s": 5},
        "source": "trainer.experiment.task",
        "metadata": {"family": family, "a": a, "b": b, "difficulty": difficulty},
    }


@dataclass(frozen=True)
class Splits:
    """Training, validation and held-out problems; no (family, constants) pair in two."""

    train: list[dict[str, Any]]
    validation: list[dict[str, Any]]
    heldout: list[dict[str, Any]]


def make_splits(
    seed: int = 0,
    heldout_per_family: int = 4,
    validation_per_family: int = 2,
    train_per_family: int = 24,
) -> Splits:
    """Deal each family's pairs into held-out, validation and training problems."""
    rng = random.Random(seed)
    train: list[dict[str, Any]] = []
    validation: list[dict[str, Any]] = []
    heldout: list[dict[str, Any]] = []
    for family in EASY + HARD:
        pairs = constants(family)
        rng.shuffle(pairs)
        n_h, n_v = heldout_per_family, validation_per_family
        if n_h + n_v + train_per_family > len(pairs):
            raise ValueError(f"family {family} has only {len(pairs)} constant pairs")
        heldout += [make_problem(family, a, b, rng) for a, b in sorted(pairs[:n_h])]
        validation += [make_problem(family, a, b, rng) for a, b in sorted(pairs[n_h : n_h + n_v])]
        chosen = pairs[n_h + n_v : n_h + n_v + train_per_family]
        train += [make_problem(family, a, b, rng) for a, b in sorted(chosen)]
    return Splits(train=train, validation=validation, heldout=heldout)


def warm_start_examples(
    problems: list[dict[str, Any]],
    n: int,
    wrong_constant: float,
    wrong_family: float,
    seed: int = 0,
) -> list[tuple[str, str]]:
    """(prompt, completion) pairs from ``problems``, noisy on purpose.

    ``wrong_constant`` of them replace one constant with another value of that family;
    ``wrong_family`` of them use the operator of another family of the same difficulty
    (same stdin/call kind) with the right constants.
    """
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for _ in range(n):
        problem = rng.choice(problems)
        meta = problem["metadata"]
        family, a, b = meta["family"], meta["a"], meta["b"]
        roll = rng.random()
        if roll < wrong_constant:
            other = rng.choice([p for p in constants(family) if p != (a, b)])
            if family in EASY or rng.random() < 0.5:
                a = other[0]
            else:
                b = other[1]
        elif roll < wrong_constant + wrong_family:
            pool = EASY if family in EASY else HARD
            siblings = [f for f in pool if f != family and (f in STDIO) == (family in STDIO)]
            if siblings:
                family = rng.choice(siblings)
                if family == "clamp" and b <= a:
                    b = a + 2
                if family in ("mod", "div", "modadd") and a < 2:
                    a = 2
        out.append((problem["prompt"], program_for(family, a, b)))
    return out


def texts(splits: Splits) -> list[str]:
    """Every prompt and reference (what the tokenizer is trained on)."""
    return [p["prompt"] + p["reference"] for p in splits.train + splits.validation + splits.heldout]
