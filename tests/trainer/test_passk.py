"""The unbiased pass@k estimator against brute-force enumeration."""

from __future__ import annotations

import itertools

import pytest

from trainer.passk import pass_at_k


@pytest.mark.parametrize(("n", "c", "k"), [(5, 0, 1), (5, 2, 1), (6, 2, 3), (8, 5, 4), (4, 4, 2)])
def test_pass_at_k_matches_enumeration(n, c, k):
    outcomes = [1] * c + [0] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    expected = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_1_is_the_pass_fraction():
    assert pass_at_k(16, 4, 1) == pytest.approx(0.25)


def test_pass_at_k_rejects_k_above_n():
    with pytest.raises(ValueError):
        pass_at_k(4, 1, 5)
