"""Reading source records: local JSON, JSON Lines or Parquet files, or a hub dataset by name.

``read_records`` returns plain dicts exactly as the source stores them (nested Parquet
structs become dicts and lists). A path that does not exist locally is taken as a
dataset name for the ``datasets`` library, ``owner/name[:config][@split]``; that path
needs ``datasets`` installed and a reachable hub, and says so when either is missing.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import IO, Any

from reward_api.jsonl import parse_jsonl

PARQUET_SUFFIXES = (".parquet", ".pq")


class SourceError(ValueError):
    """The input cannot be read as records of the expected format."""


def read_records(source: str | Path) -> list[dict[str, Any]]:
    """All records of a local file (or a folder of shards), or of a hub dataset by name."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and _kind(p) is not None)
        if not files:
            raise SourceError(f"{path}: no .json, .jsonl or .parquet files in this folder")
        return [r for f in files for r in _read_file(f)]
    if path.exists():
        return _read_file(path)
    if "/" in str(source) and not str(source).startswith((".", "/")):
        return _read_hub(str(source))
    raise SourceError(f"{source}: no such file")


def _kind(path: Path) -> str | None:
    name = path.name.lower().removesuffix(".gz")
    if name.endswith(PARQUET_SUFFIXES):
        return "parquet"
    if name.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if name.endswith(".json"):
        return "json"
    return None


def _open_text(path: Path) -> IO[str]:
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _read_file(path: Path) -> list[dict[str, Any]]:
    kind = _kind(path)
    if kind == "parquet":
        import pyarrow.parquet as pq

        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        return rows
    with _open_text(path) as f:
        text = f.read()
    if kind == "jsonl" or (kind is None and not text.lstrip().startswith("[")):
        return _parse_jsonl(text, path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return _parse_jsonl(text, path)
    return _as_rows(data, path)


def _parse_jsonl(text: str, path: Path) -> list[dict[str, Any]]:
    try:
        return [row for _, row in parse_jsonl(text.splitlines(), str(path))]
    except ValueError as exc:
        raise SourceError(str(exc)) from None


def _as_rows(data: Any, path: Path) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        # Some dumps wrap the rows ({"data": [...]}) or key them by id ({"HumanEval/0": {...}}).
        for key in ("data", "rows", "problems", "train", "test"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
        else:
            if data and all(isinstance(v, dict) for v in data.values()):
                data = [{"_key": k, **v} for k, v in data.items()]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise SourceError(f"{path}: expected a JSON array of objects")
    return data


def _read_hub(name: str) -> list[dict[str, Any]]:
    """Load ``owner/name[:config][@split]`` with the ``datasets`` library (all splits by default)."""
    try:
        import datasets
    except ImportError:
        raise SourceError(
            f"{name}: not a local file, and loading by name needs the 'datasets' package"
        ) from None
    split: str | None = None
    config: str | None = None
    if "@" in name:
        name, split = name.rsplit("@", 1)
    if ":" in name:
        name, config = name.split(":", 1)
    try:
        loaded = datasets.load_dataset(name, config, split=split, trust_remote_code=False)
    except Exception as e:  # the hub client raises many types; this is the boundary
        raise SourceError(f"{name}: could not load from the hub: {e}") from None
    if isinstance(loaded, datasets.DatasetDict):
        return [dict(r) for part in loaded.values() for r in part]
    return [dict(r) for r in loaded]
