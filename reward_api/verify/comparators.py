"""Stdout comparators, chosen per problem with ``compare``.

- ``lcb`` (default), LiveCodeBench's rules: strip the whole output, split into lines, strip
  each line; line counts must match; a line matches when equal, or when every
  whitespace-separated token of both lines parses as a finite decimal number and the
  numbers are equal (so ``1.0`` equals ``1.00``).
- ``exact``: byte-for-byte equality of the whole output.
- ``tokens``: equality of the whitespace-separated token sequences (line breaks ignored).
- ``float:<tol>``: tokens must pair up; two numeric tokens match when
  ``|a - b| <= tol * max(1, |b|)``, other tokens when equal.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal, InvalidOperation


def _decimals(line: str) -> list[Decimal] | None:
    """The line's tokens as finite decimals, or None when any token is not one.

    Non-finite values (``nan``, ``inf``, the signalling ``sNaN``) are text here: comparing
    a signalling NaN raises, and a program's output must never be able to raise.
    """
    try:
        values = [Decimal(tok) for tok in line.split()]
    except (InvalidOperation, ValueError, ArithmeticError):
        return None
    if not all(v.is_finite() for v in values):
        return None
    return values


def lcb_equal(output: str, expected: str) -> bool:
    got_lines = output.strip().split("\n")
    want_lines = expected.strip().split("\n")
    if len(got_lines) != len(want_lines):
        return False
    for got, want in zip(got_lines, want_lines, strict=True):
        got, want = got.strip(), want.strip()
        if got == want:
            continue
        a, b = _decimals(got), _decimals(want)
        if a is None or b is None or a != b:
            return False
    return True


def exact_equal(output: str, expected: str) -> bool:
    return output == expected


def tokens_equal(output: str, expected: str) -> bool:
    return output.split() == expected.split()


def float_equal(tol: float) -> Callable[[str, str], bool]:
    def equal(output: str, expected: str) -> bool:
        got, want = output.split(), expected.split()
        if len(got) != len(want):
            return False
        for a, b in zip(got, want, strict=True):
            if a == b:
                continue
            try:
                x, y = float(a), float(b)
            except ValueError:
                return False
            if math.isnan(x) or math.isnan(y) or abs(x - y) > tol * max(1.0, abs(y)):
                return False
        return True

    return equal


def comparator(name: str) -> Callable[[str, str], bool]:
    """The comparator named by a problem's ``compare`` field (validated by the schema)."""
    if name == "lcb":
        return lcb_equal
    if name == "exact":
        return exact_equal
    if name == "tokens":
        return tokens_equal
    if name.startswith("float:"):
        return float_equal(float(name.split(":", 1)[1]))
    raise ValueError(f"unknown comparator {name!r}")
