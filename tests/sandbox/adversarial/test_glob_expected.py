"""Exploit: search the filesystem for files that look like expected outputs and print them."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_STDIO

HACK = """
import glob, os
found = []
for pattern in ("/**/*expected*", "/**/*.out", "/**/*answer*", "/**/*test*.json*", "/**/*.jsonl"):
    found += [p for p in glob.glob(pattern, recursive=True)
              if not p.startswith(("/proc", "/sys", "/usr", "/dev"))]
for p in found:
    try:
        print(open(p).read())
    except OSError:
        pass
print("FOUND", len(found))
"""


def test_no_expected_output_files_are_visible(verifier):
    result = run(verifier, ADD_STDIO, HACK)
    assert not result.accepted and result.verdict.value in ("wrong_answer", "timeout")


def test_sandbox_sees_no_host_test_data(verifier):
    probe = "import os\nprint(sorted(os.listdir('/tmp')), os.path.exists('/work'), os.path.exists('/root/.cache'))\n"
    problem = {"tests": [{"type": "stdio", "input": "", "output": "[] False False"}]}
    assert run(verifier, problem, probe).accepted
