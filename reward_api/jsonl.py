"""The one JSON Lines reader, and the typed readers of problems and samples built on it.

Every reader of problems, samples, results or dataset records goes through ``parse_jsonl``,
so a bad line is reported the same way everywhere: ``path:line: what is wrong``.
``load_problems`` and ``load_samples`` validate each line against the contract's schema and
raise ``InputError`` naming the file, the line and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from reward_api.errors import InputError
from reward_api.schemas import Problem, Sample


def parse_jsonl(lines: Iterable[str], where: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Objects of JSONL text; ``ValueError`` names ``where:line`` of the first bad line."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}:{n}: not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise ValueError(f"{where}:{n}: expected a JSON object")
        yield n, obj


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` per non-blank line of a UTF-8 JSONL file."""
    with open(path, encoding="utf-8") as f:
        yield from parse_jsonl(f, str(path))


def _field_error(where: str, exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ())) or "(object)"
    return InputError(f"{where}: field '{loc}': {err.get('msg')}")


M = TypeVar("M", Problem, Sample)


def _read_models(path: str | Path, model: type[M]) -> Iterator[tuple[int, M]]:
    """(line, validated model) per JSONL line; InputError names the file, line and field."""
    try:
        for n, obj in read_jsonl(path):
            try:
                yield n, model.model_validate(obj)
            except ValidationError as exc:
                raise _field_error(f"{path}:{n}", exc) from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(str(exc)) from None


def load_problems(path: str | Path) -> dict[str, Problem]:
    """Problems by id from a JSONL file; InputError names the line and the field."""
    problems: dict[str, Problem] = {}
    for n, problem in _read_models(path, Problem):
        if problem.id in problems:
            raise InputError(f"{path}:{n}: field 'id': duplicate problem id {problem.id!r}")
        problems[problem.id] = problem
    if not problems:
        raise InputError(f"{path}: no problems")
    return problems


def load_samples(path: str | Path, problems: dict[str, Problem]) -> list[Sample]:
    """Samples in file order; each must name a known problem."""
    samples = []
    for n, sample in _read_models(path, Sample):
        if sample.problem_id not in problems:
            raise InputError(
                f"{path}:{n}: field 'problem_id': unknown problem {sample.problem_id!r}"
            )
        samples.append(sample)
    return samples
