"""Reward composition: named presets, settings resolution, test selection, the reward.

This module owns how a result's reward is computed from what the other stages produced
(tests passed, static report, similarity to the reference). It runs nothing itself.

Presets (``PRESETS``; every field of ``RewardSettings`` filled):

========  ===============  =========  ======  ==========  ========  ===========
preset    mode             max_tests  static  static_w    sim_w     hack_gate
========  ===============  =========  ======  ==========  ========  ===========
default   all_or_nothing   all        off     0           0         on
easy      all_or_nothing   all        off     0           0.25      on
hard      all_or_nothing   15         on      0.25        0         on
========  ===============  =========  ======  ==========  ========  ===========

The reward (``compose``)::

    execution  = 1 if accepted else 0            (mode all_or_nothing, DeepCoder's)
               = passed / total                  (mode fraction)
    reward     = (1 - ws - wm) * execution + ws * static_score + wm * similarity
    reward     = 0                               when the hack gate is on and any
                                                 reward_hacking rule fired

``ws`` and ``wm`` are the static and similarity weights. A part that is missing (no
static report, no reference) drops out and its weight goes back to execution, so a
problem without a reference is scored on execution alone. When ``ws + wm > 1`` the two
are scaled to sum to 1. ``reward_parts`` holds every term, so each result explains its
reward. The static score's own formula is in ``reward_api.verify.static_analysis``.

``static`` (on/off) says whether a result carries its ``static`` block and whether the
static score may enter the reward; the scan itself runs whenever ``needs_scan`` says so,
which includes the hack gate (on in every preset).

Similarity (``similarity``): Python tokens (``tokenize``; comments, blank lines and
indentation tokens dropped; a regex tokenizer when the program does not tokenize) of
the program and of the reference, compared with rapidfuzz's normalised Indel similarity
over the two token sequences: ``1 - indel_distance / (len(a) + len(b))``, the same
quantity as ``difflib.SequenceMatcher.ratio`` on tokens, in C. Token-level rather than
character-level so that renamed whitespace and comments do not count.

Test selection (``select_tests``) follows DeepCoder: at most ``max_tests`` tests, the
longest inputs first (stdio by ``len(input)``, call by ``len(json.dumps(args))``,
assert by ``len(code)``).
"""

from __future__ import annotations

import io
import json
import re
import tokenize
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reward_api.errors import InputError
from reward_api.schemas import RewardSettings, StaticReport
from reward_api.verify.static_analysis import CATEGORIES, HACKING

Mode = Literal["all_or_nothing", "fraction"]


class ResolvedReward(BaseModel):
    """Reward settings with every field filled: a preset overlaid with overrides."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: str = Field(description="The preset the other fields started from.")
    mode: Mode = Field(description="Execution reward: all tests or nothing, or the pass rate.")
    max_tests: int | None = Field(
        description="Run at most this many tests (longest first); None: all."
    )
    stop_on_first_failure: bool = Field(description="Skip the remaining tests after a failure.")
    static_weight: float = Field(ge=0, le=1, description="Weight of the static score.")
    similarity_weight: float = Field(
        ge=0, le=1, description="Weight of similarity to the reference."
    )
    hack_gate: bool = Field(description="Reward 0 when a reward_hacking rule fires.")
    static: bool = Field(description="Report the static block and let the static score count.")

    @property
    def needs_scan(self) -> bool:
        """Whether the pipeline must run the static scan for this reward."""
        return self.hack_gate or self.static

    @property
    def needs_similarity(self) -> bool:
        """Whether the pipeline must compute similarity to the reference."""
        return self.similarity_weight > 0

    @property
    def scan_categories(self) -> tuple[str, ...]:
        """Rule categories the scan needs: all when ``static``, else the gate's alone."""
        if self.static:
            return CATEGORIES
        return (HACKING,) if self.hack_gate else ()


PRESETS: dict[str, ResolvedReward] = {
    "default": ResolvedReward(
        preset="default",
        mode="all_or_nothing",
        max_tests=None,
        stop_on_first_failure=False,
        static_weight=0.0,
        similarity_weight=0.0,
        hack_gate=True,
        static=False,
    ),
    "easy": ResolvedReward(
        preset="easy",
        mode="all_or_nothing",
        max_tests=None,
        stop_on_first_failure=False,
        static_weight=0.0,
        similarity_weight=0.25,
        hack_gate=True,
        static=False,
    ),
    "hard": ResolvedReward(
        preset="hard",
        mode="all_or_nothing",
        max_tests=15,
        stop_on_first_failure=False,
        static_weight=0.25,
        similarity_weight=0.0,
        hack_gate=True,
        static=True,
    ),
}

_OVERRIDABLE = (
    "mode",
    "max_tests",
    "stop_on_first_failure",
    "static_weight",
    "similarity_weight",
    "hack_gate",
    "static",
)


class RewardSettingsError(InputError):
    """Reward settings that name no preset, or a settings file that cannot be read."""


def resolve(
    settings: RewardSettings | None, problem_defaults: Mapping[str, Any] | None = None
) -> ResolvedReward:
    """Fill every field: preset, then the problem set's defaults, then the request's fields.

    The preset is the request's when it names one explicitly, else the problem set's,
    else ``default``. Fields left ``None`` fall through to the layer below.
    """
    defaults = dict(problem_defaults or {})
    preset = "default"
    if defaults.get("preset") is not None:
        preset = str(defaults["preset"])
    if settings is not None and "preset" in settings.model_fields_set:
        preset = settings.preset
    if preset not in PRESETS:
        raise RewardSettingsError(f"unknown reward preset {preset!r}; known: {sorted(PRESETS)}")
    values = PRESETS[preset].model_dump()
    for layer in (defaults, settings.model_dump() if settings is not None else {}):
        for key in _OVERRIDABLE:
            if layer.get(key) is not None:
                values[key] = layer[key]
    try:
        return ResolvedReward(**values)
    except ValidationError as exc:
        raise RewardSettingsError(f"bad reward settings: {exc}") from exc


def load_reward_settings(preset_or_path: str) -> RewardSettings:
    """A preset name, or a JSON/TOML file holding RewardSettings fields (maybe under ``reward``)."""
    if preset_or_path in PRESETS:
        return RewardSettings.model_validate({"preset": preset_or_path})
    path = Path(preset_or_path)
    if not path.is_file():
        raise RewardSettingsError(
            f"{preset_or_path!r} is neither a preset ({', '.join(sorted(PRESETS))}) nor a file"
        )
    text = path.read_text(encoding="utf-8")
    try:
        data: Any = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RewardSettingsError(f"{path}: cannot parse reward settings: {exc}") from exc
    if isinstance(data, dict) and isinstance(data.get("reward"), dict):
        data = data["reward"]
    if not isinstance(data, dict):
        raise RewardSettingsError(f"{path}: reward settings must be an object")
    try:
        settings = RewardSettings.model_validate(data)
    except ValidationError as exc:
        raise RewardSettingsError(f"{path}: {exc}") from exc
    if settings.preset not in PRESETS:
        raise RewardSettingsError(f"{path}: unknown preset {settings.preset!r}")
    return settings


def _field(test: Any, name: str) -> Any:
    if isinstance(test, Mapping):
        return test.get(name)
    return getattr(test, name, None)


def input_size(test: Any) -> int:
    """DeepCoder's size of a test: the length of what it feeds the program."""
    kind = _field(test, "type")
    if kind == "call":
        return len(json.dumps(_field(test, "args") or [], default=str))
    if kind == "assert":
        return len(_field(test, "code") or "")
    return len(_field(test, "input") or "")


def select_tests(tests: Sequence[Any], max_tests: int | None) -> list[int]:
    """Indices of the tests to run: all in order, or the ``max_tests`` longest, longest first."""
    if max_tests is None or max_tests >= len(tests):
        return list(range(len(tests)))
    order = sorted(range(len(tests)), key=lambda i: (-input_size(tests[i]), i))
    return order[: max(0, max_tests)]


_TOKEN_RE = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d+)?|\S")
_SKIP_TOKENS = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}


def code_tokens(program: str) -> list[str]:
    """Python tokens of a program without comments and layout; regex tokens on failure."""
    try:
        return [
            tok.string
            for tok in tokenize.generate_tokens(io.StringIO(program).readline)
            if tok.type not in _SKIP_TOKENS
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        text = re.sub(r"#[^\n]*", "", program)
        return _TOKEN_RE.findall(text)


def similarity(program: str, reference: str) -> float:
    """Token-level similarity in [0, 1] (rapidfuzz normalised Indel; see module docstring)."""
    from rapidfuzz.distance import Indel  # optional dependency, only for similarity rewards

    a, b = code_tokens(program), code_tokens(reference)
    if not a and not b:
        return 1.0
    return float(Indel.normalized_similarity(a, b))


def compose(
    resolved: ResolvedReward,
    passed: int,
    total: int,
    accepted: bool,
    static: StaticReport | None,
    similarity: float | None,
) -> tuple[float, dict[str, float]]:
    """The reward and its parts; the formula is in the module docstring."""
    if resolved.mode == "fraction":
        execution = passed / total if total > 0 else 0.0
    else:
        execution = 1.0 if accepted else 0.0
    ws = resolved.static_weight if (resolved.static and static is not None) else 0.0
    wm = resolved.similarity_weight if similarity is not None else 0.0
    if ws + wm > 1.0:
        ws, wm = ws / (ws + wm), wm / (ws + wm)
    we = 1.0 - ws - wm
    parts: dict[str, float] = {"execution": execution, "weight_execution": round(we, 6)}
    reward = we * execution
    if ws > 0 and static is not None:
        parts["static"] = static.score
        parts["weight_static"] = round(ws, 6)
        reward += ws * static.score
    if wm > 0 and similarity is not None:
        parts["similarity"] = round(similarity, 6)
        parts["weight_similarity"] = round(wm, 6)
        reward += wm * similarity
    if resolved.hack_gate:
        hacked = static is not None and any(f.category == HACKING for f in static.findings)
        parts["hack_gate"] = 1.0 if hacked else 0.0
        if hacked:
            reward = 0.0
    reward = min(1.0, max(0.0, round(reward, 6)))
    parts["reward"] = reward
    return reward, parts
