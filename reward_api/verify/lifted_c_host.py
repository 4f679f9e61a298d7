"""A lifted C assert test decided on the host where its comparisons are literals: no judge
is built or run.

A lifted C test (``lifted``, section "C") runs its own code in a judge that tcc builds per
test and a checker cell runs on the recorder's lines: on a stream of distinct problems a
build and two cell requests per sample, about a tenth of what the sample costs. Where each
of the test's statements is one of

- ``assert(CALL);``, ``assert(!CALL);``, ``assert(CALL OP LIT);``, ``assert(LIT OP CALL);``
  (``OP`` one of ``== != < > <= >=``; ``CALL`` a call the plan lifted, in order, one per
  ``assert``; ``LIT`` an integer, character or floating constant with at most one sign),
- a declaration of the calls' data (the plan's ``inputs``, which the recorder makes), or
- a last ``return 0;``,

in ``int main(void)`` (or ``()``) with nothing else at the top level, only ``#include
<...>`` lines and no line splice (one at a ``//`` comment's end takes the next line into
the comment: a red team's false failure), what the judge computes is C's arithmetic on two scalars, done here
(``decide``) as C defines it for gcc's x86-64 ABI:

- the call's value is the recorder's bytes for the type its types' line names (``char``
  signed; a ``_Bool`` whose byte is above 1 is malformed, as ``__cr_lift_truth`` makes
  it; a value line longer than the type is malformed, a shorter one is zero-filled, as
  the judge's reader does);
- the constant's type is C11's (6.4.4.1: the first of its suffix's list that holds it);
- the comparison is done after the integer promotions and the usual arithmetic
  conversions (an unsigned type of rank at least the other's wins, a signed type wins
  where it holds every value of the unsigned one), in ``double`` where either side is
  one, and in ``float`` for a ``float`` against an integer; ``assert(x)`` is ``x != 0``
  (a NaN holds) and ``!x`` is ``x == 0``.

Anything this module does not decide exactly (a ``long double``, an integer beyond 2**53
against a floating value or beyond 2**24 against a ``float``, a constant with an ``f`` or
``l`` floating suffix or a hexadecimal float, a value line out of the recorder's alphabet,
a channel larger than the judge reads) goes to the compiled judge, which decides it as
before; a test of any other shape always does. The outcomes are the judge's: an
``assert`` that fails is ``the test aborted`` (its ``abort``), a call the candidate never
returned from after every ``assert`` before it held is ``ran_out``.
"""

from __future__ import annotations

import math
import operator
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reward_api.verify import compiled_eq, lifted

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
            "<=": operator.le, ">=": operator.ge}  # fmt: skip
_OPS = frozenset(_COMPARE)
_SWAP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}

# the integer types after promotion: (bits, signed, rank)
_INT = {
    "int": (32, True, 1), "unsigned": (32, False, 1), "long": (64, True, 2),
    "unsigned long": (64, False, 2), "long long": (64, True, 3),
    "unsigned long long": (64, False, 3),
}  # fmt: skip
_UNSIGNED_OF = {"int": "unsigned", "long": "unsigned long", "long long": "unsigned long long"}
# a recorded scalar: its size and how its bytes read (struct's format; None: ``_Bool``)
_SCALAR = {
    "_Bool": (1, None), "char": (1, "<b"), "signed char": (1, "<b"), "unsigned char": (1, "<B"),
    "short": (2, "<h"), "unsigned short": (2, "<H"), "int": (4, "<i"), "unsigned": (4, "<I"),
    "long": (8, "<q"), "unsigned long": (8, "<Q"), "long long": (8, "<q"),
    "unsigned long long": (8, "<Q"), "float": (4, "<f"), "double": (8, "<d"),
}  # fmt: skip
_PROMOTED = {"_Bool", "char", "signed char", "unsigned char", "short", "unsigned short"}
_FLOATING = {"float", "double"}
_LINE = re.compile(r"r(?:[0-9a-f]{2})*")
MAX_CHANNEL = 1 << 20
"""The judge's reader holds less than this (``lifted_c_judge.h``): a longer channel is its."""


class _Refuse(Exception):
    """Outside what this module decides exactly: the compiled judge does."""


@dataclass(frozen=True)
class Check:
    """One ``assert`` of the test: ``op`` (``truth``, ``not`` or a comparison, written
    with the call on its left) and the constant it compares with: its C type and value."""

    op: str
    constant: tuple[str, Any] | None = None


# ------------------------------------------------------------------ the test's shape
def checks(test: str, plan: lifted.Plan, cpp: bool = False) -> tuple[Check, ...] | None:
    """The test's ``assert``s, one per lifted call in order, or None when the test is
    not of the shape the module docstring gives (``cpp``: a C++ test, section "C++")."""
    if any(d is not None for d in plan.declared):
        return None
    if re.search(r"\\[ \t\f\v]*(?:\r?\n|$)", test):
        return None  # a line splice, in a comment too (``// see \\`` takes the next line)
    code = compiled_eq.blank_cpp_comments(test)
    for line in code.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("#", "%:")) and not re.fullmatch(
            r"#[ \t]*include[ \t]*<[A-Za-z0-9_./]+>", stripped
        ) and not (cpp and re.fullmatch(r"#[ \t]*undef[ \t]+NDEBUG", stripped)):  # fmt: skip
            return None
        if "\\" in line or "??" in line:
            return None  # a line continued, a trigraph: read as the compiler would
    toks = compiled_eq._tokens(test)
    issame = None
    if cpp:
        found = _issame(toks)
        if found is not None:
            issame, at = found
            toks = compiled_eq._tokens(" " * toks[at].start + test[toks[at].start :])
    if len(toks) < 6 or toks[0].text != "int" or toks[1].start != plan.main[0]:
        return None
    params = toks[2].match
    if toks[2].text != "(" or [t.text for t in toks[3:params]] not in ([], ["void"]):
        return None
    body = params + 1
    if toks[body].text != "{" or toks[body].match != len(toks) - 1:
        return None
    calls = list(plan.calls)
    inputs = set(plan.inputs) | set(plan.drop)  # data the recorder makes; ``auto c = f;``
    out: list[Check] = []
    i, end = body + 1, len(toks) - 1
    try:
        while i < end:
            k = i
            while k < end and toks[k].text != ";":
                k = toks[k].match + 1 if toks[k].text in ("(", "[", "{") else k + 1
            if k >= end:
                return None
            stmt = toks[i:k]
            if not stmt:
                i = k + 1
                continue
            if any(a <= stmt[0].start and stmt[-1].end <= b for a, b in inputs):
                i = k + 1
                continue
            if [t.text for t in stmt] == ["return", "0"] and k + 1 == end:
                break
            if (len(stmt) < 4 or stmt[0].text != "assert" or stmt[1].text != "("
                    or stmt[1].match != k - 1):  # fmt: skip
                return None
            if not calls:
                return None
            out.append(_assert(stmt[2:-1], calls.pop(0), cpp, issame))
            i = k + 1
    except _Refuse:
        return None
    if calls:
        return None
    return tuple(out)


def _assert(
    expr: list[Any], call: tuple[int, int], cpp: bool = False, issame: str | None = None
) -> Check:
    """The check of one ``assert``'s expression, whose call is ``call``'s span (``issame``:
    the element type of the test's ``issame``, where ``_issame`` knows it)."""
    at = next((n for n, t in enumerate(expr) if t.start == call[0]), None)
    to = next((n for n, t in enumerate(expr) if t.end == call[1]), None)
    if at is None or to is None:
        raise _Refuse
    before, after = expr[:at], expr[to + 1 :]
    if issame is not None and [t.text for t in before] == ["issame", "("]:
        texts = [t.text for t in after]
        if len(texts) < 4 or texts[0] != "," or texts[1] != "{" or texts[-2:] != ["}", ")"]:
            raise _Refuse
        return Check("issame", (f"std::vector<{issame}>", _braced(after[2:-2], issame)))
    if not before and not after:
        return Check("truth")
    if [t.text for t in before] in (["!"], ["not"] if cpp else ["!"]) and not after:
        return Check("not")
    if not before and after and after[0].text in _OPS:
        check = Check(after[0].text, _constant(after[1:], cpp))
    elif not after and before and before[-1].text in _OPS:
        check = Check(_SWAP[before[-1].text], _constant(before[:-1], cpp))
    else:
        raise _Refuse
    if (
        check.constant is not None
        and check.constant[0] == "string"
        and check.op not in ("==", "!=")
    ):
        raise _Refuse  # a string's order: its judge decides
    return check


# HumanEval-X's ``issame`` of two vectors, its one body for every element type it compares
# exactly (``int``, ``string``; its ``float`` one compares within 1e-4 through ``abs``, whose
# overload depends on the program's includes: the judge decides it)
_ISSAME = re.findall(
    r"\S+",
    "bool issame ( vector < T > a , vector < T > b ) { if ( a . size ( ) != b . size ( ) ) "
    "return false ; for ( int i = 0 ; i < a . size ( ) ; i ++ ) { if ( a [ i ] != b [ i ] ) "
    "return false ; } return true ; }",
)
_ISSAME_TYPES = {("int",): "int", ("string",): "std::string", ("long",): "long",
                 ("long", "long"): "long long"}  # fmt: skip
_INT_BITS = {"int": 32, "long": 64, "long long": 64}


def _issame(toks: list[Any]) -> tuple[str, int] | None:
    """The element type of a test's leading ``issame`` (``_ISSAME``, with one of
    ``_ISSAME_TYPES`` for ``T``) and the index of its first token after it; None when the
    test does not start with one."""
    texts = [t.text for t in toks[: len(_ISSAME) + 4]]
    for words, name in _ISSAME_TYPES.items():
        want: list[str] = []
        for w in _ISSAME:
            want += list(words) if w == "T" else [w]
        if texts[: len(want)] == want:
            return name, len(want)
    return None


def _braced(toks: list[Any], kind: str, cast: list[str] | None = None) -> list[Any]:
    """The values of a braced list that initialises a ``std::vector`` of ``kind``: each an
    integer constant that fits it (another is narrowing: the test would not compile, or,
    converted explicitly, wraps around, which this does not read) or a plain string
    literal (``kind`` ``std::string``). ``cast``: the tokens of an explicit conversion
    to ``kind`` an element may start with (MultiPL-E's ``(long)``)."""
    items: list[list[Any]] = [[]]
    for t in toks:
        if t.text == ",":
            items.append([])
        else:
            items[-1].append(t)
    if items == [[]]:
        return []
    out: list[Any] = []
    for item in items:
        if cast and [t.text for t in item[: len(cast)]] == cast:
            item = item[len(cast) :]
        if not item or any(t.text in ("{", "}", "(", ")", "[", "]") for t in item):
            raise _Refuse  # a nested list, a call, another cast: the judge's
        ckind, value = _constant(item, cpp=True)
        if kind == "std::string":
            if ckind != "string":
                raise _Refuse
        elif ckind not in _INT or ckind == "string":
            raise _Refuse
        else:
            bits = _INT_BITS[kind]
            signed = _INT[ckind][1]
            if not signed or not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
                raise _Refuse  # an unsigned constant, or one the type does not hold
        out.append(value)
    return out


def _wrapped(toks: list[Any]) -> bool:
    """Whether the tokens are one parenthesised expression, ``( ... )``."""
    if len(toks) < 2 or toks[0].text != "(" or toks[-1].text != ")":
        return False
    depth = 0
    for n, t in enumerate(toks):
        depth += t.text == "("
        depth -= t.text == ")"
        if depth == 0 and n < len(toks) - 1:
            return False
    return True


_MULTIPL_E_VECTOR = {("long",): "long", ("int",): "int", ("long", "long"): "long long",
                     ("std", "::", "string"): "std::string"}  # fmt: skip


def _vector_constant(toks: list[Any]) -> tuple[str, Any]:
    """MultiPL-E's vector of constants, ``std::vector<T>({(T)1, (T)-2})`` or
    ``std::vector<T>()``: its type and its values (each element cast to ``T``, or a
    constant ``T`` holds, as ``_braced`` reads one)."""
    texts = [t.text for t in toks]
    if texts[:4] != ["std", "::", "vector", "<"] or ">" not in texts:
        raise _Refuse
    close = texts.index(">")
    element = _MULTIPL_E_VECTOR.get(tuple(texts[4:close]))
    if element is None:
        raise _Refuse
    rest = toks[close + 1 :]
    if [t.text for t in rest] == ["(", ")"]:
        return f"std::vector<{element}>", []
    if (len(rest) < 4 or [t.text for t in rest[:2]] != ["(", "{"]
            or [t.text for t in rest[-2:]] != ["}", ")"]):  # fmt: skip
        raise _Refuse
    return f"std::vector<{element}>", _braced(rest[2:-2], element, ["(", *texts[4:close], ")"])


def _constant(toks: list[Any], cpp: bool = False) -> tuple[str, Any]:
    """A constant with at most one sign: its C type and its value (C++: also ``true``
    and ``false``, an ``int`` once promoted as ``bool`` is, and a plain string literal,
    ``("string", its bytes up to its first NUL)``: what ``std::string``'s ``==`` reads;
    parenthesised, and MultiPL-E's ``std::vector<T>({...})`` of constants)."""
    while cpp and _wrapped(toks):
        toks = toks[1:-1]
    if cpp and toks and toks[0].text == "std":
        return _vector_constant(toks)
    if cpp and len(toks) == 1 and toks[0].text in ("true", "false"):
        return "int", int(toks[0].text == "true")
    if cpp and len(toks) == 1 and toks[0].kind == "lit" and toks[0].text[0] == '"':
        return "string", _string(toks[0].text[1:-1])
    sign = ""
    if len(toks) == 2 and toks[0].text in ("-", "+"):
        sign, toks = toks[0].text, toks[1:]
    if len(toks) != 1 or toks[0].kind != "lit":
        raise _Refuse
    kind, value = _literal(toks[0].text)
    if sign != "-":
        return kind, value
    if kind == "double":
        return kind, -value
    bits, signed, _rank = _INT[kind]
    return kind, -value if signed else (-value) % (1 << bits)


_SUFFIX_TYPES = {  # C11 6.4.4.1: (suffix, decimal?) -> the types in order
    ("", True): ("int", "long", "long long"),
    ("", False): ("int", "unsigned", "long", "unsigned long", "long long", "unsigned long long"),
    ("u", True): ("unsigned", "unsigned long", "unsigned long long"),
    ("u", False): ("unsigned", "unsigned long", "unsigned long long"),
    ("l", True): ("long", "long long"),
    ("l", False): ("long", "unsigned long", "long long", "unsigned long long"),
    ("ul", True): ("unsigned long", "unsigned long long"),
    ("ul", False): ("unsigned long", "unsigned long long"),
    ("ll", True): ("long long",),
    ("ll", False): ("long long", "unsigned long long"),
    ("ull", True): ("unsigned long long",),
    ("ull", False): ("unsigned long long",),
}  # fmt: skip
_INTEGER = re.compile(
    r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([uU]?(?:l|L|ll|LL)?|(?:l|L|ll|LL)[uU])"
)
_DOUBLE = re.compile(r"(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+")
_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39,
            '"': 34, "?": 63}  # fmt: skip


def _literal(text: str) -> tuple[str, Any]:
    """A C constant's type and value (integers as Python ints, doubles as floats)."""
    m = _INTEGER.fullmatch(text)
    if m:
        digits, suffix = m.groups()
        value = (
            int(digits, 16)
            if digits[:2] in ("0x", "0X")
            else int(digits, 8 if digits[0] == "0" else 10)
        )
        low = suffix.lower()
        key = ("u" if "u" in low else "") + "l" * low.count("l")
        for kind in _SUFFIX_TYPES[(key, digits[0] != "0")]:
            bits, signed, _rank = _INT[kind]
            if value < (1 << (bits - 1 if signed else bits)):
                return kind, value
        raise _Refuse  # beyond every type of its list
    if _DOUBLE.fullmatch(text):
        number = float(text)
        if not math.isfinite(number):
            raise _Refuse
        return "double", number
    if len(text) >= 3 and text[0] == "'" and text[-1] == "'":
        return "int", _character(text[1:-1])
    raise _Refuse  # a suffixed or hexadecimal float, a prefixed character, a string


def _string(body: str) -> bytes:
    """A plain string literal's bytes up to its first NUL: printable ASCII and the simple
    escapes (anything else is refused)."""
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
                raise _Refuse  # an octal, hexadecimal or universal escape
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        elif " " <= c <= "~" and c != '"':
            out.append(ord(c))
            i += 1
        else:
            raise _Refuse
    return bytes(out)


def _character(body: str) -> int:
    """A character constant's value as an ``int`` (its one byte as a signed ``char``)."""
    if not body.isascii():
        raise _Refuse
    if body[0] != "\\":
        if len(body) != 1:
            raise _Refuse  # a multi-character constant
        byte = ord(body)
    elif len(body) == 2 and body[1] in _ESCAPES:
        byte = _ESCAPES[body[1]]
    elif re.fullmatch(r"\\[0-7]{1,3}", body):
        byte = int(body[1:], 8)
    elif re.fullmatch(r"\\x[0-9a-fA-F]{1,2}", body):
        byte = int(body[2:], 16)
    else:
        raise _Refuse
    if byte > 255:
        raise _Refuse
    return byte - 256 if byte > 127 else byte


# ------------------------------------------------------------------ the recorded values
def _value(kind: str, line: str) -> Any:
    """A recorded value line as a Python number; refused where the compiled judge reads it."""
    if kind not in _SCALAR or not _LINE.fullmatch(line):
        raise _Refuse
    size, form = _SCALAR[kind]
    raw = bytes.fromhex(line[1:])
    if len(raw) > size:
        return _MALFORMED
    raw = raw.ljust(size, b"\0")
    if form is None:  # _Bool
        return _MALFORMED if raw[0] > 1 else raw[0]
    return struct.unpack(form, raw)[0]


_MALFORMED = object()


def _common(a: str, b: str) -> str:
    """The usual arithmetic conversions' type of two promoted integer types."""
    if a == b:
        return a
    (_, asigned, arank), (_, bsigned, brank) = _INT[a], _INT[b]
    if asigned == bsigned:
        return a if arank >= brank else b
    signed, unsigned = (a, b) if asigned else (b, a)
    if _INT[unsigned][2] >= _INT[signed][2]:
        return unsigned
    if _INT[signed][0] > _INT[unsigned][0]:
        return signed
    return _UNSIGNED_OF[signed]


def _holds(check: Check, kind: str, value: Any) -> bool:
    """Whether the ``assert`` holds for the call's ``value`` of type ``kind``."""
    vector = check.constant is not None and check.constant[0].startswith("std::vector<")
    if check.op == "issame" or vector:
        assert check.constant is not None
        if kind != check.constant[0] or not isinstance(value, list):
            raise _Refuse  # another vector type converts to none: it would not compile
        if check.op not in ("issame", "==", "!="):
            raise _Refuse  # a vector's order: the judge's
        return (value == check.constant[1]) == (check.op != "!=")
    strings = (kind == "std::string", check.constant is not None and check.constant[0] == "string")
    if any(strings):
        if not all(strings) or check.op not in ("==", "!="):
            raise _Refuse  # it would not compile, or compares otherwise
        assert check.constant is not None
        return (value == check.constant[1]) == (check.op == "==")
    if isinstance(value, list) or not (kind in _INT or kind in _FLOATING or kind in _PROMOTED):
        # a vector against a scalar (``assert (f(x));``, ``== true``, ``== 5``): no
        # conversion makes it one, so the test does not compile (the judge's, then the
        # unit's beside the program: compile_error, as plain g++). A red team's
        # ``vector<int> is_prime(int)`` was paid 1.0 on ``assert (is_prime(7));`` (a
        # list is never 0) and made ``== true`` a sandbox error (a KeyError here)
        raise _Refuse
    if check.op in ("truth", "not"):
        zero = value == 0
        return zero if check.op == "not" else not zero
    assert check.constant is not None
    ckind, cvalue = check.constant
    if kind in _FLOATING or ckind == "double":
        if kind not in _FLOATING and abs(value) >= 1 << 53:
            raise _Refuse
        if ckind != "double" and abs(cvalue) >= 1 << (24 if kind == "float" else 53):
            raise _Refuse
        x, y = float(value), float(cvalue)
    else:
        left = "int" if kind in _PROMOTED else kind
        common = _common(left, ckind)
        bits, signed, _rank = _INT[common]
        x, y = value, cvalue
        if not signed:
            x, y = x % (1 << bits), y % (1 << bits)
    return bool(_COMPARE[check.op](x, y))


def decide(values: tuple[Check, ...], rec: lifted.Recorded) -> lifted.Judged | None:
    """The compiled judge's outcome on the recorder's lines, or None where it must run."""
    return _decide(values, rec, _value, lambda kind: kind)


def _decide(
    values: tuple[Check, ...], rec: lifted.Recorded, read: Callable[[str, str], Any],
    c_kind: Callable[[str], str],
) -> lifted.Judged | None:  # fmt: skip
    """C's and C++'s ``decide``: each value line read by ``read`` (of its recorded type),
    compared as C does with the type ``c_kind`` names."""
    channel = rec.channel
    if rec.types is None or len(channel) >= MAX_CHANNEL or len(rec.types) != len(values):
        return None
    lines = channel[:-1].split("\n")[1:]
    try:
        for k, check in enumerate(values):
            if k >= len(lines):
                return lifted.Judged("ran_out")
            value = read(rec.types[k], lines[k])
            if value is _MALFORMED:
                return lifted.Judged("failed", "the recorded values are malformed")
            if not _holds(check, c_kind(rec.types[k]), value):
                return lifted.Judged("failed", "the test aborted")
    except _Refuse:
        return None
    return lifted.Judged("passed")


# ------------------------------------------------------------------ C++
# A lifted C++ test (``lifted``'s own recorder) of the same shape, HumanEval-X's ``#undef
# NDEBUG``, ``#include<assert.h>``, ``int main(){ assert (f(x) == 5); ... }``, with
# ``true``, ``false`` and ``not`` as C++ has them, and a ``std::string`` result against a
# plain string literal (``==``, ``!=``): decided here as the judge would, from the C++
# recorder's types' line (``lifted.spell``) and value lines (``t``/``f``, ``i<decimal>;``,
# ``d<%.17g>;``, ``x<n>:<hex>``; a line in another form, which the recorder does not
# write, goes to the judge).
_CPP_KIND = {"bool": "_Bool"}
_CPP_INT = re.compile(r"i(-?[0-9]{1,20});")
_CPP_DOUBLE = re.compile(r"d(nan|inf|-inf|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:e[+-][0-9]+)?);")
_CPP_STRING = re.compile(r"x([0-9]{1,9}):([0-9a-f]*)")


_CPP_VECTOR = re.compile(r"std::vector<(int|long|long long|std::string)>")
_CPP_COUNT = re.compile(r"l([0-9]{1,9}):")
_CPP_ELEMENT = {"std::string": re.compile(r"x([0-9]{1,9}):"), "int": _CPP_INT,
                "long": _CPP_INT, "long long": _CPP_INT}  # fmt: skip


def _vector_cpp(element: str, line: str) -> Any:
    """A recorded ``std::vector`` of ints or strings (``l<count>:`` and its elements, as
    ``put`` writes them) as a list; malformed where it is not one, whole."""
    m = _CPP_COUNT.match(line)
    if m is None:
        raise _Refuse
    count, at = int(m.group(1)), m.end()
    out: list[Any] = []
    pattern = _CPP_ELEMENT[element]
    for _ in range(count):
        e = pattern.match(line, at)
        if e is None:
            return _MALFORMED
        if element == "std::string":
            n = int(e.group(1))
            data = line[e.end() : e.end() + 2 * n]
            if len(data) != 2 * n or not re.fullmatch(r"[0-9a-f]*", data):
                return _MALFORMED
            out.append(bytes.fromhex(data))
            at = e.end() + 2 * n
        else:
            value = int(e.group(1))
            bits = _INT_BITS[element]
            if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
                return _MALFORMED
            out.append(value)
            at = e.end()
    return out if at == len(line) else _MALFORMED


def _value_cpp(kind: str, line: str) -> Any:
    """A C++ recorder's value line as a Python value (a number, a string's bytes, a list
    of them)."""
    vector = _CPP_VECTOR.fullmatch(kind)
    if vector is not None:
        return _vector_cpp(vector.group(1), line)
    if kind == "bool":
        return {"t": 1, "f": 0}.get(line, _MALFORMED)
    if kind in ("float", "double"):
        m = _CPP_DOUBLE.fullmatch(line)
        if m is None:
            raise _Refuse
        return float(m.group(1))
    if kind == "std::string":
        m = _CPP_STRING.fullmatch(line)
        if m is None or len(m.group(2)) != 2 * int(m.group(1)):
            raise _Refuse
        return bytes.fromhex(m.group(2))
    if kind not in _SCALAR or kind in ("_Bool", "long double"):
        raise _Refuse
    m = _CPP_INT.fullmatch(line)
    if m is None:
        raise _Refuse
    size, form = _SCALAR[kind]
    value = int(m.group(1))
    signed = form is not None and form[1].islower()
    low, high = (
        (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1)
        if signed
        else (0, (1 << (8 * size)) - 1)
    )
    return value if low <= value <= high else _MALFORMED


def decide_cpp(values: tuple[Check, ...], rec: lifted.Recorded) -> lifted.Judged | None:
    """The C++ judge's outcome on the recorder's lines, or None where it must run."""
    return _decide(values, rec, _value_cpp, lambda kind: _CPP_KIND.get(kind, kind))
