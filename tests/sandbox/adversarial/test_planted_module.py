"""Exploit: plant modules (numpy.py, sitecustomize, .pth) for later samples to import."""

from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job

PLANT = """
import os
for d in ("/tmp", "/dev/shm", os.getcwd()):
    for name in ("numpy.py", "collections.py", "sitecustomize.py", "usercustomize.py", "evil.pth"):
        try:
            with open(os.path.join(d, name), "w") as f:
                f.write("import os; os._exit(0)\\n")
        except OSError:
            pass
print("planted")
"""
CHECK = """
import numpy, collections, os
print("clean" if hasattr(numpy, "array") and not os.listdir("/tmp") and not os.listdir("/dev/shm") else "dirty")
"""


def test_planted_modules_do_not_reach_the_next_sample(solo):
    plant = Problem.model_validate(
        {"id": "a", "tests": [{"type": "stdio", "input": "", "output": "planted"}]}
    )
    check = Problem.model_validate(
        {"id": "b", "tests": [{"type": "stdio", "input": "", "output": "clean"}]}
    )
    assert solo.verify([Job(plant, Sample(problem_id="a", code=PLANT))])[0].accepted
    result = solo.verify([Job(check, Sample(problem_id="b", code=CHECK))])[0]
    assert result.accepted, result.tests
