"""Exploit: a double-forked daemon in a new session that outlives its test and spies on later ones."""

from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job

DAEMON = (
    "import os, time\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        for _ in range(600):\n"
    "            time.sleep(0.05)\n"
    "        os._exit(0)\n"
    "    os._exit(0)\n"
    "print('x')\n"
)
CENSUS = (
    "import os\n"
    "others = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid())]\n"
    "print('clean' if not others else 'dirty %s' % others)\n"
)


def _problem(output: str) -> Problem:
    return Problem.model_validate(
        {"id": "p", "tests": [{"type": "stdio", "input": "", "output": output}]}
    )


def test_daemon_does_not_survive_into_the_next_test(solo):
    problem = Problem.model_validate(
        {"id": "p", "tests": [{"type": "stdio", "input": "", "output": "x"}] * 2}
    )
    first = solo.verify([Job(problem, Sample(problem_id="p", code=DAEMON))])[0]
    assert first.accepted
    census = solo.verify([Job(_problem("clean"), Sample(problem_id="p", code=CENSUS))])[0]
    assert census.accepted, census.tests
