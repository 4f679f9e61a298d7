"""Program extraction from completions."""

from reward_api.schemas import Sample
from reward_api.verify.extract import extract_code, program_of


def test_last_fenced_block_wins():
    text = "first\n```python\nx = 1\n```\nthen\n```python\nx = 2\n```\nbye"
    assert extract_code(text) == "x = 2\n"


def test_text_without_fences_is_the_program():
    assert extract_code("print(1)\n") == "print(1)\n"


def test_unclosed_last_fence_runs_to_the_end():
    assert extract_code("intro\n```py\nprint(3)\n") == "print(3)\n"


def test_code_field_is_taken_verbatim():
    sample = Sample(problem_id="p", code="```python\nnot extracted\n```")
    assert program_of(sample) == "```python\nnot extracted\n```"
