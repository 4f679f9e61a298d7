"""MBGP's ``deepCompare`` decided on the host: a lifted Go test (``lifted_go``) whose code is
exactly MBGP's harness, and whose expected values are literals, needs no compiled judge.

``lifted_go`` runs a lifted test's own code in a judge built once per test: on a stream of
distinct problems (every sample another test) that build (a Go compile and link, about
0.15 s) costs more than the candidate's own. Where the test is MBGP's shape, what the
judge would do is known without running it:

- the test's top level is MBGP's ``deepCompare`` (token for token, ``_DEEP_COMPARE``) and
  ``main``; ``main`` is, per call of the program, ``A := CALL``, ``E := EXPR``,
  ``deepCompare(A, E, "message")`` (or ``(E, A, ...)``), each name declared once, a Go
  identifier and none of Go's keywords or predeclared words; no statement holds a
  newline where Go would insert a semicolon, and the text no NUL, byte order mark, form
  feed or vertical tab (Go's scanner refuses them; a red team found each of these
  decided here where Go does not compile the test);
- ``deepCompare`` marshals both sides with ``encoding/json``, unmarshals each into an
  ``interface{}`` and compares them with ``reflect.DeepEqual``, panicking on a mismatch or
  on either step's error. Unmarshalled into an ``interface{}``, JSON is ``nil``, ``bool``,
  ``float64``, ``string``, ``[]interface{}`` or ``map[string]interface{}``: here ``None``,
  ``bool``, ``float``, ``str``, ``list`` and ``dict``, compared by type and value
  (``_same``: ``DeepEqual`` on those types; ``True`` is not ``1.0``);
- each ``EXPR`` is evaluated here (``expected``) as Go types it and as ``json.Marshal``
  then writes it: constants (integer, rune, float, string literals, a sign, ``true``,
  ``false``), conversions of constants to a basic type, and composite literals of slices,
  arrays and maps of those (elided element types, ``nil`` where Go allows it). Go's typing
  is checked where it could make the test not compile (an integer out of its type's
  range, a float where an integer is wanted, a duplicate map key, a literal of another
  type): anything this module does not evaluate exactly (``float32``, whose JSON is its
  own shortest form; ``[]byte``, which marshals as base64; structs, keyed slice
  elements, maps keyed by anything but strings and integers, constant arithmetic, names,
  calls) makes the plan's ``host`` None and the test goes to its compiled judge as
  before;
- each value the program's call returned is the recorder's line (``lifted_go``): ``e``
  (its ``json.Marshal`` failed: ``deepCompare`` panics) or its JSON, decoded here as
  ``json.Unmarshal`` decodes it (``_decode``). A line that Go might read otherwise than
  Python's ``json`` (not UTF-8, a lone surrogate escape, ``NaN``, a number out of
  ``float64``'s range or longer than ``MAX_NUMBER``, nesting beyond Python's recursion)
  is not decided here: the whole
  sample goes to the compiled judge, which reads it as Go does. The recorder's own lines
  (``json.Marshal`` of a value of the program's) never are such a line; a program that
  writes its own can only send itself to the slower judge.

The outcome is the compiled judge's: the first failing comparison fails the test
(``the test failed``); a call the candidate never returned from, after every comparison
before it held, is ``ran_out``; every comparison holding is ``passed``. No expected value
enters the candidate's cell on either path.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from reward_api.verify import lifted, lifted_go
from reward_api.verify.languages import GO_PREDECLARED

_DEEP_COMPARE = """func deepCompare(a interface{}, b interface{}, msg string) bool {
	aJSON, err := json.Marshal(a)
	if err != nil {
		panic(msg)
	}
	bJSON, err := json.Marshal(b)
	if err != nil {
		panic(msg)
	}
	var a2 interface{}
	var b2 interface{}
	err = json.Unmarshal(aJSON, &a2)
	if err != nil {
		panic(msg)
	}
	err = json.Unmarshal(bJSON, &b2)
	if err != nil {
		panic(msg)
	}
	result := reflect.DeepEqual(a2, b2)
	if result {
		return true
	} else {
		panic(msg)
	}
}"""
"""MBGP's comparison, whose tokens (not its spacing) a test must repeat to be decided here."""

_DEEP_TOKENS = tuple((t.text, t.nl) for t in lifted_go.tokens(_DEEP_COMPARE))
"""Its tokens with the newlines before them: where Go inserts a semicolon is part of it
(``return`` then ``true`` on the next line does not compile)."""

PREDECLARED = GO_PREDECLARED | {"clear", "max", "min"}
"""Go's predeclared identifiers (1.19's, and the builtins 1.21 added): a local of ``main``
named one would change what a later statement's words mean."""

_INTS = {
    "int": (-(1 << 63), (1 << 63) - 1), "int64": (-(1 << 63), (1 << 63) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1), "rune": (-(1 << 31), (1 << 31) - 1),
    "int16": (-(1 << 15), (1 << 15) - 1), "int8": (-128, 127),
    "uint": (0, (1 << 64) - 1), "uint64": (0, (1 << 64) - 1), "uintptr": (0, (1 << 64) - 1),
    "uint32": (0, (1 << 32) - 1), "uint16": (0, (1 << 16) - 1),
}  # fmt: skip
"""Integer types and their ranges (``byte`` and ``uint8`` are not here: a slice of them
marshals as base64)."""
_BASIC = frozenset({*_INTS, "float64", "string", "bool"})
MAX_ARRAY = 1 << 12
"""The longest array type evaluated (its zero elements are made here)."""

_ANY = ("any",)


class _Refuse(Exception):
    """Outside what this module evaluates exactly: the compiled judge decides."""


# ------------------------------------------------------------------ the test's shape
def expected(test: str, entries: set[str]) -> tuple[Any, ...] | None:
    """The value each ``deepCompare`` compares the K-th call's result with, as
    ``json.Unmarshal`` into an ``interface{}`` would give it, in call order; None when the
    test is not MBGP's shape or an expected value is outside what is evaluated here."""
    if re.search("[\x00\ufeff\f\v]", test):  # Go's scanner refuses these in a test's text
        return None
    toks = lifted_go.tokens(test)
    if not toks:
        return None
    top = lifted_go.statements(toks, 0, len(toks))
    if len(top) != 2:
        return None
    deep = next((s for s in top if _is_deep_compare(toks[s[0] : s[1]])), None)
    main = next((s for s in top if s != deep), None)
    if deep is None or main is None:
        return None
    a, b = main
    if ([t.text for t in toks[a : a + 5]] != ["func", "main", "(", ")", "{"]
            or toks[a + 4].match != b - 1):  # fmt: skip
        return None
    body = lifted_go.statements(toks, a + 5, b - 1)
    if not body or len(body) % 3:
        return None
    seen: set[str] = set()
    out: list[Any] = []
    try:
        for k in range(0, len(body), 3):
            (s1, e1), (s2, e2), (s3, e3) = body[k : k + 3]
            got = _declared(toks, s1, e1)
            want = _declared(toks, s2, e2)
            names = {got, want}
            if (len(names) != 2 or names & seen or names & entries or names & PREDECLARED
                    or names & lifted_go._KEYWORDS or names & {"deepCompare", "main", "_"}
                    or not all(map(_go_identifier, names))):  # fmt: skip
                return None
            seen |= names
            if any(_semicolon_inside(toks, x, y) for x, y in body[k : k + 3]):
                return None
            # the call: the entry point's name and its parenthesised arguments alone
            # (lifted_go.plan has checked what they hold)
            if (e1 - s1 < 4 or toks[s1 + 2].text not in entries or toks[s1 + 3].text != "("
                    or toks[s1 + 3].match != e1 - 1):  # fmt: skip
                return None
            texts = [t.text for t in toks[s3:e3]]
            if (len(texts) != 8 or texts[:2] != ["deepCompare", "("] or texts[3] != ","
                    or texts[5] != "," or texts[7] != ")" or {texts[2], texts[4]} != names
                    or toks[s3 + 6].kind != "lit" or toks[s3 + 6].text[0] not in "\"`"):  # fmt: skip
                return None
            _string(toks[s3 + 6].text)  # the message compiles
            out.append(_value(toks, s2 + 2, e2, None))
    except _Refuse:
        return None
    return tuple(out)


def _is_deep_compare(toks: list[Any]) -> bool:
    """Whether ``toks`` are MBGP's ``deepCompare``, newlines inside it included."""
    return len(toks) == len(_DEEP_TOKENS) and all(
        t.text == text and (k == 0 or t.nl == nl)
        for k, (t, (text, nl)) in enumerate(zip(toks, _DEEP_TOKENS, strict=True))
    )


def _go_identifier(name: str) -> bool:
    """Go's identifier: a letter (a Unicode letter or ``_``), then letters and decimal
    digits; Python's ``\\w`` also takes ``½`` or ``Ⅻ``, which Go refuses."""
    return bool(name) and all(
        c == "_" or unicodedata.category(c).startswith("L")
        or (k > 0 and unicodedata.category(c) == "Nd")
        for k, c in enumerate(name)
    )  # fmt: skip


def _semicolon_inside(toks: list[Any], s: int, e: int) -> bool:
    """Whether Go inserts a semicolon inside the statement ``toks[s:e]`` (a newline after a
    token that ends a line, ``[]int{1`` then ``}`` on the next): none of the statements
    read here holds a block, so that is a syntax error, which the statements' reader (it
    splits at the top level only) does not see."""
    return any(toks[m].nl and lifted_go._inserts(toks[m - 1]) for m in range(s + 1, e))


def _declared(toks: list[Any], s: int, e: int) -> str:
    """The name of a ``NAME := ...`` statement."""
    if e - s < 3 or toks[s].kind != "id" or toks[s + 1].text != ":=":
        raise _Refuse
    return str(toks[s].text)


# ------------------------------------------------------------------ Go's values as JSON
def _type(toks: list[Any], i: int, end: int) -> tuple[tuple[Any, ...], int]:
    """The type spelled from ``toks[i]`` and the index after it."""
    if i >= end:
        raise _Refuse
    t = toks[i]
    if t.text == "[" and i + 1 < end:
        if toks[i + 1].text == "]":
            elem, j = _type(toks, i + 2, end)  # never ``byte`` (not in ``_BASIC``)
            return ("slice", elem), j
        if i + 2 < end and toks[i + 1].kind == "lit" and toks[i + 2].text == "]":
            n = _integer(toks[i + 1].text)
            if not 0 <= n <= MAX_ARRAY:
                raise _Refuse
            elem, j = _type(toks, i + 3, end)
            return ("array", n, elem), j
        raise _Refuse
    if t.text == "map" and i + 1 < end and toks[i + 1].text == "[":
        close = toks[i + 1].match
        key, j = _type(toks, i + 2, close)
        if j != close or key not in (("basic", "string"), *(("basic", n) for n in _INTS)):
            raise _Refuse
        value, k = _type(toks, close + 1, end)
        return ("map", key, value), k
    if (
        t.text == "interface"
        and i + 2 < end
        and toks[i + 1].text == "{"
        and toks[i + 2].text == "}"
    ):
        return _ANY, i + 3
    if t.kind == "id" and t.text == "any":
        return _ANY, i + 1
    if t.kind == "id" and t.text in _BASIC:
        return ("basic", t.text), i + 1
    raise _Refuse


def _value(toks: list[Any], a: int, b: int, want: tuple[Any, ...] | None) -> Any:
    """The expression ``toks[a:b]`` as a value of type ``want`` (None: its own default
    type, as ``:=`` gives it), in JSON's decoded form."""
    if a >= b:
        raise _Refuse
    t = toks[a]
    if t.text == "{":
        if want is None or want[0] not in ("slice", "array", "map") or t.match != b - 1:
            raise _Refuse
        return _composite(toks, a, want)
    if b - a == 1 and t.kind == "id" and t.text == "nil":
        if want is None or want[0] not in ("slice", "map", "any"):
            raise _Refuse
        return None
    if b - a == 1 and t.kind == "id" and t.text in ("true", "false"):
        if want not in (None, _ANY, ("basic", "bool")):
            raise _Refuse
        return t.text == "true"
    if t.text in ("[", "map", "interface") or (t.kind == "id" and t.text in (*_BASIC, "any")):
        typ, j = _type(toks, a, b)
        if want not in (None, _ANY, typ) or j >= b:
            raise _Refuse
        if typ[0] in ("slice", "array", "map") and toks[j].text == "{" and toks[j].match == b - 1:
            return _composite(toks, j, typ)
        if typ[0] == "basic" and toks[j].text == "(" and toks[j].match == b - 1:
            return _convert(_constant(toks, j + 1, b - 1), typ)
        raise _Refuse
    kind, value = _constant(toks, a, b)
    return _convert((kind, value), want if want not in (None, _ANY) else None)


def _composite(toks: list[Any], brace: int, typ: tuple[Any, ...]) -> Any:
    """The composite literal of ``typ`` whose elements are in the braces at ``brace``."""
    elements = _elements(toks, brace + 1, toks[brace].match)
    if typ[0] == "map":
        out: dict[str, Any] = {}
        for a, b in elements:
            colon = _colon(toks, a, b)
            if colon is None:
                raise _Refuse
            key = _key(toks, a, colon, typ[1])
            if key in out:  # a duplicate constant key does not compile
                raise _Refuse
            out[key] = _value(toks, colon + 1, b, typ[2])
        return out
    if any(_colon(toks, a, b) is not None for a, b in elements):
        raise _Refuse  # keyed elements
    items = [_value(toks, a, b, typ[-1]) for a, b in elements]
    if typ[0] == "array":
        if len(items) > typ[1]:
            raise _Refuse
        items += [_zero(typ[2]) for _ in range(typ[1] - len(items))]
    return items


def _elements(toks: list[Any], a: int, b: int) -> list[tuple[int, int]]:
    """The comma-separated elements of ``toks[a:b]`` (a trailing comma allowed)."""
    out: list[tuple[int, int]] = []
    start = i = a
    while i < b:
        if toks[i].text == ",":
            if i == start:
                raise _Refuse
            out.append((start, i))
            start = i + 1
        elif toks[i].text in ("(", "[", "{"):
            i = toks[i].match
        i += 1
    if start < b:
        out.append((start, b))
    return out


def _colon(toks: list[Any], a: int, b: int) -> int | None:
    """The index of a ``:`` at the top level of ``toks[a:b]``."""
    i = a
    while i < b:
        if toks[i].text == ":":
            return i
        i = toks[i].match + 1 if toks[i].text in ("(", "[", "{") else i + 1
    return None


def _key(toks: list[Any], a: int, b: int, typ: tuple[Any, ...]) -> str:
    """A map key as ``json.Marshal`` writes it: a string, or an integer's decimal."""
    kind, value = _constant(toks, a, b)
    if typ == ("basic", "string"):
        if kind != "string":
            raise _Refuse
        return str(value)
    if kind not in ("int", "rune"):
        raise _Refuse
    low, high = _INTS[typ[1]]
    if not low <= value <= high:
        raise _Refuse
    return str(value)


def _zero(typ: tuple[Any, ...]) -> Any:
    if typ[0] == "basic":
        return "" if typ[1] == "string" else False if typ[1] == "bool" else 0.0
    if typ[0] == "array":
        return [_zero(typ[2]) for _ in range(typ[1])]
    return None


def _constant(toks: list[Any], a: int, b: int) -> tuple[str, Any]:
    """A constant: a literal, with at most one sign before it (``int``, ``rune``,
    ``float``, ``string``; numbers as Python's exact ``int`` or correctly rounded
    ``float``)."""
    signed = b - a == 2 and toks[a].text in ("-", "+")
    sign = -1 if signed and toks[a].text == "-" else 1
    a += 1 if signed else 0
    if b - a != 1 or toks[a].kind != "lit":
        raise _Refuse
    text = toks[a].text
    if text[0] in '"`':
        if signed:
            raise _Refuse
        return "string", _string(text)
    if text[0] == "'":
        return "rune", sign * _rune(text)
    if re.fullmatch(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*", text):
        return "int", sign * _integer(text)
    if re.fullmatch(
        r"[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+|\.[0-9]+(?:[eE][+-]?[0-9]+)?",
        text,
    ):
        value = float(text)
        if not math.isfinite(value):
            raise _Refuse
        return "float", sign * value
    raise _Refuse  # hexadecimal floats, imaginary numbers, digit separators


def _integer(text: str) -> int:
    if not re.fullmatch(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*", text):
        raise _Refuse  # Python's int() also reads other scripts' digits
    if re.fullmatch(r"0[0-7]+", text):
        return int(text, 8)
    try:
        return int(text, 0)
    except ValueError:
        raise _Refuse from None


def _convert(const: tuple[str, Any], typ: tuple[Any, ...] | None) -> Any:
    """A constant as a value of the basic type ``typ`` (None: the constant's default
    type), or refused where Go would not compile it."""
    kind, value = const
    if typ is not None and typ[0] != "basic":
        raise _Refuse
    default = {"int": "int", "rune": "rune", "float": "float64", "string": "string"}
    name = typ[1] if typ is not None else default[kind]
    if name == "string" or kind == "string":
        if name != "string" or kind != "string":
            raise _Refuse
        return value
    if name in _INTS:
        if kind not in ("int", "rune"):
            raise _Refuse
        low, high = _INTS[name]
        if not low <= value <= high:
            raise _Refuse
        return float(value)
    if name == "float64":
        try:
            out = float(value)
        except OverflowError:
            raise _Refuse from None
        if not math.isfinite(out):
            raise _Refuse
        return out + 0.0  # a constant has no negative zero
    raise _Refuse


_SIMPLE = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}


def _escapes(body: str, quote: str) -> list[int]:
    """The code points (``< 256`` from a byte escape: marked as bytes by ``-1 - byte``) of
    an interpreted literal's body."""
    out: list[int] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(ord(c))
            i += 1
            continue
        e = body[i + 1] if i + 1 < len(body) else ""
        if e in _SIMPLE:
            out.append(_SIMPLE[e])
            i += 2
        elif e == quote:
            out.append(ord(quote))
            i += 2
        elif e and e in "01234567" and re.fullmatch(r"[0-7]{3}", body[i + 1 : i + 4]):
            v = int(body[i + 1 : i + 4], 8)
            if v > 255:
                raise _Refuse
            out.append(-1 - v)
            i += 4
        elif e == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", body[i + 2 : i + 4]):
            out.append(-1 - int(body[i + 2 : i + 4], 16))
            i += 4
        elif e in ("u", "U"):
            n = 4 if e == "u" else 8
            digits = body[i + 2 : i + 2 + n]
            if not re.fullmatch(rf"[0-9a-fA-F]{{{n}}}", digits):
                raise _Refuse
            v = int(digits, 16)
            if v > 0x10FFFF or 0xD800 <= v <= 0xDFFF:
                raise _Refuse
            out.append(v)
            i += 2 + n
        else:
            raise _Refuse
    return out


def _string(text: str) -> str:
    """A Go string literal's value; refused where it is not valid UTF-8 (``json.Marshal``
    would write each bad byte as U+FFFD)."""
    try:
        if text[0] == "`":
            data = text[1:-1].replace("\r", "").encode("utf-8")
        else:
            raw = bytearray()
            for c in _escapes(text[1:-1], '"'):
                raw += bytes([-1 - c]) if c < 0 else chr(c).encode("utf-8")
            data = bytes(raw)
        return data.decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):  # a surrogate in the source; bad bytes
        raise _Refuse from None


def _rune(text: str) -> int:
    points = _escapes(text[1:-1], "'")
    if len(points) != 1:
        raise _Refuse
    c = points[0]
    if 0xD800 <= c <= 0xDFFF:
        raise _Refuse
    return -1 - c if c < 0 else c


# ------------------------------------------------------------------ the candidate's values
def _no_constant(name: str) -> Any:
    raise _Refuse


MAX_NUMBER = 64
"""The longest number text read here: ``json.Marshal`` writes at most 24 characters for a
float64 and 20 for an integer, and Go 1.19's ``strconv.ParseFloat`` misreads some longer
ones (``1`` then 800 zeros then ``e-800`` is 0.1 to it; an exponent past 10000 digits'
worth is capped), which a program's own ``MarshalJSON`` could write (red team)."""


def _number(text: str) -> float:
    if len(text) > MAX_NUMBER:
        raise _Refuse
    return float(text)


def _decode(hex_text: str) -> Any:
    """A recorded value's JSON as ``json.Unmarshal`` into an ``interface{}`` reads it, or
    refused where Go's reading could differ from Python's (module docstring)."""
    try:
        text = bytes.fromhex(hex_text).decode("utf-8")
        value = json.loads(
            text, parse_int=_number, parse_float=_number, parse_constant=_no_constant
        )
    except (ValueError, RecursionError):
        raise _Refuse from None
    _check(value)
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check(value: Any) -> None:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float):
            if not math.isfinite(v):
                raise _Refuse
        elif isinstance(v, str):
            if _SURROGATE.search(v):
                raise _Refuse
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for k, item in v.items():
                if _SURROGATE.search(k):
                    raise _Refuse
                stack.append(item)


def _same(a: Any, b: Any) -> bool:
    """``reflect.DeepEqual`` of two unmarshalled ``interface{}`` values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    return bool(a == b)


def decide(values: tuple[Any, ...], channel: str) -> lifted.Judged | None:
    """The compiled judge's outcome on the recorder's ``channel`` (``lifted_go.read`` has
    checked its lines), or None where a line must be read by Go."""
    lines = channel.split("\n")[:-1]
    for k, want in enumerate(values):
        if k >= len(lines):
            return lifted.Judged("ran_out")
        line = lines[k]
        if line == "e":
            return lifted.Judged("failed", "the test failed")
        try:
            got = _decode(line[1:])
        except _Refuse:
            return None
        if not _same(got, want):
            return lifted.Judged("failed", "the test failed")
    return lifted.Judged("passed")
