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

LeetCode's ``ListNode`` and ``TreeNode`` (``NODES``) cross as LeetCode writes them: a
linked list as the list of its values, a binary tree as its level order with ``null`` for
a missing child and trailing nulls cut; ``[]`` or ``null`` is the empty list or tree. The
harness builds the nodes (by the program's own constructor from a value where C++, Java
or JavaScript has one), and encodes a returned node by reading its fields (Java, Go and
JavaScript by reflection or own data properties, so no getter or method of the program
runs); a returned cycle or a node reached twice is a ``value`` error (wrong_answer), never
a hang. A program that names a node type without defining it (LeetCode's snippets keep
the definition in a comment) gets LeetCode's definition: in C++ after the leading
``#include`` and ``using`` lines (so the precompiled header still applies), in C before
the program and in the generated harness, elsewhere beside the harness. Which parameters
are nodes is the signature's own reading (C++ and Rust by type, Java and Go by
reflection, C from the signature's text), except in JavaScript, whose parameters have no
types: there the program's JSDoc (``@param {ListNode} head``, ``@return {TreeNode}``)
or TypeScript annotations say so, and without them the arguments pass as plain JSON.

Overloads of the entry point's name (a recursive helper ``isSymmetric(a, b)`` beside
``isSymmetric(root)``): a C++ or Java build is made per argument count of its tests, and
the overload of that arity is called (C++ by template deduction against the overload set,
Java by reflection); two overloads of one arity are refused.

A method a class inherits is called on a fresh instance of the named class (C++: ``new
T()`` for the class named, not the base the member pointer belongs to; Java: the class's
superclasses are searched). A void method answers ``null``. A C or C++ program with no
``#include`` at all is a LeetCode snippet and gets the headers LeetCode's judge puts
before it (``_INCLUDE``).

Not supported (a clear verdict, never a crash): overloads of a free C++ function, default
arguments of a C++ entry point (its arity is its pointer's), a Rust method taking
``self``, node types other than LeetCode's two (``Node`` with ``random`` or
``children``), a C structure returned by value. Call tests compare the returned value
only: an in-place problem (LeetCode's ``void`` ones) needs an assert test.
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


def call_build(
    language: str, program: str, class_name: str | None, fn_name: str, arity: int | None = None
) -> CallBuild:
    """The program with the harness that calls ``class_name().fn_name`` (or ``fn_name``);
    ``arity`` (the test's argument count) picks among C++ and Java overloads of the name."""
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
    if language in ("c", "cpp"):  # the lines GCC reads (``languages.c_newlines``)
        from reward_api.verify.languages import c_newlines

        program = c_newlines(program)
    if language == "c":  # no classes: class_name is ignored, as in Go
        return _c(program, fn_name, nonce)
    if language == "cpp":
        return CallBuild(
            {"main.cpp": _cpp(program, class_name, fn_name, nonce, arity)}, nonce=nonce
        )
    if language == "java":
        return _java(program, class_name, fn_name, nonce, arity)
    if language == "go":
        return CallBuild({"main.go": _go(program, class_name, fn_name, nonce)}, nonce=nonce)
    if language == "rust":
        return CallBuild({"main.rs": _rust(program, class_name, fn_name, nonce)}, nonce=nonce)
    source = _js(program, class_name, fn_name, nonce, language == "typescript")
    return CallBuild({"main.ts" if language == "typescript" else "main.js": source}, nonce=nonce)


# ------------------------------------------------------------------ LeetCode's nodes
NODES = ("ListNode", "TreeNode")
"""LeetCode's linked list and binary tree: a ``ListNode`` argument or result crosses as
the list of its values (``[1,2,3]``), a ``TreeNode`` as its level order with ``null`` for a
missing child and trailing nulls cut (``[1,null,2,3]``); ``[]`` and ``null`` are the
empty list or tree. When the program uses a node type without defining it (LeetCode's
snippets keep the definition in a comment), LeetCode's own definition is added."""
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _nodes(program: str, defines: str) -> tuple[set[str], set[str]]:
    """(the node types the program's code names, those it defines itself); ``defines`` is
    the pattern of a definition, with ``{}`` for the name."""
    code = _COMMENTS.sub(" ", program)
    used = {n for n in NODES if re.search(rf"\b{n}\b", code)}
    return used, {n for n in used if re.search(defines.format(n), code)}


_CPP_NODES = {
    "ListNode": "struct ListNode {\n  int val;\n  ListNode* next;\n"
    "  ListNode() : val(0), next(nullptr) {}\n  ListNode(int x) : val(x), next(nullptr) {}\n"
    "  ListNode(int x, ListNode* next) : val(x), next(next) {}\n};\n",
    "TreeNode": "struct TreeNode {\n  int val;\n  TreeNode* left;\n  TreeNode* right;\n"
    "  TreeNode() : val(0), left(nullptr), right(nullptr) {}\n"
    "  TreeNode(int x) : val(x), left(nullptr), right(nullptr) {}\n"
    "  TreeNode(int x, TreeNode* left, TreeNode* right) : val(x), left(left), right(right) {}\n};\n",
}
_PREAMBLE_LINE = re.compile(
    r"\s*(?:$|#|//|using\s+(?:namespace\s+)?[\w:]+\s*;\s*(?://.*|/\*.*\*/\s*)?$)"
)
"""A line that may come before LeetCode's definitions: blank, a directive, a line comment,
``using namespace std;`` or ``using std::vector;`` (an alias ``using P = pair<TreeNode*,
int>;`` may name a node, so the definitions go before it)."""


def _after_preamble(program: str, text: str) -> str:
    """``text`` inserted after the program's leading directives, comments and ``using``
    lines (so ``#include <bits/stdc++.h>`` stays first and finds its precompiled header)."""
    lines = program.splitlines(keepends=True)
    k, in_comment, continued = 0, False, False
    for k, line in enumerate(lines):  # noqa: B007 (k is where the preamble ends)
        bare = line.lstrip()
        if in_comment:
            in_comment = "*/" not in line
            if not in_comment and line.split("*/", 1)[1].strip():
                break  # code after the comment on its line
        elif bare.startswith("/*"):
            in_comment = "*/" not in bare[2:]
            if not in_comment and bare[2:].split("*/", 1)[1].strip():
                break
        elif not continued and not _PREAMBLE_LINE.match(line):
            break
        continued = line.rstrip("\r\n").endswith("\\")
    else:
        k = len(lines)
    head = "".join(lines[:k])
    if head and not head.endswith("\n"):
        head += "\n"
    return f"{head}{text}{''.join(lines[k:])}"


_INCLUDE = re.compile(r"^\s*#\s*include\b", re.M)
"""A program with no ``#include`` at all is a LeetCode snippet, which LeetCode's judge
compiles after its own headers (C++: ``<bits/stdc++.h>`` and ``using namespace std;``; C:
the standard headers); a call build adds the same, and nothing to a program that includes
anything itself."""
_C_HEADERS = "".join(
    f"#include <{h}.h>\n"
    for h in ("ctype", "limits", "math", "stdbool", "stdint", "stdio", "stdlib", "string")
)


def _cpp_main(cls: str | None, fn: str, arity: int | None) -> str:
    """The harness's ``main``: a method of ``cls`` is taken by its pointer; when the name is
    overloaded (a recursive helper of the same name is common), the overload whose arity is
    the test's, picked by template deduction against the overload set."""
    if cls is None:
        return (
            'extern "C" int __wrap_main(int, char**, char**) {\n'
            f'  __cr_call::entry("__CR_NONCE__", &{fn});\n  return 1;\n}}\n'
        )
    n = arity if arity is not None and 0 <= arity <= 8 else 0
    ts = "".join(f", class A{k}" for k in range(n))
    ps = ", ".join(f"A{k}" for k in range(n))
    picks = "".join(
        f"template <class C, class R{ts}> auto __cr_pick(R (C::*f)({ps}){q}) {{ return f; }}\n"
        for q in ("", " const")
    )
    picks += f"template <class R{ts}> auto __cr_pick(R (*f)({ps})) {{ return f; }}\n"
    return (
        f"template <class T, class = void> struct __cr_one : std::false_type {{}};\n"
        f"template <class T> struct __cr_one<T, std::void_t<decltype(&T::{fn})>> : std::true_type {{}};\n"
        f"{picks}"
        f"template <class T> void __cr_main() {{\n"
        f'  if constexpr (__cr_one<T>::value) __cr_call::method<T>("__CR_NONCE__", &T::{fn});\n'
        f'  else __cr_call::method<T>("__CR_NONCE__", __cr_pick(&T::{fn}));\n}}\n'
        f'extern "C" int __wrap_main(int, char**, char**) {{\n  __cr_main<{cls}>();\n  return 1;\n}}\n'
    )


def _cpp(program: str, cls: str | None, fn: str, nonce: str, arity: int | None = None) -> str:
    from reward_api.verify.languages import defined_macros

    if cls is None and re.search(r"\b(?:class|struct)\s+Solution\b", program):
        cls = "Solution"
    if not _INCLUDE.search(_COMMENTS.sub(" ", program)):  # a LeetCode snippet: its judge's headers
        program = "#include <bits/stdc++.h>\nusing namespace std;\n" + program
    used, own = _nodes(program, r"\b(?:struct|class)\s+{}\s*(?:final\s*)?[{{:]")
    if used - own:
        lines = "".join(_CPP_NODES[n] for n in NODES if n in used - own)
        program = _after_preamble(program, f"/* codereward: LeetCode's definitions */\n{lines}")
    undefs = "\n".join(f"#undef {m}" for m in sorted(defined_macros(program) | {"main"}))
    flags = "".join(f"#define __CR_{n[:-4].upper()}_NODE 1\n" for n in NODES if n in used)
    harness = _harness("call.cpp").replace("__CR_MAIN__", _cpp_main(cls, fn, arity))
    harness = harness.replace("__CR_NONCE__", nonce)
    return f"{program}\n\n/* codereward: the harness sees the language, not the program's macros */\n{undefs}\n{flags}{harness}"


_JAVA_CLASS = re.compile(r"\b(?:class|enum|record)\s+([A-Za-z_$][\w$]*)")


_JAVA_NODES = {
    "ListNode": "// codereward: LeetCode's definition\nclass ListNode {\n    int val;\n    ListNode next;\n"
    "    ListNode() {}\n    ListNode(int val) { this.val = val; }\n"
    "    ListNode(int val, ListNode next) { this.val = val; this.next = next; }\n}\n",
    "TreeNode": "// codereward: LeetCode's definition\nclass TreeNode {\n    int val;\n    TreeNode left;\n"
    "    TreeNode right;\n    TreeNode() {}\n    TreeNode(int val) { this.val = val; }\n"
    "    TreeNode(int val, TreeNode left, TreeNode right) {\n"
    "        this.val = val;\n        this.left = left;\n        this.right = right;\n    }\n}\n",
}


def _java(
    program: str, cls: str | None, fn: str, nonce: str, arity: int | None = None
) -> CallBuild:
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
        .replace("__CR_ARITY__", str(arity if arity is not None else -1))
        .replace("__CR_CLASSES__", ", ".join(json.dumps(c) for c in dict.fromkeys(classes)))
    )
    files = {f"{_java_main_class(program)}.java": program, f"{name}.java": harness}
    used, own = _nodes(program, r"\b(?:class|record|interface|enum)\s+{}\b")
    files.update({f"{n}.java": _JAVA_NODES[n] for n in NODES if n in used - own})
    return CallBuild(files, run_class=name, nonce=nonce)


_GO_MAIN = re.compile(r"\bfunc\s+main\s*\(\s*\)")
_GO_IMPORTS = (
    '__cr_io "io"; __cr_math "math"; __cr_os "os"; __cr_reflect "reflect"; __cr_strconv "strconv"'
)


_GO_NODES = {
    "ListNode": "// codereward: LeetCode's definition\ntype ListNode struct {\n\tVal  int\n\tNext *ListNode\n}\n\n",
    "TreeNode": "// codereward: LeetCode's definition\ntype TreeNode struct {\n\tVal   int\n"
    "\tLeft  *TreeNode\n\tRight *TreeNode\n}\n\n",
}


def _go(program: str, cls: str | None, fn: str, nonce: str) -> str:
    from reward_api.verify.languages import _go_header, _go_imports

    # LeetCode's Go snippets have no package clause; any package becomes main (the clause
    # read as Go reads it: a CRLF line or `package main; import ...` is one too)
    header = _go_header(program)
    if header is not None:
        end = header[0]
        name = re.search(r"\w+$", program[:end])
        program = program[: name.start() if name else end] + "main" + program[end:]
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
    used, own = _nodes(program, r"\btype\s+{}\s+struct\b")
    nodes = "".join(_GO_NODES[n] for n in NODES if n in used - own)
    return _go_imports(program, _GO_IMPORTS) + "\n" + nodes + harness


_RUST_MAIN = re.compile(r"\bfn\s+main\s*\(\s*\)")


_RUST_NODES = {
    "ListNode": "\n// codereward: LeetCode's definition\n#[derive(PartialEq, Eq, Clone, Debug)]\n"
    "pub struct ListNode {\n    pub val: i32,\n    pub next: Option<Box<ListNode>>,\n}\n"
    "#[allow(dead_code)]\nimpl ListNode {\n    #[inline]\n"
    "    fn new(val: i32) -> Self {\n        ListNode { next: None, val }\n    }\n}\n",
    "TreeNode": "\n// codereward: LeetCode's definition\n#[derive(Debug, PartialEq, Eq)]\n"
    "pub struct TreeNode {\n    pub val: i32,\n"
    "    pub left: Option<::std::rc::Rc<::std::cell::RefCell<TreeNode>>>,\n"
    "    pub right: Option<::std::rc::Rc<::std::cell::RefCell<TreeNode>>>,\n}\n"
    "#[allow(dead_code)]\nimpl TreeNode {\n    #[inline]\n"
    "    pub fn new(val: i32) -> Self {\n        TreeNode { val, left: None, right: None }\n    }\n}\n",
}
_RUST_NODE_PARTS = re.compile(r"^    // ---- (?:ListNode|TreeNode|end) ----\n", re.M)


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
    used, own = _nodes(program, r"\b(?:struct|enum|type|union)\s+{}\b")
    if used:
        extra += "".join(_RUST_NODES[n] for n in NODES if n in used - own)
        common, list_impls, tree_impls, end = _RUST_NODE_PARTS.split(_harness("call_nodes.rs"))
        impls = (list_impls if "ListNode" in used else "") + (
            tree_impls if "TreeNode" in used else ""
        )
        harness += common + impls + end
    return f"{program}\n{extra}{harness}"


_JS_NODES = {
    "ListNode": "function ListNode(val, next) {\n  this.val = val === undefined ? 0 : val;\n"
    "  this.next = next === undefined ? null : next;\n}\n",
    "TreeNode": "function TreeNode(val, left, right) {\n  this.val = val === undefined ? 0 : val;\n"
    "  this.left = left === undefined ? null : left;\n  this.right = right === undefined ? null : right;\n}\n",
}
_TS_NODES = {
    "ListNode": "class ListNode {\n  val: number;\n  next: ListNode | null;\n"
    "  constructor(val?: number, next?: ListNode | null) {\n    this.val = val === undefined ? 0 : val;\n"
    "    this.next = next === undefined ? null : next;\n  }\n}\n",
    "TreeNode": "class TreeNode {\n  val: number;\n  left: TreeNode | null;\n  right: TreeNode | null;\n"
    "  constructor(val?: number, left?: TreeNode | null, right?: TreeNode | null) {\n"
    "    this.val = val === undefined ? 0 : val;\n    this.left = left === undefined ? null : left;\n"
    "    this.right = right === undefined ? null : right;\n  }\n}\n",
}
_JS_DEFINES = (
    r"(?m)\b(?:function|class|interface|type)\s+{0}\b"
    r"|(?:^|[;{{}}])\s*(?:(?:var|let|const)\s+)?{0}\s*=(?![=>])"
)
"""A definition of a node type in JavaScript or TypeScript (``{0}``: its name); a use such
as ``let d: ListNode = new ListNode()`` is none."""
_JS_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}


def _blank_comments(code: str) -> str:
    """``code`` with its comments turned to spaces (positions kept)."""
    return _COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)


def _js_params(code: str, start: int) -> tuple[list[str], int] | None:
    """The parameters of the list opening at ``code[start] == "("``, split at top-level
    commas, and the position after its ``)``."""
    depth, k, parts, last = 0, start, [], start + 1
    while k < len(code):
        c = code[k]
        if c in _JS_OPEN:
            depth += 1
        elif c in ")]}>" and not (c == ">" and code[k - 1] == "="):
            depth -= 1
            if depth == 0:
                parts.append(code[last:k])
                return [p for p in parts if p.strip()], k + 1
        elif c == "," and depth == 1:
            parts.append(code[last:k])
            last = k + 1
        k += 1
    return None


def _node_kind(type_text: str | None) -> dict[str, Any] | None:
    """``{"kind": "list"|"tree", "many": bool}`` for a declared type naming a node."""
    if not type_text:
        return None
    hits = [(type_text.find(n), n) for n in NODES if n in type_text]
    if not hits:
        return None
    name = min(hits)[1]
    many = "[]" in type_text or "Array<" in type_text
    return {"kind": "list" if name == "ListNode" else "tree", "many": many}


def _js_kinds(program: str, fn: str, typescript: bool) -> tuple[list[Any], Any]:
    """Which of ``fn``'s parameters, and its result, are LeetCode nodes, as the program
    declares them: TypeScript's annotations, JavaScript's JSDoc (``@param {ListNode} head``,
    ``@return {TreeNode}``) just before the definition. JavaScript has no parameter types at
    run time, so this is the one signature read from the text; without a declaration the
    arguments pass as JSON values."""
    code = _blank_comments(program)
    f = re.escape(fn)
    m = re.search(
        rf"\bfunction\s*\*?\s*{f}\s*(?:<[^>]*>)?\s*(?=\()"
        rf"|(?<![\w$.]){f}\s*[:=]\s*(?:async\s+)?(?:function\b[^(]*)?(?=\()"
        rf"|^[ \t]*(?:(?:public|private|protected|static|async|readonly)\s+)*{f}\s*(?:<[^>]*>)?\s*(?=\()",
        code,
        re.M,
    )
    if m is None:
        return [], None
    split = _js_params(code, m.end())
    if split is None:
        return [], None
    params, after = split
    names, types = [], []
    for p in params:
        p = p.strip().removeprefix("...")
        name = re.match(r"[A-Za-z_$][\w$]*", p)
        names.append(name.group(0) if name else "")
        decl = p.split("=", 1)[0]
        types.append(decl.split(":", 1)[1] if typescript and ":" in decl else None)
    ret = None
    if typescript:
        r = re.match(r"\s*:\s*([^{=]*)", code[after:])
        ret = r.group(1) if r else None
    else:
        docs = list(re.finditer(r"/\*\*.*?\*/", program[: m.start()], re.S))
        if docs and re.fullmatch(r"[\s\w$=:]*", program[docs[-1].end() : m.start()]):
            doc = docs[-1].group(0)
            declared = dict(
                (n, t) for t, n in re.findall(r"@param\s*\{([^}]*)\}\s*\[?([A-Za-z_$][\w$]*)", doc)
            )
            types = [declared.get(n) for n in names]
            r = re.search(r"@returns?\s*\{([^}]*)\}", doc)
            ret = r.group(1) if r else None
    return [_node_kind(t) for t in types], _node_kind(ret)


def _js(program: str, cls: str | None, fn: str, nonce: str, typescript: bool = False) -> str:
    before, after = _harness("call.js").replace("__CR_NONCE__", nonce).split(_JS_AFTER)
    used, own = _nodes(program, _JS_DEFINES)
    kinds, ret = _js_kinds(program, fn, typescript)
    declared = {k["kind"] for k in [*kinds, ret] if k}  # a JSDoc may name what the code never does
    used |= {n for n in NODES if ("list" if n == "ListNode" else "tree") in declared}
    if used - own:
        defs = _TS_NODES if typescript else _JS_NODES
        before += "// codereward: LeetCode's definitions\n" + "".join(
            defs[n] for n in NODES if n in used - own
        )
    types = ", ".join(f"{n[:-4].lower()}: {n}" for n in NODES if n in used)
    after = (
        after.replace("__CR_KINDS__", json.dumps(kinds))
        .replace("__CR_RET__", json.dumps(ret))
        .replace("__CR_NODES__", f"{{{types}}}")
    )
    self, f = f"__cr_self_{nonce}", f"__cr_f_{nonce}"  # call.js's wrapper's own names
    if cls:
        lookup = (
            f"// @ts-ignore\nif (typeof {cls} === 'function') {{ {self} = new {cls}(); {f} = {self}.{fn}; }}\n"
            f"// @ts-ignore\nelse if (typeof {fn} === 'function') {f} = {fn};"
        )
        missing = f"no method {fn} in class {cls}"
    else:
        lookup = (
            f"// @ts-ignore\nif (typeof {fn} === 'function') {f} = {fn};\n"
            "// @ts-ignore\nelse if (typeof Solution === 'function') "
            f"{{ {self} = new Solution(); {f} = {self}.{fn}; }}"
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
        if name in NODES:
            name = f"struct {name}"
        return name + "*" * self.stars

    def node(self) -> str | None:
        """``list`` or ``tree`` for a LeetCode node type (any number of stars)."""
        return {"ListNode": "list", "TreeNode": "tree"}.get(self.base)


_C_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def _c_decl_split(param: str) -> tuple[str, str]:
    """(type, name) of one C parameter: the name is its trailing identifier (``[]`` after it
    makes the type a pointer). Read by hand, in linear time: the regular expression it
    replaces, ``(.*?)([A-Za-z_]\\w*)\\s*(\\[\\s*\\])?\\s*\\Z``, backtracked quadratically on a
    parameter of many letters and a stray character (``int aaaa...a!``: 16,000 letters took
    10 s of the host's CPU, the GIL held, every other sample of the verifier waiting)."""
    p = param.strip()
    star = ""
    if p.endswith("]") and p[:-1].rstrip().endswith("["):
        p, star = p[:-1].rstrip()[:-1].rstrip(), "*"
    i = len(p)
    while i > 0 and (p[i - 1].isalnum() or p[i - 1] == "_"):
        i -= 1
    while i < len(p) and p[i] not in _C_NAME_START:
        i += 1
    if i == len(p):
        return param, ""
    return p[:i] + star, p[i:]


_C_DEF_SPACE = frozenset(" \t\n\r\f\v")


def _c_definition(text: str, fn: str) -> tuple[str, str] | None:
    """(the text before ``fn`` back to the start of its declaration, its parameter list) of
    the first definition ``TYPE fn(PARAMS) {``, as the regular expression
    ``(?:^|[;}\\n])\\s*([A-Za-z_][\\w\\s\\*]*?)\\s*\\bfn\\s*\\(([^()]*)\\)\\s*\\{`` finds it,
    in linear time: that expression tried every line start of a long run of words with no
    definition after it (8,000 lines: 5 s of the host's CPU with the GIL held)."""
    for m in re.finditer(rf"\b{fn}\s*\(([^()]*)\)\s*\{{", text):
        end = m.start()
        r = end
        while r > 0 and (text[r - 1].isalnum() or text[r - 1] in "_*" or text[r - 1].isspace()):
            r -= 1
        starts = [r] if r == 0 or text[r - 1] in ";}" else []
        starts += [j + 1 for j in range(r, end) if text[j] == "\n"]
        for q in starts:
            head = text[q:end].lstrip()
            if head and head[0] in _C_NAME_START:
                return head.rstrip(), m.group(1)
    return None


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
    found = _c_definition(text, fn)
    if found is None:
        return f"no definition of {fn} with a signature call tests can read"

    def resolve(s: str) -> str:
        for _ in range(4):
            s = re.sub(r"[A-Za-z_]\w*", lambda w: aliases.get(w.group(0), w.group(0)), s)
        return s

    ret = resolve(found[0])
    if re.search(r"\bstatic\b", ret):
        return f"{fn} is static: a call test cannot reach it"
    ret = re.sub(r"\b(?:inline|extern)\b", " ", ret)
    params = [] if found[1].strip() in ("", "void") else found[1].split(",")
    return ret, [(resolve(t), n) for t, n in map(_c_decl_split, params)]


def _c(program: str, fn: str, nonce: str) -> CallBuild:
    if not _INCLUDE.search(_COMMENTS.sub(" ", program)):
        program = _C_HEADERS + program
    sig = _c_signature(program, fn)
    if isinstance(sig, str):
        return _refuse(sig)
    ret_text, params = sig
    ret = _CType(ret_text)
    types = [_CType(t) for t, _ in params]
    elem = _CType(ret.base)
    trailing = 0  # LeetCode's returnSize (and returnColumnSizes) after the arguments
    node_ret = ret.node() if ret.stars == 1 else None
    if ret.stars >= 1 and not (ret.base == "char" and ret.stars == 1) and not node_ret:
        nodes = ret.stars == 2 and ret.node() is not None  # an array of lists or trees
        if ret.stars > 2 or (elem.scalar() is None and not nodes):
            return _refuse(f"{fn} returns a type call tests do not convert")
        last = [(t.base, t.stars) for t in types[-2:]]
        trailing = 2 if last == [("int", 1), ("int", 2)] else 1 if last[-1:] == [("int", 1)] else 0
        grid = ret.stars == 2 and ret.base != "char" and not nodes
        if trailing == 0 or (grid and trailing != 2) or (nodes and trailing != 1):
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
        elif t.node() and t.stars == 1:
            decls.append(f"{t.c()} {v} = cr_dec_{t.node()}();")
            call.append(v)
        elif t.node() and t.stars == 2 and is_size(k + 1):
            decls.append(f"size_t {v}n = cr_list(); {t.c()} {v} = cr_alloc({v}n, sizeof *{v});"
                         f" for (size_t i = 0; i < {v}n; i++) {v}[i] = cr_dec_{t.node()}();")  # fmt: skip
            call += [v, f"({types[k + 1].c()}){v}n"]
            k += 1
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
    elif node_ret:
        body = f"{ret.c()} r = {invoke}; cr_enc_{node_ret}(r);"
    elif ret.stars == 1 and ret.base == "char":
        body = f"char* r = {invoke}; cr_enc_string(r);"
    elif ret.stars == 1 or (ret.stars == 2 and trailing == 1):  # a list (of strings or nodes)
        one = _c_enc(elem, "r[i]")
        if ret.stars == 2:
            one = f"cr_enc_{ret.node()}(r[i]);" if ret.node() else "cr_enc_string(r[i]);"
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
    harness = _harness("call.c").replace("__CR_NONCE__", nonce)
    used, own = _nodes(program, r"\bstruct\s+{}\s*\{{")
    if used:  # the harness declares the program's own definition, or LeetCode's for both
        code = _COMMENTS.sub(" ", program)
        defs = {name: _C_NODES[name] for name in used - own}
        for name in own:
            found = re.search(rf"\bstruct\s+{name}\s*\{{[^{{}}]*\}}", code)
            defs[name] = f"{found.group(0) if found else ''};\n"
        if used - own:
            program = (
                "/* codereward: LeetCode's definitions */\n"
                + "".join(defs[n] for n in NODES if n in used - own)
                + program
            )
        common, list_part, tree_part, _end = _C_NODE_PARTS.split(_harness("call_nodes.c"))
        harness += "".join(defs[n] for n in NODES if n in used) + common
        harness += (list_part if "ListNode" in used else "") + (
            tree_part if "TreeNode" in used else ""
        )
    harness += generated + "\n"
    return CallBuild({"main.c": program, "harness.c": harness}, nonce=nonce)


_C_NODES = {
    "ListNode": "struct ListNode {\n  int val;\n  struct ListNode *next;\n};\n",
    "TreeNode": "struct TreeNode {\n  int val;\n  struct TreeNode *left;\n  struct TreeNode *right;\n};\n",
}
_C_NODE_PARTS = re.compile(r"^// ---- (?:ListNode|TreeNode|end) ----\n", re.M)
