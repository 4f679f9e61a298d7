"""Go assert tests lifted out of the candidate's process (MBXP's MBGP shape): the test's
code runs in a build that holds no program, fed the JSON of the values the program's calls
returned.

MBGP's test is a ``func main()`` that follows the program in one package: for each case
``actual_K := f(args)``, ``expected_K := E``, ``deepCompare(actual_K, expected_K, "msg")``,
where ``deepCompare`` (the test's own function) marshals both sides with ``encoding/json``,
unmarshals each into an ``interface{}`` and compares them with ``reflect.DeepEqual``,
panicking on a mismatch. Beside the program, the expected values lie in memory the program
can read (``runtime.Stack`` prints the caller's arguments, ``/proc/self/mem`` or the binary
hold the literals): only the languages module's untrusted checks and the hack gate stand
there. The test sees the program's value only through ``json.Marshal``, so its bytes are
all it needs, and they cross as data:

1. **Plan** (``plan``): the test's top level is functions and declarations, no ``init``,
   ``import`` or ``package``; every mention of an entry point is a call in a statement
   ``NAME := ENTRY(args)`` at the top level of ``main`` (so it runs exactly once, in
   order: ``main`` may hold no ``return``, ``goto``, label, ``defer``, ``go``,
   ``recover``, ``select`` or ``os.Exit`` that could skip or swallow one), with arguments
   made only of literals and the words of ``ARG_WORDS``; and every later mention of
   ``NAME`` is an argument, passed as itself, of a *sink* of the test, before the next
   call's statement. A sink is a top-level function of the test whose parameter at that
   position is an ``interface{}`` (or ``any``) used exactly once, as ``json.Marshal(p)``
   (MBGP's ``deepCompare``: both ``a`` and ``b``). Anything else keeps the test beside
   the program, as before.
2. **Record** (the candidate's build, ``recorder``): the program, then what the test's
   package-level names and imports would make of it (a stub per top-level name of the
   test, so a program that declares ``deepCompare`` still fails to compile; the imports
   the test would add, each kept used), and a ``main`` that calls each call site in the
   test's order and writes, as each returns, one line on the pass channel (fd 3, by the
   ``write`` system call, unbuffered): ``h`` and the hex of ``json.Marshal(value)``, or
   ``e`` when that fails. The build holds no expected value and no nonce, so it is cached
   by content like a stdio build. Its own names carry a keyed hash of the program and the
   test (``lifted.tag``).
3. **Judge** (``judge``): the test's own code verbatim, each call replaced by
   ``__cr_take(K)``, which hands back the K-th recorded line as a ``json.RawMessage``
   (marshalled, it is the same bytes, so ``deepCompare`` unmarshals the same value) or,
   for ``e``, a value whose ``MarshalJSON`` fails (so ``deepCompare`` panics as it would
   have); it exits 3 at a call the candidate never returned from, 4 on a malformed line.
   Independent of the program, it is built once per test (``lifted.Judges``, cached like
   a checker, in the checker cells of Go, which never run a candidate) and prepared while
   the candidate compiles.
4. **On the host** (``lifted_go_host``): where the test is MBGP's own harness and its
   expected values are literals (925 of MBGP's 939 tests), the host reads the recorded
   lines and compares them as ``deepCompare`` would, and no judge is built; a line only Go
   may read sends the sample to the compiled judge.

Verdicts are ``lifted``'s: a comparison that fails in the judge is ``wrong_answer`` (it
came before whatever the candidate did next); a judge that ran out leaves the candidate's
own failure to decide (a panic's exit 2 is ``wrong_answer`` as beside the test, a timeout
``timeout``); a pass needs the judge's exit 0, so every value recorded, and the
candidate's exit 0 (an ``os.Exit(0)`` in ``init`` or in a call records nothing after it).

What a line the program writes itself on fd 3 can do: nothing a returned value could not.
A line is a value of the program's (a type of its own with a ``MarshalJSON`` writes any
JSON it likes, and that is fine here: it runs in the recorder, where no expected value
is), the judge reads it as data (never as source), and a line too many or out of the
alphabet spoils only that sample's own record. So neither ``MarshalJSON`` nor ``unsafe``
make a lifted test untrusted; a program that declares a predeclared identifier
(``_go_predeclared``), or imports another package under a name the test uses, is not
lifted (it would change what the recorder's or the test's words mean), and stays
untrusted beside the test.

Not covered: a ``MarshalJSON`` with side effects that the test's sink would call more
than once (the recorder calls it once per value); a value whose JSON, in hex, is more
than the pass channel holds (``max_output_bytes``: ``output_limit``, where beside the
test it would be compared); HumanEval-X's ``go test`` shape
(``assert.Equal(t, candidate(...), E)``): testify compares by reflection, types included
(``int`` against ``int64``, a named type against its base), which JSON does not carry, so
those tests stay beside the program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reward_api.verify import lifted

ARG_WORDS = frozenset({
    "true", "false", "nil", "bool", "byte", "rune", "string", "int", "int8", "int16", "int32",
    "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64",
    "complex64", "complex128", "any", "map", "struct", "interface",
})  # fmt: skip
"""Names a lifted call's arguments may hold: Go's literal-building words (a program that
declares one of them at package level is not lifted: ``_go_predeclared``)."""

_MAIN_DENY = frozenset({"return", "goto", "defer", "go", "recover", "select", "fallthrough"})
"""Words that could make a statement of ``main`` run other than once, in order, or
swallow a panic."""
_TOP_DENY = frozenset({"package", "import"})
_INSERTS = frozenset({"break", "continue", "fallthrough", "return", "++", "--", ")", "]", "}"})
_KEYWORDS = frozenset({
    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
    "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
    "return", "select", "struct", "switch", "type", "var",
})  # fmt: skip

_GO_TOKEN = re.compile(
    r"""
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v]+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*"|`[^`]*`)
  | (?P<chr>'(?:\\.|[^'\\\n])*')
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<id>[^\W\d]\w*)
  | (?P<punct>\.\.\.|&\^=|<<=|>>=|:=|<-|&&|\|\||\+\+|--|<<|>>|&\^|[-+*/%&|^!=<>]=|.)
    """,
    re.S | re.X,
)
_OPEN = {"(": ")", "[": "]", "{": "}"}


class _Tok:
    __slots__ = ("end", "kind", "match", "nl", "start", "text")

    def __init__(self, kind: str, text: str, start: int, end: int, nl: bool) -> None:
        self.kind, self.text, self.start, self.end, self.nl = kind, text, start, end, nl
        self.match = -1


def tokens(code: str) -> list[_Tok]:
    """Go's tokens of ``code`` (``nl``: a newline, or a comment holding one, comes before
    the token), brackets paired (``match``); none when they do not balance."""
    toks: list[_Tok] = []
    nl = False
    for m in _GO_TOKEN.finditer(code):
        kind = m.lastgroup or "punct"
        if kind == "nl" or (kind == "comment" and "\n" in m.group(0)):
            nl = True
            continue
        if kind in ("ws", "comment"):
            continue
        if kind in ("str", "chr", "num"):
            kind = "lit"
        toks.append(_Tok(kind, m.group(0), m.start(), m.end(), nl))
        nl = False
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.text in _OPEN:
            stack.append(i)
        elif t.text in (")", "]", "}"):
            if not stack or _OPEN[toks[stack[-1]].text] != t.text:
                return []
            j = stack.pop()
            toks[i].match, toks[j].match = j, i
    return toks if not stack else []


def _inserts(t: _Tok) -> bool:
    """Whether a newline after ``t`` ends the statement (Go's semicolon insertion)."""
    return (t.kind == "id" and t.text not in _KEYWORDS) or t.kind == "lit" or t.text in _INSERTS


def statements(toks: list[_Tok], start: int, end: int) -> list[tuple[int, int]]:
    """The statements of ``toks[start:end]`` (a block's body or a file's top level) as
    token ranges ``[a, b)``, bracketed groups taken whole."""
    out: list[tuple[int, int]] = []
    a = i = start
    while i < end:
        if toks[i].text == ";":
            if i > a:
                out.append((a, i))
            a = i = i + 1
            continue
        j = toks[i].match if toks[i].text in _OPEN else i
        nxt = j + 1
        if nxt >= end or (toks[nxt].nl and _inserts(toks[j])):
            out.append((a, nxt))
            a = nxt
        i = nxt
    return out


@dataclass(frozen=True)
class Plan:
    """Where a lifted Go test's calls are: ``calls`` the (start, end) of each call
    expression in the test's text, in the order they run; ``names`` the test's top-level
    names (the recorder stubs them); ``args`` each call's text, arguments included."""

    calls: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    args: tuple[str, ...]
    independent: bool = True
    """The judge never depends on the program (``Judges.usable`` and ``prepare``)."""
    host: tuple[Any, ...] | None = field(default=None, compare=False, hash=False)
    """The expected values, where the test is MBGP's shape and the host decides what its
    judge would (``lifted_go_host``): no judge is built unless a recorded line needs Go."""


def _is_ref(toks: list[_Tok], m: int, name: str) -> bool:
    """``toks[m]`` is the identifier ``name``, not a selector's field (``x.name``)."""
    return toks[m].kind == "id" and toks[m].text == name and not (m > 0 and toks[m - 1].text == ".")


def declared_names(toks: list[_Tok], a: int, b: int) -> list[str]:
    """The names a ``var``, ``const`` or ``type`` declaration ``toks[a:b]`` declares: each
    name of every spec, grouped in parentheses or not (``var a, b = ...``; a ``type``
    spec's one name)."""
    head = toks[a].text
    if a + 1 < b and toks[a + 1].text == "(":
        specs = statements(toks, a + 2, toks[a + 1].match)
    else:
        specs = [(a + 1, b)]
    names: list[str] = []
    for c, d in specs:
        k = c
        while k < d and toks[k].kind == "id":
            names.append(toks[k].text)
            if head == "type" or k + 1 >= d or toks[k + 1].text != ",":
                break
            k += 2
    return names


def _top_names(toks: list[_Tok], stmts: list[tuple[int, int]]) -> list[str] | None:
    """The names the test declares at package level, or None when its top level holds
    anything but declarations (or an ``init``, which would run before the calls)."""
    names: list[str] = []
    for a, b in stmts:
        head = toks[a].text
        if head == "func":
            if a + 1 < b and toks[a + 1].kind == "id":
                names.append(toks[a + 1].text)
            elif not (a + 1 < b and toks[a + 1].text == "("):  # a method: no package name
                return None
        elif head in ("var", "const", "type"):
            names += declared_names(toks, a, b)
        else:
            return None
    if "init" in names or any(t.text in _TOP_DENY for t in toks):
        return None
    return names


def _sinks(toks: list[_Tok], stmts: list[tuple[int, int]]) -> dict[str, set[int]]:
    """Per top-level function of the test, the positions of its parameters whose value it
    only hands to ``json.Marshal``, once (the module docstring's sinks)."""
    out: dict[str, set[int]] = {}
    for a, b in stmts:
        if toks[a].text != "func" or a + 2 >= b or toks[a + 1].kind != "id":
            continue
        if toks[a + 2].text != "(":
            continue
        close = toks[a + 2].match
        body = next((k for k in range(close + 1, b) if toks[k].text == "{"), None)
        if body is None or toks[body].match != b - 1:
            continue
        # parameters: groups split at depth-0 commas; a group without a type takes the next's
        groups: list[list[_Tok]] = [[]]
        k = a + 3
        while k < close:
            if toks[k].text == ",":
                groups.append([])
                k += 1
                continue
            end = toks[k].match if toks[k].text in _OPEN else k
            groups[-1].extend(toks[k : end + 1])
            k = end + 1
        params: list[tuple[str, str]] = []  # (name, type text), once types are known
        pending: list[str] = []
        for g in groups:
            if not g:
                continue
            if len(g) == 1 and g[0].kind == "id":
                pending.append(g[0].text)
                continue
            kind = " ".join(t.text for t in g[1:])
            for n in [*pending, g[0].text]:
                params.append((n, kind))
            pending = []
        if pending:  # unnamed parameters (types alone): nothing to read
            continue
        span = range(body + 1, b - 1)
        if any(toks[m].text == "json" and (m + 1 >= b or toks[m + 1].text != ".") for m in span):
            continue  # the function's own `json` would not be the package
        found: set[int] = set()
        for pos, (name, kind) in enumerate(params):
            if kind not in ("interface { }", "any"):
                continue
            uses = [m for m in span if _is_ref(toks, m, name)]
            if len(uses) == 1 and uses[0] >= 4 and uses[0] + 1 < b:
                m = uses[0]
                if ([t.text for t in toks[m - 4 : m]] == ["json", ".", "Marshal", "("]
                        and toks[m + 1].text == ")" and toks[m - 4].kind == "id"):  # fmt: skip
                    found.add(pos)
        if found:
            out[toks[a + 1].text] = found
    return out


def plan(test: str, entry_points: tuple[str, ...] | list[str]) -> Plan | None:
    """How ``test`` is lifted, or None when its shape does not allow it (module docstring)."""
    entries = {e for e in entry_points if re.fullmatch(r"[^\W\d]\w*", e)}
    toks = tokens(test)
    if not entries or not toks:
        return None
    top = statements(toks, 0, len(toks))
    names = _top_names(toks, top)
    if names is None or names.count("main") != 1:
        return None
    main = next(
        (a, b) for a, b in top
        if toks[a].text == "func" and a + 1 < b and toks[a + 1].text == "main"
    )  # fmt: skip
    a, b = main
    if ([t.text for t in toks[a + 2 : a + 5]] != ["(", ")", "{"]
            or toks[a + 4].match != b - 1):  # fmt: skip
        return None
    body = statements(toks, a + 5, b - 1)
    sinks = _sinks(toks, top)
    for m in range(a + 5, b - 1):
        t = toks[m]
        if t.text in _MAIN_DENY or (t.text == "Exit" and m > 1 and toks[m - 1].text == "."):
            return None
    for s, _e in body:  # a label
        if toks[s].kind == "id" and s + 1 < len(toks) and toks[s + 1].text == ":":
            return None
    calls: list[tuple[int, int]] = []
    spans: list[tuple[str, int]] = []  # (result name, index of its statement)
    for n, (s, e) in enumerate(body):
        here = [m for m in range(s, e) if any(_is_ref(toks, m, x) for x in entries)]
        if not here:
            continue
        if (here != [s + 2] or e - s < 4 or toks[s].kind != "id" or toks[s].text == "_"
                or toks[s + 1].text != ":=" or toks[s + 3].text != "("
                or toks[s + 3].match != e - 1):  # fmt: skip
            return None
        for m in range(s + 4, e - 1):
            if toks[m].kind == "id" and toks[m].text not in ARG_WORDS:
                return None
            if toks[m].text in (".", "<-"):
                return None
        calls.append((toks[s + 2].start, toks[e - 1].end))
        spans.append((toks[s].text, n))
    if not calls:
        return None
    mentions = sum(1 for m in range(len(toks)) if any(_is_ref(toks, m, x) for x in entries))
    if mentions != len(calls):  # a helper, an alias or a declaration names the program
        return None
    for k, (name, n) in enumerate(spans):
        # its uses: after its own statement, before the next call's
        first = body[n][1]
        last = body[spans[k + 1][1]][0] if k + 1 < len(spans) else b - 1
        for m in range(a + 5, b - 1):
            if m == body[n][0] or not _is_ref(toks, m, name):
                continue
            if not (first <= m < last and _sink_arg(toks, m, sinks)):
                return None
    args = tuple(test[x:y] for x, y in calls)
    from reward_api.verify import lifted_go_host

    host = lifted_go_host.expected(test, entries)
    if host is not None and len(host) != len(calls):
        host = None
    return Plan(tuple(calls), tuple(n for n in names if n not in ("main", "_")), args,
                host=host)  # fmt: skip


def _sink_arg(toks: list[_Tok], m: int, sinks: dict[str, set[int]]) -> bool:
    """``toks[m]`` is a whole argument of a call of a sink, at one of its sink positions."""
    if toks[m - 1].text not in ("(", ",") or toks[m + 1].text not in (",", ")"):
        return False
    k, pos = m - 1, 0
    while toks[k].text not in _OPEN:  # back to the call's parenthesis, counting arguments
        if toks[k].text == ",":
            pos += 1
        k = toks[k].match - 1 if toks[k].text in (")", "]", "}") else k - 1
    if toks[k].text != "(":
        return False
    return (k > 0 and toks[k - 1].kind == "id" and toks[k - 1].text in sinks
            and not (k > 1 and toks[k - 2].text == ".") and pos in sinks[toks[k - 1].text])  # fmt: skip


# ------------------------------------------------------------------ the two builds
def recorder(tag: str, lift: Plan, uses: str) -> str:
    """What follows the program (its imports already joined by ``__cr_json_TAG``,
    ``__cr_hex_TAG``, ``__cr_syscall_TAG`` and ``__cr_os_TAG``, and the test's) in the
    candidate's build: ``uses`` (the test's packages kept used), a stub per top-level name
    of the test, the writer and ``main``."""
    stubs = "".join(f"var {n} struct{{}}\n" for n in lift.names)
    calls = "".join(f"\t__cr_put_{tag}({call})\n" for call in lift.args)
    return (
        "\n// codereward: the test's packages and names, as beside it; the recorder\n"
        f"{uses}{stubs}\n"
        f"func __cr_put_{tag}(v interface{{}}) {{\n"
        f"\tb, err := __cr_json_{tag}.Marshal(v)\n"
        '\tline := "e\\n"\n'
        "\tif err == nil {\n"
        f'\t\tline = "h" + __cr_hex_{tag}.EncodeToString(b) + "\\n"\n'
        "\t}\n"
        "\tout := []byte(line)\n"
        "\tfor len(out) > 0 {\n"
        f"\t\tn, werr := __cr_syscall_{tag}.Write(3, out)\n"
        f"\t\tif werr == __cr_syscall_{tag}.EINTR {{\n\t\t\tcontinue\n\t\t}}\n"
        f"\t\tif werr != nil || n <= 0 {{\n\t\t\t__cr_os_{tag}.Exit(1)\n\t\t}}\n"
        "\t\tout = out[n:]\n"
        "\t}\n}\n\n"
        f"func main() {{\n{calls}}}\n"
    )


RECORDER_IMPORTS = (
    ("json", "encoding/json"),
    ("hex", "encoding/hex"),
    ("syscall", "syscall"),
    ("os", "os"),
)
"""The recorder's own imports, each as ``__cr_NAME_TAG``."""


def judge(test: str, lift: Plan, imports: str, uses: str) -> str:
    """The test's own code, each call replaced by ``__cr_take(K)``, with the packages it
    names (``imports``, kept used by ``uses``) and the reader of the recorded lines."""
    out, at = [], 0
    for k, (a, b) in enumerate(lift.calls):
        out += [test[at:a], f"__cr_take({k})"]
        at = b
    out.append(test[at:])
    own = ('__cr_json "encoding/json"; __cr_hex "encoding/hex"; __cr_errors "errors"; '
           '__cr_io "io"; __cr_os "os"; __cr_strings "strings"')  # fmt: skip
    return (
        f"package main\n\nimport ({own}{'; ' + imports if imports else ''})\n\n{uses}"
        f"{''.join(out)}\n\n{_TAKE}"
    )


_TAKE = """// codereward: the values the program's calls returned, as the recorder wrote them
type __cr_failed struct{}

func (__cr_failed) MarshalJSON() ([]byte, error) {
\treturn nil, __cr_errors.New("the program's value did not marshal")
}

var __cr_lines []string
var __cr_loaded bool

func __cr_take(k int) __cr_json.Marshaler {
\tif !__cr_loaded {
\t\t__cr_loaded = true
\t\tall, err := __cr_io.ReadAll(__cr_os.Stdin)
\t\tif err != nil {
\t\t\t__cr_os.Exit(4)
\t\t}
\t\ttext := string(all)
\t\tfor len(text) > 0 {
\t\t\ti := __cr_strings.IndexByte(text, '\\n')
\t\t\tif i < 0 {
\t\t\t\t__cr_os.Exit(4)
\t\t\t}
\t\t\t__cr_lines = append(__cr_lines, text[:i])
\t\t\ttext = text[i+1:]
\t\t}
\t}
\tif k >= len(__cr_lines) {
\t\t__cr_os.Exit(3)
\t}
\tline := __cr_lines[k]
\tif line == "e" {
\t\treturn __cr_failed{}
\t}
\tif len(line) == 0 || line[0] != 'h' {
\t\t__cr_os.Exit(4)
\t}
\tb, err := __cr_hex.DecodeString(line[1:])
\tif err != nil || !__cr_json.Valid(b) {
\t\t__cr_os.Exit(4)
\t}
\treturn __cr_json.RawMessage(b)
}
"""
"""The judge's reader: exit 3 at a call the candidate never returned from (every
comparison before it held), 4 on a line the recorder would not write."""

_LINE = re.compile(r"(?:e|h(?:[0-9a-f]{2})*)\n")


def read(channel: Any, calls: int, line: re.Pattern[str] = _LINE) -> lifted.Recorded | None:
    """The recorder's lines (the judge's stdin), or None when the channel holds anything
    else (a line out of the alphabet ``line``, a cut line, more values than calls)."""
    if not isinstance(channel, str) or not channel.isascii():
        return None
    lines = line.findall(channel)
    if sum(map(len, lines)) != len(channel) or len(lines) > calls:
        return None
    return lifted.Recorded([], channel)
