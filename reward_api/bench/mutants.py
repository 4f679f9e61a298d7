"""Mutants of a program: single, deterministic edits of its code, for agreement runs.

A mutant is the program with one token replaced: a relational operator swapped
(``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``===`` and ``!==``), ``+`` and
``-``, ``&&`` and ``||``, ``true`` and ``false``, or a decimal integer literal plus one.
Comments and string, character and template literals (and JavaScript's regular expression
literals) are never edited; neither are C and C++ preprocessor lines. ``<`` and ``>``
count as relational only with white space on both sides, so ``vector<int>`` and
``List<Integer>`` stay as they are (``i<n`` is then not a site: a missed site costs
nothing, a generic bracket turned into ``<=`` only a compile error).

There is no randomness: the sites are the edits in text order, and ``mutants`` picks up
to ``k`` of them evenly spread over the text. A mutant may not compile, may loop or may
still pass its test: agreement compares the verifier's verdict with plain execution's,
whatever the program does.
"""

from __future__ import annotations

import re

SWAPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "===": "!==",
         "!==": "===", "+": "-", "-": "+", "&&": "||", "||": "&&", "true": "false",
         "false": "true"}  # fmt: skip

# one token of code: longest operators first, so that ``<<``, ``->``, ``++``, ``+=`` and
# ``=>`` are tokens of their own and never a site
_TOKEN = re.compile(
    r"[A-Za-z_$][\w$]*"
    r"|0[xXbB][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?[A-Za-z]*"
    r"|>>>=|>>>|===|!==|<<=|>>=|\.\.\.|"
    r"==|!=|<=|>=|<<|>>|->|=>|\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^=|&&|\|\||:=|::"
    r"|\S"
)
_QUOTES = {"cpp": "\"'", "java": "\"'", "go": "\"'`", "javascript": "\"'`", "typescript": "\"'`"}


def _opens_regex(prev: str) -> bool:
    """Whether a ``/`` after the token ``prev`` opens a JavaScript regular expression
    rather than divides: not after a value (a name, a number, a literal, ``)`` or ``]``)."""
    return prev in ("", "return", "typeof") or (
        prev[-1] not in ")]'\"`_$" and not prev[-1].isalnum()
    )


def _skip_literal(text: str, i: int, raw: bool) -> int:
    """The index after the string, character or template literal that starts at ``i``
    (``raw``: a Go raw string, where a backslash escapes nothing)."""
    quote, j = text[i], i + 1
    while j < len(text):
        c = text[j]
        if c == "\\" and not raw:
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n" and quote != "`":  # an unterminated literal ends at its line
            return j
        j += 1
    return j


def _skip_regex(text: str, i: int) -> int:
    """The index after the JavaScript regular expression literal at ``i`` (and its flags)."""
    j, in_class = i + 1, False
    while j < len(text) and text[j] != "\n":
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            return j
        j += 1
    return j


def sites(code: str, language: str) -> list[tuple[int, str, str]]:
    """Every edit of ``code`` this module makes: (offset, token, replacement), in text order."""
    quotes = _QUOTES.get(language, "\"'")
    out: list[tuple[int, str, str]] = []
    i, prev = 0, ""
    line_start = True
    while i < len(code):
        c = code[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if line_start and c == "#" and language in ("c", "cpp"):
            end = code.find("\n", i)
            i = len(code) if end < 0 else end
            continue
        line_start = False
        if code.startswith("//", i):
            end = code.find("\n", i)
            i = len(code) if end < 0 else end
            continue
        if code.startswith("/*", i):
            end = code.find("*/", i + 2)
            i = len(code) if end < 0 else end + 2
            continue
        if c in quotes:
            i, prev = _skip_literal(code, i, raw=c == "`" and language == "go"), c
            continue
        if c == "/" and language in ("javascript", "typescript") and _opens_regex(prev):
            i, prev = _skip_regex(code, i), c
            continue
        m = _TOKEN.match(code, i)
        assert m is not None  # ``\S`` matches any character that is not white space
        token = m.group()
        if token in SWAPS and (token not in ("<", ">") or _spaced(code, i, len(token))):
            out.append((i, token, SWAPS[token]))
        elif token.isdigit() and (token == "0" or token[0] != "0"):
            out.append((i, token, str(int(token) + 1)))
        i, prev = m.end(), token
    return out


def _spaced(code: str, i: int, n: int) -> bool:
    """Whether the token at ``code[i:i+n]`` has white space on both sides and no angle
    bracket just beyond it (``vector<vector<int> > v``: a closing bracket)."""
    before, after = code[i - 2 : i], code[i + n : i + n + 2]
    return (len(before) == 2 and before[1].isspace() and before[0] not in "<>"
            and len(after) == 2 and after[0].isspace() and after[1] not in "<>")  # fmt: skip


def mutants(code: str, language: str, k: int = 2) -> list[str]:
    """Up to ``k`` different single-edit mutants of ``code``, their sites evenly spread
    over the text; none equal to ``code``."""
    found = sites(code, language)
    if not found:
        return []
    n, k = len(found), min(k, len(found))
    picks = [(2 * j + 1) * n // (2 * k) for j in range(k)]  # distinct, as k <= n
    out: list[str] = []
    for at in picks:
        offset, token, new = found[at]
        mutant = code[:offset] + new + code[offset + len(token) :]
        if mutant != code and mutant not in out:
            out.append(mutant)
    return out
