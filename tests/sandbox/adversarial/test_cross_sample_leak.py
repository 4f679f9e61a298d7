"""Exploit: leave a note in /tmp or /dev/shm for another sample (the next one, or a parallel one)."""

from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job

WRITE = (
    "open('/tmp/note', 'w').write('secret')\nopen('/dev/shm/note', 'w').write('s')\nprint('w')\n"
)
READ = (
    "import os\n"
    "seen = [p for p in ('/tmp/note', '/dev/shm/note') if os.path.exists(p)]\n"
    "print('none' if not seen else seen)\n"
)


def _problem(pid: str, out: str) -> Problem:
    return Problem.model_validate(
        {"id": pid, "tests": [{"type": "stdio", "input": "", "output": out}]}
    )


def test_files_do_not_leak_to_the_next_sample(solo):
    jobs = [
        Job(_problem("w", "w"), Sample(problem_id="w", code=WRITE)),
        Job(_problem("r", "none"), Sample(problem_id="r", code=READ)),
    ]
    first = solo.verify(jobs[:1])[0]
    second = solo.verify(jobs[1:])[0]
    assert first.accepted and second.accepted, second.tests


def test_files_do_not_leak_between_tests_of_other_samples_in_one_batch(verifier):
    jobs = [
        Job(_problem("w", "w"), Sample(problem_id="w", sample_id=str(i), code=WRITE + f"#{i}"))
        for i in range(4)
    ]
    jobs += [
        Job(_problem("r", "none"), Sample(problem_id="r", sample_id=str(i), code=READ + f"#{i}"))
        for i in range(4)
    ]
    results = verifier.verify(jobs)
    assert all(r.accepted for r in results), [r.tests for r in results]
