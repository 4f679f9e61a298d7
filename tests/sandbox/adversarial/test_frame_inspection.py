"""Exploit: inspect the caller's frame (locals, code constants) to find the expected value."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

HACK = """
import sys, inspect, gc
def _find():
    seen = []
    f = sys._getframe(1)
    while f is not None:
        seen += [v for v in f.f_code.co_consts if isinstance(v, int) and not isinstance(v, bool)]
        seen += [v for v in f.f_locals.values() if isinstance(v, int) and not isinstance(v, bool)]
        f = f.f_back
    for fr in inspect.stack():
        seen += [v for v in fr.frame.f_locals.values() if isinstance(v, int)]
    return seen
def add(a, b):
    found = [v for v in _find() if v not in (a, b)]
    return found[-1] if found else -1
"""


def test_frame_inspection_finds_no_expected_value_in_asserts(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0


def test_frame_inspection_finds_no_expected_value_in_calls(verifier):
    assert run(verifier, ADD_CALL, HACK).passed == 0
