"""Exploit: allocate without bound, to take memory from the host and other samples."""

from tests.conftest import run

PROBLEM = {"tests": [{"type": "stdio", "input": "", "output": "x\n"}], "limits": {"memory_mb": 128}}


def test_list_growth_hits_the_memory_limit(verifier):
    hack = "a = []\nwhile True:\n    a.append(bytearray(1 << 20))\n"
    assert run(verifier, PROBLEM, hack).verdict.value == "memory_limit"


def test_single_huge_allocation_hits_the_memory_limit(verifier):
    hack = "x = bytearray(4 << 30)\nprint('x')\n"
    assert run(verifier, PROBLEM, hack).verdict.value == "memory_limit"


def test_filling_tmp_is_stopped(verifier):
    hack = "f = open('/tmp/fill', 'wb')\nwhile True:\n    f.write(b'x' * (1 << 20))\n"
    assert not run(verifier, PROBLEM, hack).accepted
