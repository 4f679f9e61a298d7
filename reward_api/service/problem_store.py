"""The problem registry: trainers register problems once and then send only their ids.

Two stores with one interface: a dict in the embedded mode (one gateway process) and
Redis in broker mode (``cr:problem:<id>``, a hash of the problem's JSON and its content
digest, shared by every gateway process). The Redis store keeps parsed problems in a
local map keyed by digest, so a hot problem costs one small ``HGET`` per request, not a
parse of its tests; re-registering an id with new tests changes its digest and so
invalidates that map entry and every cached result.

Trainers that cannot send our ids (OpenRLHF without ``--label_key``, or with a dataset's
own integer ids) are served by two more indexes kept beside the problems (``find``):

- an alias per id: the part after the last ``/`` (APPS' ``apps/4003`` answers to ``4003``);
- the problem's prompt: its whitespace-normalised text, and the first ``PROMPT_WINDOW``
  characters of it, so a prompt wrapped in a chat template, or a whole prompt + response
  query, still finds the problem whose prompt it contains (the longest such prompt wins;
  a prompt shorter than the window matches only as the whole text).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from reward_api.schemas import Problem
from reward_api.verify.keys import problem_digest

KEY_PREFIX = "cr:problem:"
INDEX_KEY = "cr:problem-index"
MIN_TESTS = 5
PROMPT_WINDOW = 48
_BOUNDARY = frozenset(" <>[](){}:\"'`|*#")


def normalize(text: str) -> str:
    """Whitespace runs collapsed to one space, ends stripped: how prompts are compared."""
    return " ".join(text.split())


def _fp(kind: str, text: str) -> str:
    return kind + ":" + hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def index_fields(problem: Problem) -> list[str]:
    """The index fields under which ``problem`` can be found besides its id."""
    fields = []
    if "/" in problem.id:
        fields.append("alias:" + problem.id.rsplit("/", 1)[1])
    if problem.prompt and problem.prompt.strip():
        n = normalize(problem.prompt)
        fields.append(_fp("full", n))
        if len(n) >= PROMPT_WINDOW:
            fields.append(_fp("head", n[:PROMPT_WINDOW]))
    return fields


def text_fields(text: str) -> list[str]:
    """Index fields a prompt (or a prompt + response) may hit: the whole normalised text,
    and a window at every word start (where a registered prompt can begin)."""
    n = normalize(text)
    out = {_fp("full", n)}
    for i in range(0, max(0, len(n) - PROMPT_WINDOW + 1)):
        if i == 0 or n[i - 1] in _BOUNDARY or n[i] in _BOUNDARY:
            out.add(_fp("head", n[i : i + PROMPT_WINDOW]))
    return list(out)


def best_match(text: str, entries: Iterable[Entry]) -> Entry | None:
    """The entry with the longest prompt contained in ``text`` (normalised)."""
    n = normalize(text)
    best: Entry | None = None
    for e in entries:
        prompt = normalize(e.problem.prompt or "")
        if (
            prompt
            and prompt in n
            and (best is None or len(prompt) > len(best.problem.prompt or ""))
        ):
            best = e
    return best


class Entry:
    """A registered problem and its content digest."""

    __slots__ = ("digest", "problem")

    def __init__(self, problem: Problem, digest: str | None = None) -> None:
        self.problem = problem
        self.digest = digest or problem_digest(problem)


def warnings_for(problems: Sequence[Problem]) -> list[str]:
    """Problems are accepted with fewer than five tests, but the trainer is told."""
    return [
        f"problem {p.id!r} has {len(p.tests)} test(s); fewer than {MIN_TESTS} tests let "
        "wrong programs pass (reward hacking by special-casing)"
        for p in problems
        if len(p.tests) < MIN_TESTS
    ]


class MemoryProblemStore:
    """Problems in this process's memory (embedded mode)."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._index: dict[str, str] = {}

    async def put(self, problems: Sequence[Problem]) -> None:
        for p in problems:
            self._entries[p.id] = Entry(p)
            for f in index_fields(p):
                self._index[f] = p.id

    async def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        return {i: self._entries[i] for i in ids if i in self._entries}

    async def lookup_index(self, fields: Sequence[str]) -> list[str | None]:
        """Problem ids under index fields (None where a field is unknown)."""
        return [self._index.get(f) for f in fields]


class RedisProblemStore:
    """Problems in Redis, shared by all gateway processes (broker mode)."""

    def __init__(self, client: Any, local_size: int = 4096) -> None:
        self.client = client  # redis.asyncio.Redis
        self.local_size = local_size
        self._parsed: dict[str, Problem] = {}

    async def put(self, problems: Sequence[Problem]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for p in problems:
            entry = Entry(p)
            pipe.hset(
                KEY_PREFIX + p.id, mapping={"digest": entry.digest, "json": p.model_dump_json()}
            )
            fields = index_fields(p)
            if fields:
                pipe.hset(INDEX_KEY, mapping=dict.fromkeys(fields, p.id))
            self._remember(entry)
        await pipe.execute()

    async def lookup_index(self, fields: Sequence[str]) -> list[str | None]:
        """Problem ids under index fields (None where a field is unknown)."""
        if not fields:
            return []
        raws = await self.client.hmget(INDEX_KEY, list(fields))
        return [r.decode() if isinstance(r, bytes) else r for r in raws]

    async def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for i in ids:
            pipe.hget(KEY_PREFIX + i, "digest")
        digests = await pipe.execute()
        out: dict[str, Entry] = {}
        missing: list[tuple[str, str]] = []
        for i, d in zip(ids, digests, strict=True):
            if d is None:
                continue
            digest = d.decode() if isinstance(d, bytes) else str(d)
            problem = self._parsed.get(digest)
            if problem is not None and problem.id == i:
                out[i] = Entry(problem, digest)
            else:
                missing.append((i, digest))
        if missing:
            pipe = self.client.pipeline(transaction=False)
            for i, _ in missing:
                pipe.hget(KEY_PREFIX + i, "json")
            raws = await pipe.execute()
            for (i, digest), raw in zip(missing, raws, strict=True):
                if raw is None:
                    continue
                entry = Entry(Problem.model_validate_json(raw), digest)
                self._remember(entry)
                out[i] = entry
        return out

    def _remember(self, entry: Entry) -> None:
        if len(self._parsed) >= self.local_size:
            self._parsed.pop(next(iter(self._parsed)))
        self._parsed[entry.digest] = entry.problem


async def find(
    store: MemoryProblemStore | RedisProblemStore,
    labels: Sequence[str | None],
    texts: Sequence[str],
) -> list[Entry | None]:
    """A problem per item: by id, else by id alias, else by the prompt its text contains.

    ``labels[i]`` is what the trainer sent as the item's label (None or empty: none) and
    ``texts[i]`` the prompt (or, lacking one, the whole query) to search. Lookups are
    batched: one round trip per stage for the whole request, each distinct text once.
    """
    out: list[Entry | None] = [None] * len(labels)
    wanted = [lab for lab in dict.fromkeys(labels) if lab]
    by_id = await store.get_many(wanted) if wanted else {}
    missing = [lab for lab in wanted if lab not in by_id]
    if missing:
        aliases = await store.lookup_index(["alias:" + lab for lab in missing])
        real = {lab: a for lab, a in zip(missing, aliases, strict=True) if a}
        found = await store.get_many(list(set(real.values()))) if real else {}
        by_id.update({lab: found[a] for lab, a in real.items() if a in found})
    for i, lab in enumerate(labels):
        if lab and lab in by_id:
            out[i] = by_id[lab]
    todo = [i for i, e in enumerate(out) if e is None]
    unique = list(dict.fromkeys(texts[i] for i in todo))
    if not unique:
        return out
    fields_of = {t: text_fields(t) for t in unique}
    all_fields = list(dict.fromkeys(f for fs in fields_of.values() for f in fs))
    ids = dict(zip(all_fields, await store.lookup_index(all_fields), strict=True))
    hits = {i for i in ids.values() if i}
    entries = await store.get_many(list(hits)) if hits else {}
    match: dict[str, Entry | None] = {}
    for t, fs in fields_of.items():
        candidates = {pid: entries[pid] for f in fs if (pid := ids.get(f)) and pid in entries}
        match[t] = best_match(t, candidates.values())
    for i in todo:
        out[i] = match[texts[i]]
    return out
