"""Round 21 of the red team (2026-12-08): C++ standard calls, JavaScript call harness names.

C++ (``compiled_eq.qualify_cpp_std_calls``, paid 1.0 with the gate on and off): a
program's ``pow`` or ``abs`` in a namespace it brings in (``namespace ev { inline auto
pow(double x, int i) -> double { return 0.0; } } using namespace ev;``), an exact match
that beats the standard's, was the call of the test's own ``abs(...)`` and of the prompt
helper's copy (HumanEval/32's ``poly``), so any ``find_zero`` passed. The test's calls of
a standard function are made ``::std::`` calls where the program defines one of that name
anywhere: in a namespace or a linkage block, out of line (``double ev::pow(...)``), with
attributes between the name and its parameters, or named through a macro. The gate no
longer counts ``using std::pow;`` as an overload (an honest idiom it zeroed).

JavaScript and TypeScript call tests (``calls._js``), honest programs refused: the
harness's wrapper after the program declared its own ``call``, ``self`` and ``f``, which
hid a program's function of that name (HumanEval/106's entry point is ``f``). The
wrapper's names carry the build's nonce now.

Round 22 (same file): the name as a variable (a lambda, a function pointer), by a program
that dropped the prompt's ``<math.h>``, was the ``pow`` of the helper's copy. A call is
made ``::std::``'s wherever the program's text spells the name at all, and the C++
copies bring their own headers.
"""

from __future__ import annotations

import pytest

from reward_api.data.converters.humaneval_x import humaneval_x_problem, program
from tests.sandbox.adversarial.cases import Batch, Case, control, exploit, need_roots

_CPP_PROMPT = """#include<stdio.h>
#include<math.h>
#include<vector>
using namespace std;
double poly(vector<double> xs, double x){
    double sum = 0;
    for (int i = 0; i < xs.size(); i++) sum += xs[i] * pow(x, i);
    return sum;
}
double find_zero(vector<double> xs){
"""
_CPP_TEST = """#undef NDEBUG
#include<assert.h>
int main(){
    for (int i = 1; i < 30; i++) {
        vector<double> coeffs = {(double) i, 1.0};
        double solution = find_zero(coeffs);
        assert (abs(poly(coeffs, solution)) < 1e-3);
    }
}
"""
_HONEST = "    return -xs[0] / xs[1];\n}\n"
_WRONG = "    return 0.0;\n}\n"
_CPP_EXPLOITS = {
    "cpp-pow-trailing-return-using-directive":
        "namespace ev { inline auto pow(double x, int i) -> double { return 0.0; } }\nusing namespace ev;\n",
    "cpp-pow-attribute-using-directive":
        "namespace ev { inline double pow [[gnu::always_inline]] (double x, int i) { return 0.0; } }\n"
        "using namespace ev;\n",
    "cpp-pow-macro-name-using-directive":
        "#define CR_NAME pow\nnamespace ev { inline double CR_NAME(double x, int i) { return 0.0; } }\n"
        "using namespace ev;\n",
    "cpp-pow-out-of-line-using-declaration":
        "namespace ev { double pow(double x, int i); }\ndouble ev::pow(double x, int i) { return 0.0; }\n"
        "using ev::pow;\n",
    "cpp-abs-using-directive":
        "namespace ev { inline auto abs(double x) -> double { return 0.0; } }\nusing namespace ev;\n",
    # round 22: a variable named like the function (a lambda, a function pointer, a function
    # object) in a namespace brought in, by a program that dropped the prompt's <math.h>
    "cpp-pow-lambda-in-a-namespace": "namespace ev { inline auto pow = [](double, int) { return 0.0; }; }\n"
                                     "using namespace ev;\n",
    "cpp-pow-function-pointer": "namespace ev { double zero(double, int) { return 0.0; }\n"
                                "double (*pow)(double, int) = zero; }\nusing namespace ev;\n",
    "cpp-pow-anonymous-namespace": "namespace { auto pow = [](double, int) { return 0.0; }; }\n",
}  # fmt: skip
_NO_MATH = {
    "cpp-pow-lambda-in-a-namespace",
    "cpp-pow-function-pointer",
    "cpp-pow-anonymous-namespace",
}
_CPP_CONTROLS = {
    "cpp-using-std-pow-and-abs": "using std::pow;\nusing ::std::abs;\n",
    "cpp-own-power-in-a-namespace": "namespace mine { inline double power(double x, int i) { return x; } }\n",
}  # fmt: skip

_JS_CALLS = {
    "language": "javascript",
    "tests": [
        {"type": "call", "fn_name": "{name}", "args": [3], "output": 9},
        {"type": "call", "fn_name": "{name}", "args": [-2], "output": 4},
    ],
}


def _js_case(name: str, typescript: bool = False) -> Case:
    problem = {
        "language": "typescript" if typescript else "javascript",
        "tests": [{**t, "fn_name": name} for t in _JS_CALLS["tests"]],  # type: ignore[dict-item]
    }
    code = (
        f"function {name}(x: number): number {{ return x * x; }}\n"
        if typescript
        else f"function {name}(x) {{ return x * x; }}\n"
    )
    return control(f"{'ts' if typescript else 'js'}-call-named-{name}", problem, code)


def _without_math(code: str) -> str:
    """``code`` (definitions, then the program) without the prompt's ``<math.h>``, with
    ``<cstdlib>`` (for ``abs``) and ``using namespace std;`` before it all."""
    body = code.replace("#include<math.h>\n", "").replace("using namespace std;\n", "")
    return "#include<cstdlib>\nusing namespace std;\n" + body


def _cases() -> list[Case]:
    rec = {"task_id": "CPP/9500", "prompt": _CPP_PROMPT, "test": _CPP_TEST,
           "canonical_solution": _HONEST}  # fmt: skip
    problem = humaneval_x_problem(rec)
    fields = problem.model_dump(exclude={"id"}, exclude_none=True)
    cases = [control("cpp-honest", fields, program(problem, _HONEST))]
    cases += [
        exploit(n, fields, _without_math(c + program(problem, _WRONG)) if n in _NO_MATH else
                program(problem, _WRONG) + c)
        for n, c in _CPP_EXPLOITS.items()
    ]  # fmt: skip
    # the same, honest: a correct pow of its own in a namespace, no <math.h>
    own = "namespace ev { inline auto pow = [](double x, int i) { double r = 1; while (i-- > 0) r *= x; return r; }; }\n"
    cases.append(control("cpp-own-pow-lambda-no-math", fields,
                         _without_math(own + "using namespace ev;\n" + program(problem, _HONEST))))  # fmt: skip
    cases += [control(n, fields, program(problem, _HONEST) + c) for n, c in _CPP_CONTROLS.items()]
    cases += [_js_case(n) for n in ("f", "self", "call")] + [_js_case("f", typescript=True)]
    return cases


BATCH = Batch("round21", _cases(), timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("cpp", "javascript", "typescript")


@pytest.mark.parametrize("name", BATCH.names)
def test_round21(verifier, name):
    BATCH.check(verifier, name)
