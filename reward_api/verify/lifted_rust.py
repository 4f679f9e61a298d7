"""Rust assert tests lifted out of the candidate's process (HumanEval-X's and MultiPL-E's
shapes): the program's calls run in a build that holds no expected value, and the host
compares what they returned with the test's literals by Rust's own rules.

Beside the program (``languages._rust_unit``), a Rust test shares the program's process:
its expected values are immediates in the machine code after each call, and a program that
finds its return address (by scanning the stack from one of its locals, which safe Rust
reaches through rustc's implied-bounds hole) reads them, so only the hack gate's patterns
stand there. Where the test's shape allows, nothing of the test's comparisons is built
with the program:

1. **Plan** (``plan``): the test is HumanEval-X's ``#[cfg(test)] mod tests { use
   super::*; #[test] fn ..() { .. } }`` or MultiPL-E's test functions at the crate root
   (``fn main()`` in its raw shape), and every test function's body is only
   ``let candidate = NAME;`` and assertions ``assert_eq!(CALL, E)``, ``assert_ne!``,
   ``assert!(CALL == E)`` (``!=``, either side), ``assert!(CALL)``, ``assert!(!CALL)`` and
   ``assert!((CALL - F).abs() < F)``, one call of the program each, whose arguments are
   literals and the standard library's words (``ARG_WORDS``), and whose other side ``E``
   is a value this module evaluates (``_parse_value``: literals, ``vec![..]``,
   ``Vec::<T>::new()``, ``String::from``, ``.to_string()``, ``Some``, ``None``, ``Ok``,
   ``Err``, tuples, arrays; at most ``MAX_WEIGHT`` elements, repeats expanded). No
   ``#[should_panic]``, ``#[ignore]``, doc comment, ``use`` but the glob of the program's
   items, other statement or item: anything else stays beside the program, as before.
   Test functions are taken in the order libtest runs them, by name. Nor is a program
   lifted that defines symbols or code that runs before ``main``, declares the global
   allocator (either could write before the recorder), has test functions of its own
   (the unit beside the test runs them, and a failing one fails the sample; the recorder
   runs its own alone, so none writes before its types' line), or declares a method the
   expected values call (``program_unlifted``).
2. **Record** (the candidate's build, ``recorder``): the program, the forwarding macros of
   the unit beside the test (so ``vec!`` in an argument is the standard library's), a stub
   for each item the test declares (a program that declares ``mod tests`` fails to compile
   as it would beside the test), and a ``#[test]`` function in a module of its own (named
   by a keyed hash, ``lifted.tag``), the only one the run executes (``recorder_run``). It
   first writes the calls' Rust types on one line (``t``, then each type: taken from
   closures of the calls that it never calls, so before any code of the program's runs),
   then makes each call in order and writes, as it returns, ``v``, the type again, a
   space and the value (``R``'s impls: integers, ``f64``/``f32`` by their bits, ``bool``,
   ``char``, ``String``, ``&str``, ``Vec``, slices, arrays, ``Option``, ``Result``,
   tuples). A call of any other type (the program's own, a ``HashMap``, ``Cow``) does not
   compile there, and the test goes back beside the program: by the types the program
   declares, never by what it writes at run time. Every use of ``R`` is a qualified path,
   so no trait of the program's can answer for it or make it ambiguous. The build holds no
   expected value and no nonce, so it is cached by content like a stdio build.
3. **Decide** (``decide``, on the host): first, by the types' line alone, whether each
   assertion would compile as written and what it compares with: the expected literal is
   typed as rustc would type it against the call's type (an unsuffixed integer takes the
   call's integer type and must fit it; a float literal only against ``f64``; ``&str`` and
   ``String`` compare with each other at the top and through ``Vec`` and arrays, as
   ``PartialEq``'s impls allow, never inside ``Option``, ``Result`` or a tuple, and never
   both in one value; an empty ``vec![]`` only where rustc infers its element type). Where
   it would not, or a type is ``f32`` (decimal to ``f32`` is not decimal to ``f64`` to
   ``f32``), the test goes back beside the program, whose build decides it. Then each
   value line, which must name its call's type, compared as ``PartialEq`` does (IEEE
   equality for floats: NaN is unequal to itself).

Verdicts are ``lifted``'s: a failed comparison is ``wrong_answer``, whatever the program
did after it; a call that never returned leaves the candidate's own failure to decide (a
panic's exit 101 is ``wrong_answer``, as beside the test); a pass needs every call recorded
and the candidate's exit 0. A value line the program writes itself on fd 3 is a value of
its choosing, which it could have returned; it holds nothing of the test's, so it earns
nothing a returned one would not, and a line of another type or spelling fails the test.

A recorder that does not compile where the program alone would (an error reported in the
recorder's lines: a call of a type ``R`` does not write, a call whose type rustc cannot
infer) sends the test back beside the program; an error in the program's lines is the
sample's ``compile_error``. What a program can still choose is the path of its types: one
whose calls return a type the host does not decide runs beside the test, under
everything that applies there (``languages``, "What still runs beside the program").

Cost: the recorder's build, on this machine about 0.35 s against 0.21 s for the unit
beside the test (rustc ``--test -O``, quiet host); no judge is built.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from reward_api.verify import compiled_eq, lifted

# ------------------------------------------------------------------ tokens
_TOKEN = re.compile(
    r"""(?P<ws>\s+)
    |(?P<line>//[^\n]*)
    |(?P<num>0x[0-9a-fA-F_]+(?:[iu](?:8|16|32|64|128|size))?
        |0o[0-7_]+(?:[iu](?:8|16|32|64|128|size))?
        |0b[01_]+(?:[iu](?:8|16|32|64|128|size))?
        |[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9_]*[0-9][0-9_]*)?(?:[iu](?:8|16|32|64|128|size)|f32|f64)?
        |[0-9][0-9_]*\.(?![.A-Za-z_0-9]))
    |(?P<str>"(?:[^"\\]|\\.)*")
    |(?P<char>'(?:[^'\\\n]|\\(?:[nrt0\\'"]|x[0-7][0-9a-fA-F]|u\{[0-9a-fA-F_]{1,8}\}))')
    |(?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<punct>::|==|!=|<=|>=|->|=>|&&|\|\||\.\.|[-+*/%<>=!&|^.,;:()\[\]{}\#?@$~])""",
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int


class _Refuse(Exception):
    """The test's shape, or a value, is not one this module decides."""


def tokens(code: str) -> list[_Tok]:
    """Rust's tokens of ``code`` (comments dropped); _Refuse at anything this lexer does not
    read exactly as rustc does (a block comment, a raw or byte string, a lifetime, a
    carriage return, a character outside ASCII outside a literal)."""
    if "\r" in code or "/*" in code:
        raise _Refuse("a carriage return or block comment")
    out: list[_Tok] = []
    at = 0
    while at < len(code):
        m = _TOKEN.match(code, at)
        if m is None or m.end() == at:
            raise _Refuse(f"no token at {at}")
        kind = m.lastgroup or ""
        text = m.group(0)
        if kind == "line" and (
            text.startswith("//!") or (text.startswith("///") and not text.startswith("////"))
        ):
            raise _Refuse("a doc comment")  # an attribute, not a comment
        if kind == "ident" and code[m.end() : m.end() + 1] in ('"', "#", "'"):
            raise _Refuse("a raw or byte literal")
        if kind not in ("ws", "line"):
            out.append(_Tok(kind, m.group(0), m.start(), m.end()))
        at = m.end()
    return out


# ------------------------------------------------------------------ plan
ARG_WORDS = frozenset({
    "true", "false", "vec", "String", "from", "to_string", "to_owned", "Some", "None", "Ok",
    "Err", "Vec", "new", "as", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32",
    "u64", "u128", "usize", "f32", "f64", "char", "bool", "str", "MAX", "MIN", "into",
    "chars", "collect", "iter", "cloned", "copied", "to_vec", "clone", "as_str",
})  # fmt: skip
"""Words a lifted call's arguments may hold: values made by the language and the standard
library alone, evaluated the same in the recorder as beside the test."""

_ASSERTS = frozenset({"assert", "assert_eq", "assert_ne"})


@dataclass(frozen=True)
class Check:
    """One assertion: ``kind`` ``eq``/``ne`` (``E`` the parsed expected value, ``flipped``
    where the call is on the right), ``true``/``false`` (``assert!(CALL)``/``!CALL``) or
    ``near`` (``(CALL - E).abs() < EPS``, ``E`` and ``eps`` the literals, ``op`` ``<`` or
    ``<=``); ``call`` its call's index in the recorder's order."""

    kind: str
    call: int
    expected: Any = None
    flipped: bool = False
    eps: Any = None
    op: str = "<"
    absolute: bool = True
    """A ``near`` check's difference is taken absolutely (``.abs()``), or as it is."""


@dataclass(frozen=True)
class Plan:
    """A lifted Rust test: the text of each call in the order the recorder makes them, the
    ``let`` aliases each test function declares before its calls (``groups``: per test
    function, its aliases and the indices of its calls), the items the test declares at
    its top (stubbed in the recorder), and its assertions."""

    calls: tuple[str, ...]
    groups: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]
    items: tuple[str, ...]
    module: str | None
    checks: tuple[Check, ...] = field(compare=False)

    @property
    def host(self) -> Plan:
        """Every lifted Rust test is decided on the host (``decide``); no judge is built."""
        return self


class _Cursor:
    def __init__(self, toks: list[_Tok], at: int = 0) -> None:
        self.toks, self.i = toks, at
        self.budget = MAX_WEIGHT

    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str) -> bool:
        return all((t := self.peek(k)) is not None and t.text == s for k, s in enumerate(texts))

    def take(self, text: str | None = None, kind: str | None = None) -> _Tok:
        t = self.peek()
        if (
            t is None
            or (text is not None and t.text != text)
            or (kind is not None and t.kind != kind)
        ):
            raise _Refuse(f"expected {text or kind}")
        self.i += 1
        return t

    def group_end(self) -> int:
        """The index just past the bracket group that starts here."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        stack: list[str] = []
        j = self.i
        while j < len(self.toks):
            s = self.toks[j].text
            if s in pairs:
                stack.append(pairs[s])
            elif s in (")", "]", "}"):
                if not stack or stack.pop() != s:
                    raise _Refuse("unbalanced brackets")
                if not stack:
                    return j + 1
            j += 1
        raise _Refuse("unbalanced brackets")


_ATTR_OK = {"test", "cfg(test)"}


def _attrs(c: _Cursor) -> list[str]:
    out = []
    while c.at("#", "["):
        c.take("#")
        end = c.group_end()
        out.append("".join(t.text for t in c.toks[c.i + 1 : end - 1]))
        c.i = end
    return out


def plan(test: str, entry_points: tuple[str, ...] | list[str] = ()) -> Plan | None:
    """The lifted shape of ``test``, or None where it is not one (the test then runs beside
    the program, as before). ``entry_points``: the program's names the test may call
    (empty: any name the test calls that it does not declare)."""
    try:
        return _plan(test, tuple(entry_points))
    except (_Refuse, ValueError, RecursionError):  # ``0x_``: no digits, which rustc refuses
        return None


def _plan(test: str, entries: tuple[str, ...]) -> Plan:
    c = _Cursor(tokens(test))
    items: list[str] = []
    module: str | None = None
    bodies: list[tuple[str, list[_Tok]]] = []
    mains: list[tuple[str, list[_Tok]]] = []
    while c.peek() is not None:
        attrs = _attrs(c)
        if c.at("mod") and module is None and not bodies and not mains and attrs == ["cfg(test)"]:
            c.take("mod")
            module = c.take(kind="ident").text
            items.append(module)
            end = c.group_end()
            c.take("{")
            inner = _Cursor(c.toks[c.i : end - 1])
            glob = False
            while inner.peek() is not None:
                a = _attrs(inner)
                if inner.at("use"):
                    if a:
                        raise _Refuse("an attribute on a use")
                    start = inner.i
                    while not inner.at(";"):
                        inner.take()
                    inner.take(";")
                    text = " ".join(t.text for t in inner.toks[start : inner.i])
                    if text not in ("use super :: * ;", "use crate :: * ;"):
                        # ``use super::f as g;`` would give a name another meaning
                        raise _Refuse("a use of the test's own")
                    glob = True
                    continue
                bodies.append(_test_fn(inner, a, []))
            if not glob:
                raise _Refuse("a test module that does not use the program's items")
            c.i = end
            continue
        if c.at("fn", "main") and not attrs:
            mains.append(_test_fn(c, ["test"], items))
            continue
        if module is not None:
            raise _Refuse("an item after the test module")
        bodies.append(_test_fn(c, attrs, items))
    if mains and bodies:
        raise _Refuse("both a main and test functions")
    # libtest runs a crate's tests one after another in the order of their names
    ordered = [b for _name, b in sorted(bodies or mains, key=lambda nb: nb[0])]
    if not ordered:
        raise _Refuse("no test function")
    calls: list[str] = []
    groups: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    checks: list[Check] = []
    for body in ordered:
        aliases, mine = _body(_Cursor(body), test, entries, calls, checks)
        groups.append((aliases, mine))
    if not calls or len(calls) > MAX_CALLS:
        raise _Refuse("no call, or more than the types' line holds")
    return Plan(tuple(calls), tuple(groups), tuple(items), module, tuple(checks))


def _test_fn(c: _Cursor, attrs: list[str], items: list[str]) -> tuple[str, list[_Tok]]:
    """A test function's name and its body's tokens (inside its braces); _Refuse at
    anything else."""
    if attrs != ["test"]:
        raise _Refuse(f"attributes {attrs}")
    c.take("fn")
    name = c.take(kind="ident").text
    items.append(name)
    c.take("(")
    c.take(")")
    end = c.group_end()
    c.take("{")
    start = c.i
    c.i = end
    return name, c.toks[start : end - 1]


def _body(
    c: _Cursor, code: str, entries: tuple[str, ...], calls: list[str], checks: list[Check]
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    aliases: list[str] = []
    names: set[str] = set()
    mine: list[int] = []
    while c.peek() is not None:
        if c.at("let"):
            c.take("let")
            name = c.take(kind="ident").text
            c.take("=")
            target = c.take(kind="ident").text
            c.take(";")
            if (entries and target not in entries) or target in ARG_WORDS or name in names:
                raise _Refuse("an alias of something else")
            names.add(name)
            aliases.append(f"let {name} = {target};")
            continue
        macro = c.take(kind="ident").text
        if macro not in _ASSERTS:
            raise _Refuse(f"a statement {macro}")
        c.take("!")
        if not c.at("("):
            raise _Refuse("an assertion not in parentheses")
        end = c.group_end()
        c.take("(")
        args = _split(c.toks[c.i : end - 1])
        c.i = end
        c.take(";")
        callable_ = names | set(entries)
        check = _assertion(macro, args, code, callable_, bool(entries), len(calls))
        calls.append(check[1])
        checks.append(check[0])
        mine.append(len(calls) - 1)
    return tuple(aliases), tuple(mine)


def _split(toks: list[_Tok]) -> list[list[_Tok]]:
    """Top-level comma-separated parts (a trailing comma allowed)."""
    parts: list[list[_Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        if t.text == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    if parts and not parts[-1] and len(parts) > 1:
        parts.pop()
    return parts


def _call(toks: list[_Tok], code: str, callable_: set[str], named: bool) -> str | None:
    """The text of ``toks`` when it is exactly one call of the program, ``NAME(args)``,
    whose arguments hold only literals and ``ARG_WORDS``."""
    if len(toks) < 3 or toks[0].kind != "ident" or toks[1].text != "(" or toks[-1].text != ")":
        return None
    head = toks[0].text
    if head in ARG_WORDS or (named and head not in callable_) or head in _ASSERTS:
        return None
    depth = 0
    for k, t in enumerate(toks[1:], 1):
        depth += t.text in ("(", "[", "{")
        depth -= t.text in (")", "]", "}")
        if depth == 0 and k != len(toks) - 1:
            return None
        if t.kind == "ident" and t.text not in ARG_WORDS:
            return None
        if t.text in ("{", "}", ";", "=", "|", "#", "$", "?", "&&", "||", "..", "@"):
            return None
    return code[toks[0].start : toks[-1].end]


def _assertion(
    macro: str, args: list[list[_Tok]], code: str, callable_: set[str], named: bool, index: int
) -> tuple[Check, str]:
    if macro in ("assert_eq", "assert_ne"):
        if len(args) != 2:
            raise _Refuse("an assertion with a message")
        kind = "eq" if macro == "assert_eq" else "ne"
        return _pair(kind, args[0], args[1], code, callable_, named, index)
    if len(args) != 1:
        raise _Refuse("an assertion with a message")
    toks = args[0]
    call = _call(toks, code, callable_, named)
    if call is not None:
        return Check("true", index), call
    if toks and toks[0].text == "!":
        call = _call(toks[1:], code, callable_, named)
        whole = len(toks) > 3 and toks[1].text == "(" and _Cursor(toks, 1).group_end() == len(toks)
        if call is None and whole:  # ``!(CALL)``
            call = _call(toks[2:-1], code, callable_, named)
        if call is not None:
            return Check("false", index), call
    depth = 0
    for k, t in enumerate(toks):
        depth += t.text in ("(", "[", "{")
        depth -= t.text in (")", "]", "}")
        if depth == 0 and t.text in ("==", "!="):
            kind = "eq" if t.text == "==" else "ne"
            return _pair(kind, toks[:k], toks[k + 1 :], code, callable_, named, index)
    return _near(toks, code, callable_, named, index)


def _pair(
    kind: str, left: list[_Tok], right: list[_Tok], code: str, callable_: set[str], named: bool,
    index: int,
) -> tuple[Check, str]:  # fmt: skip
    call = _call(left, code, callable_, named)
    flipped = False
    if call is None:
        call, flipped = _call(right, code, callable_, named), True
        left, right = right, left
    if call is None:
        raise _Refuse("no call of the program on either side")
    return Check(kind, index, _parse_value(right), flipped), call


def _near(
    toks: list[_Tok], code: str, callable_: set[str], named: bool, index: int
) -> tuple[Check, str]:
    """A tolerance: ``(X).abs() < EPS``, ``f64::abs(X) < EPS`` or ``X < EPS`` (``<=``), where
    ``X`` is ``CALL - E`` or ``CALL + E`` and ``E`` a float literal, or literals under
    ``*`` and ``/`` (``2.0 / 3.0``, computed here in ``f64`` as rustc does)."""
    depth, at = 0, None
    for k, t in enumerate(toks):
        depth += t.text in ("(", "[", "{")
        depth -= t.text in (")", "]", "}")
        if depth == 0 and t.text in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
            if t.text not in ("<", "<=") or at is not None:
                raise _Refuse("an assertion of another shape")
            at = k
    if at is None or at == 0:
        raise _Refuse("an assertion of another shape")
    lhs, op = toks[:at], toks[at].text
    texts = [t.text for t in lhs]
    absolute = True
    if texts[0] == "(" and _Cursor(lhs).group_end() == len(lhs) - 4 and texts[-4:] == [
        ".", "abs", "(", ")",
    ]:  # fmt: skip
        inner = lhs[1:-5]
    elif texts[:4] == ["f64", "::", "abs", "("] and _Cursor(lhs, 3).group_end() == len(lhs):
        inner = lhs[4:-1]  # ``program_unlifted``: no item of the program's is this f64
    else:
        inner, absolute = lhs, False
    for k, t in enumerate(inner):
        if t.text not in ("-", "+") or k == 0:
            continue
        call = _call(inner[:k], code, callable_, named)
        if call is None:
            continue
        rest = inner[k + 1 :]
        value = _float_product(rest)
        eps = _parse_value(toks[at + 1 :])
        if eps[0] != "float":
            raise _Refuse("a tolerance of another type")
        want = ("float", repr(value if t.text == "-" else -value), None)
        return Check("near", index, want, eps=eps, op=op, absolute=absolute), call
    raise _Refuse("an assertion of another shape")


def _float_product(toks: list[_Tok]) -> float:
    """Float literals (no suffix but ``f64``) under ``*`` and ``/`` and parentheses, with
    signs before them, computed left to right in ``f64`` (Python's floats are IEEE
    doubles: each step rounds as rustc's does); _Refuse at anything else (a ``+`` or ``-``
    between operands would bind looser than the call's own)."""
    c = _Cursor(toks)

    def primary() -> float:
        t = c.peek()
        if t is None:
            raise _Refuse("expected a float")
        if t.text == "-":
            c.take()
            return -primary()
        if t.text == "(":
            end = c.group_end()
            inside = toks[c.i + 1 : end - 1]
            c.i = end
            return _float_sum(inside)
        c.take()
        node = _parse_value([t])
        if node[0] != "float" or node[2] not in (None, "f64"):
            raise _Refuse("not an f64 literal")
        value = float(node[1])
        if math.isinf(value):
            raise _Refuse("a float literal out of range")
        return value

    value = primary()
    while c.peek() is not None:
        op = c.take().text
        if op not in ("*", "/"):
            raise _Refuse("an expected value of another shape")
        other = primary()
        value = value * other if op == "*" else _divide(value, other)
    return value


def _float_sum(toks: list[_Tok]) -> float:
    """A parenthesised sum of ``_float_product`` terms, left to right."""
    parts: list[tuple[str, list[_Tok]]] = []
    depth, start, sign = 0, 0, "+"
    for k, t in enumerate(toks):
        depth += t.text in ("(", "[", "{")
        depth -= t.text in (")", "]", "}")
        if depth == 0 and t.text in ("+", "-") and k > start and toks[k - 1].text not in ("*", "/"):
            parts.append((sign, toks[start:k]))
            sign, start = t.text, k + 1
    parts.append((sign, toks[start:]))
    total = 0.0
    for n, (s, part) in enumerate(parts):
        v = _float_product(part)
        total = v if n == 0 else total + v if s == "+" else total - v
    return total


def _divide(a: float, b: float) -> float:
    if b == 0.0:  # an infinity or NaN: not a tolerance anyone writes
        raise _Refuse("a division by zero")
    return a / b


# ------------------------------------------------------------------ expected values
_INT_TYPES = {
    f"{s}{b}": (s == "i", b) for s in "iu" for b in ("8", "16", "32", "64", "128", "size")
}


def _int_range(ty: str) -> tuple[int, int]:
    signed, bits = _INT_TYPES[ty]
    n = 64 if bits == "size" else int(bits)
    return (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)


def _parse_value(toks: list[_Tok]) -> Any:
    """The value node of a test's expected expression; _Refuse where it is not one this
    module evaluates. Nodes: ``("int", value, suffix, negated)``, ``("float", text, suffix)``,
    ``("bool", b)``, ``("char", c)``, ``("str", s)`` (a literal, ``&str``), ``("string",
    s)`` (an owned ``String``), ``("vec", [..])``, ``("array", [..])``, ``("some", v)``,
    ``("none",)``, ``("ok", v)``, ``("err", v)``, ``("tuple", [..])``."""
    c = _Cursor(toks)
    c.budget = MAX_WEIGHT
    node = _value(c, 0)
    if c.peek() is not None:
        raise _Refuse("more after a value")
    return node


MAX_CALLS = 4096
"""The most calls a lifted test makes (the types' line holds as many)."""
MAX_REPEAT = 100_000
MAX_DEPTH = 32
MAX_WEIGHT = 100_000
"""How large an expected value (its elements, repeats expanded, and its strings' bytes in
sixteens) the host evaluates: a larger one (``vec![vec![0; 100000]; 100000]``, which
the host would walk for ever, or one whose recorded line would pass the pass channel's
limit, though the program is right) is decided beside the program."""


def _spend(c: _Cursor, weight: int) -> None:
    c.budget -= weight
    if c.budget < 0:
        raise _Refuse("an expected value too large for the host")


def _value(c: _Cursor, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _Refuse("nested too deep")
    t = c.take()
    _spend(c, 1 + (len(t.text) >> 4 if t.kind == "str" else 0))
    if t.text == "-":
        n = c.take(kind="num")
        node = _number(n.text)
        if node[0] == "int":
            return ("int", -node[1], node[2], True)
        return ("float", "-" + node[1], node[2])
    if t.kind == "num":
        return _number(t.text)
    if t.text in ("true", "false"):
        return ("bool", t.text == "true")
    if t.kind == "char":
        return ("char", _unescape(t.text[1:-1], quote="'"))
    if t.kind == "str":
        s = _unescape(t.text[1:-1], quote='"')
        if c.at(".", "to_string", "(", ")") or c.at(".", "to_owned", "(", ")"):
            c.i += 4
            return ("string", s)
        return ("str", s)
    if t.text == "String" and c.at("::", "from", "("):
        c.i += 3
        lit = c.take(kind="str")
        _spend(c, len(lit.text) >> 4)
        c.take(")")
        return ("string", _unescape(lit.text[1:-1], quote='"'))
    if t.text in ("String", "Vec") and c.at("::", "new", "(", ")"):
        c.i += 4
        return ("string", "") if t.text == "String" else ("vec", [])
    if t.text == "Vec" and c.at("::", "<"):  # MultiPL-E's ``Vec::<String>::new()``
        c.i += 2
        elem = _type_of(c, depth + 1)
        for want in (">", "::", "new", "(", ")"):
            c.take(want)
        return ("vec", [], elem)
    if t.text == "vec" and c.at("!") and c.peek(1) is not None and c.peek(1).text in ("[", "("):  # type: ignore[union-attr]
        c.take("!")
        items, rep = _sequence(c, depth)
        return ("vec", items) if rep is None else ("vec", items * rep)
    if t.text == "[":
        c.i -= 1
        items, rep = _sequence(c, depth)
        if rep is not None and items[0][0] not in ("int", "float", "bool", "char", "str"):
            raise _Refuse("an array repeat of a value that is not Copy")
        return ("array", items) if rep is None else ("array", items * rep)
    if t.text in ("Some", "Ok", "Err") and c.at("("):
        c.take("(")
        inner = _value(c, depth + 1)
        c.take(")")
        return (t.text.lower(), inner)
    if t.text == "None":
        return ("none",)
    if t.text == "(":
        first = _value(c, depth + 1)
        if c.at(")"):
            c.take(")")
            return first  # parenthesised
        elems = [first]
        while c.at(","):
            c.take(",")
            if c.at(")"):
                break
            elems.append(_value(c, depth + 1))
        c.take(")")
        return ("tuple", elems)
    raise _Refuse(f"a value {t.text!r}")


def _type_of(c: _Cursor, depth: int) -> Any:
    """A type written in the test (``Vec::<T>::new()``'s ``T``), as ``parse_type`` reads a
    recorded one: the scalars, ``String``, ``&str``, ``Vec``, ``Option``, ``Result`` and
    tuples; _Refuse at anything else (a lifetime, a path, ``_``)."""
    if depth > MAX_DEPTH:
        raise _Refuse("nested too deep")
    t = c.take()
    if t.text == "&":
        c.take("str")
        return ("ref", "str")
    if t.text in ("Vec", "Option"):
        c.take("<")
        inner = _type_of(c, depth + 1)
        c.take(">")
        return (t.text, inner)
    if t.text == "Result":
        c.take("<")
        ok = _type_of(c, depth + 1)
        c.take(",")
        err = _type_of(c, depth + 1)
        c.take(">")
        return ("Result", ok, err)
    if t.text == "(":
        elems = []
        while not c.at(")"):
            elems.append(_type_of(c, depth + 1))
            if not c.at(")"):
                c.take(",")
        c.take(")")
        if len(elems) == 1 and c.toks[c.i - 2].text != ",":
            return elems[0]
        return ("tuple", elems)
    if t.text in _INT_TYPES or t.text in ("f64", "f32", "bool", "char", "String"):
        return t.text
    raise _Refuse(f"a type {t.text!r}")


def _sequence(c: _Cursor, depth: int) -> tuple[list[Any], int | None]:
    close = {"[": "]", "(": ")"}[c.take().text]
    items: list[Any] = []
    if c.at(close):
        c.take(close)
        return items, None
    before = c.budget
    items.append(_value(c, depth + 1))
    if c.at(";"):
        c.take(";")
        n = c.take(kind="num")
        count = _number(n.text)
        if count[0] != "int" or count[2] not in (None, "usize") or not 0 < count[1] <= MAX_REPEAT:
            raise _Refuse("a repeat count")
        c.take(close)
        _spend(c, (before - c.budget) * (int(count[1]) - 1))
        return items, int(count[1])
    while c.at(","):
        c.take(",")
        if c.at(close):
            break
        items.append(_value(c, depth + 1))
    c.take(close)
    return items, None


_SUFFIX = re.compile(r"([iu](?:8|16|32|64|128|size)|f32|f64)$")


def _number(text: str) -> tuple[Any, ...]:
    suffix = None
    m = _SUFFIX.search(text)
    if m and not (text.startswith(("0x", "0X")) and m.group(1) in ("f32", "f64")):
        suffix, text = m.group(1), text[: m.start()]
    digits = text.replace("_", "")
    if text.startswith(("0x", "0o", "0b")):
        if suffix in ("f32", "f64"):
            raise _Refuse("a float suffix on a based integer")
        return ("int", int(digits[2:], {"x": 16, "o": 8, "b": 2}[text[1]]), suffix, False)
    if suffix in ("f32", "f64") or "." in digits or "e" in digits or "E" in digits:
        if suffix is not None and suffix not in ("f32", "f64"):
            raise _Refuse("an integer suffix on a float")
        return ("float", digits, suffix)
    return ("int", int(digits), suffix, False)


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}


def _unescape(body: str, quote: str) -> str:
    out = []
    k = 0
    while k < len(body):
        ch = body[k]
        if ch != "\\":
            if quote == "'" and ch in ("\n", "\t", "'"):
                raise _Refuse("a character Rust wants escaped")
            out.append(ch)
            k += 1
            continue
        nxt = body[k + 1 : k + 2]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            k += 2
        elif nxt == "x":
            code = body[k + 2 : k + 4]
            if not re.fullmatch(r"[0-7][0-9a-fA-F]", code):
                raise _Refuse("a \\x escape past 0x7f")
            out.append(chr(int(code, 16)))
            k += 4
        elif nxt == "u":
            m = re.match(r"\{([0-9a-fA-F][0-9a-fA-F_]{0,7})\}", body[k + 2 :])
            if m is None:
                raise _Refuse("a \\u escape")
            digits = m.group(1).replace("_", "")
            value = int(digits, 16)
            if len(digits) > 6 or value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
                raise _Refuse("a \\u escape out of range")
            out.append(chr(value))
            k += 2 + m.end()
        elif nxt == "\n" and quote == '"':
            k += 2
            while k < len(body) and body[k] in " \t\n":
                k += 1
        else:
            raise _Refuse("an escape")
    s = "".join(out)
    if quote == "'" and len(s) != 1:
        raise _Refuse("a character literal of more than one character")
    return s


# ------------------------------------------------------------------ recorded values
_TYPE_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[<>(),;\[\]&]")


def parse_type(text: str) -> Any:
    """A recorded type (``_R::ty``'s spelling) as a tree: a name, ``("Vec", T)``,
    ``("Option", T)``, ``("Result", T, E)``, ``("tuple", [..])``, ``("array", T, n)``,
    ``("slice", T)``, ``("ref", T)``; _Refuse where malformed."""
    toks = _TYPE_TOKEN.findall(text)
    if "".join(toks) != text or len(toks) > 4096:
        raise _Refuse("a malformed type")
    pos = [0]

    def take(expect: str | None = None) -> str:
        if pos[0] >= len(toks) or (expect is not None and toks[pos[0]] != expect):
            raise _Refuse("a malformed type")
        pos[0] += 1
        return toks[pos[0] - 1]

    def one(depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _Refuse("a type nested too deep")
        t = take()
        if t == "&":
            return ("ref", one(depth + 1))
        if t == "(":
            elems: list[Any] = []
            while pos[0] < len(toks) and toks[pos[0]] != ")":
                elems.append(one(depth + 1))
                if toks[pos[0] : pos[0] + 1] == [","]:
                    take(",")
            take(")")
            return ("tuple", elems)
        if t == "[":
            inner = one(depth + 1)
            if toks[pos[0] : pos[0] + 1] == [";"]:
                take(";")
                n = take()
                if not n.isdigit():
                    raise _Refuse("a malformed type")
                take("]")
                return ("array", inner, int(n))
            take("]")
            return ("slice", inner)
        if t in ("Vec", "Option"):
            take("<")
            inner = one(depth + 1)
            take(">")
            return (t, inner)
        if t == "Result":
            take("<")
            ok = one(depth + 1)
            take(",")
            err = one(depth + 1)
            take(">")
            return ("Result", ok, err)
        if t in _INT_TYPES or t in ("f64", "f32", "bool", "char", "String", "str"):
            return t
        raise _Refuse(f"a type {t}")

    tree = one(0)
    if pos[0] != len(toks):
        raise _Refuse("a malformed type")
    return tree


class _Line:
    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def take(self, pattern: re.Pattern[str]) -> str:
        m = pattern.match(self.text, self.at)
        if m is None:
            raise _Refuse("a malformed value")
        self.at = m.end()
        return m.group(1)

    def char(self, want: str) -> None:
        if self.text[self.at : self.at + 1] != want:
            raise _Refuse("a malformed value")
        self.at += 1


_INT_VALUE = re.compile(r"(-?(?:0|[1-9][0-9]{0,39}));")
_HEX = re.compile(r"([0-9a-f]*);")
_BITS64 = re.compile(r"([0-9a-f]{16});")
_BITS32 = re.compile(r"([0-9a-f]{8});")
_COUNT = re.compile(r"([0-9]{1,9}):")


def _decode(line: _Line, ty: Any, depth: int = 0) -> Any:
    """The value of ``ty`` at ``line``'s position, in ``_R::val``'s encoding: integers in
    decimal, floats by their bits in hex, ``bool`` ``0``/``1``, ``char`` its scalar value,
    strings the hex of their UTF-8 (each ended by ``;``); sequences ``[`` count ``:``
    elements ``]``, ``Option`` ``N`` or ``S`` and the value, ``Result`` ``O``/``E`` and
    the value, tuples ``(`` elements ``)``."""
    if depth > MAX_DEPTH:
        raise _Refuse("nested too deep")
    if isinstance(ty, str):
        if ty in _INT_TYPES:
            value = int(line.take(_INT_VALUE))
            lo, hi = _int_range(ty)
            if not lo <= value <= hi:
                raise _Refuse("an integer out of its type")
            return value
        if ty == "f64":
            return struct.unpack(">d", bytes.fromhex(line.take(_BITS64)))[0]
        if ty == "f32":
            return struct.unpack(">f", bytes.fromhex(line.take(_BITS32)))[0]
        if ty == "bool":
            return {"0": False, "1": True}[line.take(re.compile(r"([01]);"))]
        if ty == "char":
            value = int(line.take(_INT_VALUE))
            if not (0 <= value <= 0x10FFFF) or 0xD800 <= value <= 0xDFFF:
                raise _Refuse("not a char")
            return chr(value)
        if ty in ("String", "str"):
            raw = line.take(_HEX)
            if len(raw) % 2:
                raise _Refuse("a malformed string")
            try:
                return bytes.fromhex(raw).decode("utf-8")
            except UnicodeDecodeError:
                raise _Refuse("a string that is not UTF-8") from None
        raise _Refuse(f"a type {ty}")
    head = ty[0]
    if head == "ref":
        return _decode(line, ty[1], depth + 1)
    if head in ("Vec", "slice", "array"):
        line.char("[")
        n = int(line.take(_COUNT))
        if head == "array" and n != ty[2]:
            raise _Refuse("an array of another length")
        items = [_decode(line, ty[1], depth + 1) for _ in range(n)]
        line.char("]")
        return items
    if head == "Option":
        tag = line.take(re.compile(r"([NS])"))
        return ("none",) if tag == "N" else ("some", _decode(line, ty[1], depth + 1))
    if head == "Result":
        tag = line.take(re.compile(r"([OE])"))
        return (
            ("ok", _decode(line, ty[1], depth + 1))
            if tag == "O"
            else ("err", _decode(line, ty[2], depth + 1))
        )
    if head == "tuple":
        line.char("(")
        items = [_decode(line, t, depth + 1) for t in ty[1]]
        line.char(")")
        return tuple(items)
    raise _Refuse("a malformed type")


# ------------------------------------------------------------------ typing the expected side
def _has_f32(ty: Any) -> bool:
    """Whether ``f32`` is in the type (decided beside the program: a decimal literal rounds
    to ``f32`` once in rustc, twice through Python's ``float``)."""
    if isinstance(ty, str):
        return ty == "f32"
    if ty[0] == "tuple":
        return any(_has_f32(t) for t in ty[1])
    return any(_has_f32(t) for t in ty[1:] if not isinstance(t, int))


_ONE_IMPL = frozenset({*_INT_TYPES, "f64", "f32", "bool", "char"})


def _one_impl(ty: Any) -> bool:
    """Whether ``ty: PartialEq<_>`` has one impl, so rustc infers an empty ``vec![]``'s
    element type from it: the scalars, ``Option``, ``Result`` and tuples (``String``,
    ``&str``, ``Vec`` and arrays compare with several types: ``type annotations
    needed``)."""
    return ty in _ONE_IMPL if isinstance(ty, str) else ty[0] in ("Option", "Result", "tuple")


def _typed(node: Any, ty: Any, cross: bool, kinds: set[str], flipped: bool = False) -> Any:
    """``node`` as a value of ``ty``, where ``assert_eq!(value_of_ty, node)`` (``flipped``:
    ``assert_eq!(node, value_of_ty)``) compiles as rustc would type it (``cross``: ``&str``
    and ``String`` compare with each other here; ``kinds`` collects which of them the
    whole value spells, and one that spells both is refused by the caller: rustc unifies
    a ``vec!``'s elements, nested ones too); _Refuse where it would not compile or is not
    exact. An
    empty ``vec![]`` is typed by the other side only where that side's element type has
    one ``PartialEq`` impl, and never on the left."""
    kind = node[0]
    if isinstance(ty, str):
        if ty in _INT_TYPES:
            if kind != "int" or node[2] not in (None, ty) or (node[3] and not _INT_TYPES[ty][0]):
                raise _Refuse("not an integer of the call's type")
            lo, hi = _int_range(ty)
            if not lo <= node[1] <= hi:
                raise _Refuse("an integer literal out of range")
            return node[1]
        if ty == "f64":
            if kind != "float" or node[2] not in (None, "f64"):
                raise _Refuse("not an f64 literal")
            value = float(node[1])
            if value in (float("inf"), float("-inf")):
                raise _Refuse("a float literal out of range")
            return value
        if ty == "bool" and kind == "bool":
            return node[1]
        if ty == "char" and kind == "char":
            return node[1]
        if ty in ("String", "str") and kind in ("str", "string"):
            want = "string" if ty == "String" else "str"
            if kind != want and not cross:
                raise _Refuse("a &str against a String here")
            kinds.add(kind)
            return node[1]
        raise _Refuse(f"{kind} against {ty}")
    head = ty[0]
    if head == "ref":
        if ty[1] == "str":
            return _typed(node, "str", cross, kinds, flipped)
        raise _Refuse("a reference")
    if head == "Vec":
        if kind != "vec":
            raise _Refuse("not a vec! against a Vec")
        if len(node) == 3:  # ``Vec::<U>::new()``: Vec<T> == Vec<U> where T: PartialEq<U>
            if not _compares(ty[1], node[2]):
                raise _Refuse("an empty Vec of a type the call's does not compare with")
            return []
        if not node[1] and (flipped or not _one_impl(ty[1])):
            raise _Refuse("an empty vec! whose element type rustc does not infer")
        return [_typed(e, ty[1], True, kinds, flipped) for e in node[1]]
    if head == "array":
        if kind != "array" or len(node[1]) != ty[2] or not node[1]:
            raise _Refuse("not an array of the call's length")
        return [_typed(e, ty[1], True, kinds, flipped) for e in node[1]]
    if head == "Option":
        if kind == "none":
            return ("none",)
        if kind == "some":
            return ("some", _typed(node[1], ty[1], False, kinds, flipped))
        raise _Refuse("not an Option")
    if head == "Result":
        if kind == "ok":
            return ("ok", _typed(node[1], ty[1], False, kinds, flipped))
        if kind == "err":
            return ("err", _typed(node[1], ty[2], False, kinds, flipped))
        raise _Refuse("not a Result")
    if head == "tuple":
        if kind != "tuple" or len(node[1]) != len(ty[1]) or not ty[1]:
            raise _Refuse("not a tuple of the call's arity")
        return tuple(
            _typed(e, t, False, kinds, flipped) for e, t in zip(node[1], ty[1], strict=True)
        )
    raise _Refuse(f"a type {head}")


def _compares(ty: Any, other: Any) -> bool:
    """Whether ``ty: PartialEq<other>`` holds where both are written out (elements of two
    ``Vec``s): the same type, ``String`` against ``&str`` either way, or ``Vec``s of
    such."""
    if ty == other:
        return True
    strings = ("String", ("ref", "str"))
    if any(ty == s for s in strings) and any(other == s for s in strings):
        return True
    return (not isinstance(ty, str) and not isinstance(other, str) and ty[0] == other[0] == "Vec"
            and _compares(ty[1], other[1]))  # fmt: skip


def _same(a: Any, b: Any) -> bool:
    """``PartialEq`` on decoded values: IEEE equality for floats (NaN unequal to itself,
    ``-0.0 == 0.0``), element by element for sequences."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b) and not (isinstance(a, float) and isinstance(b, float)):
        return False
    return bool(a == b)


# ------------------------------------------------------------------ recorder
_RECORDER = r"""
#[cfg(test)] #[allow(warnings)]
mod __cr_rec_{tag} {{
    use super::*;{uses}
    pub trait R {{ fn ty(o: &mut ::std::string::String); fn val(&self, o: &mut ::std::string::String); }}
    fn dec(o: &mut ::std::string::String, negative: bool, mut x: u128) {{
        let mut d = [0u8; 40];
        let mut n = 0;
        loop {{ d[n] = b'0' + (x % 10) as u8; n += 1; x /= 10; if x == 0 {{ break; }} }}
        if negative {{ o.push('-'); }}
        while n > 0 {{ n -= 1; o.push(d[n] as char); }}
        o.push(';');
    }}
    macro_rules! __cr_ints_{tag} {{ ($($t:ident)*) => {{ $(impl R for $t {{
        fn ty(o: &mut ::std::string::String) {{ o.push_str(::core::stringify!($t)); }}
        fn val(&self, o: &mut ::std::string::String) {{ dec(o, *self < (0 as $t), (*self as i128).unsigned_abs()); }}
    }})* }}; }}
    __cr_ints_{tag}!(i8 i16 i32 i64 i128 isize u16 u32 u64 usize);
    impl R for u8 {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("u8"); }}
        fn val(&self, o: &mut ::std::string::String) {{ dec(o, false, *self as u128); }} }}
    impl R for u128 {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("u128"); }}
        fn val(&self, o: &mut ::std::string::String) {{ dec(o, false, *self); }} }}
    fn hex(o: &mut ::std::string::String, b: &[u8]) {{
        for x in b {{ o.push(b"0123456789abcdef"[(x >> 4) as usize] as char); o.push(b"0123456789abcdef"[(x & 15) as usize] as char); }}
        o.push(';');
    }}
    impl R for f64 {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("f64"); }}
        fn val(&self, o: &mut ::std::string::String) {{ hex(o, &<f64>::to_bits(*self).to_be_bytes()); }} }}
    impl R for f32 {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("f32"); }}
        fn val(&self, o: &mut ::std::string::String) {{ hex(o, &<f32>::to_bits(*self).to_be_bytes()); }} }}
    impl R for bool {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("bool"); }}
        fn val(&self, o: &mut ::std::string::String) {{ o.push_str(if *self {{ "1;" }} else {{ "0;" }}); }} }}
    impl R for char {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("char"); }}
        fn val(&self, o: &mut ::std::string::String) {{ dec(o, false, *self as u32 as u128); }} }}
    impl R for str {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("str"); }}
        fn val(&self, o: &mut ::std::string::String) {{ hex(o, <str>::as_bytes(self)); }} }}
    impl R for ::std::string::String {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("String"); }}
        fn val(&self, o: &mut ::std::string::String) {{ hex(o, <str>::as_bytes(self)); }} }}
    impl<'a, T: R + ?Sized> R for &'a T {{ fn ty(o: &mut ::std::string::String) {{ o.push('&'); <T as R>::ty(o); }}
        fn val(&self, o: &mut ::std::string::String) {{ <T as R>::val(*self, o); }} }}
    fn seq<T: R>(o: &mut ::std::string::String, v: &[T]) {{
        o.push('['); dec(o, false, v.len() as u128); o.pop(); o.push(':');
        for x in v {{ <T as R>::val(x, o); }}
        o.push(']');
    }}
    impl<T: R> R for [T] {{ fn ty(o: &mut ::std::string::String) {{ o.push('['); <T as R>::ty(o); o.push(']'); }}
        fn val(&self, o: &mut ::std::string::String) {{ seq(o, self); }} }}
    impl<T: R, const N: usize> R for [T; N] {{ fn ty(o: &mut ::std::string::String) {{
            o.push('['); <T as R>::ty(o); o.push(';'); dec(o, false, N as u128); o.pop(); o.push(']'); }}
        fn val(&self, o: &mut ::std::string::String) {{ seq(o, &self[..]); }} }}
    impl<T: R> R for ::std::vec::Vec<T> {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("Vec<"); <T as R>::ty(o); o.push('>'); }}
        fn val(&self, o: &mut ::std::string::String) {{ seq(o, &self[..]); }} }}
    impl<T: R> R for ::core::option::Option<T> {{ fn ty(o: &mut ::std::string::String) {{ o.push_str("Option<"); <T as R>::ty(o); o.push('>'); }}
        fn val(&self, o: &mut ::std::string::String) {{ match self {{ ::core::option::Option::Some(x) => {{ o.push('S'); <T as R>::val(x, o); }}
            ::core::option::Option::None => o.push('N') }} }} }}
    impl<T: R, E: R> R for ::core::result::Result<T, E> {{ fn ty(o: &mut ::std::string::String) {{
            o.push_str("Result<"); <T as R>::ty(o); o.push(','); <E as R>::ty(o); o.push('>'); }}
        fn val(&self, o: &mut ::std::string::String) {{ match self {{ ::core::result::Result::Ok(x) => {{ o.push('O'); <T as R>::val(x, o); }}
            ::core::result::Result::Err(x) => {{ o.push('E'); <E as R>::val(x, o); }} }} }} }}
    macro_rules! __cr_tuples_{tag} {{ ($(($($t:ident $i:tt),+))*) => {{ $(impl<$($t: R),+> R for ($($t,)+) {{
        fn ty(o: &mut ::std::string::String) {{ o.push('('); $(<$t as R>::ty(o); o.push(',');)+ o.push(')'); }}
        fn val(&self, o: &mut ::std::string::String) {{ o.push('('); $(<$t as R>::val(&self.$i, o);)+ o.push(')'); }}
    }})* }}; }}
    __cr_tuples_{tag}!((A 0) (A 0, B 1) (A 0, B 1, C 2) (A 0, B 1, C 2, D 3) (A 0, B 1, C 2, D 3, E 4)
        (A 0, B 1, C 2, D 3, E 4, F 5) (A 0, B 1, C 2, D 3, E 4, F 5, G 6) (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7));
    fn ty_of<T: R, F: ::core::ops::FnOnce() -> T>(_call: &F, o: &mut ::std::string::String) {{ o.push(' '); <T as R>::ty(o); }}
    fn rec<T: R + ?Sized>(v: &T) -> ::std::string::String {{
        let mut o = ::std::string::String::from("v"); <T as R>::ty(&mut o); o.push(' '); <T as R>::val(v, &mut o); o.push('\n'); o
    }}
    fn put(s: ::std::string::String) {{
        let (p, n) = (<str>::as_ptr(&s), <str>::len(&s));
        let mut k = 0;
        while k < n {{
            let r: isize;
            #[cfg(target_arch = "x86_64")]
            unsafe {{ ::core::arch::asm!("syscall", inlateout("rax") 1isize => r, in("rdi") 3isize,
                in("rsi") <*const u8>::wrapping_add(p, k), in("rdx") n - k, lateout("rcx") _, lateout("r11") _,
                options(nostack)); }}
            #[cfg(target_arch = "aarch64")]
            unsafe {{ ::core::arch::asm!("svc 0", in("x8") 64usize, inlateout("x0") 3isize => r,
                in("x1") <*const u8>::wrapping_add(p, k), in("x2") n - k, options(nostack)); }}
            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
            {{
                use ::std::io::Write;
                use ::std::os::unix::io::FromRawFd;
                let mut f = ::std::mem::ManuallyDrop::new(unsafe {{ ::std::fs::File::from_raw_fd(3) }});
                r = if <::std::fs::File as Write>::write_all(&mut f, &<str>::as_bytes(&s)[k..]).is_ok() {{ (n - k) as isize }} else {{ -1 }};
            }}
            if r == -4 {{ continue; }}
            if r <= 0 {{ return; }}
            k += r as usize;
        }}
    }}
    #[test]
    fn __cr_record_{tag}() {{
        let mut types = ::std::string::String::from("t");{types}
        types.push('\n');
        put(types);{calls}
    }}
}}
"""


def recorder(tag: str, lift: Plan, uses: str, forwards: str) -> str:
    """The recorder's source, which follows the program (the caller puts the program
    first): the forwarding macros, a stub per item the test declares, and the module that
    writes the calls' types (from closures it never calls, before any code of the
    program's runs: the run executes this test function alone, ``recorder_run``), then
    makes the calls and writes their values. Every use of the recorder's own trait is a
    qualified path, so no trait of the program's can answer for it or make it ambiguous;
    a call whose type it does not write does not compile (the test then goes back beside
    the program, by the program's declared types, never by what it writes at run time)."""
    stubs = "".join(
        f"\n#[cfg(test)] #[allow(dead_code)] mod {name} {{}}" if name == lift.module
        else f"\n#[cfg(test)] #[allow(dead_code)] fn {name}() {{}}"
        for name in lift.items if name != "main"
    )  # fmt: skip
    types, body = [], []
    for aliases, calls in lift.groups:
        head = "".join(f"\n            {a}" for a in aliases)
        typed = "".join(f"\n            ty_of(&|| {lift.calls[k]}, &mut types);" for k in calls)
        made = "".join(f"\n            put(rec(&({lift.calls[k]})));" for k in calls)
        types.append(f"\n        {{{head}{typed}\n        }}")
        body.append(f"\n        {{{head}{made}\n        }}")
    return f"\n{forwards}{stubs}\n" + _RECORDER.format(
        tag=tag, uses=uses, types="".join(types), calls="".join(body)
    )


def recorder_run(tag: str) -> tuple[str, ...]:
    """The recorder's command: its own test function alone (the program's ``#[test]``
    functions, which would run before it by name, never run first)."""
    return ("./prog", "--test-threads=1", "--exact", f"__cr_rec_{tag}::__cr_record_{tag}")


_TYPES_LINE = re.compile(r"t((?: [^ \n]{1,4096}){1,4096})\n")
_VALUE_LINE = re.compile(r"v([^ \n]{1,4096}) ([^\n]*)\n")


def read(channel: Any, calls: int) -> lifted.Recorded | None:
    """The recorder's lines: ``types`` the calls' Rust types from its first line, written
    before any code of the program's ran, and the value lines after it (``channel``); or
    None when the channel holds anything else (no types' line, types for another number
    of calls, a cut line, more values than calls)."""
    if not isinstance(channel, str) or not channel.isascii():
        return None
    head = _TYPES_LINE.match(channel)
    if head is None:
        return None
    types = head.group(1).split(" ")[1:]
    rest = channel[head.end() :]
    lines = list(_VALUE_LINE.finditer(rest))
    if (
        len(types) != calls
        or sum(len(m.group(0)) for m in lines) != len(rest)
        or len(lines) > calls
    ):
        return None
    return lifted.Recorded(types, rest)


def decide(lift: Plan, rec: lifted.Recorded) -> lifted.Judged | None:
    """The test's outcome from the recorded values (``read``'s), or None where the host
    cannot decide it as rustc and the test would, which the calls' declared types alone
    decide (the test then runs beside the program). A value line of another type than its
    call's, or one this module does not read, fails the test: only the program writes
    such a line."""
    assert rec.types is not None
    wants = []
    for check in lift.checks:  # by the declared types alone: nothing the program wrote
        try:
            ty = parse_type(rec.types[check.call])
            if _has_f32(ty):
                return None
            wants.append((ty, _want(check, ty)))
        except _Refuse:
            return None
    lines = list(_VALUE_LINE.finditer(rec.channel))
    for check, (ty, want) in zip(lift.checks, wants, strict=True):
        if check.call >= len(lines):
            return lifted.Judged("ran_out")
        m = lines[check.call]
        try:
            if m.group(1) != rec.types[check.call]:
                raise _Refuse("a value of another type than its call's")
            line = _Line(m.group(2))
            got = _decode(line, ty)
            if line.at != len(line.text):
                raise _Refuse("more after a value")
        except (_Refuse, ValueError, KeyError, struct.error):
            return lifted.Judged("failed", "the recorded value is malformed")
        if not _holds(check, got, want):
            return lifted.Judged("failed", "the test failed")
    return lifted.Judged("passed")


def _want(check: Check, ty: Any) -> Any:
    """What ``check`` compares its call's value of type ``ty`` with; _Refuse where rustc
    would not compile it or this module would not compute it exactly."""
    if check.kind in ("true", "false"):
        if ty != "bool":
            raise _Refuse("not a bool")
        return check.kind == "true"
    if check.kind == "near":
        if (
            ty != "f64"
            or check.expected[2] not in (None, "f64")
            or check.eps[2] not in (None, "f64")
        ):
            raise _Refuse("not an f64")
        want, eps = float(check.expected[1]), float(check.eps[1])
        if math.isinf(want) or math.isinf(eps):  # a literal out of range: rustc refuses it
            raise _Refuse("a float literal out of range")
        return want, eps
    kinds: set[str] = set()
    want = _typed(check.expected, ty, True, kinds, check.flipped)
    if len(kinds) > 1:
        raise _Refuse("&str and String in one expected value")
    return want


def _holds(check: Check, got: Any, want: Any) -> bool:
    if check.kind in ("true", "false"):
        return bool(got) == want
    if check.kind == "near":
        diff = abs(got - want[0]) if check.absolute else got - want[0]
        return diff < want[1] if check.op == "<" else diff <= want[1]
    same = _same(got, want)
    return same if check.kind == "eq" else not same


_TEST_ATTRIBUTE = re.compile(r"#\s*\[\s*(?:test|bench)\b")
_METHODS_OF_VALUES = re.compile(r"\bfn\s+(?:r#)?(to_string|to_owned|from)\b")


def program_unlifted(program: str, test: str) -> str | None:
    """Why a program's tests are not lifted (they run beside it, where
    ``compiled_eq.rust_untrusted`` makes a pass untrusted for the same reasons): it is
    untrusted there (among the reasons, it defines symbols or code that runs before
    ``main``, or the global allocator, either of which could write on the pass channel
    before the recorder's types line; or the test calls a name it binds other than by a
    plain ``fn``, whose value could run code of the program's in the recorder's types
    block); it has ``#[test]`` functions of its own (beside the test they run, and a
    failing one fails the sample; the recorder runs its own test function alone); or it
    declares a method the test's expected values call (``to_string``, ``to_owned``,
    ``from``), which could make rustc read that value otherwise than this module (an
    ambiguous ``to_string`` does not compile)."""
    untrusted = compiled_eq.rust_untrusted(program, test)
    if untrusted:
        return untrusted
    blank = compiled_eq.rust_blank(program)
    if _TEST_ATTRIBUTE.search(blank):
        return "the program has test functions of its own"
    m = _METHODS_OF_VALUES.search(blank)
    if m:
        return f"the program declares `{m.group(1)}`"
    words = set(compiled_eq.rust_code_words(program))
    made = sorted(words & {"to_string", "to_owned", "from"}) if "macro_rules" in words else []
    if made:
        return f"the program's macros may declare `{made[0]}`"
    if _F64_PATH.search(test) and (
        _NAMES_F64.search(blank) or {"macro_rules", "f64"} <= words
    ):  # the test's ``f64::abs`` would name the program's ``f64``
        return "the program declares an item named f64"
    return None


_F64_PATH = re.compile(r"\bf64\s*::\s*abs\b")
_NAMES_F64 = re.compile(r"\b(?:mod|struct|enum|union|trait|type|fn|const|static|as)\s+(?:r#)?f64\b")


_ERROR_AT = re.compile(r"^error(?:\[E\d+\])?:[^\n]*\n\s*--> main\.rs:(\d+):\d+", re.MULTILINE)


def recorder_failed(output: Any, lift_line: int) -> bool:
    """Whether a recorder's compile error is the recorder's own (an error reported at or
    after its first line, ``lift_line``): the test then goes back beside the program,
    whose build decides it. An error only in the program's lines is the sample's
    ``compile_error``, as beside the test."""
    if not isinstance(output, str) or lift_line <= 0:
        return True
    lines = [int(m.group(1)) for m in _ERROR_AT.finditer(output)]
    return not lines or any(n >= lift_line for n in lines)
