"""Call tests in the compiled languages: the harness that calls the entry point with typed
arguments, the argument stream it reads, and the report it writes (CONTRACT.md, "Other
languages": a call test converts its JSON ``args`` to the parameter types of the entry
point's signature; the returned value is encoded as JSON inside and compared outside).

One build per sample and entry point (``class_name``, ``fn_name``): the program followed
by a trusted harness (``harness/call.*``) that reads the test's arguments on stdin, so
the build is compiled once and each call test of the sample is one run of it with its own
arguments. The signature is the compiler's or the runtime's own reading of the program,
never a parse of its text: C++ deduces the parameter and return types from a pointer to
the entry point (so ``#define int long long`` or a ``typedef`` is seen as the compiler
sees it); Java reads the method's generic parameter types by reflection; Go reads the
function's type with ``reflect``; Rust picks the types by inference through a trait
implemented for every ``Fn(A, B, ..) -> R``; JavaScript and TypeScript take the JSON
values as they are (their runtime has no parameter types). C alone has neither generics
nor reflection: its signature is read from the program's text (``typedef`` and
object-like ``#define`` aliases resolved) under LeetCode's conventions, and the harness,
a file of its own linked with ``--wrap=main``, is generated for it: scalars, ``char*``
strings, an array as ``T* xs, int xsSize``, a grid as ``T** g, int gSize, int*
gColSize``, ``char** words, int wordsSize``; a returned array through a trailing ``int*
returnSize`` (and ``int** returnColumnSizes`` for a grid). Any other C signature is
refused as ``compile_error`` with the reason.

The argument stream (host to harness, on stdin; arguments are not secret) is a
self-describing prefix code that each harness parses in a few lines: ``n`` null, ``t`` /
``f``, ``i<decimal>;``, ``d<float>;``, ``s<utf-8 bytes>:<bytes>``, ``l<count>:`` then the
items, ``m<count>:`` then key (a string) and value pairs. JavaScript reads the JSON text.
The harness decodes it into the parameter types (an integer must fit its type, a char is
a one-character string, a float parameter takes an integer); what does not fit is the
harness's ``args`` error, a ``runtime_error`` with the reason.

Trust: the report is ``NONCE LENGTH "\\n" JSON`` on the pass channel (fd 3), written by
the harness only after the entry point returned, with a 128-bit nonce drawn for this build;
the process then ends at once (``_exit``, ``halt``). So an exit before the call returned
(a global constructor, a static block, ``init``, an exit handler) is never an answer, and
a program that writes on fd 3 itself, before, during or after the report, breaks its
prefix or its length and spoils its own answer. The harness encodes the value by its own
code over the declared (C++, Rust) or runtime (Java, Go, JavaScript) type, never through
the program's ``operator<<``, ``toString``, ``Display``, ``MarshalJSON`` or ``toJSON``; an
object of the program's own class is refused as ``wrong_answer``. The expected output
never enters the cell: the host parses the JSON and compares it with ``output`` exactly
as Python's call tests do (``grading.as_json_plain``, Python's ``==``: tuples as lists,
``1 == 1.0``). Not covered, as for assert tests: a program that reads its executable,
class files or memory to find the nonce; for a call test that gains it nothing, since a
report it forges holds only an answer it could have returned (the comparison is outside).

Not supported (a clear verdict, never a crash): LeetCode's ``ListNode`` and ``TreeNode``
(no conversion from JSON lists; C++ and Rust fail to compile with a message naming the
type, C refuses the signature, the others answer an ``args`` or ``value`` error),
overloaded C++ or Java methods of the entry point's name, a Rust method taking ``self``.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from dataclasses import dataclass
from importlib import resources
from typing import Any

from reward_api.schemas import CallTest

IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
"""What ``fn_name`` and ``class_name`` must be: they are spliced into the harness's code."""
LANGUAGES = frozenset({"c", "cpp", "java", "javascript", "typescript", "go", "rust"})
"""The languages whose call tests run."""
_JS_AFTER = "// ---- after the program ----\n"


def _harness(name: str) -> str:
    return resources.files("reward_api.verify").joinpath("harness", name).read_text()


@dataclass(frozen=True)
class CallBuild:
    """The build of a sample's call tests of one entry point, or why there is none."""

    files: dict[str, str]
    run_class: str | None = None
    """Java: the harness class ``java`` runs."""
    nonce: str = ""
    refused: str | None = None
    """Why the entry point cannot be called (a ``compile_error`` with this detail)."""


def entry_of(test: CallTest) -> tuple[str | None, str]:
    return test.class_name, test.fn_name


def _refuse(why: str) -> CallBuild:
    return CallBuild({}, refused=why)


def call_build(language: str, program: str, class_name: str | None, fn_name: str) -> CallBuild:
    """The program with the harness that calls ``class_name().fn_name`` (or ``fn_name``)."""
    if not IDENTIFIER.match(fn_name) or (
        class_name is not None and not IDENTIFIER.match(class_name)
    ):
        return _refuse("the test's fn_name or class_name is not an identifier")
    if language not in LANGUAGES:
        return _refuse(f"call tests are not supported in {language}: use stdio or assert tests")
    if not re.search(rf"(?<![\w$]){re.escape(fn_name)}(?![\w$])", program):
        return _refuse(f"the program defines no {fn_name}")
    if class_name and language not in ("c", "go") and not re.search(rf"\b{class_name}\b", program):
        return _refuse(f"the program defines no class {class_name}")
    nonce = secrets.token_hex(16)
    if language == "c":  # no classes: class_name is ignored, as in Go
        return _c(program, fn_name, nonce)
    if language == "cpp":
        return CallBuild({"main.cpp": _cpp(program, class_name, fn_name, nonce)}, nonce=nonce)
    if language == "java":
        return _java(program, class_name, fn_name, nonce)
    if language == "go":
        return CallBuild({"main.go": _go(program, class_name, fn_name, nonce)}, nonce=nonce)
    if language == "rust":
        return CallBuild({"main.rs": _rust(program, class_name, fn_name, nonce)}, nonce=nonce)
    source = _js(program, class_name, fn_name, nonce)
    return CallBuild({"main.ts" if language == "typescript" else "main.js": source}, nonce=nonce)


def _cpp(program: str, cls: str | None, fn: str, nonce: str) -> str:
    from reward_api.verify.languages import defined_macros

    if cls is None and re.search(r"\b(?:class|struct)\s+Solution\b", program):
        cls = "Solution"
    undefs = "\n".join(f"#undef {m}" for m in sorted(defined_macros(program) | {"main"}))
    entry = f"{cls}::{fn}" if cls else fn
    harness = _harness("call.cpp").replace("__CR_NONCE__", nonce).replace("__CR_ENTRY__", entry)
    return f"{program}\n\n/* codereward: the harness sees the language, not the program's macros */\n{undefs}\n{harness}"


_JAVA_CLASS = re.compile(r"\b(?:class|enum|record)\s+([A-Za-z_$][\w$]*)")


def _java(program: str, cls: str | None, fn: str, nonce: str) -> CallBuild:
    from reward_api.verify.languages import _java_main_class

    if cls is not None:
        classes = [cls]
    else:
        classes = ["Solution"] + [c for c in _JAVA_CLASS.findall(program) if c != "Solution"]
    name = "__CrCall"  # never the nonce: its class file lies in the program's working folder
    harness = (
        _harness("Call.java")
        .replace("__CR_CLASS__", name)
        .replace("__CR_NONCE__", nonce)
        .replace("__CR_FN__", fn)
        .replace("__CR_CLASSES__", ", ".join(json.dumps(c) for c in dict.fromkeys(classes)))
    )
    files = {f"{_java_main_class(program)}.java": program, f"{name}.java": harness}
    return CallBuild(files, run_class=name, nonce=nonce)


_GO_PACKAGE = re.compile(r"^[ \t]*package[ \t]+\w+[ \t]*(?://[^\n]*)?$", re.M)
_GO_MAIN = re.compile(r"\bfunc\s+main\s*\(\s*\)")
_GO_IMPORTS = (
    '__cr_io "io"; __cr_math "math"; __cr_os "os"; __cr_reflect "reflect"; __cr_strconv "strconv"'
)


def _go(program: str, cls: str | None, fn: str, nonce: str) -> str:
    from reward_api.verify.languages import _go_imports

    # LeetCode's Go snippets have no package clause; any package becomes main
    if _GO_PACKAGE.search(program):
        program = _GO_PACKAGE.sub("package main", program, count=1)
    else:
        program = "package main\n\n" + program
    program = _GO_MAIN.sub(f"func __cr_main_{nonce}()", program)
    entry = fn
    if (
        cls
        and re.search(rf"\btype\s+{cls}\s+struct\b", program)
        and re.search(rf"\bfunc\s*\(\s*\w*\s*\*?\s*{cls}\s*\)\s*{fn}\s*\(", program)
    ):
        entry = f"(&{cls}{{}}).{fn}"
    harness = _harness("call.go").replace("__CR_NONCE__", nonce).replace("__CR_ENTRY__", entry)
    return _go_imports(program, _GO_IMPORTS) + "\n" + harness


_RUST_MAIN = re.compile(r"\bfn\s+main\s*\(\s*\)")


def _rust(program: str, cls: str | None, fn: str, nonce: str) -> str:
    if cls is None and re.search(r"\bimpl\s+Solution\b", program):
        cls = "Solution"
    program = _RUST_MAIN.sub(f"fn __cr_main_{nonce}()", program)
    extra = ""
    # LeetCode declares `struct Solution;` itself; its snippets only `impl Solution`
    if cls and not re.search(rf"\b(?:struct|enum|type|union)\s+{cls}\b", program):
        extra = f"\n#[allow(dead_code)] pub struct {cls};\n"
    entry = f"{cls}::{fn}" if cls else fn
    harness = _harness("call.rs").replace("__CR_NONCE__", nonce).replace("__CR_ENTRY__", entry)
    return f"{program}\n{extra}{harness}"


def _js(program: str, cls: str | None, fn: str, nonce: str) -> str:
    before, after = _harness("call.js").replace("__CR_NONCE__", nonce).split(_JS_AFTER)
    if cls:
        lookup = (
            f"// @ts-ignore\nif (typeof {cls} === 'function') {{ self = new {cls}(); f = self.{fn}; }}\n"
            f"// @ts-ignore\nelse if (typeof {fn} === 'function') f = {fn};"
        )
        missing = f"no method {fn} in class {cls}"
    else:
        lookup = (
            f"// @ts-ignore\nif (typeof {fn} === 'function') f = {fn};\n"
            "// @ts-ignore\nelse if (typeof Solution === 'function') "
            f"{{ self = new Solution(); f = self.{fn}; }}"
        )
        missing = f"no function {fn}"
    after = after.replace("__CR_LOOKUP__", lookup).replace("__CR_MISSING__", json.dumps(missing))
    return f"{before}\n{program}\n\n{after}"


# ------------------------------------------------------------------ arguments
class ArgsError(ValueError):
    """A test's arguments that no harness can read (a value JSON cannot hold)."""


def arg_stream(args: list[Any]) -> str:
    """The test's arguments in the harness's prefix code (see the module docstring)."""
    out: list[str] = []
    stack: list[Any] = [args]
    while stack:
        v = stack.pop()
        if isinstance(v, _Key):
            out.append(_string(v.text))
        elif v is None:
            out.append("n")
        elif v is True or v is False:
            out.append("t" if v else "f")
        elif isinstance(v, int):
            out.append(f"i{v};")
        elif isinstance(v, float):
            out.append(f"d{_float(v)};")
        elif isinstance(v, str):
            out.append(_string(v))
        elif isinstance(v, list | tuple):
            out.append(f"l{len(v)}:")
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            out.append(f"m{len(v)}:")
            for k, x in reversed(list(v.items())):
                stack.append(x)
                stack.append(_Key(str(k)))
        else:
            raise ArgsError(f"an argument of type {type(v).__name__} is not JSON")
    return "".join(out)


@dataclass(frozen=True)
class _Key:
    text: str


def _clean(s: str) -> str:
    return s.encode("utf-8", "replace").decode("utf-8")


def _string(s: str) -> str:
    s = _clean(s)
    return f"s{len(s.encode('utf-8'))}:{s}"


def _float(v: float) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


def js_args(args: list[Any]) -> str:
    """JavaScript's stdin: the arguments as JSON text."""
    return json.dumps(args, ensure_ascii=True, allow_nan=True)


# ------------------------------------------------------------------ report
def read_report(channel: Any, nonce: str) -> dict[str, Any] | None:
    """The harness's message (``{"ok": value}`` or ``{"error", "kind"}``), or None when the
    channel holds anything else (nothing, a program's own bytes, a cut or padded report)."""
    if not isinstance(channel, str) or not nonce or not channel.startswith(nonce):
        return None
    head, sep, body = channel[len(nonce) :].partition("\n")
    if not sep or not head.isdigit() or len(head) > 12 or len(body.encode("utf-8")) != int(head):
        return None
    try:
        msg = json.loads(body)
    except (ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(msg, dict) or not (("ok" in msg) ^ ("error" in msg)):
        return None
    return msg


# ------------------------------------------------------------------ C
# C has no reflection or generics: the signature is read from the program's text under
# LeetCode's conventions, and the harness is generated for it.
_C_INTS = {
    "int": ("int", "INT_MIN", "INT_MAX"), "signed": ("int", "INT_MIN", "INT_MAX"),
    "long": ("long", "LONG_MIN", "LONG_MAX"), "long long": ("long long", "LLONG_MIN", "LLONG_MAX"),
    "short": ("short", "SHRT_MIN", "SHRT_MAX"), "signed char": ("signed char", "SCHAR_MIN", "SCHAR_MAX"),
    "unsigned": ("unsigned", "0", "UINT_MAX"), "unsigned long": ("unsigned long", "0", "ULONG_MAX"),
    "unsigned long long": ("unsigned long long", "0", "ULLONG_MAX"),
    "unsigned short": ("unsigned short", "0", "USHRT_MAX"),
    "unsigned char": ("unsigned char", "0", "UCHAR_MAX"), "size_t": ("size_t", "0", "SIZE_MAX"),
    **{f"int{b}_t": (f"int{b}_t", f"INT{b}_MIN", f"INT{b}_MAX") for b in (8, 16, 32, 64)},
    **{f"uint{b}_t": (f"uint{b}_t", "0", f"UINT{b}_MAX") for b in (8, 16, 32, 64)},
}  # fmt: skip
_C_WORDS = {"const", "volatile", "restrict", "register", "struct"}


class _CType:
    def __init__(self, text: str) -> None:
        self.stars = text.count("*")
        words = [w for w in re.findall(r"[A-Za-z_]\w*", text) if w not in _C_WORDS]
        name = re.sub(r"\b(short|long|unsigned|signed)\s+int\b", r"\1", " ".join(words))
        name = re.sub(r"^signed (short|long|long long)$", r"\1", name)
        self.base = {"signed": "int", "_Bool": "bool", "": "int"}.get(name, name)

    def scalar(self) -> str | None:
        """``int``, ``uint``, ``real``, ``bool`` or ``char``, or None if not a known scalar."""
        if self.base in _C_INTS:
            return "uint" if _C_INTS[self.base][1] == "0" else "int"
        if self.base in ("double", "float"):
            return "real"
        if self.base in ("bool", "char"):
            return self.base
        return None

    def c(self) -> str:
        name = _C_INTS[self.base][0] if self.base in _C_INTS else self.base
        return name + "*" * self.stars


def _c_decl_split(param: str) -> tuple[str, str]:
    m = re.match(r"(.*?)([A-Za-z_]\w*)\s*(\[\s*\])?\s*\Z", param.strip(), re.S)
    if m is None:
        return param, ""
    return m.group(1) + ("*" if m.group(3) else ""), m.group(2)


def _c_elem(t: _CType, expr: str) -> str:
    """Code that decodes one scalar of ``t`` into ``expr``."""
    kind = t.scalar()
    if kind in ("int", "uint"):
        _, lo, hi = _C_INTS[t.base]
        return f"{expr} = ({_C_INTS[t.base][0]})cr_int({lo}, {hi});"
    if kind == "real":
        return f"{expr} = ({t.base})cr_real();"
    if kind == "bool":
        return f"{expr} = cr_bool();"
    return f"{expr} = cr_char();"


def _c_enc(t: _CType, expr: str) -> str:
    kind = t.scalar()
    if kind == "int":
        return f"cr_enc_int((long long)({expr}));"
    if kind == "uint":
        return f"cr_enc_uint((unsigned long long)({expr}));"
    if kind == "real":
        return f"cr_enc_real((double)({expr}), {9 if t.base == 'float' else 17});"
    if kind == "bool":
        return f"cr_enc_bool({expr});"
    return f"cr_enc_char({expr});"


def _c_signature(program: str, fn: str) -> tuple[str, list[tuple[str, str]]] | str:
    """(return type, [(type, name)]) of ``fn``'s definition, or why it cannot be read."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", program, flags=re.S)
    aliases: dict[str, str] = {}
    for old, new in re.findall(r"\btypedef\s+([\w\s\*]+?)\s+([A-Za-z_]\w*)\s*;", text):
        aliases[new] = old
    for new, old in re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)\s+([\w \t\*]+?)\s*$", text, re.M):
        aliases.setdefault(new, old)
    m = re.search(rf"(?:^|[;}}\n])\s*([A-Za-z_][\w\s\*]*?)\s*\b{fn}\s*\(([^()]*)\)\s*\{{", text)
    if m is None:
        return f"no definition of {fn} with a signature call tests can read"

    def resolve(s: str) -> str:
        for _ in range(4):
            s = re.sub(r"[A-Za-z_]\w*", lambda w: aliases.get(w.group(0), w.group(0)), s)
        return s

    ret = resolve(m.group(1))
    if re.search(r"\bstatic\b", ret):
        return f"{fn} is static: a call test cannot reach it"
    ret = re.sub(r"\b(?:inline|extern)\b", " ", ret)
    params = [] if m.group(2).strip() in ("", "void") else m.group(2).split(",")
    return ret, [(resolve(t), n) for t, n in map(_c_decl_split, params)]


def _c(program: str, fn: str, nonce: str) -> CallBuild:
    sig = _c_signature(program, fn)
    if isinstance(sig, str):
        return _refuse(sig)
    ret_text, params = sig
    ret = _CType(ret_text)
    types = [_CType(t) for t, _ in params]
    elem = _CType(ret.base)
    trailing = 0  # LeetCode's returnSize (and returnColumnSizes) after the arguments
    if ret.stars >= 1 and not (ret.base == "char" and ret.stars == 1):
        if ret.stars > 2 or elem.scalar() is None:
            return _refuse(f"{fn} returns a type call tests do not convert")
        last = [(t.base, t.stars) for t in types[-2:]]
        trailing = 2 if last == [("int", 1), ("int", 2)] else 1 if last[-1:] == [("int", 1)] else 0
        if trailing == 0 or (ret.stars == 2 and ret.base != "char" and trailing != 2):
            return _refuse(f"{fn} returns an array without LeetCode's returnSize parameters")
    decls: list[str] = []
    call: list[str] = []
    k, argc, n = 0, 0, len(types) - trailing

    def is_size(j: int, stars: int = 0) -> bool:
        return j < n and types[j].scalar() in ("int", "uint") and types[j].stars == stars

    while k < n:
        t, argc = types[k], argc + 1
        v = f"a{argc}"
        decls.append(f"cr_arg = {argc};")
        item = _CType(t.base)
        if t.stars == 0 and t.scalar():
            decls.append(f"{t.c()} {v}; {_c_elem(t, v)}")
            call.append(v)
        elif (
            t.stars == 1
            and t.base == "char"
            and not (is_size(k + 1) and "size" in params[k + 1][1].lower())
        ):
            decls.append(f"char* {v} = cr_string(NULL);")
            call.append(v)
        elif t.stars == 1 and item.scalar() and is_size(k + 1):
            decls.append(f"size_t {v}n = cr_list(); {t.c()} {v} = cr_alloc({v}n, sizeof *{v});"
                         f" for (size_t i = 0; i < {v}n; i++) {{ {_c_elem(item, f'{v}[i]')} }}")  # fmt: skip
            call += [v, f"({types[k + 1].c()}){v}n"]
            k += 1
        elif t.stars == 2 and t.base == "char" and is_size(k + 1) and not is_size(k + 2, 1):
            decls.append(f"size_t {v}n = cr_list(); char** {v} = cr_alloc({v}n, sizeof *{v});"
                         f" for (size_t i = 0; i < {v}n; i++) {v}[i] = cr_string(NULL);")  # fmt: skip
            call += [v, f"({types[k + 1].c()}){v}n"]
            k += 1
        elif t.stars == 2 and item.scalar() and is_size(k + 1) and is_size(k + 2, 1):
            decls.append(
                f"size_t {v}n = cr_list(); {t.c()} {v} = cr_alloc({v}n, sizeof *{v});"
                f" int* {v}c = cr_alloc({v}n, sizeof(int));"
                f" for (size_t i = 0; i < {v}n; i++) {{ size_t m = cr_list();"
                f" {v}[i] = cr_alloc(m, sizeof **{v}); {v}c[i] = (int)m;"
                f" for (size_t j = 0; j < m; j++) {{ {_c_elem(item, f'{v}[i][j]')} }} }}"
            )
            call += [v, f"({types[k + 1].c()}){v}n", f"{v}c"]
            k += 2
        else:
            return _refuse(
                f"parameter {params[k][1] or k + 1} of {fn} has a type call tests do not convert"
            )
        k += 1
    if trailing:
        call += ["&cr_rs", "&cr_rcs"][:trailing]
    proto = ", ".join(t.c() for t in types) or "void"
    invoke = f"{fn}({', '.join(call)})"
    if ret.base == "void" and ret.stars == 0:
        body = f'{invoke}; cr_puts("null");'
    elif ret.stars == 0 and ret.scalar():
        body = f"{ret.c()} r = {invoke}; {_c_enc(ret, 'r')}"
    elif ret.stars == 1 and ret.base == "char":
        body = f"char* r = {invoke}; cr_enc_string(r);"
    elif ret.stars == 1 or (ret.stars == 2 and trailing == 1):  # a list (of strings)
        one = "cr_enc_string(r[i]);" if ret.stars == 2 else _c_enc(elem, "r[i]")
        body = (f'{ret.c()} r = {invoke}; if (!r) cr_rs = 0; cr_puts("[");'
                f' for (int i = 0; i < cr_rs; i++) {{ if (i) cr_puts(","); {one} }}'
                ' cr_puts("]");')  # fmt: skip
    else:  # a list of lists, each of its returnColumnSizes
        body = (f'{ret.c()} r = {invoke}; if (!r) cr_rs = 0; cr_puts("[");'
                ' for (int i = 0; i < cr_rs; i++) { if (i) cr_puts(","); cr_puts("[");'
                " int m = cr_rcs && r[i] ? cr_rcs[i] : 0;"
                f' for (int j = 0; j < m; j++) {{ if (j) cr_puts(","); {_c_enc(elem, "r[i][j]")} }}'
                ' cr_puts("]"); } cr_puts("]");')  # fmt: skip
    generated = "\n".join([
        f"extern {ret.c()} {fn}({proto});",
        "static int cr_rs; static int* cr_rcs;",
        "static void cr_main(void) {",
        "  cr_read_input();",
        "  if (setjmp(cr_jump)) { char m[320];"
        " snprintf(m, sizeof m, \"argument %d: %s\", cr_arg, cr_why);"
        " cr_fail(\"args\", cr_arg ? m : cr_why); }",
        f"  {{ size_t n = cr_list(); if (n != {argc}) {{ char m[128];"
        f" snprintf(m, sizeof m, \"the entry point takes {argc} arguments, the test gives %zu\", n);"
        " cr_fail(\"args\", m); } }",
        *[f"  {d}" for d in decls],
        "  cr_arg = 0;",
        "  cr_puts(\"{\\\"ok\\\":\");",
        f"  {{ {body} }}",
        "  cr_puts(\"}\");",
        "  cr_report();",
        "}",
        "int __wrap_main(int argc, char **argv, char **envp) {",
        "  (void)argc; (void)argv; (void)envp;",
        "  cr_main();",
        "  return 1;",
        "}",
    ])  # fmt: skip
    harness = _harness("call.c").replace("__CR_NONCE__", nonce) + generated + "\n"
    return CallBuild({"main.c": program, "harness.c": harness}, nonce=nonce)
