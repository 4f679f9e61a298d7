"""Go tests in HumanEval-X's ``go test`` shape lifted out of the candidate's process: the
program's build (the recorder) writes each value its calls returned, with its Go type, and
the host compares them with the test's expected values as testify would.

HumanEval-X's Go test is ``func TestX(t *testing.T) { assert := assert.New(t);
assert.Equal(E, CALL); ... }`` in the program's package. Beside the program, its expected
values lie in memory the program can read (the test binary's constants, ``runtime.Stack``,
``/proc/self/mem``) and the test's comparison calls methods the program may declare
(``fmt`` formats a failing value); only the languages module's untrusted checks and the
hack gate stand there. testify's ``Equal`` compares by ``ObjectsAreEqual``: two
``interface{}`` values, equal when both are nil, else by ``reflect.DeepEqual`` (a
``[]byte`` by ``bytes.Equal`` with nil apart from empty, which is ``DeepEqual`` again).
``DeepEqual`` sees types (``int`` is not ``int64``, a named type is not its base) and
values (a nil slice is not an empty one, NaN is not itself), and nothing of the program's
code runs in it. So the type and the value of each call's result are all it needs, and
they cross as data:

1. **Plan** (``plan``): the test's top level is test functions ``func TestX(t
   *testing.T)`` and nothing else; each body is an optional ``assert := assert.New(t)``
   then assertions, each one statement: ``assert.Equal(A, B)`` and ``assert.NotEqual(A,
   B)`` (either side the call), ``assert.True(C)`` and ``assert.False(C)`` (or testify's
   package functions with ``t`` first), with at most string literals after them (the
   message). ``C`` and each side that is not the call are values the host evaluates
   exactly, as Go types them (``expected``: constants and constant arithmetic, ``nil``,
   conversions of constants to a basic type, composite literals of slices, arrays and maps
   of those, ``interface{}`` elements), or the tolerance form ``math.Abs(CALL - E) < EPS``
   (``<=``, either order inside). Each assertion calls the program once, an entry point
   (the problem's, or a name the test calls and does not declare) with arguments of
   literals and ``lifted_go.ARG_WORDS`` only. Anything else keeps the test beside the
   program, as before. ``go test`` runs the test functions in the order of the file, and
   testify's ``assert`` goes on after a failed comparison, so the calls are made in the
   test's order whatever the earlier ones returned.
2. **Record** (the candidate's build, ``recorder``): built as the test beside the program
   is, by ``go test -c`` (so ``go vet``'s checks of ``go test`` fail a program as they
   would beside the test), the program, the test's packages kept used, a stub per test
   function of the test (a program that declares one still fails to compile), and a
   ``TestMain`` (a program's own fails to compile, as beside the test) that makes each
   call in order and writes, as each returns, one line on the pass channel (fd 3, by the
   ``write`` system call): ``v`` and the hex of the value's encoding (``_ENCODER``), made
   by ``reflect`` from the value's kind alone, never by a method of the program's. A call
   that ``assert.True`` or ``assert.False`` takes goes through a ``func(bool)``
   (``func(bool, ...interface{})`` where the call is its one argument, so that more
   results pass as the message, as in Go), and one inside ``math.Abs(..)`` through a
   ``func(float64)``: a result of another type fails to compile there as it does in the
   test. The build holds no expected value and no nonce,
   and is cached by content.
3. **Decide** (``decide``): each line decoded (``decode``) and compared on the host as
   testify compares (``_deep``), in the test's order: every call returned and every
   comparison held is a pass; a call the candidate never returned from leaves the
   candidate's own failure to decide (a panic, a timeout, as ``go test`` would report
   them, even after a failed comparison, which testify does not stop at); a failed
   comparison with every call returned is ``wrong_answer``.

What the program can do to its record: write lines on fd 3 itself. A line is a typed
value, and any value it could write it could return; one line too many, or out of the
alphabet, spoils only its own record (the test fails). Whether a test is lifted is decided
from the test's text and the program's declarations before anything runs; no line
the program writes sends it back beside the test.

Not covered (beside the program, as before): other testify assertions (``InDelta``,
``ElementsMatch``, ``require``), expected values that name anything (``math.MaxInt``, a
type of the program's), ``float32`` and complex expected values, constant string
arithmetic, test functions with other statements (loops, tables, ``t.Run``), and programs
that declare functions ``go test`` would run (``TestX``, ``ExampleX``, ``FuzzX``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reward_api.verify import lifted, lifted_go, lifted_go_host

_H = lifted_go_host  # its readers of Go's literals (strings, runes, integers, elements)

MAX_CALLS = 4096
"""The most calls a lifted test makes (one line each on the pass channel)."""
MAX_WEIGHT = 100_000
"""The most elements and string bytes an expected value may hold (each is made here)."""
MAX_DEPTH = 64
"""How deeply the recorder's encoder descends into a value; deeper parts are written as
values no expected value equals (``MAX_NESTING`` keeps every expected value above it)."""
MAX_COST = 2 * MAX_WEIGHT + 1
"""The most the recorder's encoder writes of one value, counted as ``MAX_WEIGHT`` is (a
value, each element, map key and map value one, a string's bytes their number; the
encoder counts an interface and the value it holds apart, so at most twice what the host
counts of an expected value): past it, the rest is written as a value no expected value
equals (``X``), which it cannot equal. The value at the top (the interface) is always
written, with its type: its function value is still one (``Z``). Without it a large answer
(``assert.NotEqual([]int{}, F(n))`` of two million ints) filled the pass channel:
``output_limit`` lifted, ``accepted`` beside the test (red team)."""
MAX_NESTING = 16
"""The most composite literals an expected value nests (each level is at most two of the
encoder's, an element and the interface holding it): deeper, the recorder would write
the call's value cut (``X``), which no expected value equals, while Go compares it whole
(``assert.NotEqual`` of 33 nested ``[]interface{}`` passed here and failed in Go; red team)."""
MAX_INT_BITS = 511
"""Go refuses an untyped integer constant of more than 512 bits (``constant overflow``)."""
MAX_RAT_BITS = 4000
"""go/constant keeps an untyped float constant an exact fraction while its numerator and
denominator have fewer than 4096 bits, and rounds it to a 512-bit float beyond: ``(1 +
1e-1300 - 1) * 1e300 * ...`` is 0 to Go and was 1e100 here (red team), and a literal's
exponent (``1e-999999999``) had Python build a billion-digit integer. Past these
bounds a constant is refused."""

_OPS = {"Equal": 2, "NotEqual": 2, "True": 1, "False": 1}
_INTS = {
    "int": (-(1 << 63), (1 << 63) - 1), "int64": (-(1 << 63), (1 << 63) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1), "int16": (-(1 << 15), (1 << 15) - 1),
    "int8": (-128, 127), "uint": (0, (1 << 64) - 1), "uint64": (0, (1 << 64) - 1),
    "uintptr": (0, (1 << 64) - 1), "uint32": (0, (1 << 32) - 1), "uint16": (0, (1 << 16) - 1),
    "uint8": (0, 255),
}  # fmt: skip
_ALIAS = {"byte": "uint8", "rune": "int32"}
_BASIC = frozenset({*_INTS, *_ALIAS, "float64", "string", "bool"})
_ANY = ("any",)
_DEFAULT = {"int": "int", "rune": "int32", "float": "float64"}
_NOT_PARAMS = frozenset(
    {"assert", "testing", "_", "math", *lifted_go_host.PREDECLARED, *lifted_go.ARG_WORDS}
)


class _Refuse(Exception):
    """Outside what the host evaluates exactly: the test stays beside the program."""


@dataclass(frozen=True)
class Check:
    """One assertion: ``op`` (``eq``, ``ne``), the sink the call's value goes through
    (``any``, ``bool``, ``float64``; ``boolv``: a ``bool`` with the rest of the call's results
    taken as ``assert.True``'s message), what it is compared with (``want``: a typed value,
    ``_typed``'s form), and for the tolerance form ``near``: (E, EPS, ``<=`` or not),
    whose truth is then compared with ``want``."""

    op: str
    sink: str
    want: Any
    near: tuple[float, float, bool] | None = None


@dataclass(frozen=True)
class Plan:
    """A lifted test: ``calls`` the (start, end) of each call in the test's text and
    ``args`` its text, in the order they run; ``names`` the names to stub; ``host`` the
    checks, one per call."""

    calls: tuple[tuple[int, int], ...]
    args: tuple[str, ...]
    names: tuple[str, ...]
    host: tuple[Check, ...]
    independent: bool = True


# ------------------------------------------------------------------ the test's shape
def plan(test: str, entry_points: tuple[str, ...] | list[str] = ()) -> Plan | None:
    """The lifted shape of ``test``, or None (the test runs beside the program).
    ``entry_points``: the program's names the test may call (empty: any name it calls
    and does not declare)."""
    if re.search("[\x00\ufeff\f\v]", test):  # Go's scanner refuses these
        return None
    toks = lifted_go.tokens(test)
    if not toks:
        return None
    try:
        return _plan(test, toks, {e for e in entry_points if _H._go_identifier(e)})
    except (_Refuse, lifted_go_host._Refuse, ValueError, RecursionError, OverflowError):
        return None


def _plan(test: str, toks: list[Any], entries: set[str]) -> Plan:
    names: list[str] = []
    bodies: list[tuple[str, int, int]] = []  # (t's name, body start, body end)
    for a, b in lifted_go.statements(toks, 0, len(toks)):
        t = [x.text for x in toks[a : min(b, a + 9)]]
        # func TestX ( t * testing . T ) {
        if (len(t) < 9 or t[0] != "func" or not re.fullmatch(r"Test(?:[^\W_a-z]\w*|_\w*)?", t[1])
                or t[2] != "(" or t[4:8] != ["*", "testing", ".", "T"] or t[8] != ")"):  # fmt: skip
            raise _Refuse
        if a + 9 >= b or toks[a + 9].text != "{" or toks[a + 9].match != b - 1:
            raise _Refuse
        # a parameter that shadows a word of the test's (``func TestF(true *testing.T)``,
        # ``math``): Go reads the parameter there, the host would not
        if toks[a + 3].kind != "id" or toks[a + 3].text in _NOT_PARAMS:
            raise _Refuse
        names.append(toks[a + 1].text)
        bodies.append((toks[a + 3].text, a + 10, b - 1))
    if not bodies or len(set(names)) != len(names):
        raise _Refuse
    # a call of a parameter's name (``func TestF(Add *testing.T)``) calls no function of the
    # program's: Go refuses it, so the host must not decide it
    declared = set(names) | {p for p, _s, _e in bodies} | {"assert", "testing", "math", "TestMain"}
    calls: list[tuple[int, int]] = []
    checks: list[Check] = []
    for param, start, end in bodies:
        stmts = _no_semicolons(toks, lifted_go.statements(toks, start, end))
        method = False
        if stmts and [x.text for x in toks[stmts[0][0] : stmts[0][1]]] == [
            "assert", ":=", "assert", ".", "New", "(", param, ")",
        ]:  # fmt: skip
            method, stmts = True, stmts[1:]
        for s, e in stmts:
            call, check = _assertion(test, toks, s, e, param, method, entries, declared)
            calls.append(call)
            checks.append(check)
    if not calls or len(calls) > MAX_CALLS:
        raise _Refuse
    args = tuple(test[a:b] for a, b in calls)
    return Plan(tuple(calls), args, tuple(names), tuple(checks))


def _no_semicolons(toks: list[Any], stmts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The statements, refused where Go would insert a semicolon inside one (a syntax
    error the statements' reader does not see: no statement read here holds a block)."""
    for s, e in stmts:
        if _H._semicolon_inside(toks, s, e):
            raise _Refuse
    return stmts


def _assertion(
    test: str, toks: list[Any], s: int, e: int, param: str, method: bool, entries: set[str],
    declared: set[str],
) -> tuple[tuple[int, int], Check]:  # fmt: skip
    """One assertion statement: where its call is and what it checks."""
    if e - s < 5 or [x.text for x in toks[s : s + 2]] != ["assert", "."]:
        raise _Refuse
    op = toks[s + 2].text
    if op not in _OPS or toks[s + 3].text != "(" or toks[s + 3].match != e - 1:
        raise _Refuse
    parts = _H._elements(toks, s + 4, e - 1)
    if not method:  # assert.Equal(t, ...)
        if not parts or [x.text for x in toks[parts[0][0] : parts[0][1]]] != [param]:
            raise _Refuse
        parts = parts[1:]
    n = _OPS[op]
    if len(parts) < n:
        raise _Refuse
    for a, b in parts[n:]:  # the message: string literals alone
        if b - a != 1 or toks[a].kind != "lit" or toks[a].text[0] not in '"`':
            raise _Refuse
        _bytes(toks[a].text, [MAX_WEIGHT])
    sides = parts[:n]
    found = [k for k, (a, b) in enumerate(sides) if _mentions_call(toks, a, b)]
    if len(found) != 1:
        raise _Refuse
    a, b = sides[found[0]]
    other = sides[1 - found[0]] if n == 2 else None
    near = _near(toks, a, b, entries, declared)
    if near is not None:
        (ca, cb), value = near
        sink, got_kind = "float64", "near"
    else:
        ca, cb = _call(toks, a, b, entries, declared)
        if (ca, cb) != (a, b):
            raise _Refuse
        value, sink, got_kind = None, "bool" if n == 1 else "any", "value"
        if n == 1 and method and len(parts) == 1:
            # ``assert.True(F(x))``, the call its one argument: Go passes a call of several
            # results on to ``True(value bool, msgAndArgs ...interface{})``, the rest as the
            # message (``func F(int) (bool, string)`` compiles and passes beside the test;
            # a ``func(bool)`` sink failed to compile: red team)
            sink = "boolv"
    if n == 1:
        want: Any = ("bool", op == "True")
        kind = "eq"
    else:
        assert other is not None
        want = _typed(toks, other[0], other[1])
        kind = "eq" if op == "Equal" else "ne"
        if got_kind == "near" and want != ("bool", True) and want != ("bool", False):
            raise _Refuse  # a comparison's bool against anything else: never equal, rare
    return (toks[ca].start, toks[cb - 1].end), Check(kind, sink, want, value)


def _mentions_call(toks: list[Any], a: int, b: int) -> bool:
    """Whether ``toks[a:b]`` holds a call (a name then ``(``) of something not a type."""
    for m in range(a, b - 1):
        t = toks[m]
        if (t.kind == "id" and toks[m + 1].text == "(" and t.text not in _BASIC
                and t.text not in ("map", "interface", "any", "struct", "func")
                and not (m > 0 and toks[m - 1].text == ".")):  # fmt: skip
            return True
    return False


def _call(
    toks: list[Any], a: int, b: int, entries: set[str], declared: set[str]
) -> tuple[int, int]:
    """The call ``NAME(args)`` at ``toks[a]``, ending at ``b``: where it is."""
    name = toks[a].text
    if (b - a < 3 or toks[a].kind != "id" or toks[a + 1].text != "(" or toks[a + 1].match != b - 1
            or name in declared or name in lifted_go_host.PREDECLARED
            or name in lifted_go._KEYWORDS or not _H._go_identifier(name)
            or (entries and name not in entries)):  # fmt: skip
        raise _Refuse
    for m in range(a + 2, b - 1):
        t = toks[m]
        if t.kind == "id" and t.text not in lifted_go.ARG_WORDS:
            raise _Refuse
        if t.text in (".", "<-"):
            raise _Refuse
    return a, b


def _near(
    toks: list[Any], a: int, b: int, entries: set[str], declared: set[str]
) -> tuple[tuple[int, int], tuple[float, float, bool]] | None:
    """``math.Abs(CALL - E) < EPS`` (``<=``; ``E - CALL``): the call's place and (E, EPS,
    ``<=``) as float64, or None where ``toks[a:b]`` is not that form."""
    if b - a < 8 or [x.text for x in toks[a : a + 4]] != ["math", ".", "Abs", "("]:
        return None
    close = toks[a + 3].match
    if close + 2 > b or toks[close + 1].text not in ("<", "<="):
        raise _Refuse
    inner = [m for m in range(a + 4, close) if toks[m].text == "-" and _binary(toks, m, a + 4)]
    inner = [m for m in inner if _depth0(toks, a + 4, m)]
    if len(inner) != 1:
        raise _Refuse
    minus = inner[0]
    left, right = (a + 4, minus), (minus + 1, close)
    if _mentions_call(toks, *left) and not _mentions_call(toks, *right):
        call, const = left, right
    elif _mentions_call(toks, *right) and not _mentions_call(toks, *left):
        call, const = right, left
    else:
        raise _Refuse
    _call(toks, call[0], call[1], entries, declared)
    if call == left and any(
        toks[m].text in ("+", "-") and _binary(toks, m, right[0]) and _depth0(toks, right[0], m)
        for m in range(*right)
    ):  # ``CALL - 1 + 2`` is ``(CALL - 1) + 2``
        raise _Refuse
    e = _float64(_arith(toks, *const))
    eps = _float64(_arith(toks, close + 2, b))
    return call, (e, eps, toks[close + 1].text == "<=")


def _binary(toks: list[Any], m: int, start: int) -> bool:
    """Whether the ``-`` at ``toks[m]`` is a binary operator (it follows an operand)."""
    if m == start:
        return False
    p = toks[m - 1]
    return p.kind in ("id", "lit") or p.text in (")", "]", "}")


def _depth0(toks: list[Any], a: int, m: int) -> bool:
    """Whether ``toks[m]`` is outside every bracket that opens in ``toks[a:m]``."""
    i = a
    while i < m:
        if toks[i].text in ("(", "[", "{"):
            if toks[i].match > m:
                return False
            i = toks[i].match
        i += 1
    return True


# ------------------------------------------------------------------ constants
def _arith(toks: list[Any], a: int, b: int) -> tuple[str, Fraction]:
    """A numeric constant expression of literals, ``+ - * /``, unary signs and parentheses,
    as Go evaluates untyped constants: exactly, an integer division truncated when both
    sides are integers; its kind is ``int``, ``rune`` or ``float``, the widest of its
    operands'."""
    pos = [a]

    def peek() -> str | None:
        return toks[pos[0]].text if pos[0] < b else None

    def primary() -> tuple[str, Fraction]:
        t = peek()
        if t in ("-", "+"):
            pos[0] += 1
            kind, v = primary()
            return kind, -v if t == "-" else v
        if t == "(":
            close = toks[pos[0]].match
            if close >= b:
                raise _Refuse
            inner = _arith(toks, pos[0] + 1, close)
            pos[0] = close + 1
            return inner
        if t is None or toks[pos[0]].kind != "lit":
            raise _Refuse
        kind, value = _H._constant(toks, pos[0], pos[0] + 1)
        pos[0] += 1
        if kind == "string":
            raise _Refuse
        text = toks[pos[0] - 1].text
        e = re.search("[eE]([+-]?[0-9]+)$", text) if kind == "float" else None
        if e and abs(int(e[1])) > 1300:
            raise _Refuse  # before Fraction builds 10 ** exponent
        return kind, _bounded(kind, Fraction(text) if kind == "float" else Fraction(value))

    def term() -> tuple[str, Fraction]:
        kind, v = primary()
        while peek() in ("*", "/"):
            op = peek()
            pos[0] += 1
            k2, w = primary()
            kind = _wider(kind, k2)
            if op == "*":
                v = v * w
            elif w == 0:
                raise _Refuse  # division by a constant zero does not compile
            elif kind == "float":
                v = v / w
            else:  # integer constants: truncated toward zero
                q = abs(v.numerator) // abs(w.numerator)
                v = Fraction(q if (v < 0) == (w < 0) else -q)
            v = _bounded(kind, v)
        return kind, v

    kind, v = term()
    while peek() in ("+", "-"):
        op = peek()
        pos[0] += 1
        k2, w = term()
        kind, v = _wider(kind, k2), v + w if op == "+" else v - w
        v = _bounded(kind, v)
    if pos[0] != b:
        raise _Refuse
    return kind, v


def _bounded(kind: str, v: Fraction) -> Fraction:
    """``v``, refused where Go's constant would not be exact or would not compile
    (``MAX_INT_BITS``, ``MAX_RAT_BITS``)."""
    if kind != "float" and v.numerator.bit_length() > MAX_INT_BITS:
        raise _Refuse
    if v.numerator.bit_length() >= MAX_RAT_BITS or v.denominator.bit_length() >= MAX_RAT_BITS:
        raise _Refuse
    return v


def _wider(k1: str, k2: str) -> str:
    order = ("int", "rune", "float")
    return order[max(order.index(k1), order.index(k2))]


def _float64(const: tuple[str, Fraction]) -> float:
    """A constant as a ``float64``: correctly rounded; refused where it overflows."""
    try:
        out = float(const[1])
    except OverflowError:
        raise _Refuse from None
    if not math.isfinite(out):
        raise _Refuse
    return out + 0.0  # a constant has no negative zero


def _number(const: tuple[str, Fraction], name: str) -> int | float:
    """A numeric constant converted to the basic type ``name``, or refused where Go does
    not compile that (out of range, a fraction to an integer type)."""
    _kind, v = const
    if name in _INTS:
        if v.denominator != 1:
            raise _Refuse
        low, high = _INTS[name]
        if not low <= v.numerator <= high:
            raise _Refuse
        return v.numerator
    if name == "float64":
        return _float64(const)
    raise _Refuse


# ------------------------------------------------------------------ expected values
def _typed(toks: list[Any], a: int, b: int) -> Any:
    """The value ``toks[a:b]`` as an ``interface{}`` argument holds it: None (nil) or
    (its type as ``reflect`` spells it, its payload: ``_payload``)."""
    weight = [MAX_WEIGHT]
    return _element(toks, a, b, _ANY, weight)


def _spell(typ: tuple[Any, ...]) -> str:
    """A type as ``reflect.Type.String`` writes it."""
    if typ == _ANY:
        return "interface {}"
    if typ[0] == "basic":
        return str(typ[1])
    if typ[0] == "slice":
        return "[]" + _spell(typ[1])
    if typ[0] == "array":
        return f"[{typ[1]}]" + _spell(typ[2])
    return f"map[{_spell(typ[1])}]{_spell(typ[2])}"


def _type(toks: list[Any], i: int, end: int) -> tuple[tuple[Any, ...], int]:
    """The type spelled from ``toks[i]`` and the index after it."""
    if i >= end:
        raise _Refuse
    t = toks[i]
    if t.text == "[" and i + 1 < end:
        if toks[i + 1].text == "]":
            elem, j = _type(toks, i + 2, end)
            return ("slice", elem), j
        if i + 2 < end and toks[i + 1].kind == "lit" and toks[i + 2].text == "]":
            n = _H._integer(toks[i + 1].text)
            if not 0 <= n <= MAX_WEIGHT:
                raise _Refuse
            elem, j = _type(toks, i + 3, end)
            return ("array", n, elem), j
        raise _Refuse
    if t.text == "map" and i + 1 < end and toks[i + 1].text == "[":
        close = toks[i + 1].match
        key, j = _type(toks, i + 2, close)
        if j != close or key[0] != "basic":
            raise _Refuse  # an interface, array or struct key: not evaluated here
        value, k = _type(toks, close + 1, end)
        return ("map", key, value), k
    if (
        t.text == "interface"
        and i + 2 < end
        and [x.text for x in toks[i + 1 : i + 3]] == ["{", "}"]
    ):
        return _ANY, i + 3
    if t.kind == "id" and t.text == "any":
        return _ANY, i + 1
    if t.kind == "id" and t.text in _BASIC:
        return ("basic", _ALIAS.get(t.text, t.text)), i + 1
    raise _Refuse


def _spend(weight: list[int], n: int) -> None:
    weight[0] -= n
    if weight[0] < 0:
        raise _Refuse


def _element(
    toks: list[Any], a: int, b: int, want: tuple[Any, ...], weight: list[int], depth: int = 0
) -> Any:
    """The expression ``toks[a:b]`` as a value of type ``want``: its payload, or for
    ``interface{}`` None (nil) or (type, payload). ``depth``: the composite literals it is
    inside."""
    if a >= b or depth > MAX_NESTING:
        raise _Refuse
    _spend(weight, 1)
    t = toks[a]
    if t.text == "{":  # an elided composite literal
        if want[0] not in ("slice", "array", "map") or t.match != b - 1:
            raise _Refuse
        return _composite(toks, a, want, weight, depth)
    if b - a == 1 and t.kind == "id" and t.text == "nil":
        if want[0] not in ("slice", "map", "any"):
            raise _Refuse
        return None
    if b - a == 1 and t.kind == "id" and t.text in ("true", "false"):
        return _as(want, "bool", t.text == "true")
    if t.text in ("[", "map", "interface") or (t.kind == "id" and t.text in (*_BASIC, "any")):
        typ, j = _type(toks, a, b)
        if j >= b:
            raise _Refuse
        if typ[0] in ("slice", "array", "map") and toks[j].text == "{" and toks[j].match == b - 1:
            value = _composite(toks, j, typ, weight, depth)
        elif typ[0] == "basic" and toks[j].text == "(" and toks[j].match == b - 1:
            value = _convert(toks, j + 1, b - 1, typ[1], weight)
        else:
            raise _Refuse
        if want == _ANY:
            return (_spell(typ), value)
        if typ != want:
            raise _Refuse
        return value
    if want == _ANY:  # an untyped constant: its default type
        if t.kind == "lit" and t.text[0] in '"`' and b - a == 1:
            return ("string", _bytes(t.text, weight))
        kind, _v = const = _arith(toks, a, b)
        name = _DEFAULT[kind]
        return (name, _number(const, name))
    if want[0] != "basic":
        raise _Refuse
    return _convert(toks, a, b, want[1], weight)


def _as(want: tuple[Any, ...], name: str, value: Any) -> Any:
    if want == _ANY:
        return (name, value)
    if want != ("basic", name):
        raise _Refuse
    return value


def _bytes(text: str, weight: list[int]) -> bytes:
    """A Go string literal's bytes (a byte escape may make them other than UTF-8)."""
    try:
        if text[0] == "`":
            value = text[1:-1].replace("\r", "").encode("utf-8")
        else:
            raw = bytearray()
            for c in _H._escapes(text[1:-1], '"'):
                raw += bytes([-1 - c]) if c < 0 else chr(c).encode("utf-8")
            value = bytes(raw)
    except UnicodeEncodeError:  # a surrogate in the test's text
        raise _Refuse from None
    _spend(weight, len(value))
    return value


def _convert(toks: list[Any], a: int, b: int, name: str, weight: list[int]) -> Any:
    """A constant as the basic type ``name`` (a conversion's operand, or an element)."""
    if b - a == 1 and toks[a].kind == "lit" and toks[a].text[0] in '"`':
        if name != "string":
            raise _Refuse
        return _bytes(toks[a].text, weight)
    if b - a == 1 and toks[a].text in ("true", "false"):
        if name != "bool":
            raise _Refuse
        return toks[a].text == "true"
    if name in ("string", "bool"):
        raise _Refuse
    return _number(_arith(toks, a, b), name)


def _composite(
    toks: list[Any], brace: int, typ: tuple[Any, ...], weight: list[int], depth: int
) -> Any:
    elements = _H._elements(toks, brace + 1, toks[brace].match)
    depth += 1
    if typ[0] == "map":
        out: dict[Any, Any] = {}
        for a, b in elements:
            colon = _H._colon(toks, a, b)
            if colon is None:
                raise _Refuse
            key = _element(toks, a, colon, typ[1], weight, depth)
            if key in out:  # a duplicate constant key does not compile
                raise _Refuse
            out[key] = _element(toks, colon + 1, b, typ[2], weight, depth)
        return out
    if any(_H._colon(toks, a, b) is not None for a, b in elements):
        raise _Refuse  # keyed elements
    items = [_element(toks, a, b, typ[-1], weight, depth) for a, b in elements]
    if typ[0] == "array":
        if len(items) > typ[1]:
            raise _Refuse
        # each zero element whole: a [1000][1000]int{} is a million values to make here
        # and to encode (red team: 1001 spent, and [100000][100000]int{} held the host)
        _spend(weight, (typ[1] - len(items)) * _zero_weight(typ[2]))
        items += [_zero(typ[2]) for _ in range(typ[1] - len(items))]
    return tuple(items)


def _zero_weight(typ: tuple[Any, ...]) -> int:
    """What a zero value of ``typ`` spends of ``MAX_WEIGHT`` (an array: each element)."""
    if typ[0] != "array":
        return 1
    n = typ[1] * _zero_weight(typ[2])
    if n > MAX_WEIGHT:
        raise _Refuse
    return 1 + n


def _zero(typ: tuple[Any, ...]) -> Any:
    if typ == _ANY or typ[0] in ("slice", "map"):
        return None
    if typ[0] == "array":
        return tuple(_zero(typ[2]) for _ in range(typ[1]))
    name = typ[1]
    return b"" if name == "string" else False if name == "bool" else 0.0 if name == "float64" else 0


# ------------------------------------------------------------------ the recorder
_ENCODER = """
func __cr_enc_TAG(b []byte, v __cr_reflect_TAG.Value, depth int, left *int) []byte {
\t*left--
\tif depth > MAXDEPTH || *left < 0 {
\t\treturn append(b, 'X')
\t}
\tswitch v.Kind() {
\tcase __cr_reflect_TAG.Bool:
\t\tif v.Bool() {
\t\t\treturn append(b, 'T')
\t\t}
\t\treturn append(b, 'F')
\tcase __cr_reflect_TAG.Int, __cr_reflect_TAG.Int8, __cr_reflect_TAG.Int16, __cr_reflect_TAG.Int32, __cr_reflect_TAG.Int64:
\t\treturn append(__cr_strconv_TAG.AppendInt(append(b, 'i'), v.Int(), 10), ';')
\tcase __cr_reflect_TAG.Uint, __cr_reflect_TAG.Uint8, __cr_reflect_TAG.Uint16, __cr_reflect_TAG.Uint32, __cr_reflect_TAG.Uint64, __cr_reflect_TAG.Uintptr:
\t\treturn append(__cr_strconv_TAG.AppendUint(append(b, 'u'), v.Uint(), 10), ';')
\tcase __cr_reflect_TAG.Float32, __cr_reflect_TAG.Float64:
\t\treturn append(__cr_strconv_TAG.AppendUint(append(b, 'f'), __cr_math_TAG.Float64bits(v.Float()), 16), ';')
\tcase __cr_reflect_TAG.String:
\t\ts := v.String()
\t\tif *left -= len(s); *left < 0 {
\t\t\treturn append(b, 'X')
\t\t}
\t\treturn append(append(__cr_strconv_TAG.AppendInt(append(b, 's'), int64(len(s)), 10), ':'), s...)
\tcase __cr_reflect_TAG.Slice, __cr_reflect_TAG.Array:
\t\tif v.Kind() == __cr_reflect_TAG.Slice && v.IsNil() {
\t\t\treturn append(b, 'N')
\t\t}
\t\tif v.Len() > *left {
\t\t\treturn append(b, 'X')
\t\t}
\t\tmark := byte('L')
\t\tif v.Kind() == __cr_reflect_TAG.Array {
\t\t\tmark = 'A'
\t\t}
\t\tb = append(__cr_strconv_TAG.AppendInt(append(b, mark), int64(v.Len()), 10), ':')
\t\tfor i := 0; i < v.Len(); i++ {
\t\t\tb = __cr_enc_TAG(b, v.Index(i), depth+1, left)
\t\t}
\t\treturn b
\tcase __cr_reflect_TAG.Map:
\t\tif v.IsNil() {
\t\t\treturn append(b, 'N')
\t\t}
\t\tif 2*v.Len() > *left {
\t\t\treturn append(b, 'X')
\t\t}
\t\tb = append(__cr_strconv_TAG.AppendInt(append(b, 'M'), int64(v.Len()), 10), ':')
\t\tit := v.MapRange()
\t\tn := 0
\t\tfor it.Next() {
\t\t\tb = __cr_enc_TAG(__cr_enc_TAG(b, it.Key(), depth+1, left), it.Value(), depth+1, left)
\t\t\tn++
\t\t}
\t\tif n != v.Len() {
\t\t\treturn append(b, 'X')
\t\t}
\t\treturn b
\tcase __cr_reflect_TAG.Func:
\t\treturn append(b, 'Z')
\tcase __cr_reflect_TAG.Interface:
\t\tif v.IsNil() {
\t\t\treturn append(b, 'N')
\t\t}
\t\te := v.Elem()
\t\tname := e.Type().String()
\t\tb = append(append(__cr_strconv_TAG.AppendInt(append(b, 'I'), int64(len(name)), 10), ':'), name...)
\t\treturn __cr_enc_TAG(b, e, depth+1, left)
\t}
\treturn append(b, 'X')
}

func __cr_put_TAG(v interface{}) {
\tleft := MAXCOST
\tb := __cr_enc_TAG(nil, __cr_reflect_TAG.ValueOf(&v).Elem(), 0, &left)
\tout := make([]byte, 0, 2*len(b)+2)
\tout = append(out, 'v')
\tout = append(out, __cr_hex_TAG.EncodeToString(b)...)
\tout = append(out, '\\n')
\tfor len(out) > 0 {
\t\tn, err := __cr_syscall_TAG.Write(3, out)
\t\tif err == __cr_syscall_TAG.EINTR {
\t\t\tcontinue
\t\t}
\t\tif err != nil || n <= 0 {
\t\t\t__cr_os_TAG.Exit(1)
\t\t}
\t\tout = out[n:]
\t}
}

func __cr_bool_TAG(v bool) {
\t__cr_put_TAG(v)
}

func __cr_boolv_TAG(v bool, _ ...interface{}) {
\t__cr_put_TAG(v)
}

func __cr_float64_TAG(v float64) {
\t__cr_put_TAG(v)
}
"""
"""The recorder's writer: a value's encoding by its kind (``decode`` reads it), made from
``reflect`` alone (no method of the program's runs), and one line per value."""

RECORDER_IMPORTS = (
    ("testing", "testing"),
    ("reflect", "reflect"),
    ("strconv", "strconv"),
    ("math", "math"),
    ("hex", "encoding/hex"),
    ("syscall", "syscall"),
    ("os", "os"),
)
"""The recorder's own imports, each as ``__cr_NAME_TAG``."""


def recorder(tag: str, lift: Plan, uses: str) -> str:
    """What follows the program (its imports joined by ``RECORDER_IMPORTS``' and the
    test's) in the candidate's build: ``uses`` (the test's packages kept used), a stub per
    name of ``lift.names``, the writer and ``TestMain``."""
    stubs = "".join(f"var {n} struct{{}}\n" for n in lift.names)
    calls = "".join(
        f"\t__cr_{check.sink if check.sink != 'any' else 'put'}_{tag}({call})\n"
        for call, check in zip(lift.args, lift.host, strict=True)
    )
    writer = _ENCODER.replace("TAG", tag).replace("MAXDEPTH", str(MAX_DEPTH))
    writer = writer.replace("MAXCOST", str(MAX_COST))
    return (
        "\n// codereward: the test's packages and names, as beside it; the recorder\n"
        f"{uses}{stubs}{writer}\nfunc TestMain(m *__cr_testing_{tag}.M) {{\n{calls}"
        f"\t__cr_os_{tag}.Exit(0)\n}}\n"
    )


_GO_TEST_RUNS = re.compile(r"(?:Test|Example|Fuzz|Benchmark)(?:[^\W_a-z]\w*|_\w*)?")


def runs_under_go_test(program: str) -> str | None:
    """The first of the program's functions that ``go test`` would run or check (a
    ``TestX``, ``ExampleX``, ``FuzzX`` or ``BenchmarkX``, ``TestMain``): beside the test it
    runs (or its signature fails the build), so such a program is not lifted."""
    toks = lifted_go.tokens(program)
    found = sorted(
        toks[a + 1].text for a, b in lifted_go.statements(toks, 0, len(toks))
        if toks[a].text == "func" and a + 1 < b and toks[a + 1].kind == "id"
        and _GO_TEST_RUNS.fullmatch(toks[a + 1].text)
    )  # fmt: skip
    return found[0] if found else None


# ------------------------------------------------------------------ the values
_LINE = re.compile(r"v(?:[0-9a-f]{2})*\n")


def read(channel: Any, calls: int) -> lifted.Recorded | None:
    """The recorder's lines, or None when the channel holds anything else (``lifted_go``'s
    reader, with this recorder's alphabet)."""
    return lifted_go.read(channel, calls, _LINE)


class _Opaque:
    """A part of a recorded value that no expected value equals (a pointer, a struct, a
    function, a channel, a complex number, a part too deep)."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return id(self)


class _Func(_Opaque):
    """A function value: testify's ``Equal`` and ``NotEqual`` both fail on one
    (``validateEqualArgs``)."""


class _Bad(Exception):
    """A line the recorder would not write."""


def decode(data: bytes) -> Any:
    """A recorded value (``_ENCODER``'s bytes) in ``_typed``'s form."""
    pos = [0]

    def number(end: bytes, base: int = 10) -> int:
        j = data.find(end, pos[0])
        if j < 0 or j == pos[0] or j - pos[0] > 20:
            raise _Bad
        text = data[pos[0] : j].decode("ascii")
        if not re.fullmatch(r"-?[0-9]+|[0-9a-f]+", text):
            raise _Bad
        pos[0] = j + 1
        return int(text, base)

    def take(n: int) -> bytes:
        if n < 0 or pos[0] + n > len(data):
            raise _Bad
        out = data[pos[0] : pos[0] + n]
        pos[0] += n
        return out

    def value(depth: int) -> Any:
        if pos[0] >= len(data) or depth > MAX_DEPTH + 1:
            raise _Bad
        kind = chr(data[pos[0]])
        pos[0] += 1
        if kind in "TF":
            return kind == "T"
        if kind == "N":
            return None
        if kind == "X":
            return _Opaque()
        if kind == "Z":
            return _Func()
        if kind in "iu":
            return number(b";")
        if kind == "f":
            bits = number(b";", 16)
            if bits >= 1 << 64:
                raise _Bad
            return _from_bits(bits)
        if kind == "s":
            return take(number(b":"))
        if kind in "LA":
            n = number(b":")
            if n > len(data):
                raise _Bad
            return tuple(value(depth + 1) for _ in range(n))
        if kind == "M":
            n = number(b":")
            if n > len(data):
                raise _Bad
            out: dict[Any, Any] = {}
            for _ in range(n):
                key = value(depth + 1)
                if isinstance(key, tuple):
                    # an array's or an interface's key: no expected map has one (its keys
                    # are basic), and Python's tuples of -1 and -2 hash alike (``hash(-1)
                    # == hash(-2)``), so that 2**17 keys of a ``map[[17]int]bool`` made
                    # this dict quadratic, minutes of the host's CPU (red team)
                    key = _Opaque()
                try:
                    if key in out:  # NaN keys are apart in Go; nothing here equals them
                        key = _Opaque()
                    out[key] = value(depth + 1)
                except TypeError:
                    raise _Bad from None
            return out
        if kind == "I":
            name = take(number(b":")).decode("utf-8", "replace")
            return (name, value(depth + 1))
        raise _Bad

    if data[:1] not in (b"N", b"I"):
        # the recorder writes the interface{} the call's value is in; a line of the
        # program's own that is a bare value (``T``, ``i5;``, ``X``) had ``decide`` index a
        # bool or an int: a TypeError out of the verifier (red team)
        raise _Bad
    out = value(0)
    if pos[0] != len(data):
        raise _Bad
    return out


def _from_bits(bits: int) -> float:
    import struct

    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


def _deep(want: Any, got: Any) -> bool:
    """testify's ``ObjectsAreEqual`` of two ``interface{}`` values in ``_typed``'s form:
    types alike (the payloads of a type compare as Python values: NaN unequal to itself,
    ``-0.0`` equal to ``0.0``, tuples and dicts element by element; a payload at one place
    has one type, so ``True`` never meets ``1``)."""
    if want is None or got is None:
        return want is None and got is None
    return bool(want[0] == got[0] and want[1] == got[1])


def decide(checks: tuple[Check, ...], rec: lifted.Recorded) -> lifted.Judged:
    """testify's outcome on the recorded values: ``passed`` when every call returned and
    every comparison held; ``ran_out`` where a call never returned (the candidate's own
    failure decides, as ``go test``'s would, after a failed comparison too); ``failed``
    when a comparison failed or a line is not one the recorder writes."""
    lines = rec.channel.split("\n")[:-1]
    if len(lines) < len(checks):
        return lifted.Judged("ran_out")
    for check, line in zip(checks, lines, strict=True):
        try:
            got = decode(bytes.fromhex(line[1:]))
        except (_Bad, ValueError, RecursionError):
            return lifted.Judged("failed", "the test failed (a malformed value)")
        if check.near is not None:
            if got is None or got[0] != "float64" or not isinstance(got[1], float):
                return lifted.Judged("failed", "the test failed (a malformed value)")
            e, eps, le = check.near
            d = abs(got[1] - e)
            got = ("bool", d <= eps if le else d < eps)
        if got is not None and isinstance(got[1], _Func):
            return lifted.Judged("failed", "the test failed (a function value)")
        same = _deep(check.want, got)
        if same != (check.op == "eq"):
            return lifted.Judged("failed", "the test failed")
    return lifted.Judged("passed")
