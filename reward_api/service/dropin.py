"""Drop-in endpoints: OpenRLHF's remote reward and SandboxFusion's /run_code and /submit.

A trainer built for those services switches to codereward by changing a URL. The adapters
are thin: translate the foreign body, call the gateway's spine (``Gateway.resolve`` and
``Gateway.score``) or the sandbox's stdio run, translate back.

- ``POST /compat/openrlhf``: OpenRLHF's ``--remote_rm_url`` protocol. Body ``{"query":
  [...], "prompts": [...], "labels": [...]}``: each query is prompt + response (the
  response is the query with its prompt prefix removed). A label is a problem id (a
  string, or a dataset's integer id: ``4003`` finds ``apps/4003``), a problem inline (an
  object, or its JSON text); a missing or empty label (releases without ``--label_key``
  send ``""``, old ones no ``labels`` at all) finds the registered problem whose prompt
  the item's prompt, or else its query, contains. Answer ``{"rewards": [...], "scores":
  [...], "extra_logs": {...}}``. OpenRLHF needs a float per sample and has no "drop this
  sample", so an infrastructure failure answers 503 (every OpenRLHF release retries any
  error, five times a second apart) instead of inventing a 0.
- ``POST /run_code``: SandboxFusion's code runner, as verl's ``sandbox_fusion`` reward
  calls it (``code``, ``stdin``, ``language``, ``compile_timeout``, ``run_timeout``,
  ``memory_limit_MB``, ``files``, ``fetch_files``); the program runs once in our sandbox
  on ``stdin`` and the answer carries ``status`` (Success, Failed, SandboxError),
  ``message``, ``compile_result`` (null: Python is not compiled), ``run_result`` (``status``
  Finished or TimeLimitExceeded, ``execution_time``, ``return_code``, ``stdout``,
  ``stderr``), ``executor_pod_name`` and ``files``. A program killed by a signal (a
  segfault, an abort, SIGKILL at a memory or output limit) is ``Finished`` with
  ``return_code`` minus that signal, as SandboxFusion's ``Popen.returncode`` reports it.
  ``compile_timeout`` limits the compile (at most the service's ``compile_time_s``), on a
  worker as in the gateway; past it ``compile_result`` is ``TimeLimitExceeded``. verl compares ``stdout`` with the
  expected output itself. verl sends one request per test and never retries a refusal
  (only a 504), so this route is never rate limited: it queues for a cell for at most
  ``compile_timeout`` + ``RUN_CODE_SLACK_S`` (Python compiles nothing, and verl's own
  timeout is compile + run + 10 s), then answers 504, which verl and SandboxFusion's
  client retry. Infrastructure failures are retried in fresh cells first; a broken
  sandbox answers ``SandboxError`` at once.
- ``POST /submit``: SandboxFusion's judge. ``id`` names a registered problem (or
  ``config.provided_data.problem`` carries one inline), ``completion`` is model output;
  the answer is SandboxFusion's ``EvalResult``: ``id``, ``accepted``, ``extracted_code``,
  ``tests`` (``passed``, ``exec_info``, ``test_info``) and ``extra`` (our reward,
  verdict and result). An infrastructure failure (``sandbox_error`` after retries)
  answers 500, as SandboxFusion does, so its client retries and never counts it as a
  rejected answer. ``config.provided_data`` may also be SandboxFusion's CommonOJ row
  (``{"id", "content", "test": [{"input": {"stdin"}, "output": {"stdout"}}]}``, what
  prime-rl's CodeVerifier and SandboxFusion's README send): its tests are judged as stdio
  tests with our default comparator, in ``config.language`` (needed; SandboxFusion's
  names), with ``config.run_timeout`` as the per-test limit when given. An inline problem
  without a ``language`` of its own takes ``config.language``. A list of rows (SandboxFusion's
  form for listing prompts, refused on its /submit too) is a 422. Each test's ``exec_info``
  says how the program ran as far as its verdict records (``return_code_of``): the run's
  status, ``execution_time`` and ``return_code`` (never null with ``Finished``, so
  SandboxFusion's ``summary_run_code_result`` reads it), ``compile_result`` with the
  compiler's message for a compile error; stdout and stderr are not kept per test.

- ``GET /v1/ping``: SandboxFusion's health probe, answered ``"pong"`` (JSON) without a key,
  like ``/healthz``: clients built for SandboxFusion check it before they send work.

Back-pressure: none of these three routes answers 429 (their clients do not honour
Retry-After); they queue, each with a bounded wait. ``/v1`` keeps 429 + Retry-After.
"""

from __future__ import annotations

import json
import re
import signal
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reward_api.schemas import (
    Problem,
    Result,
    Sample,
    TestResult,
    Verdict,
    canonical_language,
    is_problem_fault,
)
from reward_api.service.deps import CompatCallerDep, GatewayDep
from reward_api.service.http import ApiError, RewardItem, error_response
from reward_api.service.problem_store import Entry, find
from reward_api.verify.extract import extract_code

RUN_CODE_SLACK_S = 5.0
"""Queueing allowed beyond ``compile_timeout`` on /run_code. verl waits compile + run + 10 s;
the answer comes by compile + 5 (queue) + run + 3 (``broker.RUN_OVERHEAD_S``): 2 s early."""

# ---------------------------------------------------------------- OpenRLHF


class OpenRLHFRequest(BaseModel):
    """OpenRLHF's remote reward request (extra keys it may add are ignored)."""

    model_config = ConfigDict(extra="ignore")

    query: list[str] = Field(description="Prompt + response texts, one per sample.")
    prompts: list[str | None] | None = Field(
        default=None, description="The prompts; removed from the front of each query when present."
    )
    labels: list[str | int | float | dict[str, Any] | None] | None = Field(
        default=None,
        description="Per query: a problem id (string or integer), an inline problem (object "
        "or JSON text), or empty/absent to find the problem by its prompt.",
    )


class OpenRLHFResponse(BaseModel):
    """Rewards in sample order, as OpenRLHF reads them."""

    rewards: list[float] = Field(description="Reward per sample (advantage input).")
    scores: list[float] = Field(description="Same values; OpenRLHF uses them for filtering.")
    extra_logs: dict[str, list[float]] = Field(
        description="Per-sample values OpenRLHF averages into its logs (accepted, pass_rate)."
    )


# ---------------------------------------------------------------- SandboxFusion


class RunCodeRequest(BaseModel):
    """SandboxFusion's /run_code request (the fields verl sends)."""

    model_config = ConfigDict(extra="ignore")

    code: str = Field(description="The program to run.")
    language: str = Field(
        default="python",
        description="python, cpp, c, java, nodejs/javascript, typescript, go or rust "
        "(SandboxFusion's names and the contract's).",
    )
    stdin: str | None = Field(default=None, description="Text fed to standard input.")
    compile_timeout: float = Field(
        default=10, gt=0, description="Wall seconds for the compile (compiled languages)."
    )
    run_timeout: float = Field(default=10, gt=0, le=300, description="Wall seconds for the run.")
    memory_limit_MB: int = Field(
        default=-1, ge=-1, le=16384, description="Memory limit in MiB; -1 takes the default 512."
    )
    files: dict[str, str | None] = Field(
        default_factory=dict, description="Accepted for compatibility; must be empty."
    )
    fetch_files: list[str] = Field(
        default_factory=list, description="Accepted for compatibility; nothing is fetched."
    )


class CommandRunResult(BaseModel):
    """One command's outcome, in SandboxFusion's shape."""

    status: Literal["Finished", "Error", "TimeLimitExceeded"] = Field(
        description="Finished (any exit code), TimeLimitExceeded, or Error (sandbox side)."
    )
    execution_time: float | None = Field(default=None, description="Wall seconds.")
    return_code: int | None = Field(
        default=None,
        description="Exit code, or minus the signal that killed the program (-11 for a "
        "segfault, -9 for SIGKILL at a limit); null after a time limit.",
    )
    stdout: str | None = Field(default=None, description="Standard output.")
    stderr: str | None = Field(default=None, description="Tail of standard error.")


class RunCodeResponse(BaseModel):
    """SandboxFusion's /run_code response."""

    status: Literal["Success", "Failed", "SandboxError"] = Field(
        description="Success: exit 0; Failed: non-zero exit or time limit; SandboxError: ours."
    )
    message: str = Field(default="", description="Detail for SandboxError.")
    compile_result: CommandRunResult | None = Field(
        default=None, description="The compile's outcome; null for Python."
    )
    run_result: CommandRunResult | None = Field(default=None, description="The run's outcome.")
    executor_pod_name: str | None = Field(default=None, description="Always null.")
    files: dict[str, str] = Field(default_factory=dict, description="Always empty.")


class TestConfig(BaseModel):
    """SandboxFusion's submit config; ``provided_data`` may carry the problem inline, as
    SandboxFusion's CommonOJ row (``{"test": [...]}``) or as ours (``{"problem": ...}``)."""

    model_config = ConfigDict(extra="ignore")

    dataset_type: str | None = Field(
        default=None,
        description="Ignored: provided data with 'test' is judged as SandboxFusion's "
        "CommonOJDataset (stdio tests), whatever the type.",
    )
    language: str | None = Field(
        default=None,
        description="Language of the completion (SandboxFusion's names: python, cpp, java, "
        "nodejs, typescript, go, rust, ...): needed for CommonOJ provided data, and used for "
        "an inline problem without a language of its own; a problem's own language wins.",
    )
    compile_timeout: float | None = Field(default=None, description="Ignored.")
    run_timeout: float | None = Field(
        default=None,
        description="Per-test wall seconds (at most 300) for CommonOJ provided data; otherwise the "
        "problem's limits apply.",
    )
    provided_data: dict[str, Any] | list[Any] | None = Field(
        default=None,
        description="SandboxFusion's CommonOJ row {'id', 'content', 'test': [{'input': "
        "{'stdin'}, 'output': {'stdout'}}]} or {'problem': Problem}, to judge against an "
        "unregistered problem. A list (SandboxFusion's form for listing prompts) is refused.",
    )
    extra: dict[str, Any] = Field(default_factory=dict, description="Ignored.")


class SubmitRequest(BaseModel):
    """SandboxFusion's /submit request."""

    model_config = ConfigDict(extra="ignore")

    dataset: str | None = Field(
        default=None, description="Ignored: problems come from our registry."
    )
    id: int | str = Field(
        description="Registered problem id; with provided data, only copied to the answer."
    )
    completion: str = Field(description="Model output; its last fenced block is the program.")
    config: TestConfig = Field(default_factory=TestConfig, description="Judge options.")


class EvalTestCase(BaseModel):
    """One test of a submission."""

    passed: bool = Field(description="The test passed.")
    exec_info: RunCodeResponse = Field(description="How the program ran on this test.")
    test_info: dict[str, Any] | None = Field(default=None, description="Our verdict for the test.")


class EvalResult(BaseModel):
    """SandboxFusion's /submit response."""

    id: int | str = Field(description="The submitted id.")
    accepted: bool = Field(description="Every test passed.")
    extracted_code: str = Field(description="The program taken from the completion.")
    full_code: str | None = Field(default=None, description="Same as extracted_code.")
    test_code: str | None = Field(default=None, description="Null: tests never leave the service.")
    tests: list[EvalTestCase] = Field(description="Per test outcome.")
    extracted_type: Literal["fenced", "incomplete_fenced", "heuristic", "empty"] | None = Field(
        default=None,
        description="'fenced' when a code block was found, else 'heuristic' or 'empty'.",
    )
    extra: dict[str, Any] | None = Field(
        default=None, description="codereward's reward, verdict and full result."
    )


# ---------------------------------------------------------------- translation


def split_response(query: str, prompt: str | None) -> str:
    """OpenRLHF sends prompt + response; the response is what follows the prompt."""
    if prompt and query.startswith(prompt):
        return query[len(prompt) :]
    return query


def run_response(report: dict[str, Any]) -> RunCodeResponse:
    """Our sandbox's stdio report in SandboxFusion's shape."""
    if report.get("error"):
        return RunCodeResponse(status="SandboxError", message=str(report["error"]))
    compiled = report.get("compile")
    compile_result = None
    if isinstance(compiled, dict):
        compile_timed_out = compiled.get("limit") == "timeout"
        compile_result = CommandRunResult(
            status="TimeLimitExceeded" if compile_timed_out else "Finished",
            execution_time=compiled.get("time_s"),
            return_code=0 if compiled.get("ok") else (None if compile_timed_out else 1),
            stdout="",
            stderr=str(compiled.get("output", "")),
        )
        if not compiled.get("ok"):  # SandboxFusion: a failed compile is not run
            return RunCodeResponse(status="Failed", compile_result=compile_result)
    timed_out = report.get("limit") == "timeout"
    rc = report.get("exit_code")
    if rc is None and report.get("signal") is not None:
        rc = -int(report["signal"])  # as SandboxFusion's Popen.returncode reports a kill
    run = CommandRunResult(
        status="TimeLimitExceeded" if timed_out else "Finished",
        execution_time=report.get("time_s"),
        return_code=rc,
        stdout=report.get("stdout", ""),
        stderr=report.get("stderr", ""),
    )
    ok = not timed_out and rc == 0 and not report.get("limit")
    return RunCodeResponse(
        status="Success" if ok else "Failed", compile_result=compile_result, run_result=run
    )


_EXIT_STATUS = re.compile(r"exit status (-?\d+)")
_KILLED_BY = re.compile(r"killed by signal (\d+)")
_NOT_RUN = {Verdict.no_code, Verdict.skipped, Verdict.compile_error, Verdict.sandbox_error}


def return_code_of(verdict: Verdict, detail: str | None, stdio: bool) -> int:
    """A test's exit status as SandboxFusion reports it, from what our verdict records: the
    program's own status, minus the signal that killed it (SIGKILL at a memory or output
    limit), 1 for a failure whose status we do not keep (an exception, a syntax error, a
    failed call or assert test: what Python exits with), 0 for a stdio test whose output was
    judged (only a program that exited 0 has its output judged)."""
    if verdict is Verdict.accepted or (verdict is Verdict.wrong_answer and stdio):
        return 0
    text = detail or ""
    if (m := _EXIT_STATUS.search(text)) is not None:
        return int(m.group(1))
    if (m := _KILLED_BY.search(text)) is not None:
        return -int(m.group(1))
    if verdict is Verdict.output_limit or "memory ceiling" in text:
        return -int(signal.SIGKILL)
    if text == "file size limit":
        return -int(signal.SIGXFSZ)
    return 1


def exec_info_of(t: TestResult, stdio: bool, compiled: bool) -> RunCodeResponse:
    """How the program ran on one test, in SandboxFusion's ``RunCodeResponse`` shape, as far
    as our per-test verdict tells: never ``Finished`` without a ``return_code``. stdout and
    stderr are not kept per test (null)."""
    if t.verdict is Verdict.sandbox_error:
        run = CommandRunResult(status="Error", execution_time=t.time_s)
        return RunCodeResponse(status="SandboxError", message=t.detail or "", run_result=run)
    if t.verdict is Verdict.compile_error:
        failed = CommandRunResult(status="Finished", return_code=1, stdout="", stderr=t.detail)
        return RunCodeResponse(status="Failed", compile_result=failed)
    if t.verdict in _NOT_RUN:  # nothing ran: SandboxFusion's summary reads a plain Failed
        return RunCodeResponse(status="Failed", message=t.detail or t.verdict.value)
    built = CommandRunResult(status="Finished", return_code=0) if compiled else None  # it ran
    if t.verdict is Verdict.timeout:
        run = CommandRunResult(status="TimeLimitExceeded", execution_time=t.time_s)
        return RunCodeResponse(status="Failed", compile_result=built, run_result=run)
    rc = return_code_of(t.verdict, t.detail, stdio)
    run = CommandRunResult(status="Finished", execution_time=t.time_s, return_code=rc)
    return RunCodeResponse(
        status="Success" if rc == 0 else "Failed", compile_result=built, run_result=run
    )


def eval_result(
    sub_id: int | str, completion: str, result: Result, problem: Problem | None = None
) -> EvalResult:
    """Our result in SandboxFusion's ``EvalResult`` shape (``problem``: the judged problem,
    whose test types and language make each test's ``exec_info``)."""
    code = extract_code(completion)
    kinds = [t.type for t in problem.tests] if problem is not None else []
    compiled = problem is not None and problem.language not in ("python", "python3")
    tests = []
    for i, t in enumerate(result.tests):
        stdio = i < len(kinds) and kinds[i] == "stdio"
        tests.append(
            EvalTestCase(
                passed=t.verdict is Verdict.accepted,
                exec_info=exec_info_of(t, stdio, compiled),
                test_info={"verdict": t.verdict.value, "detail": t.detail},
            )
        )
    kind: Literal["fenced", "heuristic", "empty"] = (
        "empty" if not code.strip() else "fenced" if code != completion else "heuristic"
    )
    return EvalResult(
        id=sub_id,
        accepted=result.accepted,
        extracted_code=code,
        full_code=code,
        tests=tests,
        extracted_type=kind,
        extra={
            "reward": result.reward,
            "verdict": result.verdict.value,
            "result": result.model_dump(mode="json"),
        },
    )


# ---------------------------------------------------------------- routes


def provided_problem(body: SubmitRequest) -> Problem | None:
    """The problem ``config.provided_data`` carries (ours, or SandboxFusion's CommonOJ row
    in ``config.language``), or None to find ``id`` in the registry; 422 when unusable."""
    config = body.config
    data = config.provided_data
    if isinstance(data, list):  # SandboxFusion too refuses a list on /submit (400)
        raise ApiError(422, "config.provided_data: /submit judges one problem: give one "
                            "object (a CommonOJ row or {'problem': ...}), not a list")  # fmt: skip
    if not data or ("problem" not in data and "test" not in data):
        return None
    language, inline = config.language, data.get("problem")
    own_language = isinstance(inline, dict) and "language" in inline  # it wins when given
    if language is not None and not own_language and canonical_language(language) is None:
        raise ApiError(422, f"config.language: unsupported language {language!r}")
    if "problem" in data:
        if isinstance(inline, dict) and not own_language and language is not None:
            inline = {**inline, "language": language}
        try:
            return Problem.model_validate(inline)
        except ValueError as exc:
            raise ApiError(422, f"config.provided_data.problem: {exc}") from None
    if language is None:  # as SandboxFusion's CommonOJDataset answers (400 there)
        raise ApiError(422, "config.language: needed to judge CommonOJ provided data")
    fields: dict[str, Any] = {
        "id": str(data.get("id", body.id)) or "provided",
        "language": language,
        "tests": commonoj_tests(data["test"]),
    }
    if isinstance(data.get("content"), str):
        fields["prompt"] = data["content"]
    if config.run_timeout is not None:
        if not 0 < config.run_timeout <= 300:
            raise ApiError(422, "config.run_timeout: needs 0 < seconds <= 300")
        fields["limits"] = {"time_s": config.run_timeout}
    try:
        return Problem.model_validate(fields)
    except ValueError as exc:
        raise ApiError(422, f"config.provided_data: {exc}") from None


def commonoj_tests(raw: Any) -> list[dict[str, str]]:
    """SandboxFusion's ``GeneralStdioTest`` list (or its JSON text, as its tables hold it)
    as our stdio tests; 422 for a file test (a name besides stdin/stdout) or a bad shape."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise ApiError(422, "config.provided_data.test: not JSON") from None
    if not isinstance(raw, list) or not raw:
        raise ApiError(422, "config.provided_data.test: needs a non-empty list of tests")
    tests = []
    for i, case in enumerate(raw):
        where = f"config.provided_data.test.{i}"
        given = case.get("input") if isinstance(case, dict) else None
        want = case.get("output") if isinstance(case, dict) else None
        if not isinstance(given, dict) or not isinstance(want, dict):
            raise ApiError(422, f"{where}: needs {{'input': {{'stdin'}}, 'output': {{'stdout'}}}}")
        if set(given) - {"stdin"} or set(want) - {"stdout"}:
            raise ApiError(422, f"{where}: file tests are not supported (stdin/stdout only)")
        stdin, stdout = given.get("stdin", ""), want.get("stdout")
        if not isinstance(stdin, str) or not isinstance(stdout, str):
            raise ApiError(422, f"{where}: stdin and stdout must be strings")
        tests.append({"type": "stdio", "input": stdin, "output": stdout})
    return tests


def _item(where: str, **fields: Any) -> RewardItem:
    """A gateway item from foreign fields; 422 naming the foreign field when it is unusable."""
    try:
        return RewardItem.model_validate(fields)
    except ValidationError as exc:
        raise ApiError(422, f"{where}: {exc.errors()[0]['msg']}") from None


router = APIRouter(tags=["compat"])
"""The drop-in endpoints; they share the gateway's auth, limits and spine."""


@router.post("/compat/openrlhf", response_model=OpenRLHFResponse)
async def openrlhf(body: OpenRLHFRequest, gw: GatewayDep, who: CompatCallerDep) -> Any:
    """OpenRLHF remote reward: labels are problem ids, inline problems, or absent."""
    n = len(body.query)
    labels = body.labels if body.labels is not None else [None] * n
    if len(labels) != n:
        raise ApiError(422, "labels: needs one label per query")
    if body.prompts is not None and len(body.prompts) != n:
        raise ApiError(422, "prompts: needs one prompt per query")
    if not body.query:
        return OpenRLHFResponse(rewards=[], scores=[], extra_logs={})
    prompts: list[str | None] = list(body.prompts) if body.prompts is not None else [None] * n
    pairs = await _openrlhf_pairs(gw, body.query, prompts, labels)
    # No batch limit here: OpenRLHF 0.8 sends a whole rollout in one request and would
    # fail its step on a refusal; the batch is verified in max_batch slices instead.
    results: list[Result] = []
    for start in range(0, n, gw.settings.max_batch):
        results += await gw.score(pairs[start : start + gw.settings.max_batch], None)
    broken = next((i for i, r in enumerate(results) if is_problem_fault(r)), None)
    if broken is not None:  # a retry would fail the same way: bad input, not our fault
        raise ApiError(422, f"labels.{broken}: the problem cannot be judged: "
                            f"{results[broken].error}")  # fmt: skip
    if any(r.reward is None for r in results):
        return error_response(
            503, "sandbox infrastructure failed; retry", retry_after_s=gw.settings.retry_after_s
        )
    rewards = [float(r.reward or 0.0) for r in results]
    return OpenRLHFResponse(
        rewards=rewards,
        scores=rewards,
        extra_logs={
            "accepted": [float(r.accepted) for r in results],
            "pass_rate": [r.passed / r.total if r.total else 0.0 for r in results],
        },
    )


def _label(raw: str | int | float | dict[str, Any] | None, i: int) -> str | Problem | None:
    """A label as a problem id, an inline problem, or None (find by prompt)."""
    if raw is None:
        return None
    if isinstance(raw, dict) or (isinstance(raw, str) and raw.lstrip().startswith("{")):
        try:
            data = json.loads(raw) if isinstance(raw, str) else raw
            return Problem.model_validate(data)
        except ValueError as exc:
            raise ApiError(422, f"labels.{i}: not a problem: {str(exc)[:200]}") from None
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ApiError(422, f"labels.{i}: {raw!r} is not a problem id")
        raw = int(raw)
    text = str(raw).strip()
    return text or None


async def _openrlhf_pairs(
    gw: Any, queries: list[str], prompts: list[str | None], raw_labels: list[Any]
) -> list[tuple[Entry, Sample]]:
    labels = [_label(raw, i) for i, raw in enumerate(raw_labels)]
    ids = [lab if isinstance(lab, str) else None for lab in labels]
    texts = [p if p else q for p, q in zip(prompts, queries, strict=True)]
    need = [i for i, lab in enumerate(labels) if not isinstance(lab, Problem)]
    found = await find(gw.registry, [ids[i] for i in need], [texts[i] for i in need])
    entries: dict[int, Entry] = {}
    for i, entry in zip(need, found, strict=True):
        if entry is None:
            what = f"unknown problem {ids[i]!r}" if ids[i] else "no registered problem's prompt"
            raise ApiError(422, f"labels.{i}: {what} (register problems with POST /v1/problems)")
        entries[i] = entry
    inline: dict[int, Entry] = {}
    pairs = []
    for i, (query, lab) in enumerate(zip(queries, labels, strict=True)):
        if isinstance(lab, Problem):
            entry = inline.setdefault(id(lab), Entry(lab))
            response = split_response(query, prompts[i])
        else:
            entry = entries[i]
            response = split_response(query, prompts[i] or _prompt_in(query, entry))
        sample = Sample(problem_id=entry.problem.id, completion=response)
        pairs.append((entry, sample))
    return pairs


def _prompt_in(query: str, entry: Entry) -> str | None:
    """The query's text up to the end of the problem's prompt, when it holds it verbatim."""
    prompt = entry.problem.prompt
    if not prompt:
        return None
    at = query.find(prompt)
    return query[: at + len(prompt)] if at >= 0 else None


@router.get("/v1/ping", response_model=str)
async def ping() -> str:
    """SandboxFusion's liveness probe: the process answers."""
    return "pong"


@router.post(
    "/run_code",
    response_model=RunCodeResponse,
    responses={504: {"description": "No sandbox cell was free in time; retry (verl does)."}},
)
async def run_code(body: RunCodeRequest, gw: GatewayDep, who: CompatCallerDep) -> Any:
    """SandboxFusion code runner: run the program once on stdin."""
    language = canonical_language(body.language)
    if language is None:
        return RunCodeResponse(
            status="SandboxError", message=f"unsupported language {body.language!r}"
        )
    if any(body.files.values()) or body.fetch_files:
        raise ApiError(422, "files: file transfer is not supported")
    memory_mb = body.memory_limit_MB if body.memory_limit_MB > 0 else 512
    report = await gw.dispatch.run_program(
        body.code,
        body.stdin or "",
        body.run_timeout,
        max(memory_mb, 16),
        body.compile_timeout + RUN_CODE_SLACK_S,
        language,
        body.compile_timeout,
    )
    if report.get("busy"):
        body_504 = RunCodeResponse(status="SandboxError", message=str(report.get("error")))
        return JSONResponse(body_504.model_dump(), status_code=504)
    return run_response(report)


@router.post(
    "/submit",
    response_model=EvalResult,
    responses={500: {"description": "Our infrastructure failed (as SandboxFusion answers)."}},
)
async def submit(body: SubmitRequest, gw: GatewayDep, who: CompatCallerDep) -> Any:
    """SandboxFusion judge against a registered (or provided) problem."""
    problem = provided_problem(body)
    if problem is not None:
        item = _item("config.provided_data", problem=problem, completion=body.completion)
    else:
        item = _item("id", problem_id=str(body.id), completion=body.completion)
    pairs = await gw.resolve([item], field="id")
    (result,) = await gw.score(pairs, None)
    if is_problem_fault(result):  # bad input found by running it: no retry can help
        raise ApiError(422, f"the problem cannot be judged: {result.error}")
    if result.verdict is Verdict.sandbox_error:
        return error_response(500, f"sandbox infrastructure failed: {result.error}")
    return eval_result(body.id, body.completion, result, pairs[0][0].problem)
