"""Confidence intervals over paired seeds: Student-t intervals, computed without scipy.

``t_interval(values, level)`` is mean ± t_{(1+level)/2, n−1} · s / √n with s the sample
standard deviation (n − 1 in the denominator). The t quantile is found by bisection on the
t distribution's CDF, itself Simpson's rule over the density (accurate to ~1e-7 for the
few degrees of freedom a seed count gives). ``paired_difference`` is the interval of the
per-seed differences between two arms, which is what paired seeds are for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def _t_density(x: float, df: int) -> float:
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_norm - (df + 1) / 2 * math.log1p(x * x / df))


def t_cdf(x: float, df: int) -> float:
    """P(T ≤ x) for Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("df must be >= 1")
    a = abs(x)
    steps = 2000 + 200 * math.ceil(a)  # even, and fine enough for the heavy tail of df = 1
    h = a / steps
    total = _t_density(0.0, df) + _t_density(a, df)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * _t_density(i * h, df)
    half = total * h / 3
    return 0.5 + half if x >= 0 else 0.5 - half


def t_quantile(p: float, df: int) -> float:
    """The x with P(T ≤ x) = p, for 0.5 ≤ p < 1."""
    if not 0.5 <= p < 1:
        raise ValueError("p must be in [0.5, 1)")
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass(frozen=True)
class Interval:
    """A mean with its two-sided t-interval over ``n`` values."""

    mean: float
    low: float
    high: float
    n: int
    level: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": float(self.n)}


def t_interval(values: list[float], level: float = 0.95) -> Interval:
    """Mean ± t · s/√n over ``values`` (at least two)."""
    n = len(values)
    if n < 2:
        raise ValueError("an interval needs at least two values")
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n, level)


def paired_difference(a: list[float], b: list[float], level: float = 0.95) -> Interval:
    """The t-interval of a[i] − b[i] over paired seeds."""
    if len(a) != len(b):
        raise ValueError("paired values must have the same length")
    return t_interval([x - y for x, y in zip(a, b, strict=True)], level)
