"""Precompiled headers of a C++ program's own first includes (issue 13's speed).

A HumanEval-X or MultiPL-E program starts with a few standard headers (``#include<stdio.h>``,
``#include<vector>``, ``#include<string>``, ``using namespace std;``), not with
``<bits/stdc++.h>``, whose precompiled header the C++ root carries: parsing those headers
is about half of its ``g++ -O2`` (0.42 s of CPU against 0.19 s for the same program
against a precompiled header of its own first lines, measured in the root). And the same
first lines come back sample after sample: HumanEval-X's 164 C++ prompts start with 22
different ones, and the G samples of a prompt with the prompt's.

**What is precompiled.** ``split`` reads the program's leading lines: includes of a
standard header in angle brackets, ``using namespace std;``, blank lines and comments, up
to the first line that is none of these (or that ends in a backslash: a splice). The
includes and ``using`` lines, in their order, are the header; the unit keeps every other
line where it was and has a blank line in place of each line the header took, so every
line keeps its number. The compile gets ``-include HEADER``: GCC reads the header as the
unit's first line, where the program had it, and loads its ``.gch`` if one is there and
valid for these options, else reads the header's text (the same meaning either way: a
precompiled header is a cache of a parse, which GCC refuses where it would differ). A
header with ``<bits/stdc++.h>`` first is left as it is (the root's own precompiled header
serves it).

**Where it is built.** In a checker cell of the C++ root (``Verifier.checker_pool``),
which never runs a candidate's program: its input is the header's text alone (standard
headers, no line of any program's), so no program can shape what another program's
compile loads. The samples before it is ready compile without it while it is built beside
(one build at a time, in the background); a header that fails to build is never tried
again. The ``.gch`` comes back compressed (``gzip -1``: 21.5 MB to about 5). Each build's
options make their own header (a lifted recorder's and a stdio program's are the recipe's;
an assert build beside the test adds its own), so a header's text may have two.

**Where it is read.** The process backend's cells bind the host's copy of the runner
read-only (``process.shared_runner_dir``); the headers are written in its ``pch`` folder
(the ``.h`` before its ``.gch``, each by a rename), so a cell sees them as they land and
no cell can write them. The docker backend mounts nothing of the host's: its compiles
read the headers' text as before.

**Seeds: the first sight of a header.** A header is worth its build only once it comes
back, so the first sample of every new prompt parsed its headers whole (1.8 to 2.2 times
plain ``g++``). ``SEEDS`` are headers of the heavy standard includes alone (``<string>``,
``<vector>``, ``<algorithm>``, ``<iostream>``), built for the options of a program's
own build and a lifted test's recorder the first time such a compile asks for any header
(in the background, as the others). A program whose leading includes hold every header of a seed, and whose
``using`` lines come after its includes, compiles with ``-include`` of the largest such
seed and its own text as written: the seed's headers come first and the program's own
includes of them are no-ops (their guards). The standard allows its headers in any order
([using.headers]: "A translation unit may include library headers in any order"), and
none of a seed's is the one that is not idempotent (``<cassert>``: a seed never holds it,
and nothing but includes precedes it in the program). A program whose leading includes
hold ``<bits/stdc++.h>`` after another header compiles with ``-include bits/stdc++.h``, the
root's own precompiled one (its own line of that include blank: GCC, having found the
``.gch`` where the header is not, would look for the header there), and no header of its
own is built for it. Its own header, once
built, serves a program before any seed. An assert build beside the test (options of its
own: ``-fno-toplevel-reorder``, ``-fsanitize=return,unreachable``) reads the seeds of the
program's own options (``apply``'s ``seed_flags``): its added options are code
generation's, which a parse does not hold, and GCC loads them (``-H`` marks the ``.gch``
used; ``-Winvalid-pch`` says nothing, where it names ``__OPTIMIZE__`` for a build at
``-O0``). A second set of seeds for those options, built in the checker cell, kept the
judges waiting.

**Bound.** A header is built the second time it is asked for (``SEEN_BEFORE_BUILD``), and
at most ``MAX_HEADERS`` are in use per process (each 15 to 30 MB on disk); past that the
least recently used one is no longer named, and its ``.gch`` removed ``RETIRE_S`` later
(a compile that named it may still be reading it; its ``.h`` stays).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import logging
import os
import re
import shlex
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MAX_HEADERS = 32
"""Precompiled headers kept per process (the least recently used one's ``.gch`` goes)."""

SEEN_BEFORE_BUILD = 2
"""A header is built the second time a compile asks for it: one that no second program
shares (a model's own set of includes) costs no compile beside the sample's."""

MAX_SEEN = 4096
"""Headers counted before they are built, at most (the count starts over past it)."""

RETIRE_S = 1300.0
"""How long a removed header's ``.gch`` stays on disk: a compile that named it (the longest
compile limit is 600 s) still finds it where its text's pragma points."""

SEEDS: tuple[tuple[str, ...], ...] = (
    ("algorithm", "string", "vector"),
    ("string", "vector"),
    ("string",),
    ("vector",),
    ("algorithm", "vector"),
    ("algorithm", "string"),
    ("iostream",),
    ("algorithm", "iostream", "string", "vector"),
    ("math.h", "vector"),
    ("math.h",),
)
"""Headers built before any program asks for them (module docstring, "Seeds"), in the order
they are built: the heavy standard ones, parsed alone in the C++ root with ``-O2``
(``<iostream>`` 0.17 s, ``<string>`` 0.11, ``<vector>`` 0.06, ``<algorithm>`` 0.05;
``<stdio.h>`` 0.01), and the sets of them programs include together. 12 to 25 MB each.
C++'s ``<math.h>`` is ``<cmath>`` (0.04 s): 28 of HumanEval-X's 164 C++ prompts include it,
13 with ``<vector>`` (a recorder of HumanEval-X/0's shape, 0.15 s of CPU against the
``<vector>`` seed, 0.10 against its own header, plain ``g++`` 0.19)."""

MAX_HEADER_LINES = 64
"""A program's first lines read for its header, at most (its includes)."""

_INCLUDE = re.compile(r"[ \t]*#[ \t]*include[ \t]*<([A-Za-z0-9_][A-Za-z0-9_./+-]*)>[ \t]*")
_USING = re.compile(r"[ \t]*using[ \t]+namespace[ \t]+std[ \t]*;[ \t]*")
_STDCXX = "bits/stdc++.h"


def includes(header: str) -> frozenset[str] | None:
    """The names of a header's includes (``split``'s), or None when a ``using`` line comes
    before one of them (a seed, with the includes alone, would then parse them before the
    program's ``using``, not after)."""
    names: set[str] = set()
    used = False
    for line in header.split("\n"):
        m = _INCLUDE.fullmatch(line)
        if m is not None:
            if used:
                return None
            names.add(m.group(1))
        elif line.strip():
            used = True
    return frozenset(names)


def seed_text(seed: tuple[str, ...]) -> str:
    """A seed's header: its includes, one a line."""
    return "".join(f"#include <{name}>\n" for name in seed)


def split(source: str) -> tuple[str, str] | None:
    """``(header, unit)``: the source's leading standard includes and ``using namespace
    std;`` lines as a header, and the source with a blank line in place of each of them;
    None when there is no header worth a compile of its own (no include, or a first
    include of ``<bits/stdc++.h>``)."""
    return _split(source)


def _split(source: str, only: str | None = None) -> tuple[str, str] | None:
    """``split``, or with ``only`` a blank line in place of the header's includes of
    ``only`` alone."""
    lines = source.split("\n")
    header: list[str] = []
    taken: list[int] = []
    in_comment = False
    includes = 0
    for i, line in enumerate(lines[:MAX_HEADER_LINES]):
        if line.rstrip(" \t\f\v").endswith("\\") or "\r" in line or "??/" in line:
            break  # a splice (or a trigraph's, were they on): the next line is this one's
        if in_comment:
            end = line.find("*/")
            if end < 0:
                continue
            if line[end + 2 :].strip():
                break
            in_comment = False
            continue
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        if text.startswith("/*"):
            end = text.find("*/", 2)
            if end < 0:
                in_comment = True
                continue
            if text[end + 2 :].strip():
                break
            continue
        m = _INCLUDE.fullmatch(line)
        if m is None and not _USING.fullmatch(line):
            break
        if m is not None and m.group(1) == _STDCXX and not includes:
            return None  # the root's own precompiled <bits/stdc++.h> serves it
        includes += m is not None
        header.append(text)
        taken.append(i)
    if not includes:
        return None
    for i in taken:
        m = _INCLUDE.fullmatch(lines[i])
        if only is None or (m is not None and m.group(1) == only):
            lines[i] = ""
    return "\n".join(header) + "\n", "\n".join(lines)


def key(header: str, flags: list[str], runtime: str) -> str:
    """The header's name: a hash of its text, the compile's options and the runtime."""
    what = "\0".join([runtime, *flags, header])
    return hashlib.sha256(what.encode("utf-8", "replace")).hexdigest()[:32]


class Headers:
    """The precompiled headers of one process's C++ compiles (module docstring).
    ``build(header, flags)`` returns the packed build of ``h.h.gch.gz`` (a runner artifact)
    or None; it runs on this object's one background thread."""

    def __init__(self, folder: Callable[[], Path], cell_folder: str, runtime: str,
                 build: Callable[[str, list[str]], list[Any] | None],
                 seeds: tuple[tuple[str, ...], ...] = (),
                 seed_flags: list[str] | None = None) -> None:  # fmt: skip
        self._folder = folder
        self.cell_folder = cell_folder
        self.runtime = runtime
        self._build = build
        self._lock = threading.Lock()
        self._ready: OrderedDict[str, None] = OrderedDict()
        self._tried: set[str] = set()
        self._seen: dict[str, int] = {}
        self._retired: list[tuple[float, str]] = []
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="pch")
        self.built = 0
        self.failed = 0
        self.used = 0
        self.seeds = seeds
        self.seed_flags = None if seed_flags is None else tuple(seed_flags)
        """The one build's options seeds are built for (None: any): a program's own build
        and a lifted test's recorder. Each seed is a build in a checker cell, where the
        lifted tests' judges are built too: seeds of an assert build beside the test (its
        own options) kept a stream of HumanEval-X samples' judges waiting behind them."""
        self._seeding: set[tuple[str, ...]] = set()  # the options whose seeds were asked for
        self._seeded: set[str] = set()  # seeds built (their names)
        self.used_seed = 0  # compiles that read a seed (or the root's <bits/stdc++.h>)

    @property
    def seeded(self) -> int:
        """Seeds built."""
        return len(self._seeded)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)

    def settle(self) -> None:
        """Wait until the builds asked for so far are done (a bench's warm-up, a test)."""
        self._executor.submit(lambda: None).result()

    def apply(self, source: str, flags: list[str],
              seed_flags: list[str] | None = None) -> tuple[str, str] | None:  # fmt: skip
        """``(unit, cell path of the header)`` when the source's header is precompiled
        (its build is started in the background the second time it is seen), or a seed
        serves it (``(source, seed's path)``: the source as written), else None.
        ``seed_flags``: the options the seeds this compile may read were built with, where
        they are not ``flags`` (an assert build beside the test reads the seeds of the
        program's own options, which GCC loads with its own: module docstring)."""
        parts = split(source)
        if parts is None:
            return None
        header, unit = parts
        names = includes(header)
        if names is not None and _STDCXX in names:
            with self._lock:
                self.used_seed += 1
            # the root's own, found through the include path; the program's own include of
            # it goes (GCC, having read the .gch where the header is not, would look for
            # the header there)
            return (_split(source, _STDCXX) or (header, unit))[1], _STDCXX
        name = key(header, flags, self.runtime)
        build = False
        with self._lock:
            if name in self._ready and (self._folder() / f"{name}.h.gch").exists():
                self._ready.move_to_end(name)
                self.used += 1
                return unit, f"{self.cell_folder}/{name}.h"
            seeded_with = list(seed_flags) if seed_flags is not None else flags
            seeds = self._ask_seeds(seeded_with)
            if name not in self._tried and len(self._tried) < 16 * MAX_HEADERS:
                if len(self._seen) >= MAX_SEEN:
                    self._seen.clear()
                self._seen[name] = self._seen.get(name, 0) + 1
                if self._seen[name] >= SEEN_BEFORE_BUILD:
                    del self._seen[name]
                    self._tried.add(name)
                    build = True
            seed = self._seed(names, seeded_with) if names is not None else None
            if seed is not None:
                self.used_seed += 1
        try:
            for text in seeds:
                self._executor.submit(self._make, key(text, seeded_with, self.runtime), text,
                                      list(seeded_with), True)  # fmt: skip
            if build:
                self._executor.submit(self._make, name, header, list(flags))
        except RuntimeError:  # closed
            pass
        return (source, f"{self.cell_folder}/{seed}.h") if seed is not None else None

    def _ask_seeds(self, flags: list[str]) -> list[str]:
        """The seeds' texts to build for these options: all of them the first time they
        are asked for, else none (under the lock)."""
        if not self.seeds or tuple(flags) in self._seeding or len(self._seeding) >= 4:
            return []
        if self.seed_flags is not None and tuple(flags) != self.seed_flags:
            return []
        self._seeding.add(tuple(flags))
        return [seed_text(s) for s in self.seeds]

    def _seed(self, names: frozenset[str], flags: list[str]) -> str | None:
        """The name of the built seed with the most headers, all of them among ``names``
        (under the lock)."""
        best: tuple[int, str] | None = None
        for s in self.seeds:
            if len(s) > (best[0] if best else 0) and names.issuperset(s):
                name = key(seed_text(s), flags, self.runtime)
                if name in self._seeded and (self._folder() / f"{name}.h.gch").exists():
                    best = (len(s), name)
        return best[1] if best else None

    def _make(self, name: str, header: str, flags: list[str], seed: bool = False) -> None:
        try:
            packed = self._build(header, flags)
            data = _gch(packed)
        except Exception:  # a cold header costs time, never a verdict
            log.warning("precompiled header %s: build failed", name, exc_info=True)
            data = None
        if data is None:
            with self._lock:
                self.failed += 1
            return
        folder = self._folder()
        folder.mkdir(mode=0o755, exist_ok=True)
        _write(folder / f"{name}.h", header.encode("utf-8"))
        _write(folder / f"{name}.h.gch", data)
        now = time.monotonic()
        with self._lock:
            if seed:  # never retired: a handful, named by their options
                self._seeded.add(name)
                return
            self._ready[name] = None
            self.built += 1
            while len(self._ready) > MAX_HEADERS:
                old, _ = self._ready.popitem(last=False)
                self._retired.append((now, old))
            gone = [old for at, old in self._retired if now - at >= RETIRE_S]
            self._retired = [(at, old) for at, old in self._retired if now - at < RETIRE_S]
        for old in gone:
            try:
                (folder / f"{old}.h.gch").unlink()
            except OSError:
                pass


def _gch(packed: list[Any] | None) -> bytes | None:
    for entry in packed or ():
        if isinstance(entry, list) and len(entry) == 3 and entry[0] == "h.h.gch.gz":
            return gzip.decompress(base64.b64decode(entry[2]))
    return None


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def build_spec(header: str, flags: list[str], time_s: float, memory_mb: int) -> dict[str, Any]:
    """The runner build of a precompiled header: its text alone, compiled with the unit's
    options as a C++ header, compressed, returned as the build's artifact."""
    script = (
        "set -e\n"
        f"{shlex.join([*flags, '-x', 'c++-header', 'h.h', '-o', 'h.h.gch'])} < /dev/null\n"
        "gzip -1 h.h.gch\n"
    )
    return {"files": {"h.h": header}, "compile": ["sh", "-c", script], "run": ["true"],
            "time_s": time_s, "memory_mb": memory_mb, "remove": ["h.h"],
            "return_artifact": True}  # fmt: skip
