"""Wire schemas: cheap to import, strict on bad input, faithful to CONTRACT.md."""

import subprocess
import sys

import pytest
from pydantic import ValidationError

from reward_api.schemas import Problem, Sample


def test_schemas_pipeline_and_cli_import_neither_torch_nor_docker():
    code = (
        "import sys\nimport reward_api.schemas, reward_api.verify.pipeline, reward_api.cli, reward_api.service.app\n"
        "print(sorted(m for m in ('torch', 'docker', 'vllm', 'transformers') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_problem_defaults_follow_the_contract():
    p = Problem.model_validate(
        {"id": "a", "tests": [{"type": "stdio", "input": "1", "output": "1"}]}
    )
    assert (p.language, p.limits.time_s, p.limits.memory_mb, p.compare) == (
        "python",
        6.0,
        512,
        "lcb",
    )


def test_problem_without_tests_is_rejected_naming_the_field():
    with pytest.raises(ValidationError) as err:
        Problem.model_validate({"id": "a", "tests": []})
    assert err.value.errors()[0]["loc"] == ("tests",)


def test_unknown_test_type_is_rejected():
    with pytest.raises(ValidationError):
        Problem.model_validate({"id": "a", "tests": [{"type": "magic", "code": "x"}]})


def test_unknown_comparator_is_rejected():
    with pytest.raises(ValidationError):
        Problem.model_validate(
            {"id": "a", "compare": "fuzzy", "tests": [{"type": "assert", "code": "pass"}]}
        )


def test_sample_needs_a_program():
    with pytest.raises(ValidationError):
        Sample.model_validate({"problem_id": "a"})


def test_extra_problem_fields_are_carried_through():
    p = Problem.model_validate(
        {"id": "a", "tests": [{"type": "assert", "code": "pass"}], "split": "train"}
    )
    assert p.model_dump()["split"] == "train"
