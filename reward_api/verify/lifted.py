"""C++ and C assert tests lifted out of the candidate's process: the test's code runs in a
build that holds no program, fed the values the program's calls returned (C's halves:
the section "C" below).

An assert test shares the program's compilation unit by the datasets' convention
(MBXP's ``int x0 = f(args); if (!(compare(x0, 8))) throw ...``, HumanEval-X's
``assert (f(args) == E);``), so in one process the test's expected values lie in memory
the program can read: a native program that scans its stack from a local, reads the
machine code after its return address or returns into the harness past the test is
stopped only by the hack gate's patterns (``reward_api.verify.languages``, "Not
covered"). Where the test's shape allows, this module takes the expected values out of
that process altogether, as trusted test execution does for Python:

1. **Plan** (``plan``): the test's ``main`` is read; every call of an entry point of the
   problem (the problem's ``entry_points``, or a ``candidate`` bound to one, MultiPL-E's
   ``auto candidate = f;``) must sit in a statement at the top level of ``main`` that runs
   exactly once, in order: a declaration or an expression statement, one call each, with
   no ``&&``, ``||`` or ``?:`` that could skip it, and arguments made only of literals and
   names of the language and its standard library (``ARG_WORDS``), never a name the test
   declares. Anything else (a call in a loop, an argument built by a helper of the test, a
   member call) keeps the test in the program's process, as before.
2. **Record** (the candidate's build): the program, its macros undefined, the recorder of
   ``harness/lifted.hpp`` and a ``main`` that writes on the pass channel the types of all
   call sites (``decltype``: nothing runs), then calls each call site's expression in the
   test's order and writes its value, encoded by the recorder's code, as each returns. The
   build holds no expected value and no nonce: a line the program writes itself says only
   what the program could have returned, so it is an artifact like any stdio build's
   (cached by content). A program that defines ``main`` fails to compile, as it does
   beside the test.
3. **Judge** (``Judges``): the test's own code, ``main`` renamed, each call replaced by
   ``__cr_lift::take<T>(k)`` with the recorded type re-spelled by the host (``spell``:
   only the recorder's alphabet of standard types is accepted, so no text of the program
   reaches the judge's source), built once per test and types (cached like a checker,
   in the checker cells of C++, which never run a candidate's program) and run with the
   recorded lines on stdin. The test's comparisons, its ``compare``, ``issame``,
   ``abs(x - 0.5) < 1e-4``, run there with the standard library's own operators.

Verdicts, so that each agrees with the test run beside the program: the judge's exit 0 is
a pass when the candidate's run ended well (exit 0, every value written); a judge that
throws, aborts or returns non-zero is ``wrong_answer`` (a comparison failed before any
failure of the candidate's that came later); a judge that reaches a call the candidate
never returned from (exit 3) leaves the candidate's own failure to decide (``timeout``,
``runtime_error``, the test aborted, ...). A type the recorder does not know (the program's
own ``struct``, ``std::tuple``, ``std::array``) or a judge that does not compile (the
test names something the program defines) sends the test back to the program's process,
the old way, for that sample (and for that test's later samples, by the test's hash).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import logging
import re
import secrets
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reward_api.verify import compiled_eq

log = logging.getLogger(__name__)

HARNESS = Path(__file__).with_name("harness") / "lifted.hpp"
C_RECORDER = Path(__file__).with_name("harness") / "lifted_c_recorder.h"
C_JUDGE = Path(__file__).with_name("harness") / "lifted_c_judge.h"
JUDGE_TIME_S = 10.0
"""Wall seconds a judge may take (at least the problem's ``time_s``)."""
JUDGE_MEMORY_MB = 1024
MAX_BROKEN = 4096
MAX_SEEN = 8192
"""Judged outcomes kept for reuse (``Judges``), each of values at most ``MAX_SEEN_CHARS``."""
MAX_SEEN_CHARS = 4096

ARG_WORDS = frozenset({
    # the language's words that build a value
    "true", "false", "nullptr", "NULL", "int", "long", "short", "unsigned", "signed", "char",
    "bool", "float", "double", "auto", "const", "sizeof", "static_cast", "char16_t",
    "char32_t", "wchar_t",
    # the standard library's names a test's literal arguments use
    "std", "vector", "string", "map", "set", "unordered_map", "unordered_set", "multiset",
    "multimap", "pair", "make_pair", "tuple", "make_tuple", "optional", "nullopt", "array",
    "deque", "list", "queue", "stack", "priority_queue", "initializer_list", "string_view",
    "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
    "uint64_t", "INT_MAX", "INT_MIN", "LLONG_MAX", "LLONG_MIN", "LONG_MAX", "LONG_MIN",
    "UINT_MAX", "ULLONG_MAX", "numeric_limits", "max", "min", "infinity", "quiet_NaN",
    "lowest", "epsilon", "INFINITY", "NAN", "less", "greater",
})  # fmt: skip
"""Names a lifted call's arguments may hold: values made by the language and the standard
library alone, evaluated the same in the candidate's build as beside the test."""

C_ARG_WORDS = frozenset({
    # C's words that build a value, and the standard headers' macros and types a test's
    # literal arguments use (the recorder includes the test's own standard headers)
    "true", "false", "NULL", "int", "long", "short", "unsigned", "signed", "char", "bool",
    "_Bool", "float", "double", "const", "sizeof", "size_t", "int8_t", "int16_t", "int32_t",
    "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "INT_MAX", "INT_MIN",
    "LLONG_MAX", "LLONG_MIN", "LONG_MAX", "LONG_MIN", "UINT_MAX", "ULLONG_MAX", "ULONG_MAX",
    "SHRT_MAX", "SHRT_MIN", "CHAR_MAX", "CHAR_MIN", "INT32_MAX", "INT32_MIN", "INT64_MAX",
    "INT64_MIN", "UINT32_MAX", "UINT64_MAX", "SIZE_MAX", "INFINITY", "NAN", "DBL_MAX",
    "DBL_MIN", "DBL_EPSILON", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
})  # fmt: skip
"""``ARG_WORDS`` of a C test (``plan`` with ``language="c"``): no C++ library name, which a
C test may declare for itself (``int max = 5;``)."""

_STATEMENT_HEADS = frozenset({"if", "for", "while", "do", "switch", "return", "try", "else",
                              "goto", "case", "default", "break", "continue", "throw",
                              "co_return", "co_await", "co_yield"})  # fmt: skip
_BRANCHING = frozenset({"&&", "||", "?", "and", "or"})
_UNEVALUATED = frozenset({"sizeof", "_Alignof", "alignof", "__alignof__", "__alignof",
                          "typeof", "__typeof__", "__typeof", "typeof_unqual", "_Generic",
                          "decltype", "noexcept", "typeid", "__builtin_constant_p",
                          "__builtin_choose_expr", "__builtin_types_compatible_p",
                          "__builtin_object_size", "__builtin_classify_type"})  # fmt: skip
"""Words whose operand may be left unevaluated: a statement that holds one beside a call of
the program is not lifted (the recorder runs every call it lifts)."""


@dataclass(frozen=True)
class Plan:
    """Where a lifted test's calls are: ``calls`` the (start, end) of each call expression
    in the test's text, in the order they run; ``main`` the span of the word ``main`` of
    the test's ``main``; ``drop`` spans of statements the judge leaves out (``auto
    candidate = f;``)."""

    calls: tuple[tuple[int, int], ...]
    main: tuple[int, int]
    drop: tuple[tuple[int, int], ...] = ()
    end: int = 0
    """Where the test's ``main`` body closes: the judge adds ``return 0;`` there (``main``
    may end without one, the function it becomes may not)."""
    guessed: bool = False
    """The entry points were the contract's default, read from the test
    (``default_entry_points``), not named by the problem: a recorder that does not compile
    sends the test back beside the program rather than deciding ``compile_error``."""
    declared: tuple[tuple[str, str] | None, ...] = ()
    """Per call, the type and the name of the variable it initialises, where the test
    declares one (``int x0 = f(..);``): the recorder converts the value to that type, and
    the judge reads it as ``decltype`` of that name, so the judge's source does not depend
    on what the program returns and is built before (or while) the program is."""

    host: tuple[Any, ...] | None = field(default=None, compare=False, hash=False)
    """C: the test's ``assert``s where the host decides them (``lifted_c_host``): no judge
    is built unless a recorded value needs one."""
    inputs: tuple[tuple[int, int], ...] = ()
    """C: spans of the test's declarations of data its calls take (``int a[] = {1, 2};``
    before ``count(a, 2)``), which the recorder makes too: values of literals alone, named
    nowhere in the test but in their declaration and in the calls' arguments (so a value
    the program changed is never read by the test's comparisons; ``_c_input``)."""

    @property
    def independent(self) -> bool:
        """Whether the judge's source is known before the candidate runs."""
        return len(self.declared) == len(self.calls) and all(d is not None for d in self.declared)


LIBRARY_CALLS = frozenset({
    # what a test calls from the language and its standard library (the contract's
    # "builtins excluded" for a C++ problem that names no entry points)
    "main", "assert", "static_assert", "sizeof", "alignof", "decltype", "typeid", "if",
    "while", "for", "switch", "return", "catch", "throw", "noexcept", "abs", "fabs", "labs",
    "llabs", "sqrt", "pow", "exp", "log", "log2", "log10", "floor", "ceil", "round", "trunc",
    "fmod", "isnan", "isinf", "isfinite", "signbit", "min", "max", "swap", "sort", "reverse",
    "accumulate", "count", "find", "equal", "begin", "end", "size", "distance", "make_pair",
    "make_tuple", "get", "tie", "to_string", "stoi", "stol", "stoll", "stod", "strcmp",
    "strncmp", "memcmp", "strlen", "printf", "puts", "exit", "abort", "runtime_error",
    "logic_error", "invalid_argument", "out_of_range", "string", "vector", "map", "set",
    "pair", "tuple", "optional", "array", "unordered_map", "unordered_set", "multiset",
    "deque", "list", "bool", "int", "long", "short", "char", "float", "double", "unsigned",
    "signed", "auto", "void", "static_cast", "dynamic_cast", "const_cast",
    "reinterpret_cast", "move", "forward", "all_of", "any_of", "none_of", "is_same",
    "numeric_limits", "initializer_list", "string_view", "isalpha", "isdigit", "isspace",
    "isupper", "islower", "toupper", "tolower", "hypot", "atan2", "sin", "cos", "tan",
})  # fmt: skip


def default_entry_points(test: str, library: frozenset[str] = LIBRARY_CALLS) -> tuple[str, ...]:
    """The names a C++ test takes from the program when its problem names none (the
    contract's default): the names it calls without defining them, the language's and its
    standard library's (``LIBRARY_CALLS``) excluded. Read from the test alone, so the
    program cannot choose which of the test's calls are lifted (a problem without
    ``entry_points`` was never lifted, and ran beside the program)."""
    toks = compiled_eq._tokens(test)
    defined: set[str] = set()
    called: list[str] = []
    for i, t in enumerate(toks[:-1]):
        if (t.text == "auto" and i + 4 < len(toks) and toks[i + 2].text == "="
                and toks[i + 3].kind == "id" and toks[i + 4].text == ";"):  # fmt: skip
            defined.add(toks[i + 1].text)  # MultiPL-E's ``auto candidate = f;``
            called.append(toks[i + 3].text)
            continue
        if t.kind != "id" or toks[i + 1].text != "(":
            continue
        close = toks[i + 1].match
        after = toks[close + 1].text if 0 <= close < len(toks) - 1 else ""
        if after in ("{", "const", "noexcept", "->"):
            defined.add(t.text)
        elif i == 0 or toks[i - 1].text not in (".", "->", "::"):
            called.append(t.text)
    return tuple(sorted({c for c in called if c not in defined and c not in library}))


def plan(
    test: str, entry_points: tuple[str, ...] | list[str], language: str = "cpp"
) -> Plan | None:
    """How ``test`` is lifted, or None when its shape does not allow it (module docstring).
    ``language`` ``c``: the arguments' words are C's (``C_ARG_WORDS``), and a call that
    initialises a variable of any type but a scalar one spelled with those words (a
    pointer, a ``struct``) is not lifted: a pointer's value is an address in the
    candidate's process, and the recorder writes scalars alone (``C_SCALARS``)."""
    c = language == "c"
    words = C_ARG_WORDS if c else ARG_WORDS
    entries = {e for e in entry_points if re.fullmatch(r"[A-Za-z_]\w*", e)}
    if not entries:
        return None
    toks = compiled_eq._tokens(test)
    if not toks:
        return None
    # the test's main: ``int main (...) {`` at the top level
    depth, main_at = 0, None
    for i, t in enumerate(toks):
        if t.text in ("{", "(", "["):
            depth += 1
        elif t.text in ("}", ")", "]"):
            depth -= 1
        elif (depth == 0 and t.text == "main" and i > 0 and toks[i - 1].text == "int"
              and i + 1 < len(toks) and toks[i + 1].text == "("):  # fmt: skip
            close = toks[i + 1].match
            if close + 1 < len(toks) and toks[close + 1].text == "{":
                if main_at is not None:
                    return None
                main_at = i
    if main_at is None:
        return None
    open_body = toks[toks[main_at + 1].match + 1]
    body_start, body_end = toks.index(open_body) + 1, open_body.match
    # the test's own names: every word of the test outside main's call arguments that a
    # declaration could introduce is checked below against ARG_WORDS instead
    calls: list[tuple[int, int]] = []
    declared: list[tuple[str, str] | None] = []
    drop: list[tuple[int, int]] = []
    aliases: set[str] = set()
    inputs: dict[str, tuple[int, int, int]] = {}  # C: name -> (its token, the span)
    used: set[str] = set()
    i = body_start
    while i < body_end:
        # one statement at main's top level: up to its ';' or its block's end
        j, k = i, i
        while k < body_end and toks[k].text != ";":
            if toks[k].text in ("{", "(", "["):
                k = toks[k].match
            k += 1
        first = toks[i].text
        if first == "{" or first in _STATEMENT_HEADS:
            # a block or control statement: it may hold no call of the program
            end: int | None = toks[i].match + 1 if first == "{" else k + 1
            if first in ("if", "for", "while", "switch", "try", "do"):
                end = _control_end(toks, i, body_end)
            if end is None:
                return None
            if any(_is_call(toks, m, entries | aliases) for m in range(i, min(end, body_end))):
                return None
            i = end
            continue
        stmt = range(j, min(k, body_end))
        alias = _alias(toks, stmt, entries)
        if alias is not None:
            aliases.add(alias)
            drop.append((toks[j].start, toks[min(k, body_end - 1)].end))
            i = k + 1
            continue
        sites = [m for m in stmt if _is_call(toks, m, entries | aliases)]
        if len(sites) > 1:
            return None
        if c and not sites:
            data = _c_input(toks, stmt, words)
            if data is not None and data not in inputs:
                inputs[data] = (next(n for n in stmt if toks[n].text == data), toks[j].start,
                                toks[min(k, body_end - 1)].end)  # fmt: skip
        if sites:
            m = sites[0]
            if any(toks[n].text in _BRANCHING for n in stmt):
                return None
            close = toks[m + 1].match
            for n in range(m + 2, close):
                if toks[n].kind == "id" and toks[n].text in inputs:
                    used.add(toks[n].text)
                elif toks[n].kind == "id" and toks[n].text not in words:
                    return None
            # ``assert(sizeof(f(1)) == 4);``: beside the test the call never runs, where the
            # recorder would run it (and a program's state, a counter, would move on)
            if any(toks[n].text in _UNEVALUATED for n in stmt if not m < n <= close):
                return None
            calls.append((toks[m].start, toks[close].end))
            declared.append(_declared(test, toks, j, m, close, k, words))
            if c and m > j and declared[-1] is None and toks[m - 1].text == "=":
                return None  # ``char *s = f(..);``, ``struct P p = f(..);``
            if c and declared[-1] is not None and re.search(r"[*&\[]", declared[-1][0]):
                return None
            # ``const vector<int> &a = f(1);``: a reference to the program's own data sees
            # what its later calls write there, where the recorder copies it at return
            if toks[m - 1].text == "=" and any(
                toks[n].text in ("&", "&&") for n in range(j, m - 1)
            ):
                return None
        i = k + 1
    if not calls:
        return None
    # a call of the program anywhere else (the preamble's helpers) is not lifted
    counted = sum(1 for m in range(len(toks)) if _is_call(toks, m, entries | aliases))
    if counted != len(calls):
        return None
    # a C input is named only in its declaration and in the calls' arguments: the test
    # never reads a value the program may have changed (``rev(s); assert(!strcmp(s, ..))``
    # stays beside the program, which the judge, holding the test's own ``s``, cannot be)
    for name in used:
        at, _a, _b = inputs[name]
        for n, t in enumerate(toks):
            if (
                t.kind == "id"
                and t.text == name
                and n != at
                and not any(a <= t.start and t.end <= b for a, b in calls)
            ):
                return None
    kept = tuple(sorted((a, b) for name, (_at, a, b) in inputs.items() if name in used))
    return Plan(tuple(calls), (toks[main_at].start, toks[main_at].end), tuple(drop),
                toks[body_end].start, declared=tuple(declared), inputs=kept)  # fmt: skip


_C_TYPE_NAMES = frozenset({"int", "long", "short", "unsigned", "signed", "char", "bool", "_Bool",
                           "float", "double", "const", "size_t", "int8_t", "int16_t", "int32_t",
                           "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t"})  # fmt: skip


def _c_input(toks: list[Any], stmt: range, words: frozenset[str]) -> str | None:
    """The name a C statement declares when it is a declaration of data made of literals
    alone, ``TYPE [*] NAME [[N]] = INIT;`` (one declarator; the type of ``_C_TYPE_NAMES``,
    the bound and the initialiser of literals, ``words`` and arithmetic): else None."""
    ts = [toks[n] for n in stmt]
    k = 0
    while k < len(ts) and ts[k].text in _C_TYPE_NAMES:
        k += 1
    if k == 0:
        return None
    while k < len(ts) and ts[k].text in ("*", "const"):
        k += 1
    if k >= len(ts) or ts[k].kind != "id" or ts[k].text in words:
        return None
    name, k = ts[k].text, k + 1
    bound: list[Any] = []
    if k < len(ts) and ts[k].text == "[":
        close = next((q for q in range(k, len(ts)) if ts[q].text == "]"), None)
        if close is None:
            return None
        bound, k = ts[k + 1 : close], close + 1
    if k >= len(ts) - 1 or ts[k].text != "=":
        return None
    depth = 0
    for t in [*bound, *ts[k + 1 :]]:
        if t.kind == "id" and t.text not in words:
            return None
        if t.kind not in ("id", "lit") and t.text not in _C_DATA_PUNCT:
            return None
        depth += (t.text == "{") - (t.text == "}")
        if t.text == "," and depth == 0:  # a second declarator, or the comma operator
            return None
    return name


_C_DATA_PUNCT = frozenset({"{", "}", ",", "-", "+", "(", ")", ".", "*", "/", "%", "~", "<<",
                           ">>", "&", "|", "^"})  # fmt: skip


def _declared(
    test: str, toks: list[Any], j: int, m: int, close: int, k: int,
    words: frozenset[str] = ARG_WORDS,
) -> tuple[str, str] | None:  # fmt: skip
    """``TYPE NAME = CALL;`` with the call the whole initialiser and a type spelled with
    ``words`` alone (not ``auto``): the type's text and the name."""
    if close != k - 1 or m - j < 3 or toks[m - 1].text != "=" or toks[m - 2].kind != "id":
        return None
    kind = toks[j : m - 2]
    if any(t.text == "auto" or (t.kind == "id" and t.text not in words) for t in kind):
        return None
    if any(t.kind == "lit" or t.text in ("(", "{", "[") for t in kind):
        return None
    return test[kind[0].start : kind[-1].end], toks[m - 2].text


def _control_end(toks: list[Any], i: int, limit: int) -> int | None:
    """The token after a control statement starting at ``i`` (its block or statement)."""
    k = i + 1
    while k < limit:
        t = toks[k].text
        if t == "(":
            k = toks[k].match + 1
            continue
        if t == "{":
            k = toks[k].match + 1
            if k < limit and toks[k].text in ("else", "catch", "while"):
                continue
            if k < limit and toks[k].text == ";":
                k += 1
            return k
        if t == ";":
            k += 1
            if k < limit and toks[k].text in ("else", "while"):
                continue
            return k
        k += 1
    return None


def _is_call(toks: list[Any], m: int, names: set[str]) -> bool:
    """``toks[m]`` names one of ``names`` and is called (not a member, not qualified)."""
    t = toks[m]
    if t.kind != "id" or t.text not in names:
        return False
    if m > 0 and toks[m - 1].text in (".", "->", "::"):
        return False
    return m + 1 < len(toks) and toks[m + 1].text == "("


def _alias(toks: list[Any], stmt: range, entries: set[str]) -> str | None:
    """``auto NAME = ENTRY;`` (MultiPL-E's ``auto candidate = f;``): the name."""
    words = [toks[n].text for n in stmt]
    if len(words) == 4 and words[0] == "auto" and words[2] == "=" and words[3] in entries:
        return words[1]
    return None


# ------------------------------------------------------------------ the two builds
@functools.cache
def harness() -> str:
    return HARNESS.read_text()


_TAG_KEY = secrets.token_bytes(32)


def recorder(program: str, test: str, lift: Plan, undefs: str) -> str:
    """The candidate's build: the program, then (its macros undefined, its pragmas reset)
    the recorder and a ``main`` that runs the test's calls in order and writes their
    values. The recorder's names carry a tag the program cannot know (a keyed hash of the
    program and the test, so the same pair builds the same source within this process and
    its artifact is cached): a program that declared ``__cr_lift::known`` itself would
    specialise it to call a standard type unknown and send its test back beside it."""
    return _recorder(program, test, lift, undefs).replace(
        "__cr_lift", f"__cr_lift_{tag(program, test)}"
    )


def tag(program: str, test: str) -> str:
    """A recorder's tag: a keyed hash of the program and the test, the same for the same
    pair within this process (so its artifact is cached), unknown to the program."""
    return hmac.new(_TAG_KEY, f"{program}\0{test}".encode("utf-8", "replace"),
                    hashlib.sha256).hexdigest()[:16]  # fmt: skip


def _recorder(program: str, test: str, lift: Plan, undefs: str) -> str:
    written = [test[a:b] for a, b in lift.calls]
    aliases = _aliases(test, lift)
    exprs = [_unalias(e, aliases) for e in written]  # the types' line's, at namespace scope
    declared = lift.declared or (None,) * len(exprs)
    kinds = [f"std::decay_t<{d[0]}>" if d else f"std::decay_t<decltype({e})>"
             for e, d in zip(exprs, declared, strict=True)]  # fmt: skip
    names = "  __cr_lift::Buf b;\n" + "  b.put(' ');\n".join(
        f"  __cr_lift::type_of<{t}>(b);\n" for t in kinds
    )
    # the calls as the test makes them: through MultiPL-E's ``auto candidate = f;``, which
    # binds no overloaded or template ``f`` and keeps no default argument (plain g++ and
    # MultiPL-E's harness fail such a program; called as ``f(..)`` it passed)
    bound = "".join(f"  [[maybe_unused]] auto {name} = {target};\n"
                    for name, target in aliases.items())  # fmt: skip
    calls = "".join(
        f"  __cr_lift::record([&]() -> {t if d else f'__cr_lift::held<decltype({e})>'} "
        f"{{ return {e}; }});\n"
        for e, t, d in zip(written, kinds, declared, strict=True)
    )
    calls = bound + calls
    return (
        f"{program}\n\n/* codereward: the recorder compiles with the recipe's options, and sees the "
        f"language, not the program's macros */\n#pragma GCC reset_options\n#pragma pack()\n"
        f"{undefs}\n{harness()}\n"
        "/* codereward: the types' line, written before any code of the program's runs */\n"
        "namespace __cr_lift {\n"
        f"static void types_line() {{\n{names}  b.put('\\n');\n  raw_line(b);\n}}\n"
        '__attribute__((section(".preinit_array"), used)) static void (*types_entry)() = types_line;\n'
        "}  // namespace __cr_lift\n"
        f"int main() {{\n{calls}  return 0;\n}}\n"
    )


def _aliases(test: str, lift: Plan) -> dict[str, str]:
    out: dict[str, str] = {}
    for a, b in lift.drop:
        m = re.fullmatch(r"\s*auto\s+(\w+)\s*=\s*(\w+)\s*;?\s*", test[a:b])
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _unalias(expr: str, aliases: dict[str, str]) -> str:
    m = re.match(r"\w+", expr)
    if m and m.group(0) in aliases:
        return aliases[m.group(0)] + expr[m.end() :]
    return expr


JUDGE_ABS = "using std::abs;\n"
"""A C++ judge's ``abs``: the overload of its argument's type, at global scope. Beside the
program the test's ``abs`` is whatever the program's declarations made it: ``<math.h>``'s
floating overloads (a quoted ``#include "math.h"``, a digraph ``%:include``, ``using
namespace ::std``, the program's own ``abs`` macro or template), or only the C library's
``int abs(int)``. A red team's wrong ``truncate_number`` (returning 0.5) passed a judge
whose ``abs`` was the int one, in five spellings that ``judge_context`` does not copy, and
failed beside the test. Here ``abs(0.17)`` is 0.17 whatever the program wrote: at least as
strict as beside it (where the int one truncates), and the same for the datasets' prompts,
whose includes bring the floating ones."""


def judge(test: str, lift: Plan, types: list[str] | None, using: str) -> str:
    """The test's own code, ``main`` renamed, each call replaced by the recorded value of
    ``types`` (C++ spellings from ``spell``), and a ``main`` that maps the test's outcome
    to an exit status (0 passed, 1 failed; the harness's 3 and 4: ran out, malformed)."""
    declared = lift.declared or (None,) * len(lift.calls)
    types = types or ["?"] * len(lift.calls)  # an independent plan's: not read
    kinds = [f"std::decay_t<decltype({d[1]})>" if d else t
             for d, t in zip(declared, types, strict=True)]  # fmt: skip
    code = _test_as_judge(test, lift, [f"__cr_lift::take<{t}>({k})" for k, t in enumerate(kinds)])
    return (
        "#include <bits/stdc++.h>\n#define __CR_LIFT_JUDGE 1\n"
        f"{harness()}\n{JUDGE_ABS}{using}\n{code}\n"
        "/* codereward: the judge's entry */\n"
        "template <class F> int __cr_run_test(F f, int argc, char **argv) {\n"
        "  if constexpr (std::is_invocable<F, int, char **>::value) return f(argc, argv);\n"
        "  else return f();\n}\n"
        "int main(int argc, char **argv) {\n"
        "  try {\n    return __cr_run_test(__cr_test_main, argc, argv) == 0 ? 0 : 1;\n"
        "  } catch (...) {\n    return 1;\n  }\n}\n"
    )


def _test_as_judge(test: str, lift: Plan, takes: list[str]) -> str:
    """The test's text as a judge holds it, in C++ and C alike: each call of the plan
    replaced by its ``takes`` text (the recorded value), the dropped statements gone,
    ``main`` renamed ``__cr_test_main``, and ``return 0;`` where its body closes."""
    cuts = sorted([(a, b, t) for (a, b), t in zip(lift.calls, takes, strict=True)]
                  + [(a, b, "") for a, b in lift.drop]
                  + [(*lift.main, "__cr_test_main"), (lift.end, lift.end, "return 0;\n")])  # fmt: skip
    out, at = [], 0
    for a, b, text in cuts:
        out += [test[at:a], text]
        at = b
    out.append(test[at:])
    return "".join(out)


# ------------------------------------------------------------------ types
_SCALARS = {"b": "bool", "c": "char", "a": "signed char", "h": "unsigned char", "s": "short",
            "t": "unsigned short", "i": "int", "j": "unsigned", "l": "long",
            "m": "unsigned long", "x": "long long", "y": "unsigned long long", "f": "float",
            "d": "double", "e": "long double", "S": "std::string"}  # fmt: skip
_ONE = {"V": "std::vector", "E": "std::set", "F": "std::unordered_set", "O": "std::optional"}
_TWO = {"M": "std::map", "N": "std::unordered_map", "P": "std::pair"}
MAX_TYPE_CHARS = 512


def spell(name: str) -> str | None:
    """The C++ spelling of a type in the recorder's alphabet, or None when ``name`` is not
    one (the program wrote the line, or the type is ``?``)."""
    if len(name) > MAX_TYPE_CHARS:
        return None
    try:
        text, rest = _spell(name, 0)
    except (IndexError, ValueError):
        return None
    return text if rest == len(name) else None


def _spell(name: str, i: int, depth: int = 0) -> tuple[str, int]:
    if depth > 32:
        raise ValueError("too deep")
    c = name[i]
    if c in _SCALARS:
        return _SCALARS[c], i + 1
    if c in _ONE or c in _TWO:
        if name[i + 1] != "<":
            raise ValueError("no <")
        a, i = _spell(name, i + 2, depth + 1)
        args = [a]
        if c in _TWO:
            if name[i] != ",":
                raise ValueError("no ,")
            b, i = _spell(name, i + 1, depth + 1)
            args.append(b)
        if name[i] != ">":
            raise ValueError("no >")
        return f"{(_ONE | _TWO)[c]}<{', '.join(args)}>", i + 1
    raise ValueError(f"unknown {c!r}")


@dataclass(frozen=True)
class Recorded:
    """What a recorder run wrote: the C++ types of the call sites (None: a type the
    recorder does not know, the test goes back to the program's process; empty where the
    judge needs none, Go's) and the value lines of the calls that returned (the channel as
    written, for the judge's stdin)."""

    types: list[str] | None
    channel: str


def read(
    channel: Any, calls: int, speller: Callable[[str], str | None] | None = None
) -> Recorded | None:
    """The recorder's lines, or None when the channel holds anything else (nothing, the
    program's own bytes, a cut line, more values than calls). ``speller``: the alphabet's
    reader (C++'s ``spell``, C's ``spell_c``)."""
    speller = speller or spell
    if not isinstance(channel, str) or not channel.endswith("\n") or not channel.isascii():
        return None
    lines = channel[:-1].split("\n")
    names = lines[0].split(" ")
    if len(names) != calls or len(lines) - 1 > calls:
        return None
    if "?" in names:  # the harness's line, written before the program ran: not the program's
        return Recorded(None, channel)
    spelled = [speller(n) for n in names]
    if any(s is None for s in spelled):
        return None
    return Recorded([s for s in spelled if s is not None], channel)


# ------------------------------------------------------------------ C
# A C assert test is lifted the same way, with C's own two halves
# (``harness/lifted_c_recorder.h``, ``harness/lifted_c_judge.h``): the recorder names each
# call site's type by ``_Generic`` (nothing runs) and writes each value as the bytes of its
# object; the judge, compiled as C, hands call ``k``'s value back as
# ``*(const T *)__cr_lift_take(k, sizeof(T))``. Only scalars are written: a pointer's value
# is an address in the candidate's process (a ``char *`` into a static buffer the next call
# overwrites would be judged on what it held when it returned, where the test beside the
# program reads what it holds later), and a ``struct`` is the program's own type.
C_SCALARS = {"b": "_Bool", "c": "char", "a": "signed char", "h": "unsigned char",
             "s": "short", "t": "unsigned short", "i": "int", "j": "unsigned", "l": "long",
             "m": "unsigned long", "x": "long long", "y": "unsigned long long", "f": "float",
             "d": "double", "e": "long double"}  # fmt: skip
_C_GENERIC = ", ".join(f'{t}: "{k}"' for k, t in C_SCALARS.items()) + ', default: "?"'
C_LIBRARY_CALLS = frozenset({
    "main", "assert", "static_assert", "_Static_assert", "sizeof", "_Alignof", "if", "while",
    "for", "switch", "return", "abs", "labs", "llabs", "fabs", "fabsf", "fabsl", "sqrt",
    "sqrtf", "sqrtl", "pow", "powf", "exp", "log", "log2", "log10", "floor", "floorf", "ceil",
    "ceilf", "round", "roundf", "trunc", "fmod", "fmin", "fmax", "fminf", "fmaxf", "isnan",
    "isinf", "isfinite", "signbit", "hypot", "atan2", "sin", "cos", "tan", "strcmp",
    "strncmp", "memcmp", "strlen", "strcpy", "strncpy", "strcat", "strncat", "strstr",
    "strchr", "strrchr", "strdup", "memcpy", "memmove", "memset", "malloc", "calloc",
    "realloc", "free", "qsort", "bsearch", "printf", "sprintf", "snprintf", "fprintf", "puts",
    "scanf", "sscanf", "atoi", "atol", "atoll", "atof", "strtol", "strtoll", "strtoul",
    "strtod", "exit", "abort", "isalpha", "isdigit", "isspace", "isupper", "islower",
    "isalnum", "ispunct", "toupper", "tolower", "int", "long", "short", "char", "float",
    "double", "unsigned", "signed", "void", "_Bool", "bool",
})  # fmt: skip
"""What a C test calls from the language and its library: ``LIBRARY_CALLS`` of a C test
with no entry points named (``default_entry_points_c``); C++'s names (``count``, ``max``)
are a C program's to define."""
_C_DIRECTIVE = re.compile(r"[ \t]*(?:#|%:)[ \t]*(if|ifdef|ifndef|endif)\b")
STDCXX_HEADERS = frozenset({
    "cassert", "cctype", "cerrno", "cfloat", "climits", "clocale", "cmath", "csetjmp", "csignal",
    "cstdarg", "cstddef", "cstdio", "cstdlib", "cstring", "ctime", "cwchar", "cwctype",
    "ccomplex", "cfenv", "cinttypes", "cstdalign", "cstdbool", "cstdint", "ctgmath", "cuchar",
    "algorithm", "bitset", "complex", "deque", "exception", "fstream", "functional", "iomanip",
    "ios", "iosfwd", "iostream", "istream", "iterator", "limits", "list", "locale", "map",
    "memory", "new", "numeric", "ostream", "queue", "set", "sstream", "stack", "stdexcept",
    "streambuf", "string", "typeinfo", "utility", "valarray", "vector", "array", "atomic",
    "chrono", "codecvt", "condition_variable", "forward_list", "future", "initializer_list",
    "mutex", "random", "ratio", "regex", "scoped_allocator", "system_error", "thread", "tuple",
    "typeindex", "type_traits", "unordered_map", "unordered_set", "shared_mutex", "any",
    "charconv", "filesystem", "optional", "memory_resource", "string_view", "variant",
})  # fmt: skip
"""The headers GCC 12's ``<bits/stdc++.h>`` includes under ``-std=gnu++17``, which a judge
includes first: a program's include of one of them adds nothing there (its judge is
shared with the programs that left it out). The C headers (``<math.h>``) are not among
them, nor is a header of a later standard."""
_CPP_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([A-Za-z_][A-Za-z0-9_]*(?:\.h)?)>", re.M)
_C_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([A-Za-z0-9_]+(?:/[A-Za-z0-9_]+)*\.h)>",
                        re.M)  # fmt: skip


@functools.cache
def _c_half(path: Path) -> str:
    return path.read_text()


def spell_c(name: str) -> str | None:
    """The C spelling of a type in the C recorder's alphabet (a scalar), or None."""
    return C_SCALARS.get(name)


def read_c(channel: Any, calls: int) -> Recorded | None:
    """``read`` of a C recorder's lines."""
    return read(channel, calls, spell_c)


def default_entry_points_c(test: str) -> tuple[str, ...]:
    """``default_entry_points`` of a C test: C's library calls excluded, not C++'s."""
    return default_entry_points(test, C_LIBRARY_CALLS)


def includes_cpp(code: str) -> str:
    """A C++ program's ``#include <...>`` lines of headers named by one word (``<vector>``,
    ``<math.h>``: the standard ones), outside comments and ``#if``, normalised, as
    ``includes_c`` reads C's: the judge makes them after its ``<bits/stdc++.h>``, so the
    test's names mean there what they mean beside the program. libstdc++'s ``<math.h>``
    and ``<stdlib.h>`` declare ``std::abs``'s floating overloads in the global namespace,
    which ``<bits/stdc++.h>`` does not: a test's ``abs(f(x) - 0.33) < 1e-4``, without
    ``using namespace std``, was the C library's ``int abs(int)`` in the judge, and an
    answer within 1 of the expected one passed (a red team's ``truncate_number``
    returning 0.5 for every number)."""
    lines = includes_c(code, _CPP_INCLUDE).splitlines(keepends=True)
    return "".join(sorted(line for line in lines if line[10:-2] not in STDCXX_HEADERS))


def judge_context(program: str, using: str | None = None) -> str:
    """What a C++ judge makes of the program's after its harness: its standard includes
    (``includes_cpp``) and its ``using`` lines (``uses_std``), or ``using`` in their place."""
    return includes_cpp(program) + (uses_std(program) if using is None else using)


def includes_c(code: str, pattern: re.Pattern[str] | None = None) -> str:
    """The ``#include <...>`` lines of standard headers (a name of letters, digits, ``_``
    and ``/`` ending ``.h``) of a C text, outside comments, normalised: no other text of
    the program's reaches the judge. The recorder gets the test's (its calls see the
    macros and types the test's arguments name, ``INT_MAX``, ``true``, as beside the test,
    where those lines come after the program too); the judge the program's (beside the
    program the test sees the headers it included: MBXP-style tests call ``assert`` with
    no ``#include`` of their own)."""
    code = compiled_eq.blank_cpp_comments(code)
    out: list[str] = []
    depth = 0
    for line in code.split("\n"):
        directive = _C_DIRECTIVE.match(line)
        if directive:
            word = directive.group(1)
            depth += word in ("if", "ifdef", "ifndef")
            depth -= word == "endif" and depth > 0
        # an include under ``#if`` is the program's to take or leave (``#if 0``, a guard):
        # the judge, which cannot tell, takes none of them
        m = (pattern or _C_INCLUDE).match(line) if depth == 0 else None
        if m and f"#include <{m.group(1)}>\n" not in out:
            out.append(f"#include <{m.group(1)}>\n")
    return "".join(out)


def recorder_c(program: str, test: str, lift: Plan, undefs: str) -> str:
    """The candidate's build of a lifted C test: the program, then (its macros undefined,
    its pragmas reset) the test's standard headers, the recorder and a ``main`` that runs
    the test's calls in order and writes their values. The recorder's names carry the tag
    (``tag``); the program's own text is left as it is."""
    exprs = [test[a:b] for a, b in lift.calls]
    declared = lift.declared or (None,) * len(exprs)
    names = ", ".join(
        f"_Generic(({d[0]})0, {_C_GENERIC})" if d else f"_Generic(({e}), {_C_GENERIC})"
        for e, d in zip(exprs, declared, strict=True)
    )
    calls = []
    for e, d in zip(exprs, declared, strict=True):
        # a call of no value (``void``) is not evaluated: its type is '?', and the test goes
        # back beside the program whatever the recorder writes after the types' line
        value = (f"{d[0]} __cr_lift_v = ({e});" if d else
                 f"__auto_type __cr_lift_v = __builtin_choose_expr(__builtin_types_compatible_p("
                 f"__typeof__({e}), void), 0, ({e}));")  # fmt: skip
        calls.append(
            f"  {{\n    {value}\n    __cr_lift_put((const volatile unsigned char *)&__cr_lift_v, "
            "_Generic(__cr_lift_v, long double: 10, default: sizeof __cr_lift_v));\n  }\n"
        )
    # the test's data the calls take, made as the test makes it (literals alone: ``_c_input``)
    data = "".join(f"  {test[a:b]}\n" for a, b in lift.inputs)
    ours = (
        f"{includes_c(test)}{_c_half(C_RECORDER)}\n"
        "/* codereward: the types' line, written before any code of the program's runs */\n"
        f"static void __cr_lift_types(void) {{\n{data}  const char *const names[] = {{{names}}};\n"
        f"  __cr_lift_types_line(names, {len(exprs)});\n}}\n"
        '__attribute__((section(".preinit_array"), used)) static void (*__cr_lift_entry)(void) '
        "= __cr_lift_types;\n"
        f"int main(void) {{\n{data}{''.join(calls)}  return 0;\n}}\n"
    ).replace("__cr_lift", f"__cr_lift_{tag(program, test)}")
    return (
        f"{program}\n\n/* codereward: the recorder compiles with the recipe's options, and sees the "
        f"language, not the program's macros */\n#pragma GCC reset_options\n#pragma pack()\n"
        f"{undefs}\n{ours}"
    )


_C_QUALIFIERS = frozenset({"static", "inline", "extern", "const", "__inline", "__inline__"})
_C_TYPE_WORDS = _C_QUALIFIERS | {"unsigned", "signed", "long", "short", "int", "char", "float",
                                 "double", "_Bool", "bool"}  # fmt: skip


def _c_scalar(words: list[str]) -> str | None:
    """The ``C_SCALARS`` spelling of a declaration's type words, or None."""
    count = Counter(w for w in words if w not in _C_QUALIFIERS)
    longs = count.pop("long", 0)
    if not (count or longs) or longs > 2 or any(v > 1 for v in count.values()):
        return None
    sign = {"unsigned", "signed"} & count.keys()
    unsigned, short = "unsigned" in sign, "short" in count
    base = set(count) - {"unsigned", "signed", "short", "int"}
    if len(sign) > 1:
        return None
    if not base:
        if short:
            return None if longs else ("unsigned short" if unsigned else "short")
        kind = ("int", "long", "long long")[longs]
        return ("unsigned" if kind == "int" else f"unsigned {kind}") if unsigned else kind
    if len(base) > 1 or short or "int" in count:
        return None
    (b,) = base
    if b == "char":
        return (
            None if longs else ("unsigned char" if unsigned else "signed char" if sign else "char")
        )
    if sign:
        return None
    if b == "double":
        return ("double", "long double", None)[longs]
    return None if longs else {"_Bool": "_Bool", "bool": "_Bool", "float": "float"}.get(b)


_C_DECLARATOR = re.compile(
    r"(?:^|(?<=[;{}]))[ \t]*((?:[A-Za-z_]\w*[\s*]+)+?)\**\s*([A-Za-z_]\w*)\s*\(", re.M
)
_C_NOT_A_TYPE = frozenset({"return", "else", "case", "goto", "sizeof", "if", "while", "for", "switch",
                           "do", "typedef"})  # fmt: skip


def _c_function_heads(program: str) -> list[tuple[str, str]]:
    """Each ``HEAD NAME(`` of the program at the start of a statement, outside comments:
    the name and the head's text (its words and ``*``), which ``c_returns_unwritten`` and
    ``guess_c_types`` read for what the function returns."""
    code = compiled_eq.blank_cpp_comments(program)
    return [
        (m.group(2), m.group(0)[: m.start(2) - m.start(0)]) for m in _C_DECLARATOR.finditer(code)
    ]


def c_returns_unwritten(program: str, names: set[str]) -> bool:
    """Whether the program declares one of ``names`` to return what the recorder does not
    write (a pointer, a ``struct``, a ``union``, ``void``): the test then runs beside this
    program at once, rather than after a recorder whose types' line would send it back.
    Read from this program alone, so no sample decides for another; a declaration this
    misreads costs the recorder's build, never a verdict."""
    for name, head in _c_function_heads(program):
        if name not in names:
            continue
        words = re.findall(r"[A-Za-z_]\w*", head)
        if not words or words[0] in _C_NOT_A_TYPE:
            continue
        if "*" in head or {"struct", "union", "void"} & set(words):
            return True
    return False


def guess_c_types(program: str, test: str, lift: Plan) -> list[str] | None:
    """The types a lifted C test's calls return, as the program's declarations of the called
    functions spell them (``RET NAME(`` at the start of a statement, every word of ``RET``
    a type word: no pointer, no typedef), or None where any is not known. A guess: the
    judge of these types is built while the recorder is, and used only when the recorded
    types make the same source (``pipeline``), so a wrong one costs a build, not a
    verdict."""
    returns: dict[str, str | None] = {}
    for name, head in _c_function_heads(program):
        words = head.split()
        if "*" not in head and all(w in _C_TYPE_WORDS for w in words):
            returns.setdefault(name, _c_scalar(words))
    declared = lift.declared or (None,) * len(lift.calls)
    out: list[str] = []
    for (a, b), d in zip(lift.calls, declared, strict=True):
        callee = re.match(r"[A-Za-z_]\w*", test[a:b])
        kind = d[0] if d else returns.get(callee.group(0)) if callee else None
        if kind is None:
            return None
        out.append(kind)
    return out


_CPP_HEAD_WORDS = frozenset({"static", "inline", "constexpr", "extern", "const", "volatile",
                             "__inline", "__inline__"})  # fmt: skip
_CPP_SCALAR_WORDS = frozenset({"unsigned", "signed", "long", "short", "int", "char", "float",
                               "double", "bool"})  # fmt: skip
_CPP_FIXED = {"size_t": "unsigned long", "int64_t": "long", "uint64_t": "unsigned long",
              "int32_t": "int", "uint32_t": "unsigned", "int16_t": "short",
              "uint16_t": "unsigned short", "int8_t": "signed char", "uint8_t": "unsigned char",
              "string": "std::string"}  # fmt: skip
"""Standard names of a return type and the type they are on x86-64 Linux (glibc, libstdc++)."""
_CPP_HEAD_TOKEN = re.compile(r"[A-Za-z_]\w*|::|&&|\S")
MAX_GUESSED_HEADS = 64
"""Places a called function's name is read as a declaration's, at most, per name."""


def _cpp_type(toks: list[str], i: int, depth: int = 0) -> tuple[str, int] | None:
    """The spelling ``spell`` gives the type whose tokens start at ``toks[i]`` (a standard
    name, ``std::`` or not: a scalar, ``string``, a container of the recorder's alphabet),
    and where it ends; None where it is not one."""
    if depth > 8 or i >= len(toks):
        return None
    if toks[i] == "std" and toks[i + 1 : i + 2] == ["::"]:
        i += 2
    word = toks[i] if i < len(toks) else ""
    if word in _CPP_FIXED:
        return _CPP_FIXED[word], i + 1
    template = {v.removeprefix("std::"): k for k, v in (_ONE | _TWO).items()}
    if word in template:
        if toks[i + 1 : i + 2] != ["<"]:
            return None
        args, i = [], i + 2
        for n in range(2 if template[word] in _TWO else 1):
            if n and toks[i : i + 1] != [","]:
                return None
            got = _cpp_type(toks, i + n, depth + 1)
            if got is None:
                return None
            args.append(got[0])
            i = got[1]
        if toks[i : i + 1] != [">"]:
            return None
        return f"std::{word}<{', '.join(args)}>", i + 1
    j = i
    while j < len(toks) and toks[j] in _CPP_SCALAR_WORDS:
        j += 1
    kind = _c_scalar(toks[i:j]) if j > i else None
    return (None if kind is None else ("bool" if kind == "_Bool" else kind), j) if kind else None


def guess_cpp_types(program: str, test: str, lift: Plan) -> list[str] | None:
    """The types a lifted C++ test's calls return, in ``spell``'s spelling, as the
    program's declarations of the called functions write them (``RET NAME(`` after a
    ``;``, ``{``, ``}`` or a directive's line, ``RET`` standard names alone: no typedef of
    the program's, no pointer, no ``auto``), or None where any is not known. A guess, as
    ``guess_c_types``'s: the judge of these types is built while the recorder is, and
    used only when the recorded types make the same source."""
    code = compiled_eq.blank_cpp_comments(program)
    aliases = _aliases(test, lift)
    declared = lift.declared or (None,) * len(lift.calls)
    returns: dict[str, str | None] = {}
    out: list[str] = []
    for (a, b), d in zip(lift.calls, declared, strict=True):
        if d is not None:
            out.append("?")  # the judge reads a declared call's type from its variable
            continue
        callee = re.match(r"[A-Za-z_]\w*", _unalias(test[a:b], aliases))
        if callee is None:
            return None
        name = callee.group(0)
        if name not in returns:
            returns[name] = None
            for n, m in enumerate(re.finditer(rf"\b{re.escape(name)}\s*\(", code)):
                if n >= MAX_GUESSED_HEADS:
                    break
                start = max(code.rfind(c, 0, m.start()) for c in ";{}") + 1
                lines = code[start : m.start()].split("\n")
                while any(line.lstrip().startswith("#") for line in lines):
                    lines.pop(0)  # a directive's line ends where the head starts
                toks = _CPP_HEAD_TOKEN.findall("\n".join(lines))
                while toks and toks[0] in _CPP_HEAD_WORDS:
                    toks.pop(0)
                while toks and toks[-1] in ("&", "&&", "const"):
                    toks.pop()
                got = _cpp_type(toks, 0)
                if got is not None and got[1] == len(toks):
                    returns[name] = got[0]
                    break
        kind = returns[name]
        if kind is None:
            return None
        out.append(kind)
    return out


_MAIN_PARAMS = re.compile(r"\s*\(\s*(?:void\s*)?\)")


def judge_c(test: str, lift: Plan, types: list[str] | None, headers: str = "") -> str:
    """The C test's own code, ``main`` renamed, each call replaced by its recorded value of
    ``types`` (C spellings from ``spell_c``; a declared call's type is its variable's),
    after ``headers`` (the program's, ``includes_c``) and ``<assert.h>`` without ``NDEBUG``
    (as the test beside the program gets them: ``languages._c_unit``), and a ``main``
    that maps the test's outcome to an exit status (0 passed, 1 failed; 3 and 4: ran out,
    malformed)."""
    declared = lift.declared or (None,) * len(lift.calls)
    types = types or ["?"] * len(lift.calls)
    kinds = [d[0] if d else t for d, t in zip(declared, types, strict=True)]
    # a _Bool's value is checked to be 0 or 1 (``__cr_lift_truth``: the recorded bytes are
    # the program's to choose, and a byte of 2 is true and not-false at once)
    code = _test_as_judge(test, lift, [
        f"(*(const {t} *)__cr_lift_truth(__cr_lift_take({k}, sizeof({t})), "
        f"_Generic(({t})0, _Bool: 1, default: 0)))" for k, t in enumerate(kinds)
    ])  # fmt: skip
    params = "" if _MAIN_PARAMS.match(test, lift.main[1]) else "argc, argv"
    harness_c = _c_half(C_JUDGE).replace("__CR_LIFT_CALLS", str(max(1, len(lift.calls))))
    return (
        f"{harness_c}\n{headers}#undef NDEBUG\n#include <assert.h>\n{code}\n"
        "/* codereward: the judge's entry */\n"
        "int main(int argc, char **argv) {\n  (void)argc;\n  (void)argv;\n"
        f"  return __cr_test_main({params}) == 0 ? 0 : 1;\n}}\n"
    )


# ------------------------------------------------------------------ judging
C_LIBM_CALL = re.compile(
    r"\b(?:acos|asin|atan2?|cos|sin|tan|acosh|asinh|atanh|cosh|sinh|tanh|exp|exp2|exp10|expm1"
    r"|frexp|ilogb|ldexp|log|log10|log1p|log2|logb|modf|scalbl?n|cbrt|fabs|hypot|pow|pow10|sqrt"
    r"|erfc?|lgamma|tgamma|gamma|ceil|floor|nearbyint|l?l?rint|l?l?round|trunc|fmod|remainder"
    r"|remquo|copysign|nan|nextafter|nexttoward|fdim|fmax|fmin|fma|[jy][01n]|sincos|significand)"
    r"[fl]?\s*\("
)
"""A C test that calls the math library is judged by what plain ``gcc -O2`` builds (the
``c`` recipe), not by tcc: gcc folds a call on constants with MPFR, correctly rounded,
where glibc's own result differs in the last place for 31 of 395 functions on a red
team's constants (``cbrt(27)`` is 3.0 folded, 3.0000000000000004 from glibc), so a test's
``assert(f(27) == cbrt(27))`` passed plain and failed a tcc-built judge."""


@dataclass(frozen=True)
class Judged:
    """A judge's outcome: ``passed`` (exit 0), ``failed`` (a comparison failed, or the
    values were malformed: ``detail``), ``ran_out`` (the candidate never returned from a
    call the test reached), or ``broken`` (the judge did not compile: go back)."""

    outcome: str
    detail: str = ""


class Judges:
    """Builds and runs judges in the checker cells of their language (C++ here, Go for
    ``reward_api.verify.lifted_go``'s, by the same exit codes); thread-safe. ``pool_for``,
    ``artifacts`` and ``runtime`` as ``checkers.Checkers`` takes them. A judge is built
    once: the first sample that needs it (or ``prepare``, while the candidate's own build
    runs) compiles it and the others wait for its artifact; one that does not compile is
    remembered by its source's key, so the test it judges is no longer lifted. A judge is
    the test's own code and a reader of its stdin, so its outcome on the same recorded
    lines is the same: an outcome it reached by its exit status (not by a limit or a
    signal, which a loaded host could cause) is reused for the next sample whose values
    are the same lines (an RL group's right answers, its common wrong ones), without a
    run."""

    def __init__(self, pool_for: Callable[[str], Any], artifacts: Any, runtime: str,
                 compile_time_s: float) -> None:  # fmt: skip
        self.pool_for = pool_for
        self.artifacts = artifacts
        self.runtime = runtime
        self.compile_time_s = compile_time_s
        self._broken: set[str] = set()
        """Keys of judges, and of tests, whose judge did not compile."""
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], Judged] = {}
        """Outcomes by judge key and recorded lines."""
        self.runs = 0
        """Lifted tests judged (a reused outcome counts; ``reused`` says how many were,
        ``host`` how many the host decided without a judge: ``lifted_go_host``,
        ``lifted_c_host``)."""
        self.reused = 0
        self.host = 0
        self.compiles = 0

    def usable(self, unit: Any) -> bool:
        """Whether a lifted unit may run lifted: not when its judge, known before the
        program runs, failed to compile before (a judge that depends on the program's
        types is only known after; one that fails then sends that sample back alone, so
        no sample decides for another)."""
        source = unit.lift[2] if unit.lift is not None else None
        return source is None or self._spec(source, unit.recipe)[1] not in self._broken

    def count_host(self) -> None:
        """Count an outcome the host decided (``lifted_go_host``, ``lifted_c_host``), with
        the judges' runs."""
        with self._lock:
            self.runs += 1
            self.host += 1

    def _spec(self, source: str, language: str = "cpp") -> tuple[dict[str, Any], str]:
        from reward_api.verify import languages

        unit = languages.stdio_unit(language, source)
        if language == "c" and not C_LIBM_CALL.search(source):
            unit = dataclasses.replace(unit, recipe="c-judge")
        spec = languages.build_spec(unit, JUDGE_MEMORY_MB, self.compile_time_s)
        return spec, languages.artifact_key(spec, f"{self.runtime}/judge")

    def _hold(self, keys: list[str]) -> list[threading.Lock]:
        """The locks of the judges among ``keys`` not built yet, taken (sorted: no two
        callers wait on each other's)."""
        locks = []
        with self._lock:
            for key in sorted(set(keys)):
                if key not in self.artifacts and key not in self._broken:
                    locks.append(self._locks.setdefault(key, threading.Lock()))
        for lock in locks:
            lock.acquire()
        return locks

    def _release(self, keys: list[str], locks: list[threading.Lock]) -> None:
        with self._lock:
            for key in set(keys):
                self._locks.pop(key, None)
        for lock in locks:
            lock.release()

    def prepare(self, source: str, language: str = "cpp") -> None:
        """Start building the judge ``source`` in the background, unless it is built, being
        built or broken (a failure here is the later ``judge``'s to meet)."""
        spec, key = self._spec(source, language)
        with self._lock:
            if key in self.artifacts or key in self._broken or key in self._locks:
                return
            lock = self._locks.setdefault(key, threading.Lock())
            lock.acquire()

        def build() -> None:
            try:
                self._request([(source, spec, key, None)], JUDGE_TIME_S, "", language)
            except Exception:
                log.debug("a judge's early build failed", exc_info=True)
            finally:
                self._release([key], [lock])

        threading.Thread(target=build, name="judge-build", daemon=True).start()

    def judge(
        self, jobs: list[tuple[str, str, Recorded]], time_s: float, language: str = "cpp"
    ) -> list[Judged]:
        """Each ``(test code, judge source, recorded)`` judged, in one cell lease."""
        specs = [(code, *self._spec(source, language), rec) for code, source, rec in jobs]
        with self._lock:
            out: list[Judged | None] = [
                Judged("broken") if key in self._broken else self._seen.get((key, rec.channel))
                for _c, _s, key, rec in specs
            ]
            reused = sum(1 for o in out if o is not None and o.outcome != "broken")
            self.runs += reused
            self.reused += reused
        todo = [k for k, o in enumerate(out) if o is None]
        if not todo:
            return [o for o in out if o is not None]
        keys = [specs[k][2] for k in todo]
        locks = self._hold(keys)
        try:
            done = self._request([specs[k] for k in todo], max(JUDGE_TIME_S, time_s), "run",
                                 language)  # fmt: skip
        finally:
            self._release(keys, locks)
        for k, judged in zip(todo, done, strict=True):
            out[k] = judged
        return [o if o is not None else Judged("broken") for o in out]

    def _request(
        self, items: list[tuple[str, dict[str, Any], str, Recorded | None]], time_s: float,
        run: str, language: str,
    ) -> list[Judged]:  # fmt: skip
        """Build (or unpack) each judge and, when ``run``, run it on its recorded lines."""
        from reward_api.errors import SandboxError
        from reward_api.verify.languages import COMPILE_CELL_MB

        builds = [self.artifacts.mark(dict(spec), key) for _code, spec, key, _rec in items]
        tests = [{"kind": "stdio", "build": k, "input": rec.channel}
                 for k, (_c, _s, _k, rec) in enumerate(items) if run and rec is not None]  # fmt: skip
        request = {"op": "sample", "builds": builds, "tests": tests, "time_s": time_s,
                   "memory_mb": JUDGE_MEMORY_MB, "max_output_bytes": 1 << 16,
                   "stop_on_first_failure": False}  # fmt: skip
        budget = (self.compile_time_s + 5.0) * len(builds) + (time_s + 2.0) * len(tests) + 30
        with self.pool_for(language).lease() as cell:
            cell.prepare(max(JUDGE_MEMORY_MB, COMPILE_CELL_MB))
            answer = cell.request({**request, **cell.sample_overrides()}, timeout_s=budget)
            reports, done = answer.get("tests"), answer.get("builds")
            if (not isinstance(reports, list) or len(reports) != len(tests)
                    or not isinstance(done, list) or len(done) != len(builds)):  # fmt: skip
                raise SandboxError("the judge cell answered with a malformed report")
            if answer.get("anomaly") or any(
                isinstance(r, dict) and (r.get("limit") or r.get("signal") not in (None, 6))
                for r in reports
            ):
                cell.broken = True
        out: list[Judged] = []
        for (_code, _spec, key, rec), b, rep in zip(items, done, reports if run else [{}] * len(items),
                                                    strict=True):  # fmt: skip
            b = b if isinstance(b, dict) else {}
            packed = b.pop("artifact", None)
            with self._lock:
                self.runs += 1 if run else 0
                self.compiles += 0 if b.get("cached") else 1
            if not b.get("ok"):
                if b.get("limit") is None and b.get("signal") is None:
                    with self._lock:  # a compile error (a limit may pass on a quieter host)
                        if len(self._broken) >= MAX_BROKEN:
                            self._broken.clear()
                        self._broken.add(key)
                out.append(Judged("broken", str(b.get("output", ""))[:500]))
                continue
            if isinstance(packed, list):
                self.artifacts.put(key, packed)
            rep = rep if isinstance(rep, dict) else {}
            judged = _outcome(rep)
            out.append(judged)
            if (run and rec is not None and len(rec.channel) <= MAX_SEEN_CHARS
                    and not rep.get("limit") and rep.get("signal") is None
                    and isinstance(rep.get("exit_code"), int)):  # fmt: skip
                with self._lock:
                    if len(self._seen) >= MAX_SEEN:
                        self._seen.clear()
                    self._seen[(key, rec.channel)] = judged
        return out


def _outcome(rep: dict[str, Any]) -> Judged:
    if rep.get("limit") == "timeout":
        return Judged("failed", "the test's comparisons did not finish in time")
    if rep.get("limit"):
        return Judged("failed", f"the test's comparisons hit a limit ({rep['limit']})")
    if rep.get("signal") is not None:
        return Judged("failed", "the test aborted")
    code = rep.get("exit_code")
    if code == 0:
        return Judged("passed")
    if code == 3:
        return Judged("ran_out")
    if code == 4:
        return Judged("failed", "the recorded values are malformed")
    return Judged("failed", "the test failed")


_USING_STD = re.compile(
    r"^[ \t]*using\s+(namespace\s+std|std\s*::\s*[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)\s*;", re.M
)


USING_STD = "using namespace std;\n"
"""The judge's using-directive when the program's own lines do not make one that
compiles: the datasets' tests are written for it (``pipeline._judge_lifted``)."""


def uses_std(program: str) -> str:
    """The program's ``using namespace std;`` and ``using std::name;`` lines, normalised
    (words and ``::`` alone, so no other text of the program's reaches the judge): the test
    written for them may rely on them, so the judge makes the same. A program that wrote
    ``using std::vector; using std::runtime_error;`` in place of ``using namespace std``
    made a judge without them fail to compile, which sent MBXP's test back beside the
    program, where a report forged from the program's own memory was paid 1.0."""
    lines = []
    for m in _USING_STD.finditer(compiled_eq.blank_cpp_comments(program)):
        line = "using " + re.sub(r"\s+", " ", re.sub(r"\s*::\s*", "::", m.group(1))) + ";\n"
        if line not in lines:
            lines.append(line)
    return "".join(lines)
