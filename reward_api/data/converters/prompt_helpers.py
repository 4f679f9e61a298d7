"""The prompt's helpers a test calls, given to the test as the problem's own.

A few HumanEval prompts define a helper beside the function to write, and the test calls
that helper to judge the answer: HumanEval/32 checks ``abs(poly(xs, find_zero(xs))) <
1e-4``, /38 and /50 check ``decode(encode(s)) == s``. The helper is the problem's, but in a
sample it is the program's text: a program that makes ``poly`` answer 0 (and
``find_zero`` anything), or ``encode_cyclic`` and ``decode_cyclic`` both the identity,
passes while solving nothing, in plain execution too. So the converters give the test a
copy of each such helper, taken from the prompt (trusted text), as the problem's
``setup_code`` (the contract's "trusted code the test may use ...; it is the problem's,
never the program's"), and the test calls the copy:

- Python: the copy under the helper's own name. The test's names that ``setup_code``
  binds are the test's own, never taken from the program (``plans.entry_points``), and
  the test runs in a process of its own; the prompt's imports come with it.
- C, Go, JavaScript: the copy renamed ``problem_<name>`` (every occurrence of the name in
  it, for a recursive helper), and the test's own uses of the name renamed the same way.
  ``setup_code`` is the start of such a test's code (``languages.units_for``), so the copy
  is a function of the test's beside the program's; a program that declares
  ``problem_<name>`` itself fails to build (C, Go: a redefinition) or never reaches the
  test's (JavaScript: the test is a function of its own, its ``const`` a local).
- C++: the copies under their own names in the namespace ``__cr_problem``, which a
  program may not open (reserved), and which declares every overloadable operator first
  (``_CPP_OPEN``): the program's free operators on standard types are not the copies'.
  The test calls ``__cr_problem::<name>``.
- Java: the helper is an instance method of the prompt's ``class Solution``; the copy is a
  ``static`` method of a class of the test's, ``ProblemHelpers``, and each call of the
  test's ``<receiver>.<name>(`` becomes ``ProblemHelpers.<name>(``.

A helper is a function the prompt defines whole (its body closed within the prompt: the
function to write is left open, or in Python is the entry point) and the test names.
Rust's HumanEval-X prompts define no helper (their tests' encoders are the completion's
own, a pair any two inverse functions satisfy), so nothing changes there.
"""

from __future__ import annotations

import ast
import re

PREFIX = "problem_"
"""What a helper's copy is called in C, Go and JavaScript: ``problem_<name>``."""
JAVA_CLASS = "ProblemHelpers"
"""The test's class that holds a Java helper's copy."""

CPP_NAMESPACE = "__cr_problem"
"""The namespace of a C++ helper's copies: reserved to the implementation, so a program
that opens it is refused (``languages._c_assert_build``)."""
_CPP_OPERATORS = ("+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "<", ">", "+=", "-=",
                  "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", ">>=", "<<=", "==", "!=",
                  "<=", ">=", "&&", "||", "++", "--", ",", "->*")  # fmt: skip
_CPP_UNARY = ("~", "!", "++", "--")
_CPP_HEADERS = "".join(
    f"#include <{h}>\n" for h in ("cmath", "cstdlib", "string", "vector", "algorithm")
)
"""The headers the copies' calls are declared by, whatever the program includes: a call of
a standard function that the program also names is made ``::std::``'s
(``compiled_eq.qualify_cpp_std_calls``), which a program that dropped the prompt's
``<math.h>`` had not declared."""
_CPP_OPEN = (
    _CPP_HEADERS
    + f"namespace {CPP_NAMESPACE} {{\nstruct cr_none {{}};\n"
    + "".join(
        f"void operator{op}(cr_none{'' if op in _CPP_UNARY else ', cr_none'});\n"
        for op in _CPP_OPERATORS
    )
)
"""The copies' namespace opens by declaring every overloadable operator a free function
may be: an operator in a copy (``x.substr(1) + x[0]``) is looked up there and no further
out, so a program's global ``std::string operator+(const std::string &, char)``, which
beats the standard's template, is never a candidate (the standard's own come by the
arguments' namespace). A red team's made HumanEval/38's and /50's encoders the identity."""

_LINE_COMMENT = {"c", "cpp", "java", "javascript", "typescript", "go"}


def _mask(code: str, language: str) -> str:
    """``code`` with the insides of its comments, strings and character literals blanked
    (newlines kept), so a word or a brace found in the mask is code; the same length."""
    out = list(code)
    i, n = 0, len(code)
    quotes = "\"'`" if language in ("javascript", "typescript", "go") else "\"'"
    while i < n:
        two = code[i : i + 2]
        if two == "//" and language in _LINE_COMMENT:
            end = code.find("\n", i)
            end = n if end < 0 else end
        elif two == "/*":
            end = code.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif code[i] in quotes:
            q, end = code[i], i + 1
            while end < n and code[end] != q:
                if code[end] == "\\" and not (language == "go" and q == "`"):
                    end += 1
                elif code[end] == "\n" and q != "`":
                    break
                end += 1
            end = min(end + 1, n)
            out[i] = out[end - 1] = q  # a literal stays a literal, its inside blank
            for k in range(i + 1, end - 1):
                out[k] = "\n" if code[k] == "\n" else " "
            i = end
            continue
        else:
            i += 1
            continue
        for k in range(i, end):
            out[k] = "\n" if code[k] == "\n" else " "
        i = end
    return "".join(out)


def _close(mask: str, open_brace: int) -> int | None:
    """The index after the brace that closes the one at ``open_brace``; None if open."""
    depth = 0
    for k in range(open_brace, len(mask)):
        depth += (mask[k] == "{") - (mask[k] == "}")
        if depth == 0:
            return k + 1
    return None


def _depth(mask: str, at: int) -> int:
    return mask.count("{", 0, at) - mask.count("}", 0, at)


_HEADERS = {
    # a definition's head up to its body's brace, at the start of a line
    "c": re.compile(r"^[ \t]*(?:[A-Za-z_][\w:<>,*& \t]*?[\s*&>])(\w+)[ \t]*\([^;{}]*\)[ \t]*(?:const[ \t]*)?\n?[ \t]*\{", re.M),
    # Go: the body's brace is the last of the head's line (``interface{}{``)
    "go": re.compile(r"^func[ \t]+(\w+)[ \t]*[\[(][^\n]*\{(?=[ \t]*$)", re.M),
    "javascript": re.compile(
        r"^[ \t]*(?:(?:const|let|var)[ \t]+(\w+)[ \t]*=[ \t]*(?:async[ \t]+)?(?:function\b[^{]*|\([^()]*\)[ \t]*=>|\w+[ \t]*=>)[ \t]*"
        r"|(?:async[ \t]+)?function[ \t]*\*?[ \t]*(\w+)[ \t]*\([^()]*\)[ \t]*)\{",
        re.M,
    ),
    "java": re.compile(
        r"^[ \t]*((?:(?:public|private|protected|static|final|synchronized)[ \t]+)*)"
        r"([\w<>\[\],.? \t]+?)[ \t]+(\w+)[ \t]*\([^;{}()]*\)[ \t]*(?:throws[ \t]+[\w., \t]+)?\{",
        re.M,
    ),
}  # fmt: skip
_HEADERS["cpp"] = _HEADERS["c"]
_NOT_NAMES = {"if", "for", "while", "switch", "return", "catch", "else", "do", "sizeof", "new"}


def _definitions(prompt: str, language: str) -> dict[str, tuple[int, int]]:
    """Each function the prompt defines whole: name -> (start, end) of its text (Java: the
    methods of its top-level classes)."""
    mask = _mask(prompt, language)
    found: dict[str, tuple[int, int]] = {}
    for m in _HEADERS[language].finditer(mask):
        name = m.group(3) if language == "java" else next(g for g in m.groups() if g)
        if name in _NOT_NAMES or _depth(mask, m.start()) != (1 if language == "java" else 0):
            continue
        end = _close(mask, m.end() - 1)
        if end is not None and name not in found:
            found[name] = (m.start(), end)
    return found


def _rename(code: str, language: str, old: str, new: str) -> str:
    """Every use of the word ``old`` in ``code``'s code (not in a comment or literal)."""
    mask = _mask(code, language)
    spans = [m.span() for m in re.finditer(rf"(?<![\w$]){re.escape(old)}(?![\w$])", mask)]
    for a, b in reversed(spans):
        code = code[:a] + new + code[b:]
    return code


def _words(code: str, language: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_$][\w$]*", _mask(code, language)))


def trusted_helpers(
    language: str, prompt: str, test: str, entry_points: list[str] | tuple[str, ...] = ()
) -> tuple[str, str]:
    """``(setup_code, test)``: the copies of the prompt's helpers that ``test`` names, and
    the test calling them (module docstring); ``("", test)`` where there are none."""
    if language == "python":
        return _python(prompt, test, entry_points), test
    if language not in _HEADERS:
        return "", test
    defined = _definitions(prompt, language)
    used = _words(test, language)
    names = [n for n in defined if n in used and n not in entry_points]
    if not names:
        return "", test
    copies: list[str] = []
    if language == "java":
        for name in names:
            start, end = defined[name]
            text = prompt[start:end]
            head = _HEADERS["java"].match(_mask(text, "java"))
            assert head is not None
            if "static" not in head.group(1).split():
                text = text[: head.start(2)] + "static " + text[head.start(2) :]
            copies.append(text.strip("\n"))
            test = re.sub(
                rf"(?<![\w$.])[A-Za-z_$][\w$]*[ \t]*\.[ \t]*{re.escape(name)}[ \t]*\(",
                f"{JAVA_CLASS}.{name}(",
                test,
            )
        body = "\n\n".join(copies)
        return f"class {JAVA_CLASS} {{\n{body}\n}}\n", test
    if language == "cpp":
        for name in names:
            start, end = defined[name]
            copies.append(prompt[start:end].strip("\n") + "\n")
            test = _rename(test, language, name, f"{CPP_NAMESPACE}::{name}")
        return _CPP_OPEN + "\n".join(copies) + "}\n", test
    for name in names:
        start, end = defined[name]
        copy = prompt[start:end]
        for other in names:  # a helper that calls another calls its copy
            copy = _rename(copy, language, other, PREFIX + other)
        copies.append(copy.strip("\n") + "\n")
        test = _rename(test, language, name, PREFIX + name)
    return "\n".join(copies), test


def _python(prompt: str, test: str, entry_points: list[str] | tuple[str, ...]) -> str:
    """The prompt's imports and the top-level functions the test names (entry points
    aside), as the prompt has them."""
    try:
        tree, loaded = (
            ast.parse(prompt),
            {n.id for n in ast.walk(ast.parse(test)) if isinstance(n, ast.Name)},
        )
    except SyntaxError:
        return ""
    helpers = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
               and n.name in loaded and n.name not in entry_points]  # fmt: skip
    if not helpers:
        return ""
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    lines = prompt.splitlines()

    def text(node: ast.stmt) -> str:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        return "\n".join(lines[first - 1 : node.end_lineno])

    return "\n".join(text(n) for n in imports) + "\n\n" + "\n\n\n".join(map(text, helpers)) + "\n"
