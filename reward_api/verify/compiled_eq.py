"""The test's comparisons, out of the program's reach, for assert tests in C++ and Java.

An assert test in a compiled language shares the program's compilation unit and process
(CONTRACT.md, "Other languages"), so a comparison the test writes as ``a == b`` or
``a.equals(b)`` would call whatever the program declared for those types: a global
``bool operator==(const std::vector<int>&, const std::vector<int>&)`` that says yes, a
returned ``struct`` whose ``operator==`` accepts anything, a returned ``ArrayList``
subclass whose ``equals`` returns true. This module rewrites the test's comparisons into
calls of trusted code generated per build (its names carry the build's nonce, so the
program cannot name, reopen or specialise them) and spliced in after the program:

- C++: every ``a == b`` and ``a != b`` of the test (outside preprocessor lines and
  ``operator==`` declarations) becomes ``NS::eq(a, b)`` (``!NS::eq(a, b)``). ``eq``
  compares arithmetic values with the built-in operator; ``std::string`` and
  ``std::string_view`` by their characters; ``vector``, ``deque``, ``list``, ``array``,
  ``set``, ``map``, ``pair``, ``tuple``, ``optional`` and the unordered containers
  element by element with itself, never with an ``operator==`` of those types (so an
  overload the program declares for them, globally or injected into ``std``, is never
  called); a value of the program's own type against a value of a standard type is
  first converted to that type (``static_cast``, the program's conversion operator) and
  compared as that type, else unequal. Where nothing of that applies (both sides the
  program's types, or a standard type not listed such as ``std::complex``) the
  comparison is ``a == b`` looked up from inside ``NS``, where a declaration hides the
  global namespace's ``operator==``: only the operands' own namespaces (argument-dependent
  lookup) provide it, so the program's type keeps its own operator and a standard type
  keeps the standard's.
- C++ returned types: each call in the test of a name the program's text holds
  (``check_cpp_program_calls``) is checked at compile time to return a type of the
  language or the standard library, containers of such types with their default
  comparators and allocators included, never a type of the program's (whose ``-``, ``<``
  or conversions the test would call: only ``==`` and ``!=`` are lifted), unless the
  test names that type itself (``P{1, 2}``).
- C++ helpers: every function the test defines at namespace scope (MBCPP's template
  ``compare``, HumanEval-X's ``issame``) is renamed with the build's tag in the test,
  so a better-matching overload of the program (a non-template ``compare(bool, bool)``,
  an ``issame`` taking an ``initializer_list``) is never chosen over it; ``main`` and
  the problem's entry points keep their names.
- Java: every ``x.equals(y)`` and ``Objects.equals(x, y)`` of the test becomes
  ``NS.eq(x, y)``. ``eq`` compares JDK values (classes of the boot or platform loader in
  a named ``java.*`` or ``jdk.*`` module of the boot layer, which a program cannot add
  to; never a proxy class, which ``Proxy.newProxyInstance(null, ...)`` puts in the boot
  loader with the program's handler, nor a hidden class) as ``equals`` would, with lists,
  sets, maps, ``Optional`` and map entries taken apart element by element: a set or map
  is read once by iteration and matched by ``eq``'s own code, never asked
  ``contains(expected)`` (a JDK wrapper of the program's collection, or a ``TreeSet``
  with its comparator, would pass the question to the program). An object of a class the
  program declared that overrides any method of a JDK supertype (or declares one of that
  name) compares unequal to a JDK value (it could lie about its elements or its
  equality), while one that only adds methods of new names (an anonymous subclass made
  for double-brace initialisation, an ``IntList`` that adds ``addSorted`` to
  ``ArrayList``) compares as its JDK superclass. Two objects of the program's own classes compare by their own ``equals``.
- Java answers (``wrap_java_answers``): each call in the test of the program's
  (``java_program_calls``) hands the test what ``got`` makes of its answer when the call
  returns: a JDK collection of a public class, ordered by no code of the program's, whose
  elements need no copy, is the answer itself (identity as plainly); a collection, map or
  entry of the program's classes that override the JDK's, a JDK wrapper or immutable
  collection, and a sorted one with the program's comparator (replaced by the ranks it
  gave at return) are copied element by element into the JDK's own classes; an element of
  the program's that declares ``equals``, ``hashCode`` or ``compareTo``, of a type the
  test never names, fails the test. So what the test goes on to call on the answer
  (``containsAll``, ``contains``, ``get``, ``size``) is JDK code, never a method of the
  program's (an ``ArrayList`` subclass whose ``containsAll`` said yes passed a test that
  never called ``equals``; an element whose ``equals`` was asked ``equals(expected)`` by
  the test's ``want.containsAll(got)`` wrote the expected values into the answer), and a
  lazy view of the program's is read when the call returns, before the test loads its
  expected values. Residual (sandbox_images/README.md, rounds 12 and 13): a method
  reference of the program's, and a sorted answer the test extends with keys it does not
  hold.
- Java literals (``java_fresh_literals``): the test's string literals are made at run
  time from scrambled constants, so none is ever in the JVM's string table, which is
  global and answers ``intern()``: a program probing it learned which candidate words
  the test had loaded. A literal whose value the test also passes to the program stays
  as written (so plain Java's identity between the argument and the expected string
  holds), as do operands of ``==`` and constants javac requires.
- Java names (``qualify_java_types``): a type the program declares beats every import on
  demand, ``java.lang``'s included, so a program's ``class Arrays`` would make the test's
  ``Arrays.asList(...)`` expected values the program's. Each simple name in the test of a
  JDK type its imports make visible (``jdk_types.txt``) that the program also declares
  (however spelled: ``\\u0041rrays``, a comment after ``class``, a character javac
  ignores) becomes the type's canonical name, unless the test takes it from the program
  (the problem's ``entry_points``). A program that declares a type named ``java`` (which
  would hide the ``java`` package from the test and from the trusted code) is refused
  (``compile_error``). The trusted code names every type by its canonical name.

The rewrite keeps the test's meaning for every honest comparison (``eq`` agrees with the
operators of the standard library on their types), which the agreement tests on MBXP's
real model samples check. What it does not cover, documented in
``reward_api.verify.languages``: comparisons other than equality (``<`` on containers)
and comparisons inside the program's own helpers the test calls. A standard type not
listed above keeps the standard's ``operator==``: a C++ assert build refuses a program that
declares into ``std`` (``languages._C_TEXT_AWK``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

# ------------------------------------------------------------------ tokens
_CPP_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
  | (?P<str>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*")
  | (?P<chr>(?:u8|[uUL])?'(?:\\.|[^'\\\n])*')
  | (?P<num>\.?\d(?:[eEpP][+-]|'[0-9a-zA-Z]|[\w.])*)
  | (?P<id>[A-Za-z_$]\w*)
  | (?P<punct>->\*|<<=|>>=|<=>|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|.)
    """,
    re.S | re.X,
)
_PP_LINE = re.compile(r"^[ \t]*#(?:[^\n\\]|\\.)*", re.M | re.S)

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}
# tokens that end an operand of == (they bind more loosely), either side
_STOP = {";", ",", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&&",
         "||", "?", ":", "&", "|", "^", "<=>"}  # fmt: skip
_STOP_WORDS = {"return", "throw", "case", "else", "do", "goto", "co_return", "co_yield",
               "co_await", "if", "while", "for", "switch", "operator", "template",
               "typename", "class", "struct", "using", "namespace", "public", "private",
               "protected", "and", "or", "not_eq", "bitand", "bitor", "xor", "static_assert"}  # fmt: skip
_CONTROL = {"if", "while", "for", "switch", "catch"}
_PREFIX_WORDS = {"sizeof", "alignof", "new", "delete", "typeid", "not", "compl"}


class _Tok:
    __slots__ = ("end", "kind", "match", "start", "text")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind, self.text, self.start, self.end = kind, text, start, end
        self.match = -1


def _tokens(code: str) -> list[_Tok]:
    """The C++ tokens of ``code`` outside preprocessor lines and comments, with each
    bracket paired to its partner (``match``); none when the brackets do not balance."""
    masked = _PP_LINE.sub(lambda m: " " * len(m.group(0)), code)
    toks: list[_Tok] = []
    for m in _CPP_TOKEN.finditer(masked):
        kind = m.lastgroup or "punct"
        if kind in ("ws", "comment"):
            continue
        if kind in ("raw", "str", "chr", "num"):
            kind = "lit"
        if m.group(0) == ">>":  # two closers of nested template arguments, or a shift:
            toks += [_Tok(kind, ">", m.start(), m.start() + 1),  # both bind tighter than ==
                     _Tok(kind, ">", m.start() + 1, m.end())]  # fmt: skip
            continue
        toks.append(_Tok(kind, m.group(0), m.start(), m.end()))
    # unbalanced: no rewrite can be trusted to keep the meaning
    return toks if _pair(toks) else []


def blank_cpp_comments(code: str) -> str:
    """``code`` with each comment's characters but its newlines as spaces, by the lexer's
    reading (a ``"/*"`` in a string literal opens no comment)."""
    return "".join(
        re.sub(r"[^\n]", " ", m.group(0)) if m.lastgroup == "comment" else m.group(0)
        for m in _CPP_TOKEN.finditer(code)
    )


def _pair(toks: list[_Tok]) -> bool:
    """Pair each bracket of ``toks`` with its partner (``match``); False when they do not
    balance."""
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.text in _OPEN:
            stack.append(i)
        elif t.text in _CLOSE:
            if not stack or toks[stack[-1]].text != _CLOSE[t.text]:
                return False
            j = stack.pop()
            toks[i].match, toks[j].match = j, i
    return not stack


def _atom_end(t: _Tok) -> bool:
    """Can ``t`` end a primary expression (so that another one cannot follow it)?"""
    return t.kind in ("id", "lit") and t.text not in _STOP_WORDS | _PREFIX_WORDS


_TYPEISH = {"::", ",", "*", "&", "&&", "const", "volatile", "unsigned", "signed", "long", "short",
            "int", "char", "bool", "double", "float", "void", "auto", "typename", "std"}  # fmt: skip


def _angles(toks: list[_Tok], i: int, step: int) -> int | None:
    """If the ``<`` (step 1) or ``>`` (step -1) at ``i`` bounds a template argument list
    of types and constants (``map<int, string>``), the index of its partner."""
    depth, j = 0, i
    while 0 <= j < len(toks):
        t = toks[j].text
        if t == ("<" if step == 1 else ">"):
            depth += 1
        elif t == (">" if step == 1 else "<"):
            depth -= 1
            if depth == 0:
                break
        elif not (toks[j].kind in ("id", "lit") or t in _TYPEISH):
            return None
        j += step
    else:
        return None
    if step == 1 and toks[i - 1].kind != "id":
        return None
    if step == -1 and (j == 0 or toks[j - 1].kind != "id"):
        return None
    return j


def _left(toks: list[_Tok], k: int) -> int | None:
    """Index of the first token of the left operand of the equality at ``k``."""
    i = k - 1
    first: int | None = None
    while i >= 0:
        t = toks[i]
        if t.text in _STOP or t.text in _STOP_WORDS or t.text in ("==", "!="):
            if t.text in ("==", "!="):
                return None  # a chain a == b == c: left as written
            break
        if t.text in _OPEN:  # an unmatched opener: the operand starts after it
            break
        if t.text in _CLOSE:
            if t.match < 0:
                return None
            j = t.match
            if first is not None:
                nxt = toks[first]
                # `} x` ends a block; `(c) x` after if/while is a condition, not a cast
                if t.text == "}" and nxt.text in _OPEN:
                    return None  # a lambda called, or a block then a parenthesis: unclear
                if t.text == "}" and _atom_end(nxt):
                    break
                if t.text == ")" and j > 0 and toks[j - 1].text in _CONTROL:
                    break
            first, i = j, j - 1
            continue
        partner = _angles(toks, i, -1) if t.text == ">" else None
        if partner is not None:
            first, i = partner, partner - 1  # a template argument list: its commas are its own
            continue
        if first is not None and _atom_end(t) and _atom_end(toks[first]):
            break
        first, i = i, i - 1
    return first


def _right(toks: list[_Tok], k: int) -> int | None:
    """Index of the last token of the right operand of the equality at ``k``."""
    i = k + 1
    last: int | None = None
    while i < len(toks):
        t = toks[i]
        if t.text in _STOP or t.text in _STOP_WORDS - _PREFIX_WORDS:
            break
        if t.text in ("==", "!="):
            return None
        if t.text in _CLOSE:
            break
        if t.text in _OPEN:
            if t.match < 0:
                return None
            if (
                t.text == "{"
                and last is not None
                and not (toks[last].kind == "id" or toks[last].text == ">")
            ):
                break
            last, i = t.match, t.match + 1
            continue
        if t.text == "<" and i > 0 and (j := _angles(toks, i, 1)) is not None:
            last, i = j, j + 1  # a template argument list: its commas are its own
            continue
        if last is not None and _atom_end(toks[last]) and _atom_end(t):
            break
        last, i = i, i + 1
    return last


def rewrite_cpp_equalities(code: str, ns: str) -> str:
    """``code`` with each ``a == b`` as ``ns::eq(a, b)`` and ``a != b`` as ``!ns::eq(a, b)``
    where both operands are clear from the tokens; others stay as written."""
    toks = _tokens(code)
    edits: list[tuple[int, int, str]] = []  # (position, order, text), applied back to front
    for k, t in enumerate(toks):
        if t.text not in ("==", "!=") or (k > 0 and toks[k - 1].text == "operator"):
            continue
        lo, hi = _left(toks, k), _right(toks, k)
        if lo is None or hi is None:
            continue
        prefix = f"{'!' if t.text == '!=' else ''}{ns}::eq("
        edits += [(toks[lo].start, 0, prefix), (t.start, 1, ","), (toks[hi].end, 2, ")")]
    out = code
    for pos, order, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        cut = pos + 2 if order == 1 else pos  # the operator (two characters) becomes a comma
        out = out[:pos] + text + out[cut:]
    return out


_NOT_A_FUNCTION = {"if", "while", "for", "switch", "catch", "return", "sizeof", "alignof",
                   "decltype", "noexcept", "static_assert", "operator", "main"}  # fmt: skip
_WORDS = _STOP_WORDS | _PREFIX_WORDS
_AFTER_PARAMS = {"const", "volatile", "noexcept", "override", "final", "&", "&&"}


def rename_cpp_test_functions(code: str, suffix: str, keep: frozenset[str] = frozenset()) -> str:
    """``code`` (a C++ test) with every function it defines at namespace scope (a name,
    its parameters, then its body: MBCPP's ``template <typename T> bool compare(T a, T
    b)``, HumanEval-X's ``bool issame(...)``) renamed to the name plus ``suffix`` in its
    definition and at every use in the test (not after ``.``, ``->`` or ``X::``, where
    the name is a member: ``s.compare(t)``). The program cannot name the renamed helper,
    so no overload of its own (a non-template ``compare(bool, bool)``, an ``issame``
    taking an ``initializer_list``) can be chosen over it. ``main`` and the names in
    ``keep`` (the problem's entry points) keep their names."""
    toks = _tokens(code)
    names = _namespace_functions(toks) - keep
    if not names:
        return code
    members = _member_declarations(toks)
    out = code
    for k in range(len(toks) - 1, -1, -1):
        t = toks[k]
        if t.kind != "id" or t.text not in names or k in members:
            continue
        before = toks[k - 1].text if k > 0 else ""
        if before in (".", "->") or (
            before == "::"
            and k > 1
            and (
                toks[k - 2].text == ">"
                or (toks[k - 2].kind == "id" and toks[k - 2].text not in _WORDS)
            )
        ):
            continue
        out = out[: t.end] + suffix + out[t.end :]
    return out


_CPP_STD_FUNCTIONS = frozenset({
    "abs", "fabs", "labs", "llabs", "fabsf", "fabsl", "round", "lround", "llround", "floor",
    "ceil", "trunc", "sqrt", "cbrt", "pow", "exp", "log", "log2", "log10", "fmod", "hypot",
    "min", "max", "fmin", "fmax", "isnan", "isinf", "isfinite", "signbit", "equal",
    "accumulate", "count", "find", "sort", "reverse", "to_string", "stoi", "stol", "stoll",
    "stod", "swap",
})  # fmt: skip
"""Standard functions a test calls unqualified (``abs(f(x) - 0.5) < 1e-4``, ``max(a, b)``)
that a program could overload for a type of its own."""


_CPP_GLOBAL_ONLY = frozenset({"fabsf", "fabsl"})
"""C functions GCC 12's ``<cmath>`` declares in the global namespace only: qualified ``::``
(a declaration there hides what a program's using-directive brings in)."""


def qualify_cpp_std_calls(test: str, program: str, keep: frozenset[str] = frozenset()) -> str:
    """``test`` (C++) with each unqualified call of a standard function whose name the
    program also spells (an ``abs(R)`` for the ``R`` its entry point returns, beside an
    ``operator-(R, double)``: then ``abs(f(x) - 0.5) < 1e-4`` held for any answer) made
    a call of ``::std::`` itself, so no overload or variable of the program's can be
    chosen. Calls of names the program never spells, and the problem's entry points
    (``keep``: a task whose function is called ``count``), keep their text."""
    # any word of the program's text, not only a function it defines at global scope: in
    # a namespace it brings in (``namespace ev { auto pow(double x, int i) -> double {
    # return 0; } } using namespace ev;``), out of line, behind attributes, through a
    # macro of its own, or as a variable (a lambda or a function pointer named ``pow``)
    # was the test's ``pow``; with token pasting, any name at all
    defined = set(_CPP_WORD.findall(program))
    if "##" in program or "%:%:" in program:
        defined = set(_CPP_STD_FUNCTIONS)
    own = (defined & _CPP_STD_FUNCTIONS) - keep
    if not own:
        return test
    toks = _tokens(test)
    own -= _namespace_functions(toks)  # the test's own helpers are its own
    out = test
    for k in range(len(toks) - 2, -1, -1):
        t = toks[k]
        if t.kind != "id" or t.text not in own or toks[k + 1].text != "(":
            continue
        if k > 0 and toks[k - 1].text in (".", "->", "::", "~"):
            continue
        out = out[: t.start] + ("::" if t.text in _CPP_GLOBAL_ONLY else "::std::") + out[t.start :]
    return out


_CALL_AFTER_WORDS = {"return", "throw", "else", "case", "do", "co_return", "co_yield",
                     "co_await", "and", "or", "not", "xor", "bitand", "bitor", "compl", "not_eq"}  # fmt: skip
_NOT_CALLED = _WORDS | _NOT_A_FUNCTION | _TYPEISH | {
    "delete", "new", "typeid", "alignas", "static_cast", "dynamic_cast", "const_cast",
    "reinterpret_cast", "this", "true", "false", "nullptr", "assert"}  # fmt: skip
_CPP_WORD = re.compile(r"[A-Za-z_]\w*")
_TEST_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_CPP_TYPE_DECL = re.compile(
    r"\b(?:struct|class|union|enum)\s+(?:class\s+|struct\s+)?([A-Za-z_]\w*)"
)
_CPP_TYPE_DECL_NOT_PARAM = re.compile(
    r"\b(?:struct|class|union|enum)\s+(?:class\s+|struct\s+)?([A-Za-z_]\w*)\b(?!\s*(?:[,>=]|\.\.\.))"
)
"""A type the program declares, not a template parameter (``template <class T>``: a
program's ``T`` named by the test's own ``template <typename T> bool compare(T a, T b)``
was marked allowed as ``allowed<T>`` outside any template, a compile error that failed
honest MBXP programs with a helper template)."""


_STD_NAMES = {
    # the standard library's names a test spells unqualified, with the arguments that make
    # each a type to compare (a class template's instance, or the class itself)
    "string": "", "string_view": "", "wstring": "", "runtime_error": "", "logic_error": "",
    "invalid_argument": "", "out_of_range": "", "exception": "", "vector": "<int>",
    "deque": "<int>", "list": "<int>", "set": "<int>", "multiset": "<int>",
    "unordered_set": "<int>", "map": "<int, int>", "multimap": "<int, int>",
    "unordered_map": "<int, int>", "pair": "<int, int>", "tuple": "<int>",
    "optional": "<int>", "array": "<int, 1>", "queue": "<int>", "stack": "<int>",
    "priority_queue": "<int>", "function": "<void()>", "complex": "<double>",
}  # fmt: skip


def check_cpp_std_names(test: str) -> str:
    """Compile-time checks, for the unit between the program and the test, that each name
    of the standard library the test spells unqualified (``string``, ``vector``,
    ``runtime_error``: ``_STD_NAMES``) is the standard library's. A program that declared
    its own ``struct string`` (``using std::vector;`` in place of ``using namespace std``)
    with an ``operator==`` that always holds made MBXP's ``string x0 = f(..);
    compare(x0, "..")`` compare the program's type by the program's operator, and was paid
    1.0. A name the test qualifies (``std::string``, ``x.size``) is not checked; one not
    declared at all fails to compile as the test would."""
    toks = _tokens(test)
    seen: list[str] = []
    for i, t in enumerate(toks):
        if t.kind != "id" or t.text not in _STD_NAMES or t.text in seen:
            continue
        if i and toks[i - 1].text in ("::", ".", "->"):
            continue
        template = _STD_NAMES[t.text].startswith("<")
        if template and (i + 1 == len(toks) or toks[i + 1].text != "<"):
            continue  # a variable of the test's named ``list``, not the template
        seen.append(t.text)
    return "".join(
        f"static_assert(::std::is_same<{n}{_STD_NAMES[n]}, ::std::{n}{_STD_NAMES[n]}>::value, "
        f"\"codereward: the test's {n} is not the standard library's\");\n"
        for n in seen
    )


def check_cpp_program_calls(test: str, program: str, ns: str) -> str:
    """``test`` (C++) with each call ``f(args)`` of a name the program's text holds (a
    function, a type, a variable: any word of it, its directives too; not one the test
    defines) as ``(ns::returns<decltype(f(args))>(), f(args))``: the same call, once,
    after a compile-time check that the type it returns is the language's or the standard
    library's (``trusted`` in ``cpp_eq``), never a type of the program's, whose operators
    the test would call. A returned ``struct Fraction`` with ``double operator-(Fraction,
    double)`` answering 0 made HumanEval-X's ``abs(truncate_number(3.5) - 0.5) < 1e-4``
    hold for any answer; ``==`` is lifted (``rewrite_cpp_equalities``), ``-``, ``<`` and
    conversions are not. A type of the program's that the test names itself other than by
    calling it (``P{1, 2}``) may be returned: the test means that type, operators and all.
    A name the test binds to a name of the program (MultiPL-E's ``auto candidate =
    has_close_elements;``) is the program's too, and when the program pastes tokens
    (``##``) every call but those below is checked.
    Not a call: a declaration (``string s("abc")``, ``vector<int> v(3)``), a member, a
    qualified name (``::std::abs``), a call whose arguments hold a lambda (not allowed in
    ``decltype`` in C++17), a name the test defines (a function, a type, a macro)."""
    words = set(_CPP_WORD.findall(program))
    toks = _tokens(test)
    own = (
        _namespace_functions(toks)
        | set(_CPP_TYPE_DECL.findall(test))
        | set(_TEST_MACRO.findall(test))
    )
    for k in range(1, len(toks) - 2):  # `auto candidate = has_close_elements;` (MultiPL-E)
        if toks[k].text == "=" and toks[k + 1].text in words and toks[k + 2].text == ";":
            words.add(toks[k - 1].text)
    pasting = "##" in program or "%:%:" in program  # a name no word of its text spells
    named = set()  # the test's own uses of a name as a type: `P{1, 2}`, `P p`, `vector<P>`
    for k, t in enumerate(toks[:-1]):
        after, left = toks[k + 1], toks[k - 1].text if k else ""
        if t.kind == "id" and (
            after.text in ("{", "&", "*", "::")
            or (after.kind == "id" and after.text not in _STOP_WORDS)
            or (after.text == ">" and left in ("<", ","))
        ):
            named.add(t.text)
    allowed = sorted(set(_CPP_TYPE_DECL_NOT_PARAM.findall(program)) & named & words)
    edits: list[tuple[int, int]] = []
    for k, t in enumerate(toks[:-1]):
        nxt = toks[k + 1]
        if t.kind != "id" or nxt.text != "(" or nxt.match < 0:
            continue
        if (t.text not in words and not pasting) or t.text in own or t.text in _NOT_CALLED:
            continue
        if k > 0:
            before = toks[k - 1]
            if before.text in (".", "->", "::", "~", ">") and not (
                before.text == ">" and _angles(toks, k - 1, -1) is None
            ):
                continue  # a member, a qualified name, or after template arguments
            if before.kind == "id" and before.text not in _CALL_AFTER_WORDS:
                continue  # a declaration: `string s("abc")`
        inner = range(k + 2, nxt.match)
        if any(toks[j].text == "[" and toks[j - 1].text in ("(", ",", "=", "{") for j in inner):
            continue  # a lambda's capture, not a subscript
        edits.append((t.start, toks[nxt.match].end))
    edits.sort(key=lambda e: (e[0], -e[1]))

    def text(lo: int, hi: int, at: int) -> tuple[str, int]:
        """The test's text from ``lo`` to ``hi`` with the checked calls in it, nested ones
        too (an argument of ``abs`` is the test's own arithmetic); ``at``: the first edit
        not yet placed, returned past the ones this span held."""
        out, pos = [], lo
        while at < len(edits) and edits[at][0] < hi:
            start, end = edits[at]
            inner, at = text(start, end, at + 1)
            out += [test[pos:start], f"({ns}::returns<decltype({inner})>(), {inner})"]
            pos = end
        return "".join(out) + test[pos:hi], at

    out = text(0, len(test), 0)[0]
    if not edits:
        return out
    marks = "".join(
        f"template <> struct {ns}::allowed<{name}> {{ static constexpr bool value = true; }};\n"
        for name in allowed
    )
    return marks + out


def _namespace_functions(toks: list[_Tok]) -> set[str]:
    """The functions a C++ text defines at namespace scope: a name, its parameters, then
    its body (after qualifiers and a trailing return type)."""
    names: set[str] = set()
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text == "{" and t.match > i:  # a body, class or namespace: not namespace scope
            i = t.match + 1
            continue
        if (
            t.kind == "id"
            and i + 1 < len(toks)
            and toks[i + 1].text == "("
            and t.text not in _NOT_A_FUNCTION
            and (i == 0 or toks[i - 1].text not in (".", "->", "::", "~"))
        ):
            k = toks[i + 1].match + 1
            while k < len(toks) and toks[k].text in _AFTER_PARAMS:
                k += 1
            if k < len(toks) and toks[k].text == "->":  # a trailing return type
                while k < len(toks) and toks[k].text not in ("{", ";"):
                    k += 1
            if k < len(toks) and toks[k].text == "{":
                names.add(t.text)
        i += 1
    return names


def _member_declarations(toks: list[_Tok]) -> set[int]:
    """The tokens that name a member function in a class body of the test (``struct S {
    bool compare(int) const; };``): a member of that name stays the member, called as
    ``s.compare(1)``."""
    out: set[int] = set()
    for i, t in enumerate(toks):
        if t.text not in ("struct", "class", "union") or (i and toks[i - 1].text in "<,"):
            continue  # not template <class T, class U>
        k = i + 1
        while k < len(toks) and toks[k].text not in ("{", ";", "(", ")", "="):
            k += 1
        if k >= len(toks) or toks[k].text != "{" or toks[k].match < k:
            continue
        j = k + 1
        while j < toks[k].match:  # the body's own level: a member's body holds calls
            if toks[j].text == "{" and toks[j].match > j:
                j = toks[j].match + 1
                continue
            nxt = toks[j + 1]
            if toks[j].kind == "id" and nxt.text == "(" and nxt.match > j:
                after = toks[nxt.match + 1].text if nxt.match + 1 < len(toks) else ""
                if after in ("{", ";", "=", ":", "const", "noexcept", "override", "final"):
                    out.add(j)
            j += 1
    return out


def cpp_eq(ns: str, test: str) -> str:
    """The trusted ``ns::eq`` (C++17), spliced in after the program and before ``test``.
    It knows a standard container only where the program's own includes declared it (the
    guard its libstdc++ header defines: a value of no other can reach the test from the
    program) or ``test`` includes anything but ``<assert.h>``/``<cassert>`` (then every
    one, as it knew before): parsing the twelve containers' headers was about 0.4 s of an
    assert build beside the test whose program included none of them (HumanEval-X's
    loops, measured in the root with ``-fsyntax-only``). The same holds for ``<string>``,
    ``<string_view>``, ``<stdexcept>`` and ``<iterator>`` (``<iterator>`` alone parses
    ``<string>`` and the stream buffers: 0.13 s of CPU, where the three it always includes,
    ``<utility>``, ``<type_traits>`` and ``<cstddef>``, take 0.02): a HumanEval-X program of
    ``<stdio.h>`` and ``<stdlib.h>`` built beside its loop test in 0.21 s of CPU with them,
    0.08 without (plain ``g++`` 0.05). A test that names ``std::string`` with no include of
    its own needs the program to have declared it, as it does compiled plainly."""
    every = "include" in _ASSERT_INCLUDE.sub("", test)
    return (("\n#define NS_EVERY 1" if every else "") + _CPP_EQ).replace("NS", ns)


_ASSERT_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<(?:assert\.h|cassert)>[ \t]*$", re.M)


_CPP_EQ = r"""
#include <utility>
#include <type_traits>
#include <cstddef>
#if defined(NS_EVERY) || defined(_BASIC_STRING_H)
#include <string>
#define NS_STRING 1
#endif
#if defined(NS_EVERY) || defined(NS_STRING) || defined(_GLIBCXX_STRING_VIEW)
#include <string_view>
#define NS_STRING_VIEW 1
#endif
#if defined(NS_EVERY) || defined(_GLIBCXX_STDEXCEPT)
#include <stdexcept>
#define NS_STDEXCEPT 1
#endif
#ifdef NS_EVERY
#include <iterator>
#endif
#if defined(NS_EVERY) || defined(_STL_VECTOR_H)
#include <vector>
#define NS_VECTOR 1
#endif
#if defined(NS_EVERY) || defined(_STL_DEQUE_H)
#include <deque>
#define NS_DEQUE 1
#endif
#if defined(NS_EVERY) || defined(_STL_LIST_H)
#include <list>
#define NS_LIST 1
#endif
#if defined(NS_EVERY) || defined(_GLIBCXX_ARRAY)
#include <array>
#define NS_ARRAY 1
#endif
#if defined(NS_EVERY) || defined(_STL_SET_H) || defined(_STL_MULTISET_H)
#include <set>
#define NS_SET 1
#endif
#if defined(NS_EVERY) || defined(_STL_MAP_H) || defined(_STL_MULTIMAP_H)
#include <map>
#define NS_MAP 1
#endif
#if defined(NS_EVERY) || defined(_UNORDERED_SET_H)
#include <unordered_set>
#define NS_USET 1
#endif
#if defined(NS_EVERY) || defined(_UNORDERED_MAP_H)
#include <unordered_map>
#define NS_UMAP 1
#endif
#if defined(NS_EVERY) || defined(_GLIBCXX_TUPLE)
#include <tuple>
#define NS_TUPLE 1
#endif
#if defined(NS_EVERY) || defined(_GLIBCXX_OPTIONAL)
#include <optional>
#define NS_OPTIONAL 1
#endif
#if defined(NS_EVERY) || defined(_GLIBCXX_COMPLEX)
#include <complex>
#define NS_COMPLEX 1
#endif
#if defined(NS_EVERY) || defined(_GLIBCXX_BITSET)
#include <bitset>
#define NS_BITSET 1
#endif
namespace NS {
struct hide {};
bool operator==(hide, hide);  // hides the global namespace's operator== from lookups in NS
template <class T> struct bare { using type = T; };
template <class T> struct bare<const T> { using type = typename bare<T>::type; };
template <class T> struct bare<volatile T> { using type = typename bare<T>::type; };
template <class T> struct bare<T &> { using type = typename bare<T>::type; };
template <class T> using bare_t = typename bare<T>::type;
template <class T> struct arith { static constexpr bool value = false; };
#define NS_ARITH(T) template <> struct arith<T> { static constexpr bool value = true; };
NS_ARITH(bool) NS_ARITH(char) NS_ARITH(signed char) NS_ARITH(unsigned char) NS_ARITH(wchar_t)
NS_ARITH(char16_t) NS_ARITH(char32_t) NS_ARITH(short) NS_ARITH(unsigned short) NS_ARITH(int)
NS_ARITH(unsigned) NS_ARITH(long) NS_ARITH(unsigned long) NS_ARITH(long long)
NS_ARITH(unsigned long long) NS_ARITH(float) NS_ARITH(double) NS_ARITH(long double)
NS_ARITH(__int128) NS_ARITH(unsigned __int128)
#undef NS_ARITH
template <class T> struct ptr { static constexpr bool value = false; };
template <class T> struct ptr<T *> { static constexpr bool value = true; };
template <class T, std::size_t N> struct ptr<T[N]> { static constexpr bool value = true; };
template <class T> struct ptr<T[]> { static constexpr bool value = true; };
template <> struct ptr<decltype(nullptr)> { static constexpr bool value = true; };
template <class T> struct str { static constexpr bool value = false; };
#ifdef NS_STRING
template <class A> struct str<std::basic_string<char, std::char_traits<char>, A>> { static constexpr bool value = true; };
#endif
template <class T> struct wide { static constexpr bool value = false; };  // wstring, u16string, u32string
#ifdef NS_STRING
template <class C> struct wide<std::basic_string<C, std::char_traits<C>, std::allocator<C>>> { static constexpr bool value = arith<C>::value; };
#endif
#ifdef NS_STRING_VIEW
template <> struct str<std::basic_string_view<char, std::char_traits<char>>> { static constexpr bool value = true; };
#endif
template <class T> struct cstr { static constexpr bool value = false; };
template <> struct cstr<char *> { static constexpr bool value = true; };
template <> struct cstr<const char *> { static constexpr bool value = true; };
template <std::size_t N> struct cstr<char[N]> { static constexpr bool value = true; };
template <std::size_t N> struct cstr<const char[N]> { static constexpr bool value = true; };
// sequences compared in order (their operator== is std::equal of the elements)
template <class T> struct seq { static constexpr bool value = false; };
#ifdef NS_VECTOR
template <class T, class A> struct seq<std::vector<T, A>> { static constexpr bool value = true; };
#endif
#ifdef NS_DEQUE
template <class T, class A> struct seq<std::deque<T, A>> { static constexpr bool value = true; };
#endif
#ifdef NS_LIST
template <class T, class A> struct seq<std::list<T, A>> { static constexpr bool value = true; };
#endif
#ifdef NS_ARRAY
template <class T, std::size_t N> struct seq<std::array<T, N>> { static constexpr bool value = true; };
#endif
#ifdef NS_SET
template <class T, class C, class A> struct seq<std::set<T, C, A>> { static constexpr bool value = true; };
template <class T, class C, class A> struct seq<std::multiset<T, C, A>> { static constexpr bool value = true; };
#endif
#ifdef NS_MAP
template <class K, class V, class C, class A> struct seq<std::map<K, V, C, A>> { static constexpr bool value = true; };
template <class K, class V, class C, class A> struct seq<std::multimap<K, V, C, A>> { static constexpr bool value = true; };
#endif
template <class T> struct uset { static constexpr bool value = false; };
#ifdef NS_USET
template <class T, class H, class E, class A> struct uset<std::unordered_set<T, H, E, A>> { static constexpr bool value = true; };
#endif
template <class T> struct umap { static constexpr bool value = false; };
#ifdef NS_UMAP
template <class K, class V, class H, class E, class A> struct umap<std::unordered_map<K, V, H, E, A>> { static constexpr bool value = true; };
#endif
template <class T> struct pair { static constexpr bool value = false; };
template <class A, class B> struct pair<std::pair<A, B>> { static constexpr bool value = true; };
template <class T> struct tup { static constexpr bool value = false; };
#ifdef NS_TUPLE
template <class... T> struct tup<std::tuple<T...>> { static constexpr bool value = true; };
#endif
template <class T> struct opt { static constexpr bool value = false; };
#ifdef NS_OPTIONAL
template <class T> struct opt<std::optional<T>> { static constexpr bool value = true; };
#endif
template <class T> constexpr bool known_v = arith<T>::value || ptr<T>::value || str<T>::value ||
    seq<T>::value || uset<T>::value || umap<T>::value || pair<T>::value || tup<T>::value || opt<T>::value;
// what a call of the program's may return into the test: types whose operators are the
// language's or the standard library's, all the way down (never a type of the program's,
// nor a container with a comparator, hash or allocator of the program's)
template <class T> struct trusted {
  static constexpr bool value = arith<T>::value || str<T>::value || wide<T>::value ||
      std::is_void<T>::value || std::is_same<T, decltype(nullptr)>::value;
};
template <class T> constexpr bool trusted_v = trusted<bare_t<T>>::value;
template <class T> struct trusted<T *> { static constexpr bool value = trusted_v<T>; };
#ifdef NS_VECTOR
template <class T> struct trusted<std::vector<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_DEQUE
template <class T> struct trusted<std::deque<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_LIST
template <class T> struct trusted<std::list<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_ARRAY
template <class T, std::size_t N> struct trusted<std::array<T, N>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_SET
template <class T> struct trusted<std::set<T>> { static constexpr bool value = trusted_v<T>; };
template <class T> struct trusted<std::set<T, std::greater<T>>> { static constexpr bool value = trusted_v<T>; };
template <class T> struct trusted<std::multiset<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_MAP
template <class K, class V> struct trusted<std::map<K, V>> { static constexpr bool value = trusted_v<K> && trusted_v<V>; };
template <class K, class V> struct trusted<std::map<K, V, std::greater<K>>> { static constexpr bool value = trusted_v<K> && trusted_v<V>; };
template <class K, class V> struct trusted<std::multimap<K, V>> { static constexpr bool value = trusted_v<K> && trusted_v<V>; };
#endif
#ifdef NS_USET
template <class T> struct trusted<std::unordered_set<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_UMAP
template <class K, class V> struct trusted<std::unordered_map<K, V>> { static constexpr bool value = trusted_v<K> && trusted_v<V>; };
#endif
template <class A, class B> struct trusted<std::pair<A, B>> { static constexpr bool value = trusted_v<A> && trusted_v<B>; };
#ifdef NS_TUPLE
template <class... T> struct trusted<std::tuple<T...>> { static constexpr bool value = (true && ... && trusted_v<T>); };
#endif
#ifdef NS_OPTIONAL
template <class T> struct trusted<std::optional<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_COMPLEX
template <class T> struct trusted<std::complex<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_BITSET
template <std::size_t N> struct trusted<std::bitset<N>> { static constexpr bool value = true; };
#endif
#ifdef _STL_ITERATOR_H
template <class P, class C> struct trusted<__gnu_cxx::__normal_iterator<P, C>> { static constexpr bool value = trusted_v<P>; };
template <class I> struct trusted<std::reverse_iterator<I>> { static constexpr bool value = trusted_v<I>; };
#endif
#if defined(NS_SET) || defined(NS_MAP)
template <class T> struct trusted<std::_Rb_tree_iterator<T>> { static constexpr bool value = trusted_v<T>; };
template <class T> struct trusted<std::_Rb_tree_const_iterator<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#ifdef NS_LIST
template <class T> struct trusted<std::_List_iterator<T>> { static constexpr bool value = trusted_v<T>; };
template <class T> struct trusted<std::_List_const_iterator<T>> { static constexpr bool value = trusted_v<T>; };
#endif
#if defined(NS_USET) || defined(NS_UMAP)
template <class T, bool C> struct trusted<std::__detail::_Node_iterator<T, C, false>> { static constexpr bool value = trusted_v<T>; };
template <class T, bool C> struct trusted<std::__detail::_Node_iterator<T, C, true>> { static constexpr bool value = trusted_v<T>; };
template <class T, bool C> struct trusted<std::__detail::_Node_const_iterator<T, C, false>> { static constexpr bool value = trusted_v<T>; };
template <class T, bool C> struct trusted<std::__detail::_Node_const_iterator<T, C, true>> { static constexpr bool value = trusted_v<T>; };
#endif
#define NS_TRUSTED(T) template <> struct trusted<T> { static constexpr bool value = true; };
#ifdef __EXCEPTION_H
NS_TRUSTED(std::exception)
#endif
#ifdef NS_STDEXCEPT
NS_TRUSTED(std::runtime_error) NS_TRUSTED(std::logic_error)
NS_TRUSTED(std::invalid_argument) NS_TRUSTED(std::out_of_range) NS_TRUSTED(std::domain_error)
NS_TRUSTED(std::length_error) NS_TRUSTED(std::overflow_error) NS_TRUSTED(std::underflow_error)
NS_TRUSTED(std::range_error)
#endif
#ifdef NS_VECTOR
NS_TRUSTED(std::_Bit_reference) NS_TRUSTED(std::_Bit_iterator) NS_TRUSTED(std::_Bit_const_iterator)
#endif
#undef NS_TRUSTED
template <class T> struct allowed { static constexpr bool value = false; };  // the test's own names
template <class T> constexpr void returns() noexcept {
  static_assert(trusted_v<T> || allowed<bare_t<T>>::value,
                "codereward: a function of the program returns a type of its own to the test");
}
template <class A, class B, class = void> struct comparable { static constexpr bool value = false; };
template <class A, class B>
struct comparable<A, B, decltype(void(static_cast<bool>(std::declval<const A &>() == std::declval<const B &>())))> {
  static constexpr bool value = true;
};
template <class T, class F, class = void> struct casts { static constexpr bool value = false; };
template <class T, class F>
struct casts<T, F, decltype(void(static_cast<T>(std::declval<const F &>())))> { static constexpr bool value = true; };
inline constexpr bool chars(const char *a, std::size_t n, const char *b, std::size_t m) {
  if (n != m) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
#ifdef NS_STRING_VIEW
template <class A, class B> constexpr bool str_eq(const A &a, const B &b) {
  std::string_view x(a), y(b);
  return NS::chars(x.data(), x.size(), y.data(), y.size());
}
#else
template <class A, class B> constexpr bool str_eq(const A &, const B &) { return false; }  // no string type is declared
#endif
template <class A, class B> constexpr bool eq(const A &a, const B &b);
template <class A, class B, std::size_t... I>
constexpr bool tuple_eq(const A &a, const B &b, std::index_sequence<I...>) {
  return (true && ... && NS::eq(std::get<I>(a), std::get<I>(b)));
}
template <class A, class B> constexpr bool eq(const A &a, const B &b) {
  using X = bare_t<A>;
  using Y = bare_t<B>;
  if constexpr (arith<X>::value && arith<Y>::value) {
    return a == b;
  } else if constexpr ((str<X>::value && (str<Y>::value || cstr<Y>::value)) ||
                       (cstr<X>::value && str<Y>::value)) {
    return NS::str_eq(a, b);
  } else if constexpr (ptr<X>::value && (ptr<Y>::value || arith<Y>::value)) {
    return a == b;  // pointers as written (built-in)
  } else if constexpr (arith<X>::value && ptr<Y>::value) {
    return a == b;
  } else if constexpr (seq<X>::value && seq<Y>::value && comparable<X, Y>::value) {
    auto i = a.begin();
    auto j = b.begin();
    for (; i != a.end() && j != b.end(); ++i, ++j) {
      if (!NS::eq(*i, *j)) return false;
    }
    return i == a.end() && j == b.end();
  } else if constexpr (uset<X>::value && uset<Y>::value && comparable<X, Y>::value) {
    if (a.size() != b.size()) return false;
    for (const auto &u : a)
      if (b.find(u) == b.end()) return false;
    return true;
  } else if constexpr (umap<X>::value && umap<Y>::value && comparable<X, Y>::value) {
    if (a.size() != b.size()) return false;
    for (const auto &u : a) {
      auto j = b.find(u.first);
      if (j == b.end() || !NS::eq(u.second, j->second)) return false;
    }
    return true;
  } else if constexpr (pair<X>::value && pair<Y>::value && comparable<X, Y>::value) {
    return NS::eq(a.first, b.first) && NS::eq(a.second, b.second);
  } else if constexpr (tup<X>::value && tup<Y>::value && comparable<X, Y>::value) {
    return NS::tuple_eq(a, b, std::make_index_sequence<std::tuple_size<X>::value>{});
  } else if constexpr (opt<X>::value && opt<Y>::value && comparable<X, Y>::value) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || NS::eq(*a, *b);
  } else if constexpr (known_v<Y> && !known_v<X>) {  // the program's value against a standard one
    if constexpr (casts<Y, X>::value) {
      return NS::eq(static_cast<Y>(a), b);
    } else if constexpr (trusted_v<X> && comparable<X, Y>::value) {
      return a == b;  // a standard type's own operator: complex<double> == 3.0, bitset<8> == 3
    } else {
      return false;
    }
  } else if constexpr (known_v<X> && !known_v<Y>) {
    if constexpr (casts<X, Y>::value) {
      return NS::eq(a, static_cast<X>(b));
    } else if constexpr (trusted_v<Y> && comparable<X, Y>::value) {
      return a == b;
    } else {
      return false;
    }
  } else {
    return a == b;  // the operands' own namespaces decide; the global one is hidden here
  }
}
}  // namespace NS
"""


# ------------------------------------------------------------------ Java
_JAVA_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\r\n]*|/\*.*?\*/)
  | (?P<text>\"\"\"(?:\\.|[^\\])*?\"\"\")
  | (?P<str>"(?:\\.|[^"\\\r\n])*")
  | (?P<chr>'(?:\\.|[^'\\\r\n])*')
  | (?P<num>\.?\d[\w.]*)
  | (?P<id>(?:[^\W\d]|\$)[\w$]*)
  | (?P<punct>::|->|\+\+|--|&&|\|\||[-+*/%&|^!=<>]=|<<|.)
    """,
    re.S | re.X,
)


def rewrite_java_equals(code: str, cls: str) -> str:
    """``code`` with each ``x.equals(y)`` as ``cls.eq(x, y)`` and each
    ``Objects.equals(x, y)`` (``java.util.Objects.equals``) as ``cls.eq(x, y)``, where
    the receiver is clear from the tokens."""
    toks = _java_tokens(code)
    if not _pair(toks):
        return code
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    for k, t in enumerate(toks):
        if t.text != "equals" or k == 0 or toks[k - 1].text != ".":
            continue
        if k + 1 >= len(toks) or toks[k + 1].text != "(" or toks[k + 1].match < 0:
            continue
        close = toks[k + 1].match
        recv = k - 2
        if recv >= 0 and toks[recv].text == "Objects":
            qualified = recv >= 1 and toks[recv - 1].text == "."
            if not qualified or [x.text for x in toks[max(recv - 4, 0) : recv]] == [
                "java",
                ".",
                "util",
                ".",
            ]:
                start = recv - 4 if qualified else recv
                edits.append((toks[start].start, toks[k + 1].end, f"{cls}.eq("))
                continue
        lo = _java_receiver(toks, recv)
        if lo is None:
            continue
        if close == k + 2 or _top_level_comma(toks, k + 1, close):
            continue  # equals takes one argument: this is some other method
        edits.append((toks[lo].start, toks[lo].start, f"{cls}.eq("))
        edits.append((toks[recv].end, toks[k + 1].end, ", "))
    out = code
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    return out


_JAVA_KEYSTREAM_MASK = (1 << 64) - 1
_JAVA_FRESH_MOST = 1000


def _java_keystream(key: int, n: int) -> list[int]:
    """The ``n`` 16-bit words the trusted ``s`` XORs into a literal's characters:
    xorshift64 from ``key``, as the Java code computes it (``<<`` wraps, ``>>>``)."""
    out = []
    for _ in range(n):
        key ^= (key << 13) & _JAVA_KEYSTREAM_MASK
        key ^= key >> 7
        key ^= (key << 17) & _JAVA_KEYSTREAM_MASK
        out.append(key & 0xFFFF)
    return out


_JAVA_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " ",
                 '"': '"', "'": "'", "\\": "\\"}  # fmt: skip


def _java_string_value(literal: str) -> str | None:
    """The value of a Java string literal token (``"..."``, quotes included): Unicode
    escapes first (an odd run of backslashes starts one, JLS 3.3), then escape sequences
    (JLS 3.10.7); None where the text is not one javac would read the same way."""
    body = _java_unicode_escapes(literal[1:-1])
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c in "\r\n":
            return None
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in _JAVA_ESCAPES:
            out.append(_JAVA_ESCAPES[nxt])
            i += 2
            continue
        m = re.match(r"[0-3][0-7]{0,2}|[4-7][0-7]?", body[i + 1 :])
        if m is None:
            return None
        out.append(chr(int(m.group(0), 8)))
        i += 1 + len(m.group(0))
    return "".join(out)


def _java_text_block_value(literal: str) -> str | None:
    """The value of a Java text block token (JLS 3.10.6): past the opening line, each line
    less the indentation common to its non-blank lines and the closing delimiter's, trailing
    white space stripped, lines joined by ``\\n``, then escapes (``\\<newline>`` joins two
    lines); None where the text is not one this reader knows."""
    body = _java_unicode_escapes(literal[3:-3])
    first, nl, rest = body.partition("\n")
    if not nl or first.strip(" \t\f\r"):
        return None
    lines = rest.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last_closing = not lines[-1].strip(" \t\f")  # the closing """ on a line of its own
    counted = [ln for ln in lines if ln.strip(" \t\f")] + ([lines[-1]] if last_closing else [])
    indent = min((len(ln) - len(ln.lstrip(" \t\f")) for ln in counted), default=0)
    out = [ln[indent:].rstrip(" \t\f") if ln.strip(" \t\f") else "" for ln in lines]
    text = "\n".join(out)
    text = re.sub(r"(?<!\\)((?:\\\\)*)\\\n", r"\1", text)  # an escaped line end joins lines
    return _java_string_value('"' + text.replace("\n", "\\n") + '"')


def _java_literal_of(units: list[int]) -> str:
    """A Java string literal of these UTF-16 code units, each one escaped (octal below
    0x100, where a Unicode escape of a quote, a backslash or a line break would be read
    before the literal is)."""
    return '"' + "".join(f"\\{u:o}" if u < 0x100 else f"\\u{u:04x}" for u in units) + '"'


def java_fresh_literals(
    code: str, cls: str, draw: Callable[[], int], program: JavaProgram | None = None
) -> str:
    """``code`` with each string literal written as ``cls.s("<scrambled>", <key>L)``,
    which makes the same string at run time, so that no string of the test is ever in
    the JVM's string table: a literal is interned when its ``ldc`` first runs, and a
    program probing ``new String(w).intern() != w`` for candidate words learned which
    expected strings the test had reached (an answer whose lazy view ran that probe while
    the test iterated it, after the assertion's literal was loaded). Each literal has its
    own key (``draw``), XOR'd into its UTF-16 units by a keystream the program never
    sees, so what is interned is noise.

    Kept as written: each literal inside the arguments of a call of the program's
    (``java_program_calls``), which hands the program that string anyway and keeps the
    identity plain Java gives it (an MBJP sample deduplicated ``Arrays.asList("a", "a",
    "b")`` with ``!=``, which holds because both ``"a"`` are the one interned string); the
    same value elsewhere in the test (an expected ``"khoor"`` that a later
    ``decode("khoor")`` takes) is still made fresh. Also kept: a literal operand of ``==``
    or ``!=`` (identity the test may mean), one in an annotation or a ``case`` label, the
    initializer of a constant a ``case`` label names (constants are required there), any
    literal or text block whose escapes this reader does not know, the initializer of a
    name an ``==`` or ``!=`` compares (``static final String YES = "YES"; .. != YES``: a
    constant, interned, in plain Java), and every literal past
    the first ``_JAVA_FRESH_MOST`` (each costs a call in the method's code, which the JVM
    caps at 64 KB). A string the test stores in a variable and then passes is made fresh:
    the program sees a string equal to, but not identical with, its own literal of that
    value."""
    toks = _java_tokens(code, literals=True)
    if not _pair(toks):
        return code
    keep: set[int] = set()
    for k in java_program_calls(toks, program or JavaProgram()):
        keep.update(range(k + 2, toks[k + 1].match))
    labels: set[str] = set()
    for i, t in enumerate(toks):
        if t.text == "@" and i + 1 < len(toks) and toks[i + 1].kind == "id":
            j = i + 2
            while j + 1 < len(toks) and toks[j].text == "." and toks[j + 1].kind == "id":
                j += 2
            if j < len(toks) and toks[j].text == "(" and toks[j].match > j:
                keep.update(range(j, toks[j].match))
        elif t.text == "case":
            depth, j = 0, i + 1
            while j < len(toks):
                if toks[j].text in _OPEN:
                    depth += 1
                elif toks[j].text in _CLOSE:
                    depth -= 1
                elif depth == 0 and toks[j].text in (":", "->", ";"):
                    break
                keep.add(j)
                if toks[j].kind == "id":
                    labels.add(toks[j].text)
                j += 1
    for i, t in enumerate(toks):  # ``if (s.check(4) != YES)``: YES's initializer too
        if t.text in ("==", "!=") and 0 < i < len(toks) - 1:
            labels.update(x.text for x in (toks[i - 1], toks[i + 1]) if x.kind == "id")
    for i, t in enumerate(toks[:-1]):  # `static final String A = "a";` that a case label names
        if t.text in labels and toks[i + 1].text == "=":
            j = i + 2
            while j < len(toks) and toks[j].text not in (";", ","):
                keep.add(j)
                j += 1
    edits: list[tuple[int, int, str]] = []
    for i, t in enumerate(toks):
        if t.kind not in ("str", "text") or i in keep or len(edits) >= _JAVA_FRESH_MOST:
            continue
        near = {toks[i - 1].text if i else "", toks[i + 1].text if i + 1 < len(toks) else ""}
        if near & {"==", "!="}:
            continue
        value = _java_string_value(t.text) if t.kind == "str" else _java_text_block_value(t.text)
        if value is None:
            continue
        units = list(value.encode("utf-16-le", "surrogatepass"))
        units = [units[k] | units[k + 1] << 8 for k in range(0, len(units), 2)]
        key = draw() or 1
        scrambled = [u ^ w for u, w in zip(units, _java_keystream(key, len(units)), strict=True)]
        edits.append((t.start, t.end, f"{cls}.s({_java_literal_of(scrambled)}, {key:#x}L)"))
    out = code
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    return out


_JAVA_ACCESS = {"public", "protected", "private"}
_JAVA_MODIFIERS = _JAVA_ACCESS | {"static", "final", "transient", "volatile", "abstract",
                                  "synchronized", "native", "strictfp", "default", "sealed",
                                  "non-sealed"}  # fmt: skip


def java_open_private_types(program: str) -> str:
    """``program`` with the ``private`` of each type it nests (``private static class
    Hidden``) blanked: a test's ``var r = s.make(3)`` compiles against a method returning
    one, where ``got(s.make(3))`` named it (javac: "Hidden has private access"), and the
    wrap is not left off for it (a program would have chosen which of its answers the test
    takes as they are). A nested type's access decides what compiles, not what runs; the
    program compiles as before (nothing it declares gains a caller it did not have), every
    line where it was."""
    toks = _java_tokens(program)
    out = program
    for i, t in enumerate(toks):
        if t.text != "private":
            continue
        j = i + 1
        while j < len(toks) and toks[j].text in _JAVA_MODIFIERS:
            j += 1
        if j + 1 < len(toks) and toks[j].text in _DECLARES and toks[j + 1].kind == "id":
            out = out[: t.start] + " " * len(t.text) + out[t.end :]
    return out


def _java_body(toks: list[_Tok], start: int, end: int) -> int | None:
    """The ``{`` that opens the body of a type declared before ``start`` (its name, type
    parameters, ``extends`` and ``implements`` hold none), or None where a ``;`` or
    ``end`` comes first."""
    for k in range(start, end):
        if toks[k].text == "{":
            return k
        if toks[k].text == ";":
            return None
    return None


def java_private_members(code: str) -> str:
    """``code`` (the test) with every static field that a class of its declares made
    ``private``. The program shares the test's package and class loader, so
    ``Class.forName("Main").getDeclaredFields()`` and ``Field.get`` read a package-private
    ``static int[][] CASES`` (a red team's program looked its input up in the test's table
    of expected answers). A private field needs ``setAccessible``
    (``suppressAccessChecks``, which the guard refuses) or a private lookup (the same
    permission); the test's own classes keep their access to each other's (nestmates, JLS
    6.6.1). A program that names the test's types is ``java_reads_the_test``'s.

    Left as written: a field another top-level class of the test reads through a test
    type's name (``Cases.T``, ``Util::f``), or names where it may inherit it (it extends,
    implements or anonymously subclasses a type of the test's) or reach it through an
    object (it names the declaring type); the fields of an interface or annotation (public
    by definition), an enum's constants, instance fields (what the program can reach of an
    object is what the test hands it), methods (a static one builds no table a program
    can read without naming the test's type, and a test's ``Util::isSorted`` or
    ``Util.<Integer>first`` from another class must compile), and anything in a body this
    reader does not pair. The types a method declares locally are read as nested ones."""
    toks = _java_tokens(code, literals=True)
    if not _pair(toks):
        return code
    tops: list[tuple[int, int]] = []  # each top-level type's tokens, [start, end)
    depth, i = 0, 0
    while i < len(toks):
        t = toks[i]
        if t.text in _OPEN:
            depth += 1
        elif t.text in _CLOSE:
            depth -= 1
        elif depth == 0 and t.text in _DECLARES and i + 1 < len(toks) and toks[i + 1].kind == "id":
            body = _java_body(toks, i + 2, len(toks))
            if body is None:
                break
            tops.append((i, toks[body].match + 1))
            i = toks[body].match + 1
            continue
        i += 1
    edits: list[tuple[int, int, str]] = []

    types = _java_type_names(toks)

    def named_elsewhere(name: str, top: tuple[int, int]) -> bool:
        """Whether another top-level class reads ``name`` as a test type's member
        (``Cases.T``, ``Util::f``, ``Util.<Integer>f``), or names it where it may inherit it
        (it extends or implements a type of the test's, or subclasses one anonymously) or
        reach it through an object (it names the type that declares it)."""
        owner = toks[top[0] + 1].text
        for a, b in tops:
            if (a, b) == top:
                continue
            heirs = any(
                (toks[j].text in ("extends", "implements") and toks[j + 1].text in types)
                or (toks[j].text == "new" and toks[j + 1].text in types
                    and toks[j + 2].text == "(" and toks[toks[j + 2].match + 1].text == "{")
                for j in range(a, b - 2)
            )  # fmt: skip
            sees = heirs or any(toks[j].text == owner for j in range(a, b))
            for j in range(a, b):
                if toks[j].kind != "id" or toks[j].text != name:
                    continue
                before = toks[j - 1].text if j else ""
                if before == ">":  # ``Util.<Integer>first``: back over the type witness
                    w = _java_witness(toks, j - 1)
                    before = "." if w != j - 1 else before
                    j = w + 1 if w != j - 1 else j
                if sees or (before in (".", "::") and j >= 2 and toks[j - 2].text in types):
                    return True
        return False

    def members(open_at: int, kind: str, top: tuple[int, int]) -> None:
        j, end = open_at + 1, toks[open_at].match
        if kind == "enum":  # the constants, up to the first ';' of the body
            while j < end and toks[j].text != ";":
                j = toks[j].match + 1 if toks[j].text in _OPEN else j + 1
            j += 1
        while j < end:
            while j < end and toks[j].text == "@" and j + 1 < end and toks[j + 1].kind == "id":
                j += 2
                while j + 1 < end and toks[j].text == "." and toks[j + 1].kind == "id":
                    j += 2
                if j < end and toks[j].text == "(":
                    j = toks[j].match + 1
            mods = j
            while j < end and toks[j].text in _JAVA_MODIFIERS:
                j += 1
            if j >= end:
                break
            t = toks[j]
            if t.text == ";":
                j += 1
                continue
            if t.text == "{":  # an initializer block
                j = t.match + 1
                continue
            if t.text in _DECLARES or (
                t.text == "@" and j + 1 < end and toks[j + 1].text == "interface"
            ):
                brace = _java_body(toks, j + 1, end)
                if brace is None:
                    return
                members(brace, t.text if t.text != "@" else "interface", top)
                j = toks[brace].match + 1
                continue
            # a field or a method: up to its ';' or its body
            n, names, method = j, [], False
            name = ""
            while n < end:
                x = toks[n].text
                if x == "(":
                    method = True
                    name = toks[n - 1].text if n > j else ""
                    names = [name] if name else []
                    close = toks[n].match
                    m = close + 1
                    while m < end and toks[m].text not in ("{", ";"):
                        m += 1
                    if m >= end:
                        return
                    if toks[m].text == "{":
                        local(m)
                    n = toks[m].match + 1 if toks[m].text == "{" else m + 1
                    break
                if x in ("=", ",", ";") and toks[n - 1].kind == "id":
                    names.append(toks[n - 1].text)
                if x == "[" and toks[n - 1].kind == "id":  # ``int a[] = ..``, not ``int[] a``
                    m = n
                    while m < end and toks[m].text == "[":
                        m = toks[m].match + 1
                    if m < end and toks[m].text in ("=", ",", ";"):
                        names.append(toks[n - 1].text)
                if x == "=":  # the initializer: to the next ',' or ';' at this depth
                    n += 1
                    while n < end and toks[n].text not in (",", ";"):
                        n = toks[n].match + 1 if toks[n].text in _OPEN else n + 1
                    if n < end and toks[n].text == ";":
                        n += 1
                        break
                    n += 1
                    continue
                if x == ";":
                    n += 1
                    break
                n = toks[n].match + 1 if x in _OPEN else n + 1
            modifiers = {toks[m].text for m in range(mods, j)}
            if method:  # a static method of the test's builds no table the program can read
                names = []
            if (
                kind in ("class", "enum", "record")
                and names
                and "static" in modifiers
                and "private" not in modifiers
                and not any(named_elsewhere(x, top) for x in names)
            ):
                access = next((m for m in range(mods, j) if toks[m].text in _JAVA_ACCESS), None)
                if access is not None:
                    edits.append((toks[access].start, toks[access].end, "private"))
                else:
                    edits.append((toks[mods].start, toks[mods].start, "private "))
            j = n

    def local(open_at: int) -> None:
        """The types a method's body declares (a local ``class D { static int[] T; }``,
        reached as ``Main$1D`` by reflection): their members as a nested type's."""
        n, end = open_at + 1, toks[open_at].match
        while n < end:
            if (toks[n].text in _DECLARES and n + 1 < end and toks[n + 1].kind == "id"
                    and toks[n - 1].text != "."):  # fmt: skip
                brace = _java_body(toks, n + 2, end)
                if brace is None:
                    return
                members(brace, toks[n].text, current[0])
                n = toks[brace].match + 1
                continue
            n += 1

    current: list[tuple[int, int]] = [(0, 0)]
    for top in tops:
        current[0] = top
        a, b = top
        brace = next(n for n in range(a, b) if toks[n].text == "{")
        members(brace, toks[a].text, top)
    out = code
    for start, end_, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end_:]
    return out


def _java_methods(toks: list[_Tok]) -> tuple[set[str], set[str]]:
    """The names of the methods paired tokens declare with a body (an identifier after a
    type, a name, ``>`` or ``]``, and before ``(``, whose ``)`` a ``{`` or ``throws``
    follows): those declared ``void``, and those declared with a type."""
    void: set[str] = set()
    valued: set[str] = set()
    for i in range(1, len(toks) - 1):
        t, before = toks[i], toks[i - 1]
        if t.kind != "id" or t.text in _JAVA_KEYWORDS or toks[i + 1].text != "(":
            continue
        typed = (before.kind == "id" and before.text not in _JAVA_KEYWORDS) or before.text in (
            ">",
            "]",
            "void",
            "int",
            "long",
            "double",
            "float",
            "boolean",
            "char",
            "byte",
            "short",
        )
        close = toks[i + 1].match
        after = toks[close + 1].text if 0 <= close < len(toks) - 1 else ""
        if typed and after in ("{", "throws"):
            (void if before.text == "void" else valued).add(t.text)
    return void, valued


def wrap_java_answers(code: str, program: JavaProgram, cls: str) -> str:
    """``code`` with each call of the program's (``java_program_calls``) written as
    ``cls.got(call)``: the answer as a trusted copy made when the call returns (JDK
    collections, maps, entries and optionals rebuilt element by element by the trusted
    code, in the JDK's own classes), so the test's own calls on it (``containsAll``,
    ``contains``, ``get``, ``size``) run JDK code on what the program returned, never a
    method of the program's: an ``ArrayList`` subclass whose ``containsAll`` said yes and
    whose iterator was empty passed ``got.containsAll(want) && want.containsAll(got)``.
    A call of a method the program declares only ``void`` is left as it is; one it declares
    both ways is left as it is where it is a whole statement or a lambda's body (where
    ``got(..)`` of the void one would not compile); every other call is wrapped wherever it
    stands: in a lambda's body, after a cast, as a statement (an expression lambda
    ``() -> s.f(12)`` or a cast ``(Collection<Integer>) s.f(12)`` handed the program's
    collection to the test)."""
    toks = _java_tokens(code)
    if not _pair(toks):
        return code
    opens: list[tuple[int, int]] = []  # (offset, -span): the longest call opens first
    closes: list[int] = []
    by_name: set[int] = set()
    calls = java_program_calls(toks, program, by_name)
    for k in calls:
        close = toks[k + 1].match
        before = toks[k - 1].text if k else ""
        dot = _java_dot(toks, k)
        if dot is not None:
            lo = _java_receiver(toks, dot - 1)
        elif before == "new":
            continue  # a constructor: the program's own object
        else:
            lo = k
        name = toks[k].text
        if lo is None or (name in program.void and name not in program.valued):
            continue
        prev = toks[lo - 1].text if lo else ";"
        nxt = toks[close + 1].text if close + 1 < len(toks) else ";"
        alone = prev in _JAVA_STATEMENT_START and nxt in (";", ")", ",")
        if alone and (name in program.void or name not in program.valued or k in by_name):
            continue
        if k in by_name and prev == "->":
            continue
        opens.append((toks[lo].start, -(toks[close].end - toks[lo].start)))
        closes.append(toks[close].end)
    for k in java_program_fields(toks, program, calls):
        lo = _java_receiver(toks, k - 2)
        if lo is not None:
            opens.append((toks[lo].start, -(toks[k].end - toks[lo].start)))
            closes.append(toks[k].end)
    inserts = [(at, 1, span, f"{cls}.got(") for at, span in opens] + [
        (at, 0, 0, ")") for at in closes
    ]
    out = code
    # from the end: at one offset, closing parentheses go before the openings that follow
    for at, _, _, text in sorted(inserts, key=lambda x: (x[0], x[1], -x[2]), reverse=True):
        out = out[:at] + text + out[at:]
    return out


def _top_level_comma(toks: list[_Tok], open_at: int, close: int) -> bool:
    depth = 0
    for t in toks[open_at + 1 : close]:
        if t.text in _OPEN:
            depth += 1
        elif t.text in _CLOSE:
            depth -= 1
        elif t.text == "," and depth == 0:
            return True
    return False


def _java_witness(toks: list[_Tok], i: int) -> int:
    """``i``, or where a generic method's type witness ending at ``i`` (``List.<Integer>of``)
    starts, less one: the ``.`` before it."""
    if i < 1 or toks[i].text != ">":
        return i
    depth = 0
    for j in range(i, -1, -1):
        if toks[j].text == ">":
            depth += 1
        elif toks[j].text == "<":
            depth -= 1
            if depth == 0:
                return j - 1 if j >= 1 and toks[j - 1].text == "." else i
        elif toks[j].kind not in ("id", "punct") or toks[j].text in ("(", ")", ";", "{", "}"):
            return i
    return i


def _java_receiver(toks: list[_Tok], i: int) -> int | None:
    """First token of the postfix chain ending at ``i`` (``a.b(c)[d]``, ``new X<>(y)``,
    a literal, a parenthesised expression)."""
    if i < 0:
        return None
    first: int | None = None
    while i >= 0:
        t = toks[i]
        if t.text in (")", "]"):
            if t.match < 0:
                return None
            first = t.match
            i = t.match - 1
            if i >= 0 and toks[i].text == ">" and t.text == ")":  # new ArrayList<>(...)
                depth = 0
                while i >= 0:
                    if toks[i].text == ">":
                        depth += 1
                    elif toks[i].text == "<":
                        depth -= 1
                        if depth == 0:
                            break
                    i -= 1
                if i < 0:
                    return None
                i -= 1
            if i >= 0 and toks[i].kind == "id" and toks[i].text not in _JAVA_STOP:
                first = i
                i -= 1
                # ``new X<>(..)``, ``new java.util.ArrayList<>(..)``, ``new Outer.Inner(..)``
                j = i
                while j >= 1 and toks[j].text == "." and toks[j - 1].kind == "id":
                    j -= 2
                if j >= 0 and toks[j].text == "new":
                    return j
                i = _java_witness(toks, i)
            elif toks[first].text == "(":  # a parenthesised expression (or a cast)
                return first
        elif t.kind in ("id", "lit") and t.text not in _JAVA_STOP:
            first = i
            i -= 1
        else:
            return first
        if i >= 0 and toks[i].text == ".":
            i -= 1
            continue
        return first
    return first


_JAVA_STOP = {"return", "throw", "new", "case", "else", "instanceof", "assert", "if", "while"}


def _java_tokens(code: str, literals: bool = False) -> list[_Tok]:
    """The Java tokens of ``code`` outside comments (literals as ``lit``; with ``literals``,
    as the lexer's kinds: ``str``, ``text`` for a text block, ``chr``, ``num``)."""
    toks: list[_Tok] = []
    for m in _JAVA_TOKEN.finditer(code):
        kind = m.lastgroup or "punct"
        if kind not in ("ws", "comment"):
            lit = not literals and kind in ("text", "str", "chr", "num")
            toks.append(_Tok("lit" if lit else kind, m.group(0), m.start(), m.end()))
    return toks


def java_without_package(program: str) -> str:
    """A Java program with its package clause (``package a.b;``, after any comments)
    blanked, line breaks kept: its classes are built and run in the unnamed package, as
    its test's and harness's are. With the clause, ``java`` found no class of the simple
    name it was told to run (stdio), and the test's and the call harness's references to
    ``Solution`` named no class, so every honest program with a package line failed; a
    program's own ``a.b.Name`` references are the one thing this changes. A clause
    spelled with unicode escapes (``\\u0070ackage``, ``a.b\\u003b``) is left as written: its
    end is not where this text's ``;`` is (blanking up to it took the next line's import)."""
    toks = _java_tokens(program)
    if len(toks) < 3 or toks[0].text != "package":
        return program
    end = next((t for t in toks if t.text == ";"), None)
    if end is None or "\\" in program[toks[0].start : end.end]:
        return program  # spelled with unicode escapes: javac's text is not this one's
    clause = program[toks[0].start : end.end]
    return program[: toks[0].start] + re.sub(r"[^\n]", " ", clause) + program[end.end :]


def _java_type_names(toks: list[_Tok]) -> set[str]:
    """The names of the types these tokens declare: the identifier after ``class``,
    ``interface``, ``enum``, ``record`` (or ``@interface``)."""
    return {toks[i + 1].text for i, t in enumerate(toks[:-1])
            if t.text in _DECLARES and toks[i + 1].kind == "id"}  # fmt: skip


_UNICODE_ESCAPE = re.compile(r"(\\+)u+([0-9a-fA-F]{4})")
_DECLARES = {"class", "interface", "enum", "record"}
_DECLARED_RAW = re.compile(
    r"\b(?:class|interface|enum|record)(?:\s|/\*.*?\*/|//[^\r\n]*)+((?:[^\W\d]|\$)[\w$]*)", re.S
)


def java_source_text(code: str) -> str:
    """``code`` as javac reads it: ``\\uXXXX`` escapes decoded (a backslash starts one when
    an even number of backslashes precede it, JLS 3.3) and the characters an identifier
    ignores (``Character.isIdentifierIgnorable``: controls and format characters such as
    U+200B) removed, so ``class \\u0041rrays`` and ``class Arr\\u200bays`` both read
    ``class Arrays``."""

    return "".join(c for c in _java_unicode_escapes(code) if not _ignorable(c))


def _java_unicode_escapes(code: str) -> str:
    """``code`` with its ``\\uXXXX`` escapes decoded, as javac's first step (JLS 3.3)."""

    def decode(m: re.Match[str]) -> str:
        slashes = m.group(1)
        if len(slashes) % 2 == 0:
            return m.group(0)
        return slashes[:-1] + chr(int(m.group(2), 16))

    return _UNICODE_ESCAPE.sub(decode, code)


def _ignorable(c: str) -> bool:
    o = ord(c)
    return o <= 8 or 0x0E <= o <= 0x1B or 0x7F <= o <= 0x9F or unicodedata.category(c) == "Cf"


def java_declared_types(program: str) -> set[str]:
    """The names of the types the program declares (top-level or nested): the identifier
    after ``class``, ``interface``, ``enum``, ``record`` or ``@interface``, read from its
    tokens and, so that no tokenizer slip hides one, from its text with comments and
    literals included (a name too many only qualifies a JDK name the test already meant)."""
    text = java_source_text(program)
    return _java_type_names(_java_tokens(text)) | set(_DECLARED_RAW.findall(text))


def java_refused(program: str) -> str | None:
    """Why no test of this program can be built: a type named ``java`` obscures the
    ``java`` package for the whole compilation unit (JLS 6.4.2: a type is chosen before a
    package), so ``java.util.List`` in the test and in the trusted comparator would be the
    program's nested classes."""
    toks = _java_tokens(java_source_text(program))
    for i, t in enumerate(toks[:-1]):
        if t.text in _DECLARES and toks[i + 1].text == "java":
            return (
                "the program declares a type named `java`, which hides the java package "
                "from the test and the harness"
            )
    return None


def java_reads_the_test(program: str, test: str) -> str | None:
    """Why the program may not run beside this test: it names a type of the test's that
    holds data (``_java_holders``: a table, an enum whose constants carry values, a type
    inheriting either) or its entry class, where no top-level type of its own has that
    name. Red teams'
    programs read the test's tables of expected answers through such a name in every way
    Java has: ``Cases.T``, ``((Cases) null).T``, ``implements Data`` (an interface's
    constants), ``extends Main``, ``EnumSet.complementOf(EnumSet.of(Case.A))``, ``new
    Case[0].getClass()``, ``Optional.<Cases>empty().orElse(null).T``. The name itself is
    the line: a test's other types are the program's to use (``ListNode`` and its static
    ``of``, an ``enum Op { ADD, SUB }`` and its ``values()``, an interface of methods or of
    scalar constants such as ``EPS``), and so is a type the entry class nests that holds no
    data (``Main.Point``). Left open: a test helper whose methods compute or return the
    expected answers (``Ref.expected(n)``, ``new Ref().expected(n)``), scalar constants
    that are the answers, and a static read through a variable of a test type."""
    ttoks = _java_tokens(java_source_text(test), literals=True)
    if not _pair(ttoks):
        return None
    holders, entry = _java_holders(ttoks)
    toks = _java_tokens(java_source_text(program))
    depth, top_level = 0, set()
    for i, t in enumerate(toks[:-1]):
        if t.text in _OPEN:
            depth += 1
        elif t.text in _CLOSE:
            depth -= 1
        elif depth == 0 and t.text in _DECLARES and toks[i + 1].kind == "id":
            top_level.add(toks[i + 1].text)
    barred = (holders | entry) - top_level
    theirs = _java_type_names(ttoks)
    for i, t in enumerate(toks):
        if t.text not in barred:
            continue
        if i >= 2 and toks[i - 1].text == "." and toks[i - 2].text not in theirs:
            continue  # a member of something else's named like the type; ``Fixture.Data`` is not
        if t.text in entry and t.text not in holders and i + 3 < len(toks):
            member, after = toks[i + 2].text, toks[i + 3].text
            if toks[i + 1].text == "." and member in theirs - holders and after != ".":
                continue  # ``Main.Point p``: a type the entry class nests, holding no data
        return (
            f"the program names the test's type `{t.text}`, which holds the test's data: what "
            "the test declares is not the program's to read"
        )
    return None


def _java_holders(toks: list[_Tok]) -> tuple[set[str], set[str]]:
    """The test's types that hold data, and its entry classes (those declaring ``main``).
    ``toks``: with their literals' kinds. A type holds data where it has a field (static or
    not, an interface's constant) whose initializer is more than a scalar (an array's or an
    anonymous class's braces, more than four literals, a string longer than 16
    characters), a static initializer block, an annotation member's default, enum constants
    with two literals or more each, or a constant with a body; or where it extends or
    implements a type that holds data (its members are inherited). A short constant
    (``EPS``, ``SEP = ","``, ``ORIGIN = new Point(0, 0)``) and an enum such as ``Op('+')``
    hold none; nor does a static method (a test's ``ListNode.of``, ``size``, ``show``: one
    that computes the expected answers is left open)."""
    holders: set[str] = set()
    entry: set[str] = set()
    parents: dict[str, set[str]] = {}
    for i, t in enumerate(toks[:-2]):
        if t.text not in _DECLARES or toks[i + 1].kind != "id":
            continue
        name = toks[i + 1].text
        brace = _java_body(toks, i + 2, len(toks))
        if brace is None:
            continue
        parents[name] = {x.text for x in toks[i + 2 : brace] if x.kind == "id"}
        k, end = brace + 1, toks[brace].match
        if i and toks[i - 1].text == "@" and any(x.text == "default" for x in toks[k:end]):
            holders.add(name)
        if t.text == "enum":
            constants, carried = 0, 0
            while k < end and toks[k].text != ";":
                if toks[k].kind == "id" and toks[k - 1].text in ("{", ","):
                    constants += 1
                if toks[k].text == "{":
                    holders.add(name)
                if toks[k].text == "(":
                    carried += sum(
                        x.kind in ("num", "str", "chr", "text") for x in toks[k : toks[k].match]
                    )
                k = toks[k].match + 1 if toks[k].text in _OPEN else k + 1
            if constants and carried >= 2 * constants:
                holders.add(name)
        start = k
        while k < end:  # the members at the body's own depth
            x = toks[k].text
            if x == "(" and toks[k - 1].text == "main":
                entry.add(name)
            if x == "{" and toks[k - 1].text == "static" and k - 1 == start:
                holders.add(name)  # ``static { T = ..; }``
            if x == "=":
                stop = k + 1
                while stop < end and toks[stop].text not in (";", ","):
                    stop = toks[stop].match + 1 if toks[stop].text in _OPEN else stop + 1
                value = toks[k + 1 : stop]
                literals = [v for v in value if v.kind in ("num", "str", "chr", "text")]
                if (any(v.text == "{" for v in value) or len(literals) > 4
                        or any(v.kind in ("str", "text") and len(v.text) > 18 for v in literals)):  # fmt: skip
                    holders.add(name)
                k = stop
                continue
            if x in ("{", "(", "["):
                k = toks[k].match + 1
                if x == "{":
                    start = k
                continue
            if x == ";":
                start = k + 1
            k += 1
    grew = True
    while grew:  # a type that extends or implements a holder inherits its data
        grew = False
        for name, ups in parents.items():
            if name not in holders and ups & holders:
                holders.add(name)
                grew = True
    return holders, entry


@functools.cache
def jdk_types() -> dict[str, frozenset[str]]:
    """The JDK's public types by package or enclosing type (``jdk_types.txt``)."""
    out: dict[str, frozenset[str]] = {}
    text = (Path(__file__).parent / "jdk_types.txt").read_text()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            owner, *names = line.split()
            out[owner] = frozenset(names)
    return out


def _java_visible(code: str) -> dict[str, str]:
    """The JDK types ``code``'s imports (and java.lang's implicit one) make visible by
    simple name, each with its canonical name: a single-type import first, then
    ``java.lang``, then the imports on demand in their order."""
    types = jdk_types()
    single: dict[str, str] = {}
    demand: list[str] = ["java.lang"]
    toks = _java_tokens(code)
    for i, t in enumerate(toks):
        if t.text != "import" or t.kind != "id" or (i > 0 and toks[i - 1].text == "."):
            continue
        j = i + 1
        if j < len(toks) and toks[j].text == "static":
            j += 1
        parts: list[str] = []
        while j < len(toks) and toks[j].kind == "id":
            parts.append(toks[j].text)
            if j + 1 < len(toks) and toks[j + 1].text == ".":
                j += 2
                continue
            j += 1
            break
        if not parts:
            continue
        if j < len(toks) and toks[j].text == "*":
            demand.append(".".join(parts))
        elif len(parts) > 1 and parts[-1] in types.get(".".join(parts[:-1]), ()):
            single.setdefault(parts[-1], ".".join(parts))
    visible: dict[str, str] = {}
    for owner in demand:
        for name in types.get(owner, ()):
            visible.setdefault(name, f"{owner}.{name}")
    return visible | single


def qualify_java_types(test: str, program: str, entry: Iterable[str] = ()) -> str:
    """``test`` with each simple name of a JDK type that the program also declares (and
    that would therefore denote the program's type: a type of the compilation unit beats
    every import on demand, java.lang's included) written as the JDK type's canonical
    name, so ``Arrays.asList(...)`` stays ``java.util.Arrays.asList(...)`` whatever the
    program declares. Names the test takes from the program (``entry``, the problem's
    ``entry_points``) and types the test declares itself stay as written."""
    declared = java_declared_types(program) - set(entry)
    if not declared:
        return test
    visible = _java_visible(java_source_text(program) + "\n" + test)
    toks = _java_tokens(test)
    own = {toks[i + 1].text for i, t in enumerate(toks[:-1]) if t.text in _DECLARES}
    edits: list[tuple[int, int, str]] = []
    for i, t in enumerate(toks):
        if t.kind != "id" or t.text not in declared or t.text in own or t.text not in visible:
            continue
        before = toks[i - 1].text if i > 0 else ""
        after = toks[i + 1].text if i + 1 < len(toks) else ""
        if before in (".", "::") or (after == "(" and before not in ("new", "@")):
            continue  # a member's name, or a method of that name called
        edits.append((t.start, t.end, visible[t.text]))
    out = test
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    return out


def _java_dot(toks: list[_Tok], k: int) -> int | None:
    """The ``.`` before the method name at ``k`` (``s.f``, or ``s.<Integer>f``), if any."""
    if k and toks[k - 1].text == ".":
        return k - 1
    if k and toks[k - 1].text == ">":
        w = _java_witness(toks, k - 1)
        return w if w != k - 1 else None
    return None


@dataclasses.dataclass(frozen=True)
class JavaProgram:
    """What the test's rewrites read of the program, from its tokens (never its comments or
    literals: a ``// class Assert`` made the test's ``Assert.assertEquals`` a call of the
    program's): the types it declares, the methods it declares with a body, and the
    problem's entry points (the problem's, not the program's)."""

    types: frozenset[str] = frozenset()
    entry: frozenset[str] = frozenset()
    void: frozenset[str] = frozenset()
    """Methods declared ``void`` (an overload of the name may not be)."""
    valued: frozenset[str] = frozenset()
    """Methods declared with a type (an overload of the name may be ``void``)."""

    @property
    def methods(self) -> frozenset[str]:
        """Every method the program declares with a body."""
        return self.void | self.valued

    @classmethod
    def of(cls, program: str, entry: Iterable[str] = ()) -> JavaProgram:
        toks = _java_tokens(java_source_text(program))
        void, valued = _java_methods(toks) if _pair(toks) else (set(), set())
        return cls(frozenset(_java_type_names(toks)), frozenset(entry), frozenset(void),
                   frozenset(valued))  # fmt: skip


def java_program_calls(
    toks: list[_Tok], program: JavaProgram, by_name: set[int] | None = None
) -> list[int]:
    """The indices of the test's calls of the program (the name before each one's ``(``),
    read from what the program cannot steer. A call counts where its name is one of the
    problem's entry points; or where its receiver is the program's: ``T.m(..)`` of a type
    ``T`` the program declares and the test does not (a test's own ``class Assert`` or
    ``Main`` stays the test's, whatever the program nests), ``new T(..)`` and
    ``new T(..).m(..)``, ``v.m(..)`` of a variable the test declares of such a type
    (``Solution s = new Solution();``); or where a method the program declares is called
    unqualified from a test that neither declares it nor imports anything statically. A
    method of the program's named like a JDK one (``get``, ``add``, ``asList``) is never
    its call on the test's own objects.

    And, whatever the receiver, a call of a method the program declares with a type (never
    ``void``), the test does not declare, and no JDK type the tests use has
    (``jdk_methods``): ``sols[0].words(..)``, ``list.get(0).words(..)``, ``(c ? a :
    b).words(..)``, ``((Solution) o).words(..)``, a lambda's parameter, a type variable,
    a test class extending the program's; a red team's lying collection reached the test
    through each. Their indices go in ``by_name`` too: the wrapping leaves them alone as a
    statement or a lambda's body, where the value is not used (and where a JDK method of
    the name could be ``void``)."""
    types = program.types - _java_type_names(toks)
    declared = {
        t.text
        for i, t in enumerate(toks[1:-1], 1)
        if t.kind == "id"
        and toks[i + 1].text in ("=", ";", ",", ")", ":")
        and (
            (toks[i - 1].kind == "id" and toks[i - 1].text not in _JAVA_KEYWORDS)
            or toks[i - 1].text in (">", "]")
        )
    }
    types -= declared
    typed = _java_typed(toks, types)
    typed |= {
        toks[i + 1].text
        for i, t in enumerate(toks[:-4])
        if t.text == "var"
        and toks[i + 2].text == "="
        and toks[i + 3].text == "new"
        and toks[i + 4].text in types
    }
    statics = any(
        t.text == "import" and toks[i + 1].text == "static" for i, t in enumerate(toks[:-1])
    )
    own = set().union(*_java_methods(toks))
    named = program.valued - program.void - own - jdk_methods()
    calls: list[int] = []
    picked: set[int] = set()
    for k, t in enumerate(toks[:-1]):
        if t.kind != "id" or toks[k + 1].text != "(" or toks[k + 1].match <= k:
            continue
        before = toks[k - 1].text if k else ""
        mine = t.text in program.entry
        dot = _java_dot(toks, k)
        if before == "new":
            mine = mine or t.text in types
        elif dot is not None:
            # the receiver itself is the program's, not what one of its calls returned
            lo = dot - 1
            if lo >= 0 and toks[lo].text == ")" and toks[lo].match >= 2:
                # ``Solution.make().words(..)``: a method the program declares with a type,
                # called on what a call of the program's returned
                chained = toks[lo].match - 1 in picked and t.text in program.valued
                lo = toks[lo].match - 2
                mine = (
                    mine
                    or chained
                    or (lo >= 0 and toks[lo].text == "new" and toks[lo + 1].text in types)
                )
            elif lo >= 0:
                ahead = lo == 0 or toks[lo - 1].text != "."
                mine = mine or (ahead and (toks[lo].text in types or toks[lo].text in typed))
        elif before not in (">", "]", "::") and not (k and toks[k - 1].kind == "id" and before not in (
                "return", "throw", "else", "assert", "yield", "case")):  # fmt: skip
            mine = mine or (t.text in program.methods and not statics and t.text not in own)
        else:
            mine = False  # a declaration
        if not mine and dot is not None and t.text in named:
            mine = True
            if by_name is not None:
                by_name.add(k)
        if mine:
            calls.append(k)
            picked.add(k)
    return calls


@functools.cache
def jdk_methods() -> frozenset[str]:
    """The method names of the JDK types Java tests most call (``jdk_methods.txt``)."""
    text = (Path(__file__).parent / "jdk_methods.txt").read_text()
    return frozenset(
        w for line in text.splitlines() if not line.startswith("#") for w in line.split()
    )


def _java_typed(toks: list[_Tok], types: Collection[str]) -> set[str]:
    """The variables the test declares of one of ``types``: ``T v = ..``, ``T<X> v;``,
    ``T[] v``, ``T.Inner v``, a parameter ``(T v, ..)``, ``for (T v : ..)``, and each further declarator
    (``T a = .., v = ..;``)."""
    typed: set[str] = set()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.text not in types or (i and toks[i - 1].text in (".", "new")):
            continue
        j = i + 1
        while j + 1 < n and toks[j].text == "." and toks[j + 1].kind == "id":  # Solution.Res
            j += 2
        if j < n and toks[j].text == "<":
            depth = 0
            while j < n:
                if toks[j].text == "<":
                    depth += 1
                elif toks[j].text == ">":
                    depth -= 1
                elif toks[j].text in ("(", ")", ";", "{", "}", "="):
                    break
                j += 1
                if depth == 0:
                    break
        while j + 1 < n and toks[j].text == "[" and toks[j + 1].text == "]":
            j += 2
        if j + 1 >= n or toks[j].kind != "id" or toks[j].text in _JAVA_KEYWORDS:
            continue
        if toks[j + 1].text not in ("=", ";", ",", ")", ":"):
            continue
        typed.add(toks[j].text)
        k = j + 1
        while k < n and toks[k].text not in (";", ")", "]", "}", "{", ":"):
            if toks[k].text in _OPEN and toks[k].match > k:
                k = toks[k].match + 1
                continue
            if (toks[k].text == "," and k + 2 < n and toks[k + 1].kind == "id"
                    and toks[k + 2].text in ("=", ";", ",")):  # fmt: skip
                typed.add(toks[k + 1].text)
            k += 1
    return typed


def java_program_fields(
    toks: list[_Tok], program: JavaProgram, calls: Collection[int]
) -> list[int]:
    """The indices of the test's reads of a field of the program's objects: ``v.items``
    of a variable the test declares of a type of the program's, ``T.TABLE`` of such a type,
    ``s.f(..).items`` of what a call of the program's returned; never a write (``v.n = 1``,
    ``v.n++``), a method's name or a nested type's (``Solution.Node n``)."""
    types = program.types - _java_type_names(toks)
    typed = _java_typed(toks, types)
    calls = set(calls)
    out = []
    for k in range(2, len(toks)):
        t = toks[k]
        if t.kind != "id" or toks[k - 1].text != "." or t.text in program.types:
            continue
        nxt = toks[k + 1].text if k + 1 < len(toks) else ";"
        if (
            nxt in ("(", "::")
            or nxt in _JAVA_ASSIGN
            or (k + 1 < len(toks) and toks[k + 1].kind == "id")
        ):
            continue
        if k + 2 < len(toks) and nxt == "[" and toks[k + 2].text == "]":
            continue  # ``Solution.Node[] ns``
        r = toks[k - 2]
        ahead = k < 3 or toks[k - 3].text != "."
        if r.text == ")" and r.match >= 1:
            mine = r.match - 1 in calls
        else:
            mine = ahead and r.kind == "id" and (r.text in typed or r.text in types)
        if mine:
            out.append(k)
    return out


_JAVA_ASSIGN = {
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    "<<=",
    ">>=",
    ">>>=",
    "++",
    "--",
}


_JAVA_KEYWORDS = frozenset({
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
    "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long",
    "native", "new", "package", "private", "protected", "public", "return", "short", "static",
    "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
    "void", "volatile", "while", "yield", "record", "var", "true", "false", "null",
})  # fmt: skip


def _java_open_type(program: str) -> str | None:
    """The name of the one type declaration the program leaves open at its end (its body's
    ``{`` unclosed, at the top level), or None when the program leaves anything else open
    (nothing, a nested type, a method's body, two braces). Read on the text javac reads
    (``java_source_text``: a ``\\u007d`` is a brace)."""
    toks = _java_tokens(java_source_text(program))
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.text == "{":
            stack.append(i)
        elif t.text == "}" and stack:
            stack.pop()
    if len(stack) != 1:
        return None
    k = stack[0] - 1
    while k >= 0 and toks[k].text not in ("{", "}", ";"):
        header = toks[k].text in _DECLARES and toks[k + 1].kind == "id"
        if header and not (k > 0 and toks[k - 1].text in (".", "@")):
            return toks[k + 1].text
        k -= 1
    return None


def _java_member_names(toks: list[_Tok]) -> set[str]:
    """The methods and fields declared at the top level of a class body's tokens (a name
    after a type and before ``(``, ``=``, ``;`` or ``,``), nested bodies aside."""
    names: set[str] = set()
    depth = 0
    for i, t in enumerate(toks):
        if t.text in ("{", "(", "["):
            depth += 1
        elif t.text in ("}", ")", "]"):
            depth -= 1
        elif depth == 0 and t.kind == "id" and t.text not in _JAVA_KEYWORDS and i > 0:
            before, after = toks[i - 1], toks[i + 1].text if i + 1 < len(toks) else ""
            typed = (
                before.kind == "id" and before.text not in ("new", "return", "throw")
            ) or before.text in (">", "]")
            if typed and after in ("(", "=", ";", ","):
                names.add(t.text)
    return names


def java_test_in_own_class(program: str, test: str, own: str) -> tuple[str, str] | str | None:
    """A test whose code begins inside a class of the program (MultiPL-E's Java shape: the
    test's ``main`` is a member of the prompt's ``class Problem``, whose ``}`` it writes,
    then a ``class Main`` calls ``Problem.main``), moved into a class of its own, ``own``.

    Inside the program's class the program decides what the test's code means: its own
    ``main`` beside a decoy class left open to take the test's (``Problem.main`` ran
    nothing), a field named ``Arrays`` or ``java`` (a variable beats a type or a package
    for a name like ``java.util.Arrays``: the expected values were the program's), or a
    superclass whose static initializer turned the test's assertions off before the
    class that holds them was initialized. Here the program's class is closed by the
    verifier, the test's members go into ``own`` (a top-level class of the verifier's),
    each unqualified call of a method they do not declare is qualified with the program's
    class (the entry point, as the test meant it), and the rest of the test reaches those
    members through ``own``. Returns None when the test opens no class of the program's,
    the program and the test as they are now built, or why they cannot be (a string):
    the program leaves anything but one top-level type open, the test closes more than
    one brace it did not open, or reaches its own members through another class."""
    toks = _java_tokens(test)
    depth, cut = 0, -1
    for i, t in enumerate(toks):
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
            if depth < 0:
                if cut >= 0:
                    return "the test closes more than one brace of the program's"
                cut, depth = i, 0
    if cut < 0:
        return None
    name = _java_open_type(program)
    if name is None:
        return (
            "the test's code begins inside a class of the program's, and the program leaves "
            "something other than one top-level class open there"
        )
    members, rest = toks[:cut], toks[cut + 1 :]
    declared = _java_member_names(members)
    edits: list[tuple[int, int, str]] = []
    for i, t in enumerate(members):
        if t.kind != "id" or t.text in _JAVA_KEYWORDS or t.text in declared:
            continue
        if i + 1 >= len(members) or members[i + 1].text != "(":
            continue
        before = members[i - 1] if i > 0 else None
        if before is not None and (
            before.text in (".", "::", "@", ">", "]", "new")
            or (before.kind == "id" and before.text not in _JAVA_STOP | {"yield", "else", "do"})
        ):
            continue  # a member, a method reference, an annotation, or a declaration
        edits.append((t.start, t.start, f"{name}."))
    for i, t in enumerate(rest):
        if t.kind != "id" or t.text not in declared or i < 2 or rest[i - 1].text != ".":
            continue
        owner = rest[i - 2]
        if owner.kind != "id" or (i >= 3 and rest[i - 3].text == "."):
            continue
        if owner.text != name:
            return (
                f"the test reaches its own member {t.text!r} through {owner.text!r}, not "
                f"through the class {name!r} it was written in"
            )
        edits.append((owner.start, owner.end, own))
    out = test
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    cut_at = toks[cut].start + sum(
        len(e[2]) - (e[1] - e[0]) for e in edits if e[0] < toks[cut].start
    )
    body, after = out[:cut_at], out[cut_at + 1 :]
    closed = f"{program}\n}} // codereward: the program's class, closed before the test\n"
    return closed, f"final class {own} {{\n{body}\n}}\n{after}"


_JAVA_STATEMENT_START = {";", "{", "}", ")", ":", "->", "else", "do"}


def java_asserts_always_on(test: str) -> str:
    """``test`` with each ``assert C;`` statement written as ``{ if (!(C)) throw new
    java.lang.AssertionError(); }`` (and ``assert C : M;`` with ``M`` as the error's
    message), so the test's assertions hold whatever the class loader says of assertions.

    javac compiles an ``assert`` to a test of its class's ``$assertionsDisabled``, set from
    ``desiredAssertionStatus()`` when that class is initialized, and any code may call
    ``ClassLoader.setClassAssertionStatus`` (no permission guards it): a program did so from
    its first call, and every ``assert`` of the test's anonymous classes (initialized after
    that call) was skipped (paid 1.0). Only statements: an ``assert`` token after a
    statement's end, a block's brace, a condition's ``)``, a label's or case's ``:``, a
    switch rule's ``->``, ``else`` or ``do``; its end is the first ``;`` outside brackets,
    its message the first ``:`` outside brackets that closes no ``?``."""
    toks = _java_tokens(test)
    edits: list[tuple[int, int, str]] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        start_ok = i == 0 or toks[i - 1].text in _JAVA_STATEMENT_START
        if t.kind != "id" or t.text != "assert" or not start_ok:
            i += 1
            continue
        depth, pending, colon, end = 0, 0, -1, -1
        for j in range(i + 1, len(toks)):
            x = toks[j].text
            if x in ("(", "[", "{"):
                depth += 1
            elif x in (")", "]", "}"):
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and x == "?" and toks[j - 1].text not in ("<", ","):
                pending += 1
            elif depth == 0 and x == ":":
                if pending:
                    pending -= 1
                elif colon < 0:
                    colon = j
            elif depth == 0 and x == ";":
                end = j
                break
        if end < 0 or colon == i + 1 or colon == end - 1 or end == i + 1:
            i += 1
            continue
        cond_end = toks[colon].start if colon >= 0 else toks[end].start
        cond = test[toks[i].end : cond_end]
        message = test[toks[colon].end : toks[end].start] if colon >= 0 else ""
        edits.append(
            (
                t.start,
                toks[end].end,
                f"{{ if (!({cond})) throw new java.lang.AssertionError({message}); }}",
            )
        )
        i = end + 1
    out = test
    for start, stop, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[stop:]
    return out


def java_eq(cls: str, named: Iterable[str] = ()) -> str:
    """The trusted ``cls.eq`` (a package-private class in ``Main.java``); ``named``: the
    program's types the test names itself (``java_named_types``)."""
    names = ", ".join(f'"{n}"' for n in sorted(set(named)) if re.fullmatch(r"[\w$]+", n))
    return re.sub(r"\bNS\b", cls, _JAVA_EQ).replace("NAMED_TYPES", names)


def java_named_types(test: str, program: JavaProgram) -> set[str]:
    """The program's types whose names the test's code says (``new Point(..)``, a
    ``Point`` variable): answers holding their objects are the test's subject."""
    return {t.text for t in _java_tokens(java_source_text(test)) if t.text in program.types}


_JAVA_EQ = r"""
final class NS {
    private NS() {}
    /** A class of the JDK itself: defined by the boot or platform loader in a named java.* or
     *  jdk.* module of the boot layer, and neither a proxy class (Proxy.newProxyInstance(null,
     *  ...) defines one in the boot loader, in a dynamic module jdk.proxyN, with the program's
     *  handler answering equals) nor a hidden class. */
    private static boolean jdk(java.lang.Class<?> c) {
        while (c.isArray()) c = c.getComponentType();
        if (c.isPrimitive()) return true;
        if (java.lang.reflect.Proxy.isProxyClass(c) || c.isHidden()) return false;
        java.lang.ClassLoader l = c.getClassLoader();
        if (l != null && l != java.lang.ClassLoader.getPlatformClassLoader()) return false;
        java.lang.Module m = c.getModule();
        if (!m.isNamed() || m.getLayer() != java.lang.ModuleLayer.boot()) return false;
        java.lang.String n = m.getName();
        return (n.startsWith("java.") || n.startsWith("jdk.")) && !n.startsWith("jdk.proxy");
    }
    /** A class of the program's that overrides nothing of the JDK's, so that only JDK code
     *  runs when eq reads it: no method that it or a supertype of the program's declares
     *  (bridges and default methods included) has the name of a method of a JDK supertype
     *  (an anonymous subclass made for double-brace initialisation; an IntList that adds
     *  addSorted to ArrayList). */
    private static boolean plain(java.lang.Class<?> c) {
        java.util.HashSet<java.lang.String> names = new java.util.HashSet<>();
        java.util.ArrayList<java.lang.Class<?>> own = new java.util.ArrayList<>();
        java.util.HashSet<java.lang.Class<?>> seen = new java.util.HashSet<>();
        java.util.ArrayDeque<java.lang.Class<?>> todo = new java.util.ArrayDeque<>();
        todo.add(c);
        while (!todo.isEmpty()) {
            java.lang.Class<?> k = todo.poll();
            if (!seen.add(k)) continue;
            if (jdk(k)) {
                for (java.lang.reflect.Method m : k.getDeclaredMethods()) names.add(m.getName());
            } else {
                own.add(k);
            }
            if (k.getSuperclass() != null) todo.add(k.getSuperclass());
            for (java.lang.Class<?> i : k.getInterfaces()) todo.add(i);
        }
        for (java.lang.Class<?> k : own) {
            for (java.lang.reflect.Method m : k.getDeclaredMethods()) {
                if (names.contains(m.getName())) return false;
            }
        }
        return true;
    }
    /** The simple names of the program's types the test itself names: objects of those are the
     *  test's subject, compared by their own code, as plainly. */
    private static final java.util.Set<java.lang.String> NAMED = java.util.Set.of(NAMED_TYPES);
    /** A class of the program's that declares equals, hashCode, compareTo or compare (it or a
     *  superclass of the program's), of a type the test never names: the JDK code the test calls
     *  on an answer holding one (want.containsAll(got) asks each element equals(expected)) would
     *  hand it the expected values, and let it say yes. */
    private static boolean poisoned(java.lang.Class<?> c) {
        for (java.lang.Class<?> k = c; k != null && !jdk(k); k = k.getSuperclass()) {
            if (NAMED.contains(k.getSimpleName())) return false;
            for (java.lang.Class<?> i : k.getInterfaces()) if (!jdk(i) && NAMED.contains(i.getSimpleName())) return false;
        }
        for (java.lang.Class<?> k = c; k != null && !jdk(k); k = k.getSuperclass()) {
            for (java.lang.reflect.Method m : k.getDeclaredMethods()) {
                java.lang.String n = m.getName();
                if (n.equals("equals") || n.equals("hashCode") || n.equals("compareTo") || n.equals("compare")) return true;
            }
        }
        return false;
    }
    /** An element of an answer (of a collection, a map, an entry, an optional, an array), as the
     *  copy holds it: own's, after the program's objects that could answer for an expected value
     *  (poisoned) are refused. */
    private static java.lang.Object el(java.lang.Object o) {
        if (o != null && !jdk(o.getClass()) && poisoned(o.getClass())) {
            throw new java.lang.AssertionError("codereward: the answer holds an object of the program's "
                .concat(o.getClass().getName()).concat(", which declares equals, hashCode or compareTo, of a type the test never names"));
        }
        return own(o);
    }
    /** Whether no element of a JDK collection or map needs a copy. */
    private static boolean settled(java.lang.Object v) {
        if (v instanceof java.util.Map) {
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) {
                if (el(e.getKey()) != e.getKey() || el(e.getValue()) != e.getValue()) return false;
            }
            return true;
        }
        if (v instanceof java.util.Collection) {
            for (java.lang.Object o : (java.util.Collection<?>) v) if (el(o) != o) return false;
            return true;
        }
        return false;
    }
    /** A JDK value whose equals and hashCode read only its own state. */
    private static boolean flat(java.lang.Object o) {
        java.lang.Class<?> c = o.getClass();
        return c == java.lang.String.class || c == java.lang.Integer.class || c == java.lang.Long.class
            || c == java.lang.Short.class || c == java.lang.Byte.class || c == java.lang.Character.class
            || c == java.lang.Boolean.class || c == java.lang.Double.class || c == java.lang.Float.class
            || c == java.math.BigInteger.class || c == java.math.BigDecimal.class || (c.isEnum() && jdk(c));
    }
    /** The elements, read once by iteration: a JDK wrapper of the program's collection, or a
     *  TreeSet with the program's comparator, is never asked contains(expected). */
    private static java.util.ArrayList<java.lang.Object> items(java.lang.Iterable<?> x) {
        java.util.ArrayList<java.lang.Object> out = new java.util.ArrayList<>();
        for (java.lang.Object o : x) out.add(o);
        return out;
    }
    private static java.util.ArrayList<java.lang.Object> entries(java.util.Map<?, ?> x) {
        java.util.ArrayList<java.lang.Object> out = new java.util.ArrayList<>();
        for (java.util.Map.Entry<?, ?> e : x.entrySet()) {
            out.add(new java.lang.Object[] {e.getKey(), e.getValue()});
        }
        return out;
    }
    private static java.lang.Object key(java.lang.Object o, boolean pairs) {
        return pairs ? ((java.lang.Object[]) o)[0] : o;
    }
    /** Every item of xs has an equal in ys (pairs: map entries, equal key and value). */
    private static boolean within(java.util.List<java.lang.Object> xs, java.util.List<java.lang.Object> ys, boolean pairs) {
        java.util.HashMap<java.lang.Object, java.lang.Object> byKey = new java.util.HashMap<>();
        java.util.ArrayList<java.lang.Object> rest = new java.util.ArrayList<>();
        for (java.lang.Object v : ys) {
            java.lang.Object k = key(v, pairs);
            if (k != null && flat(k) && !byKey.containsKey(k)) byKey.put(k, v);
            else rest.add(v);
        }
        for (java.lang.Object u : xs) {
            java.lang.Object k = key(u, pairs);
            java.lang.Object v = k != null && flat(k) ? byKey.get(k) : null;
            if (v != null && (!pairs || eq(((java.lang.Object[]) u)[1], ((java.lang.Object[]) v)[1]))) continue;
            boolean found = false;
            for (java.lang.Object w : rest) {
                if (eq(k, key(w, pairs))
                        && (!pairs || eq(((java.lang.Object[]) u)[1], ((java.lang.Object[]) w)[1]))) {
                    found = true;
                    break;
                }
            }
            if (!found) return false;
        }
        return true;
    }
    /** A literal of the test (java_fresh_literals): its UTF-16 units XOR'd with the keystream
     *  of k, so the string is made at run time and never interned. */
    static java.lang.String s(java.lang.String e, long k) {
        char[] c = e.toCharArray();
        for (int i = 0; i < c.length; i++) {
            k ^= k << 13;
            k ^= k >>> 7;
            k ^= k << 17;
            c[i] ^= (char) k;
        }
        return new java.lang.String(c);
    }
    /** An answer of the program's, as the test goes on to use it (wrap_java_answers). */
    static boolean got(boolean v) { return v; }
    static byte got(byte v) { return v; }
    static short got(short v) { return v; }
    static char got(char v) { return v; }
    static int got(int v) { return v; }
    static long got(long v) { return v; }
    static float got(float v) { return v; }
    static double got(double v) { return v; }
    @java.lang.SuppressWarnings("unchecked")
    static <T> T got(T v) { return (T) own(v); }
    /** A trusted copy of a JDK collection, map, entry or optional (its elements copied in
     *  turn), read once through its own iteration: the copy's methods are the JDK's, whatever
     *  the original's were (a program's subclass, a JDK wrapper of a program's collection).
     *  A public JDK class is kept (its no-argument constructor, or its comparator's), an
     *  unmodifiable one stays unmodifiable; a program's class that overrides nothing of the
     *  JDK's (plain) keeps its identity and has its elements replaced by copies; one that
     *  overrides becomes the JDK class of its interface. Strings, numbers, arrays of
     *  primitives and the program's other objects are the answer itself. */
    @java.lang.SuppressWarnings({"unchecked", "rawtypes"})
    private static java.lang.Object own(java.lang.Object v) {
        if (v == null) return null;
        java.lang.Class<?> c = v.getClass();
        if (flat(v)) return v;
        if (c.isArray()) {
            if (!c.getComponentType().isPrimitive()) {
                java.lang.Object[] a = (java.lang.Object[]) v;
                for (int i = 0; i < a.length; i++) {
                    try { a[i] = el(a[i]); } catch (java.lang.ArrayStoreException e) { /* its own type */ }
                }
            }
            return v;
        }
        boolean j = jdk(c);
        if (!(v instanceof java.util.Collection || v instanceof java.util.Map
                || v instanceof java.util.Map.Entry || v instanceof java.util.Optional)) return v;
        if (v instanceof java.util.Optional) {
            java.util.Optional<?> o = (java.util.Optional<?>) v;
            java.lang.Object x = o.orElse(null), y = el(x);
            return x == y ? o : java.util.Optional.of(y);
        }
        if (v instanceof java.util.Map.Entry && (j || !plain(c))) {
            java.util.Map.Entry<?, ?> e = (java.util.Map.Entry<?, ?>) v;
            java.lang.Object key = e.getKey(), value = e.getValue(), k = el(key), x = el(value);
            java.lang.String n = c.getName();
            boolean held = c == java.util.AbstractMap.SimpleEntry.class || c == java.util.AbstractMap.SimpleImmutableEntry.class
                || n.equals("java.util.HashMap$Node") || n.equals("java.util.HashMap$TreeNode")
                || n.equals("java.util.LinkedHashMap$Entry") || n.equals("java.util.TreeMap$Entry")
                || n.equals("java.util.KeyValueHolder");
            if (held && k == key && x == value) return v;  // an entry holding JDK values (entrySet's writes through)
            if (c == java.util.AbstractMap.SimpleImmutableEntry.class) return new java.util.AbstractMap.SimpleImmutableEntry<>(k, x);
            return new java.util.AbstractMap.SimpleEntry<>(k, x);
        }
        // Kept: a class of the program's that overrides nothing (its elements replaced by copies
        // where they are not JDK values themselves), and a public JDK class whose order is no
        // code of the program's and whose elements need no copy (ArrayList, HashMap, TreeSet:
        // the test sees the program's own object, as plainly: an argument sorted in place and
        // returned, a live list of the program's state, an access-ordered map).
        if (!j && plain(c)) {
            try { refill(v); } catch (java.lang.UnsupportedOperationException e) { /* as it is */ }
            return v;
        }
        if (j && java.lang.reflect.Modifier.isPublic(c.getModifiers()) && known(comparator(v)) && settled(v)) return v;
        java.lang.String n = j ? c.getName() : "";
        boolean fixed = n.startsWith("java.util.ImmutableCollections$") || n.startsWith("java.util.Collections$Unmodifiable")
            || n.startsWith("java.util.Collections$Empty") || n.startsWith("java.util.Collections$Singleton");
        java.util.Comparator<?> k0 = comparator(v);
        if (v instanceof java.util.Map) {
            java.util.Map<?, ?> m = (java.util.Map<?, ?>) v;
            java.util.ArrayList<java.lang.Object> keys = new java.util.ArrayList<>(), values = new java.util.ArrayList<>();
            for (java.util.Map.Entry<?, ?> e : m.entrySet()) {
                keys.add(el(e.getKey()));
                values.add(el(e.getValue()));
            }
            java.util.Comparator<java.lang.Object> k = order(k0, keys);
            java.util.Map<java.lang.Object, java.lang.Object> out = j && !fixed ? fresh(c, k, m) : null;
            if (out == null) {
                out = m instanceof java.util.SortedMap ? new java.util.TreeMap<>(k) : new java.util.LinkedHashMap<>();
            }
            for (int i = 0; i < keys.size(); i++) out.put(keys.get(i), values.get(i));
            if (!fixed) return out;
            return out instanceof java.util.SortedMap
                ? java.util.Collections.unmodifiableSortedMap((java.util.SortedMap<java.lang.Object, java.lang.Object>) out)
                : java.util.Collections.unmodifiableMap(out);
        }
        java.util.Collection<?> x = (java.util.Collection<?>) v;
        if (v instanceof java.util.EnumSet) return java.util.EnumSet.copyOf((java.util.EnumSet) v);
        java.util.ArrayList<java.lang.Object> xs = new java.util.ArrayList<>();
        for (java.lang.Object o : x) xs.add(el(o));
        if (n.equals("java.util.Arrays$ArrayList")) return java.util.Arrays.asList(xs.toArray());
        java.util.Comparator<java.lang.Object> k = order(k0, xs);
        java.util.Collection<java.lang.Object> out = j && !fixed ? fresh(c, k, x) : null;
        if (out == null) {
            if (x instanceof java.util.List) out = new java.util.ArrayList<>();
            else if (x instanceof java.util.SortedSet) out = new java.util.TreeSet<>(k);
            else if (x instanceof java.util.Set) out = new java.util.LinkedHashSet<>();
            else if (k != null) out = new java.util.PriorityQueue<>(k);
            else if (x instanceof java.util.Queue) out = new java.util.LinkedList<>();
            else out = new java.util.ArrayList<>();
        }
        out.addAll(xs);
        if (!fixed) return out;
        if (out instanceof java.util.List) return java.util.Collections.unmodifiableList((java.util.List<java.lang.Object>) out);
        if (out instanceof java.util.SortedSet)
            return java.util.Collections.unmodifiableSortedSet((java.util.SortedSet<java.lang.Object>) out);
        if (out instanceof java.util.Set) return java.util.Collections.unmodifiableSet((java.util.Set<java.lang.Object>) out);
        return java.util.Collections.unmodifiableCollection(out);
    }
    private static java.util.Comparator<?> comparator(java.lang.Object v) {
        return v instanceof java.util.SortedSet ? ((java.util.SortedSet<?>) v).comparator()
            : v instanceof java.util.SortedMap ? ((java.util.SortedMap<?, ?>) v).comparator()
            : v instanceof java.util.PriorityQueue ? ((java.util.PriorityQueue<?>) v).comparator()
            : v instanceof java.util.concurrent.PriorityBlockingQueue ? ((java.util.concurrent.PriorityBlockingQueue<?>) v).comparator()
            : null;
    }
    /** Whether a comparator is null or one of the JDK's own orders (no code of the program's). */
    private static boolean known(java.util.Comparator<?> k) {
        return k == null || k == java.util.Collections.reverseOrder() || k == java.util.Comparator.naturalOrder()
            || k == java.lang.String.CASE_INSENSITIVE_ORDER;
    }
    /** An answer's comparator, as the copy keeps it: null, or one of the JDK's own orders, as
     *  it is; any other (the program's, or a JDK comparator built on the program's code) by
     *  the order it gives the answer's elements, read when the call returns (its only calls
     *  of the program's comparator, on the copies), so the test's own lookups
     *  (contains(expected), get(expected)) never hand an expected value to the program. */
    @java.lang.SuppressWarnings("unchecked")
    private static java.util.Comparator<java.lang.Object> order(java.util.Comparator<?> k0, java.util.List<java.lang.Object> items) {
        if (known(k0)) return (java.util.Comparator<java.lang.Object>) k0;
        java.util.Comparator<java.lang.Object> k = (java.util.Comparator<java.lang.Object>) k0;
        java.util.ArrayList<java.lang.Object> sorted = new java.util.ArrayList<>(items);
        sorted.sort(k);
        java.util.HashMap<java.lang.Object, java.lang.Integer> rank = new java.util.HashMap<>();
        for (int i = 0, r = 0; i < sorted.size(); i++) {
            if (i > 0 && k.compare(sorted.get(i - 1), sorted.get(i)) != 0) r = i;
            rank.putIfAbsent(sorted.get(i), r);
        }
        return new Ranked(rank);
    }
    /** The order of a copy's elements as ranks; a value the answer does not hold comes after
     *  them all (it is no element, whatever the program's comparator would have said). */
    private static final class Ranked implements java.util.Comparator<java.lang.Object> {
        private final java.util.HashMap<java.lang.Object, java.lang.Integer> rank;
        Ranked(java.util.HashMap<java.lang.Object, java.lang.Integer> rank) { this.rank = rank; }
        @java.lang.Override public int compare(java.lang.Object a, java.lang.Object b) {
            java.lang.Integer x = rank.get(a), y = rank.get(b);
            if (x != null && y != null) return java.lang.Integer.compare(x, y);
            if (x != null || y != null) return x != null ? -1 : 1;
            return java.lang.Integer.compare(java.lang.System.identityHashCode(a), java.lang.System.identityHashCode(b));
        }
    }
    /** An empty instance of the public JDK class c, with the copy's comparator k where the
     *  original has one; null where there is none to make (then the copy is of x's
     *  interface). */
    @java.lang.SuppressWarnings({"unchecked", "rawtypes"})
    private static <C> C fresh(java.lang.Class<?> c, java.util.Comparator<java.lang.Object> k, java.lang.Object x) {
        if (!java.lang.reflect.Modifier.isPublic(c.getModifiers())) return null;
        try {
            if (x instanceof java.util.EnumMap) return (C) new java.util.EnumMap((java.util.EnumMap) x);
            if (k != null) return (C) c.getConstructor(java.util.Comparator.class).newInstance(k);
            return (C) c.getConstructor().newInstance();
        } catch (java.lang.ReflectiveOperationException | java.lang.RuntimeException e) {
            return null;
        }
    }
    /** A plain program collection's elements (or map's keys and values) as copies, through
     *  the JDK methods it did not override. */
    @java.lang.SuppressWarnings("unchecked")
    private static void refill(java.lang.Object v) {
        if (v instanceof java.util.List) {
            java.util.ListIterator<java.lang.Object> it = ((java.util.List<java.lang.Object>) v).listIterator();
            while (it.hasNext()) {
                java.lang.Object x = it.next(), y = el(x);
                if (y != x) it.set(y);
            }
        } else if (v instanceof java.util.Collection) {
            java.util.Collection<java.lang.Object> x = (java.util.Collection<java.lang.Object>) v;
            java.util.ArrayList<java.lang.Object> all = items(x), copies = new java.util.ArrayList<>();
            boolean changed = false;
            for (java.lang.Object o : all) {
                java.lang.Object y = el(o);
                changed |= y != o;
                copies.add(y);
            }
            if (!changed) return;
            x.clear();
            x.addAll(copies);
        } else if (v instanceof java.util.Map) {
            java.util.Map<java.lang.Object, java.lang.Object> m = (java.util.Map<java.lang.Object, java.lang.Object>) v;
            java.util.ArrayList<java.lang.Object> all = entries(m);
            boolean changed = false;
            for (java.lang.Object o : all) {
                java.lang.Object[] e = (java.lang.Object[]) o;
                java.lang.Object k = el(e[0]), x = el(e[1]);
                changed |= k != e[0] || x != e[1];
                e[0] = k;
                e[1] = x;
            }
            if (!changed) return;
            m.clear();
            for (java.lang.Object o : all) {
                java.lang.Object[] e = (java.lang.Object[]) o;
                m.put(e[0], e[1]);
            }
        }
    }
    static boolean eq(java.lang.Object a, java.lang.Object b) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        boolean ja = jdk(a.getClass()), jb = jdk(b.getClass());
        if (!ja && !jb) return a.equals(b);  // the program's own types on both sides
        if ((!ja && !plain(a.getClass())) || (!jb && !plain(b.getClass()))) return false;
        if (a instanceof java.util.List || b instanceof java.util.List) {
            if (!(a instanceof java.util.List) || !(b instanceof java.util.List)) return false;
            java.util.Iterator<?> i = ((java.util.List<?>) a).iterator();
            java.util.Iterator<?> j = ((java.util.List<?>) b).iterator();
            while (i.hasNext() && j.hasNext()) {
                if (!eq(i.next(), j.next())) return false;
            }
            return !i.hasNext() && !j.hasNext();
        }
        if (a instanceof java.util.Set || b instanceof java.util.Set) {
            if (!(a instanceof java.util.Set) || !(b instanceof java.util.Set)) return false;
            java.util.ArrayList<java.lang.Object> x = items((java.util.Set<?>) a), y = items((java.util.Set<?>) b);
            return x.size() == y.size() && within(x, y, false) && within(y, x, false);
        }
        if (a instanceof java.util.Map || b instanceof java.util.Map) {
            if (!(a instanceof java.util.Map) || !(b instanceof java.util.Map)) return false;
            java.util.ArrayList<java.lang.Object> x = entries((java.util.Map<?, ?>) a), y = entries((java.util.Map<?, ?>) b);
            return x.size() == y.size() && within(x, y, true) && within(y, x, true);
        }
        if (a instanceof java.util.Optional || b instanceof java.util.Optional) {
            if (!(a instanceof java.util.Optional) || !(b instanceof java.util.Optional)) return false;
            java.util.Optional<?> x = (java.util.Optional<?>) a, y = (java.util.Optional<?>) b;
            return x.isPresent() == y.isPresent() && (!x.isPresent() || eq(x.get(), y.get()));
        }
        if (a instanceof java.util.Map.Entry || b instanceof java.util.Map.Entry) {
            if (!(a instanceof java.util.Map.Entry) || !(b instanceof java.util.Map.Entry)) return false;
            java.util.Map.Entry<?, ?> x = (java.util.Map.Entry<?, ?>) a, y = (java.util.Map.Entry<?, ?>) b;
            return eq(x.getKey(), y.getKey()) && eq(x.getValue(), y.getValue());
        }
        return ja ? a.equals(b) : b.equals(a);
    }
}
"""


# ------------------------------------------------------------------ Rust
# (?:r#)?: a raw identifier (``struct r#Answer`` declares ``Answer``)
_RUST_TYPE_DECL = re.compile(r"\b(?:struct|enum|union|trait)\s+(?:r#)?([A-Za-z_]\w*)")
_RUST_ALIAS = re.compile(r"\btype\s+(?:r#)?([A-Za-z_]\w*)\s*(?:<[^>=]*>)?\s*=([^;]*);")
_RUST_FN = re.compile(r"\bfn\s+(?:r#)?([A-Za-z_]\w*)\s*")


def _rust_fns(program: str) -> list[tuple[str, int, set[str]]]:
    """Each ``fn`` of the program: its name and the offset of its parameter list's ``(``,
    past generic parameters however nested (``fn add<T: Into<i64>>(..)``: a pattern
    that read ``<[^>]*>`` missed it, and with it the return type the test compared), and
    the names of its generic type parameters (a return type ``T`` is what the test's
    arguments make it)."""
    out = []
    for m in _RUST_FN.finditer(program):
        i, depth, start = m.end(), 0, m.end()
        if program.startswith("<", i):
            while i < len(program):
                c = program[i]
                if c == "<":
                    depth += 1
                elif c == ">" and program[i - 1] != "-":
                    depth -= 1
                    if depth == 0:
                        break
                elif c in "{;":
                    break
                i += 1
            i = len(program) if depth else i + 1
            while i < len(program) and program[i].isspace():
                i += 1
        if program.startswith("(", i):
            params, level = [], 0
            for k in range(start, i):
                c = program[k]
                arrow = c == ">" and program[k - 1] == "-"
                level += 1 if c in "<([" else -1 if c in ">)]" and not arrow else 0
                params.append(c if level <= 1 else " ")
            names = set(_RUST_GENERIC.findall("".join(params)))
            out.append((m.group(1), i, names))
    return out


_RUST_GENERIC = re.compile(r"[<,]\s*(?:const\s+)?([A-Za-z_]\w*)")


_RUST_WORD = re.compile(r"(?<!')\b(?:r#)?([A-Za-z_]\w*)")  # not a lifetime's name
_RUST_USE_WORD = re.compile(r"\buse\b")


def _rust_uses(program: str) -> list[str]:
    """Each ``use ... ;`` of the program, as ``re.findall(r"\\buse\\b[^;]*;")`` finds them,
    in linear time: that expression scanned to the end of the program from every ``use``
    with no ``;`` after it (``use a::`` 40,000 times: 18 s of the host's CPU, the GIL held,
    every other sample of the verifier waiting)."""
    out, pos = [], 0
    while (m := _RUST_USE_WORD.search(program, pos)) is not None:
        end = program.find(";", m.end())
        if end < 0:
            break
        out.append(program[m.start() : end + 1])
        pos = end + 1
    return out


_RUST_USE_AS = re.compile(r"\bas\s+(?:r#)?([A-Za-z_]\w*)")
_RUST_MACRO_DEF = re.compile(r"\bmacro_rules\s*!|\bmacro\s+(?:r#)?[A-Za-z_]")
RUST_STD_TYPES = frozenset({
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
    "f32", "f64", "bool", "char", "str", "String", "Vec", "Option", "Result", "Box", "HashMap",
    "HashSet", "BTreeMap", "BTreeSet", "VecDeque", "BinaryHeap", "LinkedList", "Rc", "Arc",
    "Cell", "RefCell", "Ordering", "Reverse", "std", "core", "alloc", "collections", "cmp",
    "rc", "sync", "cell", "string", "vec", "option", "result", "boxed",
})  # fmt: skip
"""The words of a return type that name the standard library's types (and the paths to
them): all a return type may name, besides the program's own types compared as derived
(``_rust_derived_eq``), its generic parameters and ``_RUST_TYPE_WORDS``."""
_RUST_TYPE_WORDS = frozenset({"mut", "fn", "for", "borrow", "Cow", "num", "Wrapping", "ops",
                              "Range", "RangeInclusive", "time", "Duration"})  # fmt: skip
"""Keywords a return type of standard types may hold (``&mut``, a ``fn`` pointer), and
more standard types and their paths (kept out of ``RUST_STD_TYPES``, whose words a macro of
the program is also taken never to make into the test's function)."""


def rust_own_return_type(program: str, test: str) -> str | None:
    """Why the test's comparisons of this program's results cannot be trusted, if they
    cannot: a function the test calls returns a type the program declares (or hides
    behind ``impl Trait``), whose ``PartialEq`` the program writes, so ``assert_eq!`` would
    ask the program whether its answer is right. Rust gives no way to compare such a value
    from outside; the standard types a benchmark's signatures use cannot have their
    ``PartialEq`` replaced (the orphan rule). So a return type may name only standard
    types, the program's types compared as derived, and generic parameters; and no
    generic parameter where the program declares a trait. A blacklist of the program's
    types let through what its patterns did not read: ``type R where Liar: Sized =
    Liar;`` and ``type R<T = Liar> = T;`` (no alias to the pattern, so ``-> R`` named
    nothing of the program's), and ``fn add<T: Tr<Out = R>, R>(..) -> R`` with ``impl Tr
    for i32 { type Out = Liar; }`` (inference made ``R`` the program's ``Liar``); each paid
    1.0. Read on the program with comments and literals blanked."""
    own = set(_RUST_TYPE_DECL.findall(program))
    renamed: set[str] = set()
    for use in _rust_uses(program):  # use m::Answer as i32;
        renamed |= set(_RUST_USE_AS.findall(use))
    own |= renamed
    aliases = dict(_RUST_ALIAS.findall(program))
    used = set(_RUST_WORD.findall(test))
    # a macro of the program can declare types the patterns above never see
    # (macro_rules! mk { ($n:ident) => { struct $n; } }) or stand for a type itself
    hidden = _RUST_MACRO_DEF.search(program) is not None
    callable_ = _rust_callable_items(program, renamed) & used
    # a unit struct the test calls (or binds: ``let candidate = add;``): a call derefs its
    # callee, so with a ``Deref`` to a ``fn`` pointer ``add(2, 3)`` returned a type of
    # the program's that a red team made equal to anything (LeetCode's ``struct
    # Solution;``, named only in paths, is not called)
    blanked, blanked_test = rust_blank(program), rust_blank(test)
    called = set(_RUST_CALLED.findall(blanked_test)) | set(_RUST_BOUND.findall(blanked_test))
    callable_ |= set(_RUST_UNIT_STRUCT.findall(blanked)) & called
    code = blanked if own and not hidden else ""  # for _rust_derived_eq
    if callable_ and code:  # a variant or tuple struct of a type compared as derived
        for t in own & used:
            if _rust_derived_eq(code, t, renamed, aliases):
                callable_ -= {t} | _rust_enum_variants(code, t)
    if callable_:
        name = sorted(callable_)[0]
        return (
            f"the test calls `{name}`, which the program makes something other than a plain "
            "`fn` (a tuple struct, an enum variant, a const or static, a renamed import): "
            "its value's type, and so its comparison, may be the program's own"
        )
    if hidden:
        plain = {name for name, _, _ in _rust_fns(program)}
        test_code = rust_blank(test)
        called = set(_RUST_CALLED.findall(test_code)) | set(_RUST_BOUND.findall(test_code))
        made = (called & set(rust_code_words(program))) - plain - _RUST_NOT_MADE
        if made:
            return (
                f"the program's macros may make `{sorted(made)[0]}`, a name the test uses, "
                "into a function whose return type no reading sees: a test cannot trust it"
            )
    blanked = rust_blank(program)
    traits = "trait" in rust_code_words(program)
    for name, paren, generics in _rust_fns(blanked):
        if name not in used:
            continue
        ret = _rust_return_type(blanked, paren)
        words, seen = set(_RUST_WORD.findall(ret)) - generics, set[str]()
        while aliases.keys() & (words - seen):  # an alias is what it names
            for alias in aliases.keys() & (words - seen):
                seen.add(alias)
                words |= set(_RUST_WORD.findall(aliases[alias]))
        words -= seen
        compared = words & own
        if compared and code and all(_rust_derived_eq(code, t, renamed, aliases) for t in compared):
            compared = set()  # its == is the derived one, over standard fields only
        if "impl" in words or "dyn" in words or compared or "Self" in words:
            return (
                f"`{name}` returns `{ret.strip()}`, a type whose comparison the program "
                "itself defines: a test cannot trust it"
            )
        unknown = sorted(words - own - RUST_STD_TYPES - _RUST_TYPE_WORDS)
        if unknown:  # an alias the patterns did not read, an associated type (T::Out)
            return (
                f"`{name}` returns `{ret.strip()}`, which names `{unknown[0]}`: neither a "
                "standard type nor one of the program's compared as derived, so its "
                "comparison may be the program's: a test cannot trust it"
            )
        if traits and generics & set(_RUST_WORD.findall(ret)):
            return (
                f"`{name}` returns `{ret.strip()}`, a generic parameter, and the program "
                "declares a trait, whose impls can make that parameter a type of its own "
                "(`T: Tr<Out = R>` with `impl Tr for i32 { type Out = Liar; }`): a test "
                "cannot trust its comparison"
            )
        if hidden and (words - RUST_STD_TYPES or "!" in ret):
            return (
                f"`{name}` returns `{ret.strip()}`, not only standard types, and the "
                "program's macros may declare types: a test cannot trust its comparison"
            )
    return None


_RUST_DERIVE = re.compile(r"#\s*\[\s*derive\s*\(([^()\]]*)\)\s*\]")
_RUST_ATTR = re.compile(r"#\s*!?\s*\[[^\]]*\]")
_RUST_COMPARISON_TRAITS = frozenset({"PartialEq", "Eq", "PartialOrd", "Ord"})
_RUST_FIELD_NAME = re.compile(r"(?:r#)?[A-Za-z_]\w*\s*:(?!:)")
_RUST_VARIANT_NAME = re.compile(r"^\s*(?:r#)?[A-Za-z_]\w*")


def _rust_derived_eq(
    code: str, name: str, renamed: set[str], aliases: dict[str, str],
    seen: frozenset[str] = frozenset(),
) -> bool:  # fmt: skip
    """Whether the program's type ``name`` (``code``: the program as ``rust_blank`` leaves
    it) compares as ``#[derive(PartialEq)]`` writes it,
    over fields of standard types only: so ``assert_eq!`` on it asks no code of the
    program's (HumanEval-X's Rust/137 returns its own ``enum RtnType<S, F, I>``, which
    the test compares with ``RtnType::Float(2.5)``; plain execution accepts its canonical
    solution). It holds only when ``name`` is declared once, as a ``struct`` or ``enum``
    (not renamed, aliased or made by a macro: the caller asks only where the program has
    no macro), with ``PartialEq`` in a ``derive`` attribute before it; the comparison
    traits (``PartialEq``, ``Eq``, ``PartialOrd``, ``Ord``) appear nowhere in the program's
    code but in ``derive`` attributes (no impl of its own, no ``use ... as PartialEq``);
    no ``impl`` block of the program's names it; and every word of its fields' types is a
    standard type, one of its own generic parameters, itself, or another type that holds
    the same."""
    if name in renamed or name in aliases or name in seen:
        return name in seen
    outside = _RUST_DERIVE.sub(lambda m: " " * len(m.group(0)), code)
    if _RUST_COMPARISON_TRAITS & set(_RUST_WORD.findall(outside)):
        return False
    decls = list(re.finditer(
        rf"\b(struct|enum|union|trait|type)\s+(?:r#)?{re.escape(name)}\b", code))  # fmt: skip
    if len(decls) != 1 or decls[0].group(1) not in ("struct", "enum"):
        return False
    if re.search(rf"\bimpl\b[^{{;]*\b{re.escape(name)}\b", code):
        return False  # no impl of the program's for it (an inherent fn Int beside the variant)
    decl = decls[0]
    before = code[: decl.start()]
    head = before[max(before.rfind(";"), before.rfind("}")) + 1 :]
    if not any("PartialEq" in _RUST_WORD.findall(m.group(1)) for m in _RUST_DERIVE.finditer(head)):
        return False
    i, generics = decl.end(), set[str]()
    rest = code[i:].lstrip()
    i = len(code) - len(rest)
    if rest.startswith("<"):
        depth, k = 0, i
        while k < len(code):
            depth += {"<": 1, ">": -1}.get(code[k], 0)
            if depth == 0:
                break
            k += 1
        generics = set(re.findall(r"[<,]\s*([A-Za-z_]\w*)", code[i : k + 1]))
        i = k + 1
    opening = re.compile(r"\s*(?:where\b[^{;(]*)?([{(;])").match(code, i)
    if opening is None:
        return False
    o = opening.start(1)
    if code[o] == ";":
        body = ""
    else:
        close, depth = o, 0
        for close in range(o, len(code)):
            depth += {"{": 1, "(": 1, "[": 1, "}": -1, ")": -1, "]": -1}.get(code[close], 0)
            if depth == 0:
                break
        if depth:
            return False
        body = code[o + 1 : close]
    body = _RUST_ATTR.sub(" ", body)
    body = _RUST_FIELD_NAME.sub(" ", body)
    if decl.group(1) == "enum":  # each top-level variant's name
        parts, depth, start = [], 0, 0
        for k, c in enumerate(body):
            depth += {"{": 1, "(": 1, "[": 1, "<": 1, "}": -1, ")": -1, "]": -1, ">": -1}.get(c, 0)
            if c == "," and depth == 0:
                parts.append(body[start:k])
                start = k + 1
        parts.append(body[start:])
        body = " ".join(_RUST_VARIANT_NAME.sub(" ", part) for part in parts)
    words = set(_RUST_WORD.findall(body)) - {"pub", "crate"} - generics - {name}
    return all(
        w in RUST_STD_TYPES or _rust_derived_eq(code, w, renamed, aliases, seen | {name})
        for w in words
    )


_RUST_TUPLE_STRUCT = re.compile(r"\bstruct\s+(?:r#)?([A-Za-z_]\w*)\s*(?:<[^>{};]*>)?\s*\(")
_RUST_UNIT_STRUCT = re.compile(r"\bstruct\s+(?:r#)?([A-Za-z_]\w*)\s*;")
_RUST_ENUM_BODY = re.compile(r"\benum\s+(?:r#)?[A-Za-z_]\w*\s*(?:<[^>{};]*>)?\s*(?:where[^{]*)?\{")
_RUST_VARIANT = re.compile(r"(?:^|[{,])\s*(?:#\s*\[[^\]]*\]\s*)*(?:r#)?([A-Za-z_]\w*)")
_RUST_VALUE_ITEM = re.compile(r"\b(?:const|static)\s+(?:mut\s+)?(?:r#)?([A-Za-z_]\w*)\s*:")
_RUST_CALLED = re.compile(r"(?<![\w.:!$])(?:r#)?([A-Za-z_]\w*)\s*\(")
_RUST_BOUND = re.compile(r"=\s*(?:r#)?([A-Za-z_]\w*)\s*;")
_RUST_NOT_MADE = frozenset(RUST_STD_TYPES | {
    "Some", "None", "Ok", "Err", "Box", "ToString", "to_string", "to_vec", "into", "from",
    "iter", "collect", "len", "assert", "assert_eq", "assert_ne", "vec", "format", "let",
    "mut", "fn", "use", "super", "crate", "self", "mod", "tests", "test", "cfg", "as", "if",
    "else", "for", "in", "while", "loop", "match", "return", "true", "false", "ref", "move",
    "where", "impl", "pub", "const", "static", "struct", "enum", "type", "unwrap", "clone",
    "abs", "sqrt", "contains", "sort", "push", "new", "max", "min", "sum", "map", "println",
    "panic", "is_empty", "chars", "as_str", "to_owned", "HashMap", "HashSet",
})  # fmt: skip
"""Words a test and a program with macros commonly share that no macro of the program can
make into the test's function (the standard library's names, Rust's keywords)."""


def _rust_enum_variants(blanked: str, name: str) -> set[str]:
    """The variant names of the program's ``enum name`` (comments and literals blanked)."""
    out: set[str] = set()
    pattern = rf"\benum\s+(?:r#)?{re.escape(name)}\s*(?:<[^>{{}};]*>)?\s*(?:where[^{{]*)?\{{"
    for m in re.finditer(pattern, blanked):
        out |= set(_RUST_VARIANT.findall(_rust_top_level(blanked, m.end() - 1)))
    return out


def _rust_top_level(blanked: str, opening: int) -> str:
    """The text inside the brace at ``opening``, with what nests deeper blanked."""
    depth, i, body = 0, opening, []
    while i < len(blanked):
        c = blanked[i]
        depth += 1 if c in "{(" else -1 if c in "})" else 0
        if depth == 0:
            break
        body.append(c if depth == 1 or c in "{}()" else " ")
        i += 1
    return "".join(body)


def _rust_callable_items(program: str, renamed: set[str]) -> set[str]:
    """The names a program binds to a callable value by anything other than a plain
    ``fn``: tuple structs (``struct add(i32, i32);`` is a constructor ``add(2, 3)`` of the
    program's type), enum variants (``use E::add;``), consts and statics (``const add:
    fn(i32, i32) -> Liar``), and the names of renamed imports (``pub use m::f as add;``).
    A test's call of such a name returns a value ``rust_own_return_type`` never read the
    type of; honest benchmark programs bind an entry point by a plain ``fn`` alone."""
    blanked = rust_blank(program)
    names = set(_RUST_TUPLE_STRUCT.findall(blanked)) | set(_RUST_VALUE_ITEM.findall(blanked))
    names |= renamed
    for m in _RUST_ENUM_BODY.finditer(blanked):
        names |= set(_RUST_VARIANT.findall(_rust_top_level(blanked, m.end() - 1)))
    return names


def _rust_return_type(program: str, paren: int) -> str:
    """The text between a function's parameter list (its ``(`` at ``paren``) and its body
    or ``where`` clause: the return type after ``->``, or nothing."""
    depth, i = 0, paren
    while i < len(program):
        if program[i] in "([":
            depth += 1
        elif program[i] in ")]":
            depth -= 1
            if depth == 0:
                break
        i += 1
    rest = program[i + 1 :]
    m = re.match(r"\s*->(.*?)(?:\{|\bwhere\b|;)", rest, re.S)
    return m.group(1) if m else ""


_RUST_IDENT = re.compile(r"(?:r#)?([A-Za-z_][A-Za-z0-9_]*)")
_RUST_RAW_STRING = re.compile(r'(?:b|c)?r(#*)"')
_RUST_CODE_IDENT = re.compile(r"(?<![A-Za-z0-9_])(?:r#)?([A-Za-z_][A-Za-z0-9_]*)")
RUST_FILE_READERS = frozenset({"include", "include_str", "include_bytes"})
"""The macros that read a file while the unit compiles: the unit's own ``main.rs`` holds
the test, and so its expected values."""


def rust_blank(program: str) -> str:
    """The program with its comments (nested block comments too), string, byte string and
    raw string literals and character literals blanked (newlines kept, so offsets stay),
    as rustc lexes them; anything this lexer cannot place stays as code, so a token can
    only be blanked where rustc sees none either."""
    out = list(program)
    i, n = 0, len(program)

    def blank(start: int, end: int) -> None:
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c, start = program[i], i
        if program.startswith("//", i):
            j = program.find("\n", i)
            i = n if j < 0 else j + 1
        elif program.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if program.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif program.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif (m := _RUST_RAW_STRING.match(program, i)) and not _is_ident_char(program, i - 1):
            end = program.find('"' + m.group(1), m.end())
            i = n if end < 0 else end + 1 + len(m.group(1))
        elif c == '"' or (
            c in "bc" and program.startswith('"', i + 1) and not _is_ident_char(program, i - 1)
        ):
            i = program.index('"', i) + 1
            while i < n and program[i] != '"':
                i += 2 if program[i] == "\\" else 1
            i += 1
        elif c == "'" or (
            c == "b" and program.startswith("'", i + 1) and not _is_ident_char(program, i - 1)
        ):
            q = program.index("'", i)
            if program.startswith("\\", q + 1):  # '\n', '\u{..}', '\''
                j = q + 3
                while j < n and program[j] != "'":
                    j += 1
                i = j + 1
            elif q + 2 < n and program[q + 2] == "'":  # 'x'
                i = q + 3
            else:  # a lifetime or a label: code
                i = q + 1
                continue
        elif (m := _RUST_IDENT.match(program, i)) and not _is_ident_char(program, i - 1):
            i = m.end()
            continue
        else:
            i += 1
            continue
        blank(start, i)
    return "".join(out)


def rust_code_words(program: str) -> list[str]:
    """The identifiers of a Rust program outside its comments and literals (``rust_blank``;
    ``r#name`` is ``name``)."""
    return [m.group(1) for m in _RUST_CODE_IDENT.finditer(rust_blank(program))]


def _is_ident_char(text: str, i: int) -> bool:
    return i >= 0 and (text[i].isalnum() or text[i] == "_")


RUST_SYMBOL_MAKERS = frozenset({"no_mangle", "export_name", "link_section", "global_asm", "asm"})
"""The attributes and macros by which a program defines symbols of the binary's own (or
code that runs before ``main``): a ``#[no_mangle] extern "C" fn abort`` (or ``write``,
``exit``, ``memcmp``) replaces the C library's for the test, libtest and the harness
too, as the foreign-exception and ``write`` exploits did. Honest benchmark programs
define none."""


def rust_untrusted(program: str, test: str) -> str | None:
    """Why the pass of a Rust program's assert test cannot be trusted, if it cannot: it
    reads files while it compiles, defines symbols of its own, declares the global
    allocator (every allocation of the test is then its own to place: for
    ``assert_eq!(sort_array(v), vec![1, 2, 3])`` it returned the buffer of its answer
    for the expected vector's allocation, and ``vec!`` wrote the expected values into
    the answer too), or a function the test calls returns a type whose comparison it
    defines."""
    words = set(rust_code_words(program))
    symbols = sorted(RUST_SYMBOL_MAKERS & words)
    if symbols:
        return (
            f"the program uses `{symbols[0]}`, which defines symbols of the binary itself "
            "(it could replace the C library's abort, write or exit for the test and its "
            "harness): a test cannot trust it"
        )
    if "global_allocator" in words:
        return (
            "the program declares a #[global_allocator], which serves the test's own "
            "allocations (it handed the expected vector the buffer of the program's answer, "
            "so the test wrote its values into both): a test cannot trust it"
        )
    return (
        rust_extern_crate(program)
        or rust_reads_files(program)
        or rust_own_return_type(program, test)
        or rust_trait_shadows(program, test)
    )


_RUST_METHOD_CALL = re.compile(r"\.\s*(?:r#)?([A-Za-z_]\w*)\s*(?:::\s*<[^;{}]*?>\s*)?\(")
_RUST_FN_NAME = re.compile(r"\bfn\s+(?:r#)?([A-Za-z_]\w*)")


def rust_trait_shadows(program: str, test: str) -> str | None:
    """Why a Rust program is untrusted, if it declares a trait and a method the test calls
    by that name (``got.contains(&x)``, ``v.is_empty()``): the trait is in the test's
    scope (``use super::*``, or the crate root itself), and method lookup tries a trait
    method whose receiver matches at an earlier step before the standard type's own (a
    ``fn is_empty(self)`` for ``Vec<String>`` by value, a ``fn contains(self, ..)`` for
    ``&Vec<String>`` before ``[T]::contains``), so the program answered the test's check.
    With a macro of the program any word of its code may be a method's name."""
    words = rust_code_words(program)
    if "trait" not in words:
        return None
    blanked = rust_blank(program)
    named = set(words) if _RUST_MACRO_DEF.search(blanked) else set(_RUST_FN_NAME.findall(blanked))
    called = set(_RUST_METHOD_CALL.findall(rust_blank(test)))
    both = sorted(named & called)
    if both:
        return (
            f"the program declares a trait and a method `{both[0]}`, which the test calls: "
            "the program's trait may answer it in place of the standard type's own"
        )
    return None


_RUST_EXTERN = re.compile(r"(?<![A-Za-z0-9_$])extern(?![A-Za-z0-9_])")
_RUST_EXTERN_OK = re.compile(r"\s*(?:\{|fn\b|crate\s+(?:r#)?(?!self\b)[A-Za-z_]\w*\s*;)")


def rust_extern_crate(program: str) -> str | None:
    """Why a Rust program is untrusted, if it declares an ``extern crate`` other than a
    plain ``extern crate name;`` of another crate: ``extern crate self as std;`` (or ``as
    core``) puts the program's own crate where every ``::std::`` and ``::core::`` path of
    the harness and the test resolves, so the prelude names the harness imports for the
    test (``::std::prelude::rust_2021::Some``) were the program's, and its ``fn Some``
    returned ``None``. Every ``extern`` of the program's code (comments and literals
    blanked, so an ABI string is blank) must begin an ``extern {`` block, an ``extern
    fn`` or a plain ``extern crate name;``: an alias, ``self``, or a macro's fragment
    after it (``$e crate self as std`` with ``m!(extern)``) is untrusted, since a macro
    cannot make the keyword from anything but the word itself. Honest benchmark programs
    declare no extern crate at all (2015's ``extern crate rand;`` names a crate the
    verifier does not have)."""
    blanked = rust_blank(program)
    for m in _RUST_EXTERN.finditer(blanked):
        if _RUST_EXTERN_OK.match(blanked, m.end()) is None:
            text = " ".join(blanked[m.start() : m.end() + 40].split())
            return (
                f"the program has `{text[:40]}`, an extern crate that can stand where the "
                "test's ::std and ::core paths resolve: a test cannot trust it"
            )
    return None


def rust_reads_files(program: str) -> str | None:
    """Why a Rust program is untrusted, if it names a macro that reads a file at compile
    time (``include_str!("main.rs")``, also as an identifier a macro of its own turns
    into the call: ``grab!(include_str)``): it would read the test's expected values
    from the unit. Honest benchmark programs read no files while they compile."""
    found = sorted(RUST_FILE_READERS.intersection(rust_code_words(program)))
    if found:
        return (
            f"the program names `{found[0]}`, which reads a file while the unit compiles "
            "(the unit holds the test): a test cannot trust it"
        )
    return None


# ------------------------------------------------------------------ JavaScript, TypeScript
JS_PARAMS = ("require", "undefined", "NaN", "Infinity", "Object", "Array", "String", "Number",
             "Boolean", "Symbol", "BigInt", "Map", "Set", "WeakMap", "WeakSet", "Promise",
             "JSON", "Math", "Reflect", "Function", "Error", "TypeError", "RangeError",
             "isNaN", "isFinite", "parseInt", "parseFloat", "console", "globalThis",
             "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval",
             "clearImmediate", "queueMicrotask", "process")  # fmt: skip
"""The names the test's function takes as parameters, bound to the real ones: a program
that declares its own ``JSON`` or ``Object`` at the top of the module shadows them for
itself, not for the test (a program's top-level ``function setTimeout`` dropped the
callback of the test's timer, and with it the test's assertion)."""
_JS_IMPORT = re.compile(r"^[ \t]*(?:import\s*\{[^{}]*\}[^\n]*|(?:import|declare)\b[^\n]*)$", re.M)
"""A TypeScript test's lines that must stay at the module's top level: imports (a named
import's braces may span lines) and ambient declarations (MultiPL-E's ``declare var
require: any;``)."""
_JS_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_JS_OWN_REQUIRE = re.compile(
    r"(?:\bfunction\s*\*?\s*|\b(?:var|let|const|class)\s+|\bimport\s+)require\b"
    r"|\brequire\s*=[^=]"
)


_JS_NAME = r"[A-Za-z_$][\w$]*"
_JS_SPEC = r"""(['"])([^'"\\\n]+)\2"""
_TS_STAR_IMPORT = re.compile(rf"import\s+\*\s*as\s+({_JS_NAME})\s+from\s*{_JS_SPEC}\s*;?")
_TS_EQ_IMPORT = re.compile(rf"import\s+({_JS_NAME})\s*=\s*require\s*\(\s*{_JS_SPEC}\s*\)\s*;?")
_TS_NAMED_IMPORT = re.compile(rf"import\s*\{{([\w$\s,]*)\}}\s*from\s*{_JS_SPEC}\s*;?")
_TS_NAMED = re.compile(rf"^({_JS_NAME})(?:\s+as\s+({_JS_NAME}))?$")
_JS_MODULE = re.compile(
    r"""\brequire\s*\(\s*(['"])([^'"\\\n]+)\1\s*\)|\bfrom\s*(['"])([^'"\\\n]+)\3"""
    r"""|\bimport\s*\(?\s*(['"])([^'"\\\n]+)\5"""
)


def js_test_modules(test: str) -> list[str]:
    """The modules a JavaScript or TypeScript test names in a ``require``, ``import`` or
    ``from``: the prelude loads and freezes these before the program runs, and the test's
    ``require`` answers them with those very objects (``js_prelude``)."""
    names = {m.group(2) or m.group(4) or m.group(6) for m in _JS_MODULE.finditer(test)}
    return sorted(n for n in names if n)


def _ts_import_as_const(line: str) -> str | None:
    """A TypeScript import line as a ``const`` the test's function can hold, bound through
    the test's own ``require`` (what tsc compiles the import to, with its type); None for a
    form kept at the top level (a default or side-effect import, ``import type``)."""
    text = _JS_COMMENT.sub(" ", line).strip()
    for pattern in (_TS_STAR_IMPORT, _TS_EQ_IMPORT):
        m = pattern.fullmatch(text)
        if m:
            name, spec = m.group(1), m.group(3)
            return f"const {name}: typeof import('{spec}') = require('{spec}');"
    m = _TS_NAMED_IMPORT.fullmatch(text)
    if m:
        parts = [p.strip() for p in m.group(1).split(",") if p.strip()]
        bound = [_TS_NAMED.match(p) for p in parts]
        if parts and all(bound) and not any(b.group(1) == "type" for b in bound if b):
            fields = ", ".join(b.group(1) + (f": {b.group(2)}" if b.group(2) else "")
                               for b in bound if b)  # fmt: skip
            spec = m.group(3)
            return f"const {{ {fields} }}: typeof import('{spec}') = require('{spec}');"
    return None


def split_imports(test: str) -> tuple[str, str, str]:
    """A TypeScript test's top-level lines (ambient ``declare`` lines and the imports no
    ``const`` can stand for), its imports as ``const`` declarations for the top of the
    test's function (so the test's modules come from the trusted ``require``, not from the
    module's, which the program shares), and the rest."""
    top: list[str] = []
    consts: list[str] = []
    for m in _JS_IMPORT.finditer(test):
        line = m.group(0)
        const = _ts_import_as_const(line) if line.lstrip().startswith("import") else None
        (consts if const else top).append(const or line)
    return "\n".join(top), "\n".join(consts), _JS_IMPORT.sub("", test)


def ts_params() -> str:
    """The parameters of the test's function in TypeScript, typed as the builtins they
    are (an untyped ``Map`` would refuse ``new Map<any, any>()``)."""
    own = {"undefined": "undefined", "NaN": "number", "Infinity": "number"}
    return ", ".join(
        f"{p}: {own.get(p, f'typeof globalThis.{p}')}" for p in JS_PARAMS if p != "globalThis"
    )


JS_RESERVED = frozenset({
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
    "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if",
    "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this",
    "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "let",
    "static", "implements", "interface", "package", "private", "protected", "public",
    "await", "eval", "arguments",
})  # fmt: skip
"""Words no strict function's parameter may be named (ECMAScript's reserved words, strict
mode's and a module's, ``eval`` and ``arguments``)."""
_JS_WORD = re.compile(
    rf"(?<![\w$\u0080-\U0010ffff])(?<![^.]\.){_JS_NAME}(?![\w$\u0080-\U0010ffff])", re.A
)
"""A word of ASCII identifier characters, whole, not after a property access's ``.`` (a
spread's ``...`` is no property access)."""
_JS_DECLARED = re.compile(
    rf"\b(?:(?:var|let|const|class)\s+|function(?:\s+|\s*\*\s*))({_JS_NAME})", re.A
)
_JS_PATTERN = re.compile(r"\b(?:var|let|const)\s*([\[{][^=;]*)", re.A)
_TS_CONST_ENUM = re.compile(rf"\bconst\s+enum\s+({_JS_NAME})", re.A)


def js_entry_names(
    test: str, entry_points: Collection[str] = (), program: str = "", typescript: bool = False
) -> list[str]:
    """The names whose values the test's function takes from the program as parameters
    (``js_prelude``'s "Answers": a function among them reaches the test as a wrapper whose
    results are copies). Read from the test's text alone, so that no problem has to name
    them: every word of it that could name a binding (ASCII identifier characters, not
    after a property access's ``.``, strings and comments included: a word that names
    nothing of the program's is handed ``undefined`` and never read), and the problem's
    ``entry_points``; less the words the test declares itself (``var``, ``let``,
    ``const``, ``function``, ``class``, a destructuring pattern's words; a ``var`` of the
    test would be the parameter itself), its import lines' words, the builtins it already
    takes (``JS_PARAMS``), reserved words and the verifier's own ``__cr_`` names; in
    TypeScript also the program's ``const enum`` names (a parameter would stand for the
    enum whose members tsc inlines). Over-reading costs a parameter; a name missed is a
    function of the program's the test calls unwrapped, so only a test that declares a
    name itself somewhere and also calls the program's function of that name elsewhere
    misses it."""
    imports = "\n".join(m.group(0) for m in _JS_IMPORT.finditer(test)) if typescript else ""
    own = set(_JS_DECLARED.findall(test)) | set(_JS_WORD.findall(imports))
    for m in _JS_PATTERN.finditer(test):
        own.update(_JS_WORD.findall(m.group(1)))
    if typescript:
        own.update(_TS_CONST_ENUM.findall(program))
    words = set(_JS_WORD.findall(test)) | {e for e in entry_points if _JS_WORD.fullmatch(e)}
    skip = own | JS_RESERVED | set(JS_PARAMS)
    return sorted(w for w in words if w not in skip and not w.startswith("__cr_"))


_JS_TEST_FUNCTION = re.compile(
    rf"^function[ \t]+({_JS_NAME})[ \t]*\(([\w$, \t]*)\)\s*\{{", re.M | re.A
)
_JS_REQUIRE_LINE = re.compile(
    rf"^(?:const|let|var)[ \t]+({_JS_NAME})[ \t]*=[ \t]*require\([ \t]*(['\"])([\w@/.:-]+)\2[ \t]*\)"
    r"[ \t]*;?[ \t]*$", re.M | re.A,
)  # fmt: skip


def js_test_helpers(test: str, program: str) -> str:
    """The test's helper functions that the program may call, made again in the program's
    scope. In one module (the contract's unit, plain node's) a function the test declares
    at its top level is hoisted, so a program may call it: MBJSP/243's canonical solution
    sorts with the test's ``compare``. Here the test runs in a function of its own (its
    bindings are out of the program's reach), so such a helper is copied beside the
    program, where the program does not declare that name, and only when it can hold
    nothing of the test's: its body has no literal, string, comment or regular expression
    and names only its parameters, the builtins and the modules the test requires at its
    top level (each required again for it, unless the program declares the name). A
    ``check(candidate)`` that names the test's values is never copied."""
    modules = {m.group(1): m.group(0) for m in _JS_REQUIRE_LINE.finditer(test)}
    declared = set(_JS_DECLARED.findall(program))
    for m in _JS_PATTERN.finditer(program):
        declared.update(_JS_WORD.findall(m.group(1)))
    out: list[str] = []
    for m in _JS_TEST_FUNCTION.finditer(test):
        name, params = m.group(1), set(_JS_WORD.findall(m.group(2)))
        depth, end = 0, None
        for k in range(m.end() - 1, len(test)):
            ch = test[k]
            if ch in "'\"`/\\" or (ch.isdigit() and not re.match(r"[\w$]", test[k - 1])):
                break  # a string, a comment, a regular expression or a number
            depth += (ch == "{") - (ch == "}")
            if depth == 0:
                end = k + 1
                break
        if end is None or name in declared:
            continue
        words = set(_JS_WORD.findall(test[m.end() : end]))
        if not words <= params | JS_RESERVED | set(JS_PARAMS) | modules.keys():
            continue
        for module in sorted(words & modules.keys() - declared):
            out.append(modules[module] + "\n")
            declared.add(module)
        out.append(test[m.start() : end] + "\n")
    return "".join(out)


def js_untrusted(program: str) -> str | None:
    """A program that declares or assigns ``require`` itself: the test's ``require``
    (TypeScript's compiled imports, at the module's top level) would be the program's."""
    if _JS_OWN_REQUIRE.search(program):
        return "the program declares its own `require`, which the test's imports would call"
    return None


_JS_ASYNC = re.compile(
    r"\b(?:async|await|Promise|setTimeout|setImmediate|setInterval|queueMicrotask|nextTick)\b|\.\s*then\s*\("
)


_JS_NOT_CODE = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`", re.S
)


def js_async_test(test: str) -> bool:
    """Whether a test's code (its comments and string literals aside) may run anything after
    its function returns (an ``async`` function, ``await``, a ``.then``, a promise, a
    timer): its pass then waits for the event loop (``js_prelude``). Over-reading costs only
    that wait, and a promise the program leaves pending."""
    return _JS_ASYNC.search(_JS_NOT_CODE.sub(" ", test)) is not None


def js_prelude(
    modules: list[str] | tuple[str, ...] = (), entries: int = 0, async_test: bool = False
) -> str:
    """``cr_pre.js``: freezes the assertion libraries and ``console`` (a failed
    ``console.assert`` throws), makes the existing methods of the builtins the test may
    compare with fixed (``Array.prototype.every = ...`` or ``JSON.stringify = ...``
    changes nothing; each is an accessor whose setter makes an own property of an object
    that inherits it, so ``exports.hasOwnProperty = ...`` or a subclass's
    ``prototype.push = ...`` works as under plain node), and defines ``__cr_run``, which runs the one function whose source
    text is the unit's last ``__cr_run(...)`` argument (so the program cannot pass its own),
    once, with the real builtins, and writes the report on fd 3 when it returned (an
    asynchronous test's, ``async_test``: once every promise made while it ran has settled
    and the event loop has drained; a failure after it returned exits 1). The
    report is the nonce the runner hands over on fd 4 (``NONCE_FD``), read and closed here
    before the program runs and kept only in this closure: neither this file nor the unit
    holds it. ``inspector`` (which could read closures) cannot be loaded after it, and its
    sessions cannot connect however it is loaded (``import()`` bypasses ``Module._load``).

    The buffer's bytes lie in the process's memory, so the program may not read that
    either (a red team read them from ``/proc/self/mem``): the file system binding (which
    ``fs``, ``fs.promises`` and ``process.binding`` share) opens, copies or renames nothing
    whose real path is under ``/proc``, nor a path with ``..`` (a rename during an
    asynchronous open could move it there), and makes no link; no child process (it could
    read ``/proc/<ppid>/mem``), worker thread (its own ``fs``), native addon, OpenSSL
    engine, WASI instance (its own file system), ``chdir``, ``SIGUSR1`` (which starts the
    inspector) or V8 flag. Nor the test's text (a program answered each call with the
    expected value it found there): once the unit compiles, nothing in its folder opens
    (``main.js`` holds the test), ``Function.prototype.toString`` refuses any function
    whose source holds the test's (CommonJS's wrapper of the module is the whole unit),
    ``vm`` makes no other realm (whose ``toString`` would read this one's functions), and
    no heap snapshot is taken; the test's libraries (lodash) load as strict code (a sloppy
    function's ``.arguments``, reached as a program hook's ``caller``, held the expected
    value lodash compared with). These are refusals of what is named; what they do not name
    is open (``languages``' "Not covered").

    A test module's ``isEqual`` (lodash's) compares frozen copies of its two values, the
    first one's taken first: lodash pushes ``[actual, expected]`` onto an array of its own
    before it reads an element, and a setter the program put at ``Array.prototype[0]``
    was handed the expected value and filled the actual from it. Arrays and objects are
    copied as plain ones, boxed primitives boxed again; a ``Map``, ``Set``, ``Date``,
    ``RegExp``, buffer or function goes through as it is (not covered: such a value of
    the program's inside an array could still be changed by such a setter).

    ``Symbol.toStringTag``, ``Symbol.toPrimitive``, ``Symbol.iterator`` and ``toJSON`` of
    the builtin prototypes cannot be redefined: node's ``deepEqual`` and lodash read
    ``expected[Symbol.toStringTag]``, and a getter the program put on
    ``Array.prototype`` or ``Number.prototype`` would be handed the expected value;
    ``JSON.stringify`` calls ``expected.toJSON``, and one the program put on
    ``Array.prototype`` turned both sides of ``JSON.stringify(f(x)) ===
    JSON.stringify([...])`` into the same constant (HumanEval-X's array checks).

    Answers. The test's function takes the program's names it uses as parameters
    (``js_entry_names``: read from the test, the problem's ``entry_points`` too), valued
    by the unit from the module's own bindings; each one whose value is a function (not
    a global builtin as the prelude found it) reaches the test as a wrapper (a ``Proxy``
    with an ``apply`` trap only: ``new``, ``this``, ``instanceof`` and its properties are
    the function's) whose result is a copy made here before the test sees it, so a
    method of the answer's own is never what the test calls: ``r.every = () => true``
    however it was written (assigned, ``Object.assign``, a computed key,
    ``Reflect.set``, defined), an array of a subclass or of a prototype the program set,
    a returned ``Proxy``, an own ``Symbol.iterator`` or ``toJSON`` (round 7 was paid by
    the first four). The copy: arrays and plain objects (``Object.prototype`` or null)
    as new ones of that prototype, unfrozen (a test may sort or push), holes kept, each
    own enumerable key read once (a getter runs once, when the copy is made), cycles and
    shared parts kept (each object copied once, without recursion, so a deep or cyclic
    answer neither hangs nor overflows); a function value under a symbol or the name of
    a builtin prototype's method (``every``, ``join``, ``toJSON``, ``valueOf``,
    ``push``, ``get``, ...) becomes ``undefined`` (the key stays, so ``deepEqual`` still
    sees it, as under plain node), any other function a wrapper too (a curried answer's
    results are copies; a factory's ``{increment() {...}}`` still works, on the copy).
    An array of another prototype (an ``Array`` subclass's) becomes an array on
    ``OtherArray``, an empty frozen object on ``Array.prototype``: the builtins' methods,
    and, as for the subclass under plain node, ``deepStrictEqual`` fails it against a
    plain array while ``deepEqual`` and ``every`` compare its elements. A ``Proxy`` is
    read through its traps once, onto ``OtherObject`` (an empty frozen object on
    ``Object.prototype``) when it is no array, and so is an object on a builtin's
    prototype without that builtin's brand (``{length: 3, __proto__: Array.prototype}``,
    of which ``Array.prototype.every`` holds vacuously); a boxed primitive is boxed
    again; a native promise becomes a promise of the copy of its value (an ``async``
    function's answer). Left as they are (copying would change what ``deepStrictEqual``
    says of honest answers, or they are no data): class instances, ``Map``, ``Set``,
    ``Date``, ``RegExp``, typed arrays, errors, generators, and what they hold. An array
    over 65,536 (and up to 16,777,216) elements is copied as its elements only (listing
    its keys costs more than the copy; a regex match's ``index`` is such a key). The copy
    costs node 18 about 0.05 s per million numbers, 0.4 s per 100,000 small objects and
    1.8 s per million two-element arrays (sandbox_images/README.md). Not covered: a
    method of a class instance the program returns (``class X { every() { return true;
    } }``), of a ``Map`` or ``Date``, or of what they hold; a method of the program's object the test calls through a property
    (``Solution.solve(x)``, ``new C().method()``: only a call of the name itself is
    wrapped); a value the test reads by name (a top-level array of the program's); what
    the program does to the test's own arguments (an ``every`` put on the array the test
    passed and reads back after an in-place call); a thrown value; a name the test
    declares itself somewhere and also calls as the program's elsewhere. Not kept: an
    answer's identity (an in-place sort that returns the test's array, ``r === a``, a
    factory's methods over the object they returned, whose copy the test writes, a
    getter over state a later call changes: the copy read it once). A red team's honest
    programs of these shapes pass plain node and are ``wrong_answer`` here; MBXP's
    JavaScript samples and HumanEval-X's canonical solutions, which agree with plain node,
    have none.

    Each global constructor's ``Symbol.hasInstance`` is fixed to the one every function
    inherits (node's ``deepEqual`` asks ``expected instanceof Error`` of an answer whose
    tag is an error's: a red team's ``Error[Symbol.hasInstance]`` copied the expected
    array into its answer), and so are the methods of the iterators' prototypes (the
    test's ``new Set([...])`` iterates with ``%ArrayIteratorPrototype%.next``: a red
    team's added each element of the expected ``Set`` to the one the program returned).

    ``modules`` (``js_test_modules`` of the test) are loaded and frozen before the program
    runs, and the ``require`` the test gets answers each of them with that object, never
    with what ``require.cache``, ``Module._load`` or a path cache says by then (a program
    can put its own ``assert`` or ``lodash`` in the cache); any other name goes to node's
    ``require``. A bare name (``lodash``, not a builtin or a path) is found in the root's
    own module folders only (``/node_modules`` and node's global folders), never in one a
    program can write (``/tmp``, ``/dev/shm``, ``HOME``): the build folder lies in
    ``/tmp``, so node looked in ``/tmp/node_modules`` and ``/tmp/.node_modules`` before
    Debian's ``/usr/share/nodejs``, and a program whose first test wrote
    ``/tmp/node_modules/lodash`` (an ``isEqual`` that always holds) passed every later test
    of its sample."""
    import json

    params = ", ".join(f"'{p}'" for p in JS_PARAMS)
    return (
        _JS_PRELUDE.replace("PARAMS", params)
        .replace("MODULES", json.dumps(list(modules)))
        .replace("ENTRY_COUNT", str(int(entries)))
        .replace("ASYNC_TEST", "true" if async_test else "false")
    )


_JS_PRELUDE = r"""'use strict';
(function () {
  const fs = require('fs');
  const path = require('path');
  const write = fs.writeSync;
  const main = fs.readFileSync(path.resolve(process.argv[1] || 'main.js'), 'utf8');
  const nb = Buffer.alloc(32);
  let got = 0;
  try {
    for (let n; got < 32 && (n = fs.readSync(4, nb, got, 32 - got, null)) > 0; ) got += n;
    fs.closeSync(4);
  } catch (e) {}
  // kept as the buffer's bytes, off V8's heap: a heap snapshot (v8.writeHeapSnapshot)
  // holds every string, never a buffer's contents
  const nonce = got === 32 ? nb : null;
  // An asynchronous test (ASYNC_TEST: its text awaits, chains a then, makes a promise or sets
  // a timer) has run to its end once every promise made while it runs has settled and no
  // callback of its can run any more: the pass waits for both, until node's event loop
  // drains (beforeExit, and no timer or immediate left: a program can emit beforeExit
  // itself), and is never written after an uncaught exception or an unhandled rejection
  // (however the program handled them), where plain node would have failed. An awaited
  // promise that never settles (the program's) is a test that never finished; node drains
  // its loop and exits 0, and the pass used to be written when the test's function
  // returned. The promises themselves are tracked (v8.promiseHooks hands over the
  // objects; async_hooks' ids were a symbol on each promise the program rewrote), in a set
  // whose methods were read before the program ran; the program gets neither interface,
  // nor async_wrap, through which it could reach the test's promises.
  const asyncTest = ASYNC_TEST;
  const promiseHooks = require('v8').promiseHooks;
  const onInit = promiseHooks.onInit, onSettled = promiseHooks.onSettled;
  const SetC = Set, setAdd = Set.prototype.add, setDelete = Set.prototype.delete;
  const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
  const onProcess = process.on, activeResources = process.getActiveResourcesInfo;
  const reallyExit = process.reallyExit, capture = process.setUncaughtExceptionCaptureCallback;
  const immediate = setImmediate;
  // A failure after the test started (an uncaught exception, an unhandled rejection: node
  // runs with --unhandled-rejections=strict, which raises one as an uncaught exception even
  // where the program listens for it) ends the process with status 1 at once, through a
  // capture callback no program can replace or clear (the setter below refuses while the
  // test's is set) and an exit read before the program ran: listeners on process were the
  // program's to remove, and its emit to replace.
  let captured = false;
  Object.defineProperty(process, 'setUncaughtExceptionCaptureCallback', { value: function (fn) {
    if (captured) refuse('setUncaughtExceptionCaptureCallback during the test');
    return Reflect.apply(capture, process, [fn]); }, writable: false, configurable: false });
  const Module = require('module');
  // Nothing may read the process's memory, where that buffer is: no file under /proc
  // (/proc/self/mem; the path made real, no '..' that a rename could move), no link to
  // one, no other process (a child may read /proc/<ppid>/mem), no worker thread (its fs
  // is not this one), no native addon, no WASI (its own file system), no inspector.
  const refuse = (what) => { throw new Error(`codereward: ${what} is not available to the program`); };
  const fsb = process.binding('fs');
  const realpath = fs.realpathSync.native;
  const dirname = path.dirname;
  const td = new TextDecoder();
  const decode = TextDecoder.prototype.decode;
  const isView = ArrayBuffer.isView;
  const { indexOf, startsWith, endsWith } = String.prototype;
  const has = (s, w) => Reflect.apply(indexOf, s, [w]) >= 0;
  const starts = (s, w) => Reflect.apply(startsWith, s, [w]);
  const up = (s) => s === '..' || starts(s, '../') || Reflect.apply(endsWith, s, ['/..']) || has(s, '/../');
  // Once the unit runs, its folder is closed too: main.js holds the test, expected values
  // and all (a program answered each call from it).
  const unit = realpath(path.resolve(process.argv[1] || 'main.js'));
  const folder = dirname(unit);
  let sealed = false, strictly = false;
  const compile = Module.prototype._compile;
  Object.defineProperty(Module.prototype, '_compile', { value: function (content, filename, ...rest) {
    if (filename === unit) sealed = true;
    if (strictly && typeof content === 'string') content = "'use strict';" + content;
    return Reflect.apply(compile, this, [content, filename, ...rest]); }, writable: false, configurable: false });
  const closed = (r) => r === '/proc' || starts(r, '/proc/') || (sealed && (r === folder || starts(r, folder + '/')));
  const inProc = (given) => {
    const s = typeof given === 'string' ? given : isView(given) ? Reflect.apply(decode, td, [given]) : null;
    if (typeof s !== 'string' || has(s, '\0') || up(s)) return true;
    for (let q = s, n = 0; n < 4096; n++) {
      let r = null;
      try { r = realpath(q); } catch (e) {}
      if (typeof r === 'string') return closed(r);
      const parent = dirname(q);
      if (parent === q) return true;
      q = parent;
    }
    return true;
  };
  const guard = (o, k, check) => {
    const f = o[k];
    if (typeof f !== 'function') return;
    Object.defineProperty(o, k, { value: function (...a) {
      if (check(a)) refuse(`${k}(${typeof a[0] === 'string' ? a[0] : ''})`);
      return Reflect.apply(f, this, a); }, writable: false, configurable: false, enumerable: true });
  };
  for (const k of ['open', 'openFileHandle', 'internalModuleReadJSON']) guard(fsb, k, (a) => inProc(a[0]));
  guard(fsb, 'copyFile', (a) => inProc(a[0]) || inProc(a[1]));
  guard(fsb, 'rename', (a) => inProc(a[0]) || inProc(a[1]));
  for (const k of ['symlink', 'link']) guard(fsb, k, () => true);
  Object.defineProperty(fsb, 'realpath', { value: fsb.realpath, writable: false, configurable: false });
  guard(process.binding('spawn_sync'), 'spawn', () => true);
  guard(process.binding('process_wrap').Process.prototype, 'spawn', () => true);
  const stub = (what) => function () { refuse(what); };
  const inspector = require('inspector');
  for (const k of ['connect', 'connectToMainThread']) guard(inspector.Session.prototype, k, () => true);
  inspector.open = stub('inspector.open');
  require('worker_threads').Worker = stub('worker_threads.Worker');
  const vm = require('vm');  // another realm's Function.prototype.toString reads this realm's functions
  for (const k of ['createContext', 'runInNewContext', 'runInContext']) vm[k] = stub(`vm.${k}`);
  for (const k of ['runInNewContext', 'runInContext']) guard(vm.Script.prototype, k, () => true);
  guard(process.binding('contextify'), 'makeContext', () => true);
  const v8 = require('v8');  // a heap snapshot holds every string: the unit's source too
  for (const k of ['setFlagsFromString', 'writeHeapSnapshot', 'getHeapSnapshot']) v8[k] = stub(`v8.${k}`);
  v8.promiseHooks = Object.freeze({ __proto__: null, onInit: stub('v8.promiseHooks'),
    onSettled: stub('v8.promiseHooks'), onBefore: stub('v8.promiseHooks'), onAfter: stub('v8.promiseHooks'),
    createHook: stub('v8.promiseHooks') });
  require('async_hooks').createHook = stub('async_hooks.createHook');
  const warn = process.emitWarning;
  process.emitWarning = () => {};  // WASI is experimental, these bindings deprecated: not the program's stderr
  try {
    try { require('wasi').WASI = stub('WASI'); } catch (e) {}
    guard(process.binding('v8'), 'setFlagsFromString', () => true);
    const crypto = process.binding('crypto');  // an OpenSSL engine is a native library
    guard(crypto, 'setEngine', () => true);
    for (const k of ['setEngineKey', 'setClientCertEngine']) guard(crypto.SecureContext.prototype, k, () => true);
  } finally { process.emitWarning = warn; }
  for (const m of ['inspector', 'worker_threads', 'v8', 'vm', 'wasi', 'async_hooks']) try { Object.freeze(require(m)); } catch (e) {}
  Module.syncBuiltinESMExports();  // what import() of them sees
  for (const k of ['dlopen', '_debugProcess', 'chdir']) guard(process, k, () => true);
  const usr1 = (a) => a[1] === 'SIGUSR1' || a[1] === 10;
  for (const k of ['kill', '_kill']) guard(process, k, usr1);
  const load0 = Module._load;
  const banned = new Set(['inspector', 'node:inspector', 'inspector/promises', 'node:inspector/promises']);
  // a module the test names is the trusted one, whoever asks for it and however (a
  // TypeScript import left at the module's top level is the module's own require: a
  // program that wrote require.cache's 'assert' entry answered it, as node's _load
  // reads the cache before its builtins)
  Object.defineProperty(Module, '_load', { value: function (request, ...rest) {
    if (banned.has(request)) throw new Error(`codereward: module '${request}' is not available`);
    if (typeof request === 'string' && request in trusted) return trusted[request];
    return Reflect.apply(load0, this, [request, ...rest]); }, writable: false, configurable: false });
  const binding0 = process.binding;
  Object.defineProperty(process, 'binding', { value: function (name) {
    if (name === 'inspector' || name === 'async_wrap') throw new Error(`codereward: binding '${name}' is not available`);
    return Reflect.apply(binding0, process, [name]); }, writable: false, configurable: false });
  const trusted = Object.create(null);
  // A library the test compares with is loaded as strict code: a sloppy function's
  // .arguments is its running call's, so a valueOf of the program's that lodash's
  // equalByTag called read the expected value from equalByTag.arguments (its .caller).
  const builtins = new Set(Module.builtinModules);
  // A library the test names comes from the root's own folders, never from one the program
  // can write: node looks in /tmp/node_modules (the build folder's parent) and in HOME's
  // /tmp/.node_modules before Debian's /usr/share/nodejs, so a program whose earlier test
  // wrote /tmp/node_modules/lodash had its isEqual (always true) judge every later test.
  const home = typeof process.env.HOME === 'string' ? process.env.HOME : '';
  const writable = (p) => p === '/tmp' || starts(p, '/tmp/') || p === '/dev/shm' || starts(p, '/dev/shm/')
    || (home !== '' && home !== '/' && (p === home || starts(p, home + '/')));
  const lookup = [...Module._nodeModulePaths('/'), ...Module.globalPaths].filter((p) => !writable(p));
  const findPath = Module._findPath;
  const bare = (m) => typeof m === 'string' && m !== '' && !builtins.has(m) && !starts(m, 'node:')
    && !starts(m, '.') && !starts(m, '/');
  const rooted = (m) => {
    const f = findPath(m, lookup, false);
    if (typeof f !== 'string' || writable(f)) {
      const e = new Error(`Cannot find module '${m}'`);
      e.code = 'MODULE_NOT_FOUND';
      throw e;
    }
    return f;
  };
  const loadStrict = (m) => {
    const file = bare(m) ? rooted(m) : m;
    const before = new Set(Object.keys(require.cache));
    strictly = true;
    try { return require(file); } catch (e) {
      for (const k of Object.keys(require.cache)) if (!before.has(k)) delete require.cache[k];
    } finally { strictly = false; }
    return require(file);  // it does not compile as strict code: as it is
  };
  // lodash's isEqual pushes [actual, expected] onto an array of its own (its Stack)
  // before it reads the elements: a setter of the program's at Array.prototype[0] was
  // handed the expected value and filled the actual's inner arrays from it. So it compares
  // frozen copies, the actual's taken first (before anything of the expected is read):
  // arrays and objects as plain ones (own enumerable keys, holes as undefined), boxed
  // primitives boxed again; what the copy cannot hold (Map, Set, Date, RegExp, buffers,
  // functions) goes through as it is.
  const snapshot = (() => {
    const { isArray } = Array;
    const { ownKeys, get, apply, defineProperty } = Reflect;
    const gopd = Object.getOwnPropertyDescriptor, freeze = Object.freeze, create = Object.create;
    const protoOf = Object.getPrototypeOf, ObjectC = Object, ObjectProto = Object.prototype;
    const isView = ArrayBuffer.isView;
    const boxes = [[Number, Number.prototype.valueOf], [String, String.prototype.valueOf],
      [Boolean, Boolean.prototype.valueOf], [Object, BigInt.prototype.valueOf], [Object, Symbol.prototype.valueOf]];
    const brands = [Map.prototype.has, Set.prototype.has, WeakMap.prototype.has, WeakSet.prototype.has,
      Date.prototype.getTime, gopd(RegExp.prototype, 'source').get, gopd(ArrayBuffer.prototype, 'byteLength').get];
    const SafeMap = Map, mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapHas = Map.prototype.has;
    const own = (o, k, v) => defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
    const copy = (v, seen) => {
      if (v === null || typeof v !== 'object') return v;
      if (apply(mapHas, seen, [v])) return apply(mapGet, seen, [v]);
      if (isView(v)) return v;
      for (const [Box, valueOf] of boxes) {
        let p, boxed = false;
        try { p = apply(valueOf, v, []); boxed = true; } catch (e) {}
        if (boxed) { const out = freeze(Box === ObjectC ? ObjectC(p) : new Box(p)); apply(mapSet, seen, [v, out]); return out; }
      }
      for (const brand of brands) {
        let branded = false;
        try { apply(brand, v, []); branded = true; } catch (e) {}
        if (branded) return v;
      }
      if (isArray(v)) {
        const out = [];
        apply(mapSet, seen, [v, out]);
        const n = get(v, 'length');
        if (typeof n !== 'number' || !(n >= 0 && n <= 4294967295)) throw new TypeError('codereward: an array without a length');
        for (let i = 0; i < n; i++) own(out, i, copy(get(v, i), seen));
        return freeze(out);
      }
      const out = create(protoOf(v) === null ? null : ObjectProto);
      apply(mapSet, seen, [v, out]);
      for (const k of ownKeys(v)) {
        const d = gopd(v, k);
        if (d && d.enumerable) own(out, k, copy(get(v, k), seen));
      }
      return freeze(out);
    };
    return (v) => copy(v, new SafeMap());
  })();
  const applyTo = Reflect.apply;
  // An element of Array.prototype or Object.prototype (an index key): lodash's stack is an
  // array of its own, and its push ran a setter the program put at Array.prototype[1],
  // which was handed [expected, actual] and made lodash's next lookups say the pairs were
  // compared already. No honest program defines one; a comparison after it fails.
  const protoKeys = Reflect.ownKeys, ArrayProto0 = Array.prototype, ObjectProto0 = Object.prototype;
  const indexed = (o) => {
    const keys = protoKeys(o);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k !== 'string' || k.length === 0 || k.length > 10) continue;
      let digits = true;
      for (let j = 0; j < k.length; j++) {
        const c = k.charCodeAt(j);
        if (c < 48 || c > 57) { digits = false; break; }
      }
      if (digits) return true;
    }
    return false;
  };
  const guardEqual = (isEqual) => function isEqualOnCopies(a, b, ...rest) {
    const x = snapshot(a);
    const y = snapshot(b);
    if (indexed(ArrayProto0) || indexed(ObjectProto0)) return false;
    return applyTo(isEqual, this, [x, y, ...rest]);
  };
  // What the program's functions hand the test (js_prelude's docstring, "Answers"): a
  // wrapper per function, whose result is copied here. Nothing here writes through
  // [[Set]] where a setter of the program's could be found (a key the copy's prototype
  // chain holds is defined instead: a setter at Array.prototype[0] was handed lodash's
  // stack before), nor iterates with the program's iterators, nor leaves a handler or a
  // record on Object.prototype (whose `get` the program could define).
  const answers = (() => {
    const { isArray } = Array;
    const { ownKeys, getPrototypeOf, setPrototypeOf, defineProperty, apply: call } = Reflect;
    const hasOwn = Object.prototype.hasOwnProperty;
    const isEnumerable = Object.prototype.propertyIsEnumerable;
    const types = require('util').types, { isProxy } = types;
    const ArrayProto = Array.prototype, ObjectProto = Object.prototype, create = Object.create;
    const OtherArray = Object.freeze(create(ArrayProto));
    const OtherObject = Object.freeze(create(ObjectProto));
    const bind = Function.prototype.bind, floor = Math.floor, ProxyC = Proxy, SafeMap = Map, SafeSet = Set, SafeWeakMap = WeakMap;
    const mapGet = Map.prototype.get, mapSet = Map.prototype.set;
    const setHas = Set.prototype.has, setAdd = Set.prototype.add;
    const weakGet = WeakMap.prototype.get, weakSet = WeakMap.prototype.set, weakHas = WeakMap.prototype.has;
    const ObjectC = Object, TypeErrorC = TypeError;
    const boxes = new SafeMap();  // each boxed primitive's prototype, with its own valueOf
    for (const C of [Number, String, Boolean, BigInt, Symbol]) call(mapSet, boxes, [C.prototype, C.prototype.valueOf]);
    // the other builtins' prototypes, each with the test of the brand an object on it must
    // carry to go through as it is ({ length: 3, __proto__: Array.prototype } is no array,
    // and Array.prototype.every of it holds, vacuously)
    const brands = new SafeMap();
    const never = () => false;
    const typed = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
      Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
    for (const [C, brand] of [[Array, never], [Function, never], [Map, types.isMap], [Set, types.isSet],
      [WeakMap, types.isWeakMap], [WeakSet, types.isWeakSet], [Date, types.isDate],
      [RegExp, types.isRegExp], [Promise, types.isPromise], [ArrayBuffer, types.isArrayBuffer],
      [SharedArrayBuffer, types.isSharedArrayBuffer], [DataView, types.isDataView],
      [Object.getPrototypeOf(Int8Array), types.isTypedArray], ...typed.map((T) => [T, types.isTypedArray]),
      ...[Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, AggregateError]
        .map((E) => [E, types.isNativeError])]) {
      call(mapSet, brands, [C.prototype, brand]);
    }
    const hidden = new SafeSet(['toJSON']);
    for (const C of [Object, Array, String, Number, Boolean, BigInt, Symbol, Function, Map, Set,
      WeakMap, WeakSet, Date, RegExp, Promise, Error]) {
      for (const k of Object.getOwnPropertyNames(C.prototype)) call(setAdd, hidden, [k]);
    }
    const pristine = new SafeSet();  // the global builtins, which the test gets as they are
    for (let o = globalThis; o !== null; o = Object.getPrototypeOf(o)) {  // toString too
      for (const k of Object.getOwnPropertyNames(o)) {
        const d = Object.getOwnPropertyDescriptor(o, k);
        if (d && typeof d.value === 'function') call(setAdd, pristine, [d.value]);
      }
    }
    const put = (o, k, v) => {
      if (k in o) defineProperty(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
      else o[k] = v;
    };
    const wrappers = new SafeWeakMap(), ours = new SafeWeakMap();
    const wrap = (f) => {
      if (call(weakHas, ours, [f])) return f;
      let w = call(weakGet, wrappers, [f]);
      if (w === undefined) {
        w = new ProxyC(f, { __proto__: null, apply: (target, self, args) => copy(call(target, self, args)) });
        call(weakSet, wrappers, [f, w]);
        call(weakSet, ours, [w, true]);
      }
      return w;
    };
    // `await` takes a native promise's value without looking up `then` or a species
    // constructor, and whatever it takes is copied
    const PromiseProto = Promise.prototype, isPromise = types.isPromise;
    const settled = async (p) => copy(await p);
    const DENSE = 65536, SPARSE = 16777216;
    const index = (k, n) => {
      if (typeof k !== 'string') return -1;
      const i = +k;
      return i >= 0 && i < n && floor(i) === i && '' + i === k ? i : -1;
    };
    const copy = (root) => {
      if (root === null || typeof root !== 'object') return typeof root === 'function' ? wrap(root) : root;
      const seen = new SafeMap();
      const seenGet = call(bind, mapGet, [seen]), seenSet = call(bind, mapSet, [seen]);
      const froms = [], tos = [];  // the copies still to fill, a stack (no prototype: no setter)
      setPrototypeOf(froms, null);
      setPrototypeOf(tos, null);
      let top = 0;
      const take = (v) => {
        if (typeof v === 'function') return wrap(v);
        if (v === null || typeof v !== 'object') return v;
        let out = seenGet(v);
        if (out !== undefined) return out;
        const proto = getPrototypeOf(v);
        if (isArray(v)) {
          out = [];
          if (proto !== ArrayProto) setPrototypeOf(out, OtherArray);
        } else if (proto === ObjectProto || proto === null) {
          out = create(proto);
        } else if (isProxy(v)) {
          out = create(OtherObject);
        } else {
          const valueOf = call(mapGet, boxes, [proto]);
          if (valueOf !== undefined) {
            let p, boxed = false;
            try { p = call(valueOf, v, []); boxed = true; } catch (e) {}
            if (boxed) {
              out = ObjectC(p);
              seenSet(v, out);
              return out;
            }
          } else if (proto === PromiseProto && isPromise(v)) {
            out = settled(v);  // a promise of the copy of what it settles with
            seenSet(v, out);
            return out;
          } else {
            const brand = call(mapGet, brands, [proto]);
            if (brand === undefined || brand(v)) return v;  // a class instance, or a builtin as it is
          }
          out = create(OtherObject);  // a builtin's prototype without the builtin's brand
        }
        seenSet(v, out);
        froms[top] = v;
        tos[top] = out;
        top++;
        return out;
      };
      const keyed = (from, to, k) => {
        if (!call(isEnumerable, from, [k])) return;
        const x = from[k];
        put(to, k, typeof x === 'function' && (typeof k === 'symbol' || call(setHas, hidden, [k])) ? undefined : take(x));
      };
      const fill = (from, to) => {
        if (!isArray(to)) {
          const keys = ownKeys(from);
          for (let j = 0; j < keys.length; j++) keyed(from, to, keys[j]);
          return;
        }
        const n = from.length;
        if (typeof n !== 'number' || !(n >= 0 && n <= 4294967295)) {
          throw new TypeErrorC('codereward: an array answer without a valid length');
        }
        if (n <= DENSE || n > SPARSE) {  // its own keys: elements, and the rest as an object's
          const keys = ownKeys(from);
          for (let j = 0; j < keys.length; j++) {
            const k = keys[j], i = index(k, n);
            if (i < 0) keyed(from, to, k);
            else put(to, i, take(from[k]));
          }
        } else {  // listing a long array's keys costs more than copying it: its elements only
          for (let i = 0; i < n; i++) {
            const x = from[i];
            if (x !== undefined || call(hasOwn, from, [i])) put(to, i, take(x));
          }
        }
        to.length = n;
      };
      const result = take(root);
      while (top > 0) {
        top--;
        const from = froms[top], to = tos[top];
        froms[top] = tos[top] = undefined;
        fill(from, to);
      }
      return result;
    };
    // an entry point of the program, as the test gets it
    return (v) => (typeof v === 'function' && !call(setHas, pristine, [v]) ? wrap(v) : v);
  })();
  for (const m of MODULES) {
    try {
      const x = builtins.has(m) || m.startsWith('node:') ? require(m) : loadStrict(m);
      if (x && typeof x.isEqual === 'function' && !Object.isFrozen(x)) x.isEqual = guardEqual(x.isEqual);
      Object.freeze(x);
      if (x && x.strict) Object.freeze(x.strict);
      trusted[m] = x;
    } catch (e) {}  // the test's own require of it meets the same error
  }
  Object.defineProperty(console, 'assert', { value: function (ok, ...m) {
    if (!ok) { throw new Error(['Assertion failed'].concat(m).join(' ')); } } });
  Object.freeze(console);
  // A builtin's method is fixed as an accessor, not as a read-only value: its getter
  // answers the method, and an assignment through an object that inherits it makes an
  // own property of that object, as plain node does (an inherited read-only property
  // makes that assignment throw in strict code and do nothing in sloppy code: mathjs's
  // exports.hasOwnProperty = ... threw, so every program that loaded it failed). An
  // assignment to the builtin itself changes nothing: the same value passes (a
  // polyfill's Array.prototype.flat = Array.prototype.flat || ...), another throws.
  const dp = Object.defineProperty, gopd0 = Object.getOwnPropertyDescriptor;
  // A property that was read-only (Set.prototype[Symbol.toStringTag]) stays so for an
  // object that inherits it: the assignment makes no own property (plain sloppy code's
  // does nothing; lodash's getRawTag hides a tag by assigning undefined to it, and a Set
  // whose tag it so hid compared as an empty object: any Set equalled any Set).
  const fixed = (o, k, d) => {
    if (!('value' in d)) return { ...d, configurable: false };
    const v = d.value;
    const writable = d.writable;
    return { get() { return v; }, set(x) {
      if (this === o) {
        if (x === v) return;
        throw new TypeError(`Cannot assign to read only property '${String(k)}' of a builtin`);
      }
      if (writable) dp(this, k, { value: x, writable: true, enumerable: true, configurable: true });
    }, enumerable: d.enumerable, configurable: false };
  };
  const keep = (o, only, skip) => {
    for (const k of Reflect.ownKeys(o)) {
      if ((only && !only.includes(k)) || (skip && skip.includes(k))) continue;
      const d = gopd0(o, k);
      if (!d || !d.configurable) continue;
      try { dp(o, k, fixed(o, k, d)); } catch (e) {}
    }
  };
  [Array, Map, Set, WeakMap, WeakSet, Promise, String, Number, Boolean, Symbol, BigInt].forEach((C) => {
    keep(C, null, ['prototype']);
    keep(C.prototype, null, ['constructor']);  // subclasses assign their own constructor
  });
  // A builtin prototype's symbol hooks a comparison looks up on the expected value: a
  // getter of the program's there would be handed it (deepEqual and lodash read
  // expected[Symbol.toStringTag]). Existing ones are fixed; missing ones become accessors
  // that answer undefined (what the lookup found before) and whose setter makes the
  // assigned value an own property of the receiver, as a plain assignment would.
  // toJSON too: JSON.stringify looks it up on the expected value, and a toJSON the program
  // put on Array.prototype made JSON.stringify(f(x)) === JSON.stringify([...]) hold for
  // any answer (both sides became the same constant).
  const hooks = [Symbol.toStringTag, Symbol.toPrimitive, Symbol.iterator, 'toJSON'];
  const protos = [Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Map, Set,
    WeakMap, WeakSet, Promise, Date, RegExp, Error, ArrayBuffer, DataView,
    Object.getPrototypeOf(Int8Array)].map((C) => C.prototype);
  const own = (w) => function (v) {
    Object.defineProperty(this, w, { value: v, writable: true, enumerable: true, configurable: true });
  };
  for (const p of protos) {
    for (const w of hooks) {
      const d = Object.getOwnPropertyDescriptor(p, w);
      if (d && !d.configurable) continue;
      const hook = d ? fixed(p, w, d)
        : { get: () => undefined, set: own(w), enumerable: false, configurable: false };
      try { Object.defineProperty(p, w, hook); } catch (e) {}
    }
  }
  // A global function's prototype, where it could be assigned (node's Buffer): `x
  // instanceof C` reads it, and lodash's isBuffer (Buffer.isBuffer) said yes of every
  // object once a program made Buffer.prototype Object.prototype, and compared two
  // objects as buffers of no length (equal).
  // (node's Buffer is a lazy accessor of globalThis: named, the others are its values)
  const globalFunctions = [Buffer];
  for (const k of Reflect.ownKeys(globalThis)) {
    const d = gopd0(globalThis, k);
    if (d && typeof d.value === 'function') globalFunctions.push(d.value);
  }
  for (const C of globalFunctions) {
    const p = gopd0(C, 'prototype');
    if (p && p.writable && !p.configurable) {
      try { dp(C, 'prototype', { writable: false }); } catch (e) {}
    }
  }
  // A builtin constructor's Symbol.hasInstance: `x instanceof C` calls C's, and node's
  // deepEqual asks `expected instanceof Error` of a value whose tag matches an error's
  // (a red team's Error[Symbol.hasInstance] was handed the expected array and copied it
  // into the program's answer). Each is fixed to the one every function inherits.
  const hasInstance = Function.prototype[Symbol.hasInstance];
  for (const C of globalFunctions) {
    if (!C.prototype || gopd0(C, Symbol.hasInstance)) continue;
    try {
      dp(C, Symbol.hasInstance, fixed(C, Symbol.hasInstance,
        { value: hasInstance, writable: false, enumerable: false, configurable: true }));
    } catch (e) {}
  }
  // The iterators' prototypes: a comparison and the test's own `new Set([...])` iterate
  // with their `next` (a red team's %ArrayIteratorPrototype%.next added each element of
  // the expected Set the test built to the Set the program had returned).
  const iterators = [[][Symbol.iterator](), new Set()[Symbol.iterator](),
    new Map()[Symbol.iterator](), ''[Symbol.iterator](), /a/[Symbol.matchAll]('')]
    .map((i) => Object.getPrototypeOf(i));
  const generator = Object.getPrototypeOf(function* () {}).prototype;
  const asyncGenerator = Object.getPrototypeOf(async function* () {}).prototype;
  for (const p of [...iterators, Object.getPrototypeOf(iterators[0]), generator,
    asyncGenerator, Object.getPrototypeOf(asyncGenerator)]) keep(p);
  // A builtin prototype's own prototype: a program that put Error.prototype under
  // Array.prototype (Reflect.setPrototypeOf) made node's deepEqual take the expected array
  // for an error and read its `message` through a getter of the program's, which copied
  // the expected elements into its answer. Object.setPrototypeOf, Reflect.setPrototypeOf
  // and the __proto__ setter refuse a builtin prototype (or constructor) as their target.
  const builtinObjects = new Set(protos);
  for (const C of globalFunctions) {
    builtinObjects.add(C);
    if (C.prototype && (typeof C.prototype === 'object' || typeof C.prototype === 'function')) {
      builtinObjects.add(C.prototype);
    }
  }
  for (const p of [...iterators, Object.getPrototypeOf(iterators[0]), generator, asyncGenerator,
    Object.getPrototypeOf(asyncGenerator), Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function () {})]) builtinObjects.add(p);
  const setHas0 = Set.prototype.has;
  const refuseProto = (o) => {
    if (Reflect.apply(setHas0, builtinObjects, [o])) {
      throw new TypeError("codereward: a builtin's prototype chain is fixed");
    }
  };
  const setProto0 = Object.setPrototypeOf, reflectSetProto0 = Reflect.setPrototypeOf;
  dp(Object, 'setPrototypeOf', { value: function setPrototypeOf(o, p) {
    refuseProto(o);
    return Reflect.apply(setProto0, Object, [o, p]);
  }, writable: true, enumerable: false, configurable: true });
  dp(Reflect, 'setPrototypeOf', { value: function setPrototypeOf(o, p) {
    if (Reflect.apply(setHas0, builtinObjects, [o])) return false;
    return Reflect.apply(reflectSetProto0, Reflect, [o, p]);
  }, writable: true, enumerable: false, configurable: true });
  const protoAccessor = gopd0(Object.prototype, '__proto__');
  if (protoAccessor && protoAccessor.configurable) {
    const protoGet = protoAccessor.get, protoSet = protoAccessor.set;
    dp(Object.prototype, '__proto__', { get: protoGet, set(p) {
      refuseProto(this);
      return Reflect.apply(protoSet, this, [p]);
    }, enumerable: false, configurable: false });
  }
  keep(Object, null, ['prototype']);
  keep(Object.prototype, ['hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']);
  // No function's source that holds the test's: the module's own wrapper (a sloppy
  // top level's arguments.callee, or a stack frame's getFunction()) is main.js whole.
  const source = Function.prototype.toString;
  // The test's function: from the keyword after the unit's entry points (`[...]`, names and
  // `typeof` only) to the call's closing parenthesis.
  const at0 = main.lastIndexOf('__cr_run(');
  const list0 = at0 < 0 ? -1 : main.indexOf(']', at0);
  const fn0 = list0 < 0 ? -1 : main.indexOf('function', list0);
  const end0 = main.lastIndexOf(')');
  const testText = fn0 < 0 || end0 < fn0 ? null : main.slice(fn0, end0);
  Object.defineProperty(Function.prototype, 'toString', { value: { toString() {
    const t = Reflect.apply(source, this, []);
    if (testText !== null && typeof t === 'string' && has(t, testText)) {
      refuse("the source of the unit's code");
    }
    return t; } }.toString, writable: true, configurable: true, enumerable: false });
  keep(Function.prototype, ['call', 'apply', 'bind', 'toString']);
  keep(JSON); keep(Math); keep(Reflect);
  const names = [PARAMS];
  keep(globalThis, names);
  const load = require;
  const testRequire = function require(m) {
    if (typeof m === 'string' && m in trusted) return trusted[m];
    return load(bare(m) ? rooted(m) : m);
  };
  testRequire.resolve = load.resolve;
  testRequire.cache = load.cache;
  const real = { require: testRequire, undefined: undefined, NaN: NaN, Infinity: Infinity };
  for (const n of names) if (!(n in real)) real[n] = globalThis[n];
  const args = names.map((n) => real[n]);
  const text = source;
  const apply = Reflect.apply;
  const expected = testText;
  const { isArray } = Array;
  const given = (entries) => isArray(entries) && entries.length === ENTRY_COUNT;
  const define = (o, k, v) => Object.defineProperty(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
  let ran = false;
  // On Object.prototype (which no program can replace or re-prototype), so the unit's
  // `({}).__cr_run(...)` reaches this function whatever names the program declares.
  Object.defineProperty(Object.prototype, '__cr_run', {
    value: function (entries, test) {
      if (ran || typeof test !== 'function' || apply(text, test, []) !== expected || !given(entries)) {
        throw new Error('codereward: this is not the test');
      }
      ran = true;
      const list = [];
      for (let i = 0; i < ENTRY_COUNT; i++) define(list, i, answers(entries[i]));
      for (let i = 0; i < args.length; i++) define(list, ENTRY_COUNT + i, args[i]);
      const live = new SetC();
      const stops = [];
      if (asyncTest && nonce !== null) {
        stops.push(apply(onInit, promiseHooks, [(p) => { apply(setAdd, live, [p]); }]));
        stops.push(apply(onSettled, promiseHooks, [(p) => { apply(setDelete, live, [p]); }]));
      }
      if (nonce !== null) {  // every test: a callback's failure after a synchronous test returned too
        apply(capture, process, [null]);
        apply(capture, process, [(e) => {
          try { write(2, `codereward: the test failed: ${e && e.stack ? e.stack : e}\n`); } catch (x) {}
          apply(reallyExit, process, [1]);
        }]);
        captured = true;
      }
      apply(test, undefined, list);
      if (nonce === null) return;
      let passed = false;
      const pass = () => {
        if (passed || apply(setSize, live, []) !== 0) return;
        passed = true;
        for (const stop of stops) stop();
        write(3, nonce);
      };
      // at beforeExit, which a program can emit itself: decided one turn of the loop later,
      // after the microtasks and the rejections the emit ran ahead of (a failed assertion's
      // rejection not yet raised), and only where no timer or immediate of anyone's is left
      let waiting = false;
      const drained = () => {
        // a promise still pending when the loop drains never settles: no turn more for it
        if (passed || waiting || apply(setSize, live, []) !== 0) return;
        waiting = true;
        apply(immediate, undefined, [() => {
          waiting = false;
          for (const r of apply(activeResources, process, [])) if (r === 'Timeout' || r === 'Immediate') return;
          pass();
        }]);
      };
      if (!asyncTest) pass();
      else apply(onProcess, process, ['beforeExit', drained]);
    },
    writable: false, configurable: false, enumerable: false,
  });
})();
"""
