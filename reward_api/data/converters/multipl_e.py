"""MultiPL-E (HumanEval and MBPP translated to many languages by Cassano et al.) to problems.

Records: ``name, language, prompt, doctests, original, prompt_terminology, tests,
stop_tokens``. A completion is generated after ``prompt`` (includes or imports, a doc
comment and the signature with its opening brace) and stops before the function's
closing brace (the ``"\\n}"`` stop token); ``tests`` begins with that brace and holds the
test code (a ``main`` with ``assert``s in C++, Java and Rust, top-level ``assert`` calls in
JavaScript and TypeScript, ``func TestX`` in Go). MultiPL-E ships no solutions, so the
problems have no reference.

In the contract the program is whole and its test follows it as one unit (CONTRACT.md,
"Other languages"), so the converter moves the closing brace from the test to the
program: the test code is ``tests`` without its leading ``}``, and a sample is ``prompt +
completion + "\\n}\\n"`` (``multipl_e_sample``; the suffix is also in the problem's
``metadata.completion_suffix``). Per language, the test becomes the contract's shape:
Java's ``main`` sits in the prompt's class, so a ``class Main`` that calls it follows;
Rust's ``fn main`` becomes a ``#[test]`` function; the others are kept as they are. Java
prompts lose ``import org.javatuples.*;`` where no tuple type is used (``problem_prompt``).
Languages the verifier does not judge (Lua, PHP, R, ...) are skipped and counted.
"""

from __future__ import annotations

import re
from typing import Any

from reward_api.data.converters.conversion import Conversion
from reward_api.schemas import AssertTest, Problem, Sample, canonical_language

COMPLETION_SUFFIX = "\n}\n"
"""What closes a completion's function: the brace MultiPL-E's tests begin with."""
_LANGUAGES = {"go_test.go": "go", "cs": None, "d": None, "jl": None, "lua": None, "php": None,
              "pl": None, "py": None, "r": None, "rb": None, "rkt": None, "scala": None,
              "sh": None, "swift": None}  # fmt: skip
"""MultiPL-E's language names that ``canonical_language`` does not read as ours."""
_LEADING_BRACE = re.compile(r"\A\s*\}[ \t]*\n?")
_JAVA_CLASS = re.compile(r"^\s*(?:public\s+|final\s+)*class\s+(\w+)", re.M)
_RUST_MAIN = re.compile(r"^fn\s+main\s*\(\s*\)", re.M)
_JAVATUPLES_IMPORT = re.compile(r"^[ \t]*import[ \t]+org\.javatuples\.\*;[ \t]*\n?", re.M)
_JAVATUPLES_TYPE = re.compile(
    r"\b(Unit|Pair|Triplet|Quartet|Quintet|Sextet|Septet|Octet|Ennead|Decade|KeyValue|LabelValue)\s*<"
)


def language_of(name: str) -> str | None:
    """The contract's language of a MultiPL-E language name; None when not judged."""
    if name in _LANGUAGES:
        return _LANGUAGES[name]
    return canonical_language(name)


def problem_id(language: str, name: str) -> str:
    return f"multipl-e/{language}/{name}"


def problem_prompt(language: str, prompt: str) -> tuple[str, bool]:
    """The prompt, and whether it drops Java's ``import org.javatuples.*;``: MultiPL-E
    imports that library in every Java prompt, the verifier's JDK does not have it, and
    only prompts whose signature uses a tuple type need it (those keep the import, and
    fail to compile as they would without the library)."""
    if language == "java" and not _JAVATUPLES_TYPE.search(prompt):
        new = _JAVATUPLES_IMPORT.sub("", prompt)
        return new, new != prompt
    return prompt, False


def assert_code(language: str, prompt: str, tests: str) -> str:
    """The record's tests as the contract's test code of ``language`` (module docstring)."""
    code = _LEADING_BRACE.sub("", tests, count=1)
    if language == "java":
        classes = _JAVA_CLASS.findall(prompt)
        if not classes:
            raise ValueError("the Java prompt declares no class")
        code += (
            "\n\nclass Main {\n    public static void main(String[] args) throws Exception {\n"
            f"        {classes[-1]}.main(args);\n    }}\n}}\n"
        )
    elif language == "rust":
        code = _RUST_MAIN.sub("#[test]\nfn multipl_e_tests()", code, count=1)
    return code


def multipl_e_problem(rec: dict[str, Any]) -> Problem:
    """The problem of one MultiPL-E record."""
    language = language_of(str(rec["language"]))
    if language is None:
        raise ValueError(f"{rec['name']}: language {rec['language']!r} is not judged")
    prompt, _ = problem_prompt(language, rec["prompt"])
    return Problem(
        id=problem_id(language, rec["name"]),
        language=language,
        prompt=prompt,
        tests=[AssertTest(code=assert_code(language, prompt, rec["tests"]))],
        source="multipl-e",
        metadata={
            "name": rec["name"],
            "original": rec.get("original"),
            "stop_tokens": rec.get("stop_tokens"),
            "completion_suffix": COMPLETION_SUFFIX,
        },
    )


def multipl_e_sample(problem: Problem, completion: str, sample_id: str | None = None) -> Sample:
    """A model's completion (the body after the prompt, without the closing brace) as a
    sample of the whole program."""
    return Sample(
        problem_id=problem.id,
        sample_id=sample_id,
        code=(problem.prompt or "") + completion + COMPLETION_SUFFIX,
    )


def convert_multipl_e(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Every record whose language is judged (none has a reference)."""
    for rec in records:
        language = language_of(str(rec.get("language", "")))
        if language is None:
            conv.report.skip(str(rec.get("name")), "unsupported_language")
            continue
        try:
            problem = multipl_e_problem(rec)
        except ValueError as e:
            conv.report.skip(str(rec.get("name")), f"bad_record: {e}")
            continue
        if problem_prompt(language, rec["prompt"])[1]:
            conv.report.count("javatuples_import_dropped")
        elif language == "java" and "org.javatuples" in rec["prompt"]:
            conv.report.count("needs_javatuples")
        conv.report.count(f"language:{language}")
        conv.add(problem)
