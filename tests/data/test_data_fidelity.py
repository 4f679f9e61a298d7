"""Converted shared datasets: every reference the verifier rejects must be a known data defect.

The default tier converts a deterministic slice of each file (``every``-th record); the
``slow`` tier converts whole files. A failure lists the references that broke and their
verdicts: either a converter bug to fix, or a data defect to add to ``KNOWN_BROKEN`` with
its reason after reading the problem.
"""

from __future__ import annotations

import pytest
from fidelity import KNOWN_BROKEN, SHARED_FILES, convert_shared, verify_references

SLICES = {"mbpp": 10, "mbpp_sanitized": 5, "mbpp_plus": 40, "apps": 3}


@pytest.mark.parametrize("name", sorted(SLICES))
def test_references_of_a_slice_of_each_shared_file_pass(name, verifier):
    problems, samples = convert_shared(name, every=SLICES[name])
    assert len(samples) == len(problems) > 5
    fidelity = verify_references(problems, samples, verifier)
    assert fidelity.unexplained == {}
    assert len(fidelity.accepted) >= len(problems) - len(KNOWN_BROKEN)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHARED_FILES))
def test_references_of_every_shared_problem_pass(name, verifier):
    problems, samples = convert_shared(name)
    fidelity = verify_references(problems, samples, verifier)
    assert fidelity.unexplained == {}
