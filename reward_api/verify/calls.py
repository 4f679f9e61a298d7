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
values as they are (their runtime has no parameter types).

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
``1 == 1.0``). Not covered, as for assert tests: a program that reads its executable or
memory to find the nonce.

Not supported (a clear verdict, never a crash): LeetCode's ``ListNode`` and ``TreeNode``
(no conversion from JSON lists; C++ and Rust fail to compile with a message naming the
type, the others answer an ``args`` or ``value`` error), C (a C entry point's arrays
need LeetCode's size-parameter conventions: refused as ``compile_error``), overloaded
C++ or Java methods of the entry point's name.
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
LANGUAGES = frozenset({"cpp", "java", "javascript", "typescript", "go", "rust"})
"""The languages whose call tests run; a C problem's call tests are refused (see above)."""
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
    if class_name and language != "go" and not re.search(rf"\b{class_name}\b", program):
        return _refuse(f"the program defines no class {class_name}")
    nonce = secrets.token_hex(16)
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
    name = f"__CrCall{nonce}"
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
