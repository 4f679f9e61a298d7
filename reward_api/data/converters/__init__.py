"""Converters from public code-generation datasets to CONTRACT problems and samples.

``convert(format, path)`` reads local JSON, JSON Lines or Parquet (or a hub dataset by
name, where the ``datasets`` library and a hub are reachable) and returns
``(problems, samples, report)``: problems in the contract's format, one ``code`` sample
per known-correct solution the source ships (the first is the problem's reference), and
a JSON-able report of what was kept, skipped and why. One module per dataset family;
``FORMATS`` maps each format name to its function.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reward_api.data.converters.apps import convert_apps, convert_taco
from reward_api.data.converters.codecontests import convert_codecontests
from reward_api.data.converters.conversion import Conversion, ConversionReport
from reward_api.data.converters.deepcoder import convert_deepcoder
from reward_api.data.converters.humaneval import convert_humaneval, convert_humaneval_plus
from reward_api.data.converters.humaneval_x import convert_humaneval_x
from reward_api.data.converters.leetcode import convert_leetcodedataset
from reward_api.data.converters.livecodebench import convert_livecodebench
from reward_api.data.converters.mbpp import convert_mbpp, convert_mbpp_plus, convert_mbpp_sanitized
from reward_api.data.converters.mbxp import convert_mbxp
from reward_api.data.converters.multipl_e import convert_multipl_e
from reward_api.data.converters.sources import SourceError, read_records
from reward_api.schemas import Problem, Sample

Converter = Callable[[list[dict[str, Any]], Conversion], None]

FORMATS: dict[str, Converter] = {
    "humaneval": convert_humaneval,
    "humaneval_plus": convert_humaneval_plus,
    "mbpp": convert_mbpp,
    "mbpp_sanitized": convert_mbpp_sanitized,
    "mbpp_plus": convert_mbpp_plus,
    "apps": convert_apps,
    "taco": convert_taco,
    "codecontests": convert_codecontests,
    "livecodebench": convert_livecodebench,
    "leetcodedataset": convert_leetcodedataset,
    "deepcoder": convert_deepcoder,
    "mbxp": convert_mbxp,
    "multipl_e": convert_multipl_e,
    "humaneval_x": convert_humaneval_x,
}

__all__ = ["FORMATS", "SourceError", "convert", "convert_records"]


def convert_records(
    format: str, records: list[dict[str, Any]], source: str = "<records>"
) -> tuple[list[Problem], list[Sample], dict[str, Any]]:
    """Convert already-loaded source records of ``format``."""
    if format not in FORMATS:
        raise SourceError(f"unknown format {format!r}; known: {', '.join(sorted(FORMATS))}")
    conv = Conversion(report=ConversionReport(format=format, source=source, records=len(records)))
    try:
        FORMATS[format](records, conv)
    except (KeyError, TypeError, AttributeError) as e:
        raise SourceError(
            f"{source}: does not look like {format} records ({type(e).__name__}: {e})"
        ) from None
    ids = [p.id for p in conv.problems]
    if len(set(ids)) != len(ids):
        raise SourceError(f"{source}: problem ids are not unique")
    return conv.problems, conv.samples, conv.report.to_dict(conv.problems, conv.samples)


def convert(format: str, path: str | Path) -> tuple[list[Problem], list[Sample], dict[str, Any]]:
    """Read ``path`` (file, folder of shards, or hub name) and convert its records."""
    if format not in FORMATS:
        raise SourceError(f"unknown format {format!r}; known: {', '.join(sorted(FORMATS))}")
    return convert_records(format, read_records(path), str(path))
