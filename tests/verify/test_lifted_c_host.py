"""C assert tests decided on the host (``reward_api.verify.lifted_c_host``): which tests it
takes, and its arithmetic checked against gcc's (the program's compiler) on every scalar
type, value and constant kind it decides, in the C runtime root."""

from __future__ import annotations

import itertools
import struct

import pytest

from reward_api.verify import compiled_eq, lifted, lifted_c_host
from tests.languages.test_runtimes import _in_cell


def _plan(test: str, entries: tuple[str, ...] = ("f",)) -> lifted.Plan:
    plan = lifted.plan(test, entries, "c")
    assert plan is not None
    return plan


def _checks(test: str) -> tuple[lifted_c_host.Check, ...] | None:
    return lifted_c_host.checks(test, _plan(test))


HEAD = "#include <assert.h>\n"


@pytest.mark.parametrize("main", [
    "int main(void) { assert(f(1) == 2); assert(!f(2)); assert(f(3)); return 0; }",
    "int main() { assert(3 >= f(1)); assert(f(2) != -1L); assert(f(3) < 'a'); }",
    "int main(void) { int a[] = {1, 2}; assert(f(a, 2) == 3.5); }",
])  # fmt: skip
def test_shapes_decided_on_the_host(main):
    assert _checks(HEAD + main) is not None


@pytest.mark.parametrize("main", [
    # the value used otherwise than compared with one constant
    "int main(void) { assert(f(1) + 1 == 2); }",
    "int main(void) { assert((f(1)) == 2); }",
    "int main(void) { assert(f(1) == 2 && 1); }",
    "int main(void) { assert(f(1) == INT_MAX); }",
    "int main(void) { assert(f(1) == 1 + 1); }",
    "int main(void) { int x = f(1); assert(x == 2); }",
    "int main(void) { assert(f(1) == 2.5f); }",
    "int main(void) { assert(f(1) == 2.5L); }",
    "int main(void) { assert(f(1) == 0x1p3); }",
    "int main(void) { assert(f(1) == L'a'); }",
    "int main(void) { assert(f(1) == 'ab'); }",
    "int main(void) { assert(f(1) == 08); }",
    "int main(void) { assert(f(1) == 99999999999999999999); }",
    # more than the asserts: a statement, a return other than 0, a helper, a directive
    'int main(void) { assert(f(1) == 2); puts("x"); }',
    "int main(void) { assert(f(1) == 2); return 1; }",
    "static int g(void) { return 2; }\nint main(void) { assert(f(1) == 2); }",
    "#define N 2\nint main(void) { assert(f(1) == N); }",
    "#define NDEBUG\nint main(void) { assert(f(1) == 2); }",
    "int main(int argc, char **argv) { assert(f(1) == 2); }",
    "int main(void) { assert(f(1) == \\\n 2); }",
    # red team: a splice at a // comment's end takes the next line into the comment
    "int main(void) {\n assert(f(1) == 1); // see \\\n assert(f(2) == 5);\n}",
    "int main(void) {\n assert(f(1) == 1); // see \\ \n assert(f(2) == 5);\n}",
])  # fmt: skip
def test_other_shapes_go_to_the_compiled_judge(main):
    plan = lifted.plan(HEAD + main, ("f",), "c")
    assert plan is None or lifted_c_host.checks(HEAD + main, plan) is None


def _rec(types: list[str], *lines: str) -> lifted.Recorded:
    return lifted.Recorded(
        types, " ".join("i" for _ in types) + "\n" + "".join(f"{x}\n" for x in lines)
    )


def test_the_outcomes_are_the_compiled_judges():
    checks = _checks(HEAD + "int main(void) { assert(f(1) == 5); assert(!f(2)); }")
    assert checks is not None
    five, zero, one = "r05000000", "r00000000", "r01000000"
    assert lifted_c_host.decide(checks, _rec(["int", "int"], five, zero)).outcome == "passed"
    bad = lifted_c_host.decide(checks, _rec(["int", "int"], five, one))
    assert bad == lifted.Judged("failed", "the test aborted")
    assert lifted_c_host.decide(checks, _rec(["int", "int"], five)).outcome == "ran_out"
    # the first failure decides, whatever follows
    assert lifted_c_host.decide(checks, _rec(["int", "int"], one, "zz")).outcome == "failed"
    # the judge's reader: a short value is zero-filled, a long one malformed
    assert lifted_c_host.decide(checks, _rec(["int", "int"], "r05", "r")).outcome == "passed"
    long = lifted_c_host.decide(checks, _rec(["int", "int"], five + "00", zero))
    assert long == lifted.Judged("failed", "the recorded values are malformed")
    # a _Bool of 2 is neither true nor false; a line out of the alphabet, a long double:
    # the compiled judge's
    truth = _checks(HEAD + "int main(void) { assert(f(1)); }")
    assert truth is not None
    assert lifted_c_host.decide(truth, _rec(["_Bool"], "r02")).detail == (
        "the recorded values are malformed"
    )
    assert lifted_c_host.decide(truth, _rec(["_Bool"], "r01")).outcome == "passed"
    assert lifted_c_host.decide(truth, _rec(["int"], "rZZ")) is None
    assert lifted_c_host.decide(truth, _rec(["long double"], "r00")) is None
    assert lifted_c_host.decide(truth, lifted.Recorded(None, "?\n")) is None


_VALUES = {
    "_Bool": [0, 1],
    "char": [0, 1, -1, 97, 127, -128], "signed char": [0, -1, 127, -128],
    "unsigned char": [0, 1, 97, 200, 255], "short": [0, -1, 32767, -32768, 300],
    "unsigned short": [0, 1, 65535, 300], "int": [0, 1, -1, 5, 2147483647, -2147483648],
    "unsigned": [0, 1, 5, 4294967295, 2147483648], "long": [0, -1, 5, 2**62, -(2**63), 2**53 - 1],
    "unsigned long": [0, 1, 2**64 - 1, 2**63, 4294967295],
    "long long": [0, -1, 9007199254740993, -(2**63)],
    "unsigned long long": [0, 2**64 - 1, 2**53, 255],
    "float": [0.0, -0.0, 0.1, 5.0, 0.5, float("nan"), float("inf"), 16777216.0, 1e20],
    "double": [0.0, -0.0, 0.1, 5.0, 0.5, float("nan"), float("-inf"), 1e20, 1e-300],
}  # fmt: skip
_CONSTANTS = [
    "0", "1", "-1", "5", "-5", "97", "200", "255", "-128", "65535", "2147483647",
    "2147483648", "-2147483648", "4294967295", "4294967295u", "0xffffffff", "-1u", "1ul",
    "-1l", "-1ll", "-1LL", "0x7fffffffffffffff", "0xffffffffffffffff",
    "18446744073709551615u", "9223372036854775807", "-9223372036854775807", "'a'",
    "'\\xff'", "'\\377'", "'\\0'", "'\\n'", "'\\''", "0.1", "5.0", "-0.0", "1e20", ".5",
    "1e-300", "16777216", "16777217", "+3", "07", "0x10", "1UL", "1lu", "1llu",
]  # fmt: skip
_OPS = ["==", "!=", "<", ">", "<=", ">=", "truth", "not"]


def _bytes(kind: str, value: object) -> bytes:
    _size, form = lifted_c_host._SCALAR[kind]
    if form is None:
        return bytes([int(value)])  # type: ignore[call-overload]
    return struct.pack(form, value)


def test_the_host_compares_as_gcc_does():
    """Every decided (type, value, comparison, constant) gives what gcc -O2's program
    gives: the integer promotions, the usual arithmetic conversions, constants' types,
    signed and unsigned ``char`` constants, NaN, signed zero, ``float`` against an
    integer."""
    cases = []
    for (kind, values), op, constant in itertools.product(_VALUES.items(), _OPS, _CONSTANTS):
        if op in ("truth", "not") and constant != "0":
            continue
        compared = None if op in ("truth", "not") else compiled_eq._tokens(constant)
        check = lifted_c_host.Check(op, lifted_c_host._constant(compared) if compared else None)
        for value in values:
            raw = _bytes(kind, value)
            try:
                got = lifted_c_host._holds(check, kind, lifted_c_host._value(kind, "r" + raw.hex()))
            except lifted_c_host._Refuse:
                continue
            cases.append((kind, raw, op, constant, got))
    assert len(cases) > 2000
    body = []
    for n, (kind, raw, op, constant, _got) in enumerate(cases):
        init = ", ".join(str(b) for b in raw)
        expr = "v" if op == "truth" else "!v" if op == "not" else f"v {op} {constant}"
        body.append(
            f"  {{ static const unsigned char b[] = {{{init}}}; {kind} v; memcpy(&v, b, sizeof v);"
            f" putchar(({expr}) ? '1' : '0'); }} /* {n} */\n"
        )
    source = ("#include <stdio.h>\n#include <string.h>\nint main(void) {\n" + "".join(body)
              + '  putchar(\'\\n\');\n  return 0;\n}\n')  # fmt: skip
    script = "cd /tmp && cat > t.c && gcc -std=gnu11 -O2 -w -o t t.c && ./t"
    p = _in_cell("c", ["/bin/sh", "-c", script], source, timeout_s=300)
    assert p.returncode == 0, p.stderr[-2000:]
    by_gcc = p.stdout.strip()
    assert len(by_gcc) == len(cases)
    wrong = [c[:4] for c, g in zip(cases, by_gcc, strict=True) if (g == "1") != c[4]]
    assert not wrong, wrong[:10]


# ------------------------------------------------------------------ C++
HUMANEVAL_X_CPP = (
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (f(1) == 2);\n"
    '    assert (not f(2));\n    assert (f(3) == true);\n    assert (g("a") == "ab");\n'
    '    assert ("" != g(""));\n}\n'
)


def test_humaneval_x_s_cpp_shape_is_decided_on_the_host():
    plan = lifted.plan(HUMANEVAL_X_CPP, ("f", "g"))
    assert plan is not None
    got = lifted_c_host.checks(HUMANEVAL_X_CPP, plan, cpp=True)
    assert got is not None and [c.op for c in got] == ["==", "not", "==", "==", "!="]
    assert got[3].constant == ("string", b"ab") and got[2].constant == ("int", 1)
    # C reads neither ``not`` nor a string constant nor the ``#undef``
    assert lifted_c_host.checks(HUMANEVAL_X_CPP, plan) is None
    rec = lifted.Recorded(["int", "bool", "bool", "std::string", "std::string"],
                          "i i b b S S\ni2;\nf\nt\nx2:6162\nx1:61\n")  # fmt: skip
    assert lifted_c_host.decide_cpp(got, rec) == lifted.Judged("passed")
    wrong = lifted.Recorded(rec.types, "i i b b S S\ni2;\nf\nt\nx3:616263\nx1:61\n")
    assert lifted_c_host.decide_cpp(got, wrong) == lifted.Judged("failed", "the test aborted")
    short = lifted.Recorded(rec.types, "i i b b S S\ni2;\nf\n")
    assert lifted_c_host.decide_cpp(got, short) == lifted.Judged("ran_out")
    bad = lifted.Recorded(rec.types, "i i b b S S\ni2;\nx\nt\nx2:6162\nx1:61\n")
    assert lifted_c_host.decide_cpp(got, bad).outcome == "failed"
    # a type or a line the host does not read: the judge decides
    assert lifted_c_host.decide_cpp(got, lifted.Recorded(["int", "bool", "bool", "std::vector<int>",
                                                          "std::string"], rec.channel)) is None  # fmt: skip
    assert (
        lifted_c_host.decide_cpp(
            got, lifted.Recorded(rec.types, rec.channel.replace("i2;", "i+2;"))
        )
        is None
    )


@pytest.mark.parametrize("main", [
    'int main(){ assert (f(1) < "a"); }',  # a string compared by order
    "int main(){ assert (f(1) == u8\"a\"); }",
    'int main(){ assert (f(1) == "\\x41"); }',
    "int main(){ assert (f(1) == 2); }\n#define X 1",
    "int main(){ assert (not not f(1)); }",
])  # fmt: skip
def test_other_cpp_shapes_go_to_the_judge(main):
    test = "#include<assert.h>\n" + main
    plan = lifted.plan(test, ("f",))
    assert plan is None or lifted_c_host.checks(test, plan, cpp=True) is None


_CPP_VALUES = {
    "bool": [0, 1],
    **{k: v for k, v in _VALUES.items() if k != "_Bool"},
    "std::string": [b"", b"a", b"ab", b"a\nb", b"\x00a"],
}
_CPP_CONSTANTS = [*_CONSTANTS, "true", "false", '""', '"a"', '"ab"', '"a\\nb"', '"a\\0b"']


def _cpp_line(kind: str, value: object) -> str:
    if kind == "bool":
        return "t" if value else "f"
    if kind == "std::string":
        assert isinstance(value, bytes)
        return f"x{len(value)}:{value.hex()}"
    if kind in ("float", "double"):
        x = struct.unpack("<f", struct.pack("<f", value))[0] if kind == "float" else value
        assert isinstance(x, float)
        return (
            "dnan;"
            if x != x
            else f"d{'inf' if x > 0 else '-inf'};"
            if abs(x) == float("inf")
            else f"d{x!r};".replace(".0;", ";").replace(".0e", "e")
        )
    return f"i{value};"


def _cpp_init(kind: str, value: object) -> str:
    if kind == "std::string":
        assert isinstance(value, bytes)
        body = "".join(f"\\x{b:02x}" for b in value)
        return f'std::string v("{body}", {len(value)});'
    raw = _bytes("_Bool" if kind == "bool" else kind, value)
    init = ", ".join(str(b) for b in raw)
    return f"static const unsigned char b[] = {{{init}}}; {kind} v; memcpy(&v, b, sizeof v);"


def test_the_host_compares_as_gxx_does():
    """Every decided (type, value, comparison, constant) of a C++ test gives what g++'s
    program gives, on the C++ recorder's value lines: C's arithmetic, ``bool`` constants,
    and ``std::string`` against a string literal (up to its first NUL)."""
    cases = []
    for (kind, values), op, constant in itertools.product(
        _CPP_VALUES.items(), _OPS, _CPP_CONSTANTS
    ):
        if op in ("truth", "not") and constant != "0":
            continue
        compared = None if op in ("truth", "not") else compiled_eq._tokens(constant)
        try:
            check = lifted_c_host.Check(
                op, lifted_c_host._constant(compared, True) if compared else None
            )
        except lifted_c_host._Refuse:
            continue
        for value in values:
            host_kind = "_Bool" if kind == "bool" else kind
            try:
                seen = lifted_c_host._value_cpp(kind, _cpp_line(kind, value))
                got = lifted_c_host._holds(check, host_kind, seen)
            except lifted_c_host._Refuse:
                continue
            cases.append((kind, value, op, constant, got))
    assert len(cases) > 2000
    assert sum(1 for c in cases if c[0] == "std::string") >= 40
    body = []
    for n, (kind, value, op, constant, _got) in enumerate(cases):
        expr = "v" if op == "truth" else "!v" if op == "not" else f"v {op} {constant}"
        body.append(f"  {{ {_cpp_init(kind, value)} putchar(({expr}) ? '1' : '0'); }} /* {n} */\n")
    source = ("#include <cstdio>\n#include <cstring>\n#include <string>\nint main() {\n"
              + "".join(body) + "  putchar('\\n');\n  return 0;\n}\n")  # fmt: skip
    script = "cd /tmp && cat > t.cpp && g++ -std=gnu++17 -O2 -w -o t t.cpp && ./t"
    p = _in_cell("cpp", ["/bin/sh", "-c", script], source, timeout_s=600)
    assert p.returncode == 0, p.stderr[-2000:]
    by_gxx = p.stdout.strip()
    assert len(by_gxx) == len(cases)
    wrong = [c[:4] for c, g in zip(cases, by_gxx, strict=True) if (g == "1") != c[4]]
    assert not wrong, wrong[:10]


# ------------------------------------------------------------------ C++: HumanEval-X's issame
_ISSAME_BODY = (
    "bool issame(vector<{t}> a,vector<{t}>b){{\n    if (a.size()!=b.size()) return false;\n"
    "    for (int i=0;i<a.size();i++)\n    {{\n    if (a[i]!=b[i]) return false;\n    }}\n"
    "    return true;\n}}\n"
)


def _issame_test(t: str, *asserts: str) -> str:
    return (
        "#undef NDEBUG\n#include<assert.h>\n"
        + _ISSAME_BODY.format(t=t)
        + "int main(){\n"
        + "".join(f"    assert ({a});\n" for a in asserts)
        + "}\n"
    )


def _vector_line(element: str, values: list[object]) -> str:
    items = "".join(f"x{len(v)}:{v.hex()}" if isinstance(v, bytes) else f"i{v};" for v in values)
    return f"l{len(values)}:{items}"


def test_humaneval_x_s_issame_is_decided_on_the_host():
    test = _issame_test("int", "issame(f({1, 2}) , {2, 1})", "issame(f({}),{})",
                        "issame(f({-1}), {-1, 'a', 0x10, 5L})")  # fmt: skip
    plan = lifted.plan(test, ("f",))
    assert plan is not None
    got = lifted_c_host.checks(test, plan, cpp=True)
    assert got is not None and [c.op for c in got] == ["issame"] * 3
    assert got[2].constant == ("std::vector<int>", [-1, 97, 16, 5])
    kind = "std::vector<int>"

    def rec(*lines: str, types: str = kind) -> lifted.Recorded:
        return lifted.Recorded([types] * 3, "V<i> V<i> V<i>\n" + "".join(f"{x}\n" for x in lines))

    right = [_vector_line("int", v) for v in ([2, 1], [], [-1, 97, 16, 5])]
    assert lifted_c_host.decide_cpp(got, rec(*right)) == lifted.Judged("passed")
    for wrong in ([1, 2], [2, 1, 0], [2]):  # an order, a size
        lines = [_vector_line("int", wrong), *right[1:]]
        assert lifted_c_host.decide_cpp(got, rec(*lines)).outcome == "failed"
    assert lifted_c_host.decide_cpp(got, rec(right[0])) == lifted.Judged("ran_out")
    for malformed in ("l3:i2;i1;", "l2:i2;i1;i0;", "l2:i2;i4294967296;", "l1:x1:61"):
        lines = [malformed, *right[1:]]
        assert lifted_c_host.decide_cpp(got, rec(*lines)).outcome == "failed", malformed
    # another vector type converts to no vector<int>: the judge's (the test does not compile)
    assert lifted_c_host.decide_cpp(got, rec(*right, types="std::vector<long>")) is None
    strings = _issame_test("string", 'issame(g("x"), {"a", "", "b c"})', 'issame(g("y"), {})')
    plan = lifted.plan(strings, ("g",))
    assert plan is not None
    got = lifted_c_host.checks(strings, plan, cpp=True)
    assert got is not None and got[0].constant == ("std::vector<std::string>", [b"a", b"", b"b c"])
    lines = "V<S> V<S>\n" + _vector_line("std::string", [b"a", b"", b"b c"]) + "\nl0:\n"
    assert lifted_c_host.decide_cpp(
        got, lifted.Recorded(["std::vector<std::string>"] * 2, lines)
    ) == (lifted.Judged("passed"))


@pytest.mark.parametrize("test", [
    _issame_test("float", "issame(f({1}), {1.0})"),  # compared within 1e-4 through abs
    _issame_test("int", "issame(f({1}), {3000000000})"),  # narrowing: does not compile
    _issame_test("int", "issame(f({1}), {1.5})"),
    _issame_test("int", "issame(f({1}), {1u})"),
    _issame_test("int", "issame(f({1}), {{1}})"),
    _issame_test("int", "issame(f({1}), {g(1)})"),
    _issame_test("int", "issame({1}, f({1}))"),  # the call second: not its shape
    _issame_test("int", "issame(f({1}), {1}) && true"),
    _issame_test("string", "issame(f({1}), {'a'})"),
    _issame_test("int", "issame(f({1}), {1})").replace("a[i]!=b[i]", "a[i]==b[i]"),
    _issame_test("int", "issame(f({1}), {1})").replace("return true;", "return false;"),
])  # fmt: skip
def test_other_issame_shapes_go_to_the_judge(test):
    plan = lifted.plan(test, ("f",))
    assert plan is None or lifted_c_host.checks(test, plan, cpp=True) is None


def test_the_host_decides_issame_as_gxx_does():
    """Each decided pair of a recorded vector and a braced list gives what g++'s program
    with the test's ``issame`` gives."""
    ints = [[], [1], [1, 2], [2, 1], [-1, 2147483647], [-2147483648], [97, 16], [5, 5, 5]]
    int_lists = ["{}", "{1}", "{1, 2}", "{2,1}", "{-1, 2147483647}", "{-2147483648}",
                 "{'a', 0x10}", "{5L, 05, 5ll}", "{+1}", "{1, 2, 3}"]  # fmt: skip
    strs = [[], [b"a"], [b"ab"], [b"a", b"b"], [b""], [b"a\x00b"], [b"a b"]]
    str_lists = ["{}", '{"a"}', '{"ab"}', '{"a", "b"}', '{""}', '{"a b"}', '{"a","b","c"}']
    cases = []
    for element, values, lists in (("int", ints, int_lists), ("string", strs, str_lists)):
        for braced in lists:
            test = _issame_test(element, f"issame(f(), {braced})")
            plan = lifted.plan(test, ("f",))
            assert plan is not None
            checks = lifted_c_host.checks(test, plan, cpp=True)
            assert checks is not None, braced
            kind = "std::vector<int>" if element == "int" else "std::vector<std::string>"
            for v in values:
                rec = lifted.Recorded([kind], f"V<i>\n{_vector_line(element, v)}\n")
                judged = lifted_c_host.decide_cpp(checks, rec)
                assert judged is not None
                cases.append((element, v, braced, judged.outcome == "passed"))

    def cxx(element: str, x: object) -> str:
        if not isinstance(x, bytes):
            return str(x)
        escaped = "".join(f"\\x{b:02x}" for b in x)
        return f'std::string("{escaped}", {len(x)})'

    body = []
    for n, (element, v, braced, _ok) in enumerate(cases):
        items = ", ".join(cxx(element, x) for x in v)
        call = f"issame_{element}(std::vector<{element}>{{{items}}}, {braced})"
        body.append(f"  putchar({call} ? '1' : '0'); /* {n} */\n")
    source = (
        "#include <cstdio>\n#include <vector>\n#include <string>\nusing namespace std;\n"
        + _ISSAME_BODY.format(t="int").replace("issame", "issame_int")
        + _ISSAME_BODY.format(t="string").replace("issame", "issame_string")
        + "int main() {\n"
        + "".join(body)
        + "  putchar('\\n');\n}\n"
    )
    script = "cd /tmp && cat > t.cpp && g++ -std=gnu++17 -O2 -w -o t t.cpp && ./t"
    p = _in_cell("cpp", ["/bin/sh", "-c", script], source, timeout_s=600)
    assert p.returncode == 0, p.stderr[-2000:]
    by_gxx = p.stdout.strip()
    assert len(by_gxx) == len(cases) and len(cases) >= 100
    wrong = [c[:3] for c, g in zip(cases, by_gxx, strict=True) if (g == "1") != c[3]]
    assert not wrong, wrong[:10]


# ------------------------------------------------------------------ C++: MultiPL-E's constants
MULTIPL_E_CPP = (
    "}\nint main() {\n    auto candidate = evens;\n"
    "    assert(candidate((std::vector<long>({(long)1, (long)2, (long)4}))) == "
    "(std::vector<long>({(long)2, (long)4})));\n"
    "    assert(candidate((std::vector<long>())) == (std::vector<long>()));\n"
    "    assert(candidate((std::vector<long>({(long)-4}))) != (std::vector<long>({(long)-4, 3})));\n"
    "    assert(count((std::vector<long>({(long)1}))) == (1));\n"
    '    assert(name((1)) == ("one"));\n'
    '    assert(words((1)) == (std::vector<std::string>({(std::string)"a", "b"})));\n}\n'
)


def test_multipl_e_s_cpp_constants_are_decided_on_the_host():
    test = MULTIPL_E_CPP.split("}\n", 1)[1]
    plan = lifted.plan(test, ("evens", "count", "name", "words"))
    assert plan is not None
    got = lifted_c_host.checks(test, plan, cpp=True)
    assert got is not None
    assert [c.constant for c in got] == [
        ("std::vector<long>", [2, 4]), ("std::vector<long>", []),
        ("std::vector<long>", [-4, 3]), ("int", 1), ("string", b"one"),
        ("std::vector<std::string>", [b"a", b"b"]),
    ]  # fmt: skip
    types = ["std::vector<long>"] * 3 + ["long", "std::string", "std::vector<std::string>"]
    lines = [_vector_line("long", [2, 4]), "l0:", _vector_line("long", [-4]), "i1;",
             "x3:6f6e65", _vector_line("string", [b"a", b"b"])]  # fmt: skip
    channel = "V<l> V<l> V<l> l S V<S>\n" + "".join(f"{x}\n" for x in lines)
    assert lifted_c_host.decide_cpp(got, lifted.Recorded(types, channel)) == lifted.Judged("passed")
    wrong = channel.replace(_vector_line("long", [2, 4]), _vector_line("long", [4, 2]))
    assert lifted_c_host.decide_cpp(got, lifted.Recorded(types, wrong)).outcome == "failed"
    # a vector of another element type: no operator== between them (the judge's)
    assert (
        lifted_c_host.decide_cpp(got, lifted.Recorded(["std::vector<int>", *types[1:]], channel))
        is None
    )


@pytest.mark.parametrize("expected", [
    "(std::vector<long>({(long)1.5}))", "(std::vector<long>({(int)1}))",
    "(std::vector<float>({(float)1}))", "(std::vector<long>({(long)1}, 2))",
    "(std::vector<std::vector<long>>({}))", "(std::make_tuple(1, 2))", "((long)14)",
    "(std::vector<long>({(long)1u}))",
])  # fmt: skip
def test_other_multipl_e_constants_go_to_the_judge(expected):
    test = (
        f"int main() {{\n    auto candidate = f;\n    assert(candidate((1)) == {expected});\n}}\n"
    )
    plan = lifted.plan(test, ("f",))
    assert plan is None or lifted_c_host.checks(test, plan, cpp=True) is None


def test_the_host_decides_multipl_e_vectors_as_gxx_does():
    """Each decided pair of a recorded ``std::vector<long>`` and MultiPL-E's constant, with
    ``==`` and ``!=``, gives what g++ gives."""
    values = [[], [1], [1, 2], [2, 1], [-4, 9223372036854775807], [0, 0, 0]]
    constants = ["(std::vector<long>())", "(std::vector<long>({(long)1}))",
                 "(std::vector<long>({(long)1, (long)2}))", "(std::vector<long>({(long)2, 1}))",
                 "(std::vector<long>({(long)-4, (long)9223372036854775807}))",
                 "(std::vector<long>({0, 0, (long)0}))"]  # fmt: skip
    cases = []
    for constant, op, v in itertools.product(constants, ("==", "!="), values):
        test = f"int main() {{\n    assert(f() {op} {constant});\n}}\n"
        plan = lifted.plan(test, ("f",))
        assert plan is not None
        checks = lifted_c_host.checks(test, plan, cpp=True)
        assert checks is not None, constant
        rec = lifted.Recorded(["std::vector<long>"], f"V<l>\n{_vector_line('long', v)}\n")
        judged = lifted_c_host.decide_cpp(checks, rec)
        assert judged is not None
        cases.append((constant, op, v, judged.outcome == "passed"))
    body = "".join(
        f"  putchar((std::vector<long>{{{', '.join(f'{x}L' for x in v)}}} {op} {constant})"
        f" ? '1' : '0'); /* {n} */\n"
        for n, (constant, op, v, _ok) in enumerate(cases)
    )
    source = (
        "#include <cstdio>\n#include <vector>\nint main() {\n" + body + "  putchar('\\n');\n}\n"
    )
    script = "cd /tmp && cat > t.cpp && g++ -std=gnu++17 -O2 -w -o t t.cpp && ./t"
    p = _in_cell("cpp", ["/bin/sh", "-c", script], source, timeout_s=600)
    assert p.returncode == 0, p.stderr[-2000:]
    by_gxx = p.stdout.strip()
    assert len(by_gxx) == len(cases) == 72
    wrong = [c[:3] for c, g in zip(cases, by_gxx, strict=True) if (g == "1") != c[3]]
    assert not wrong, wrong[:10]
