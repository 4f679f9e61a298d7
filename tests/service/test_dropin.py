"""Drop-in endpoints answer with the shapes OpenRLHF and verl's sandbox_fusion read."""

from __future__ import annotations

import secrets

import httpx
from gateway_procs import ADD, ADD_OK, ADD_WRONG, KEY, auth


def test_openrlhf_remote_reward_shape(embedded: str) -> None:
    prompt = "Add two numbers.\n"
    body = {
        "query": [prompt + f"```python\n{ADD_OK}\n```", prompt + f"```python\n{ADD_WRONG}\n```"],
        "prompts": [prompt, prompt],
        "labels": ["add", "add"],
    }
    r = httpx.post(embedded + "/compat/openrlhf", json=body, headers=auth(), timeout=60)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["rewards"] == [1.0, 0.0] and got["scores"] == [1.0, 0.0]
    assert got["extra_logs"]["accepted"] == [1.0, 0.0]
    bad = dict(body, labels=["add"])
    assert httpx.post(embedded + "/compat/openrlhf", json=bad, headers=auth()).status_code == 422


def _run(url: str, **fields: object) -> dict:
    # exactly the body verl's call_sandbox_api sends
    body = {"compile_timeout": 4, "run_timeout": 4, "code": "", "stdin": "", "language": "python"}
    body.update({"files": {}, "fetch_files": []}, **fields)
    r = httpx.post(url + "/run_code", json=body, headers=auth(), timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def test_sandboxfusion_run_code_fields_verl_reads(embedded: str) -> None:
    ok = _run(embedded, code=ADD_OK, stdin="2 3\n")
    assert ok["status"] == "Success" and ok["compile_result"] is None
    run = ok["run_result"]
    assert run["status"] == "Finished" and run["return_code"] == 0
    assert run["stdout"] == "5\n" and isinstance(run["execution_time"], float)
    crash = _run(embedded, code="import sys\nprint('x')\nsys.exit(3)")
    assert crash["status"] == "Failed" and crash["run_result"]["return_code"] == 3
    slow = _run(embedded, code="while True: pass", run_timeout=1)
    assert slow["status"] == "Failed" and slow["run_result"]["status"] == "TimeLimitExceeded"


def test_sandboxfusion_submit_shape(embedded: str) -> None:
    body = {"dataset": "ours", "id": "add", "completion": f"```python\n{ADD_OK}\n```", "config": {}}
    r = httpx.post(embedded + "/submit", json=body, headers=auth(), timeout=60)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["id"] == "add" and got["accepted"] is True
    assert got["extracted_code"].strip() == ADD_OK
    assert len(got["tests"]) == 5 and all(t["passed"] for t in got["tests"])
    assert got["tests"][0]["exec_info"]["status"] == "Success"
    assert got["extra"]["reward"] == 1.0


def test_drop_in_routes_take_the_key_in_the_url(embedded: str) -> None:
    body = {"code": "print(6 * 7)", "language": "python"}
    assert httpx.post(embedded + "/run_code", json=body).status_code == 401
    r = httpx.post(embedded + "/run_code", params={"api_key": KEY}, json=body, timeout=60)
    assert r.status_code == 200 and r.json()["run_result"]["stdout"] == "42\n"
    wrong = httpx.post(embedded + "/run_code", params={"api_key": "k" * 30}, json=body)
    assert wrong.status_code == 401
    v1 = {"items": [{"problem_id": "add", "code": ADD_OK}]}
    assert httpx.post(embedded + "/v1/rewards", params={"api_key": KEY}, json=v1).status_code == 401


# OpenRLHF's real client (openrlhf/utils/remote_rm_utils.py in 0.8.1 and 0.9.0,
# openrlhf/utils/agent.py SingleTurnAgentExecutor in 0.11) posts
# {"query": [prompt + response], "prompts": [prompt], "labels": [label]} where label is
# data[--label_key] as the dataset holds it (APPS: an integer problem_id), or "" without
# --label_key; its query is decoded with the chat template's special tokens kept.
TEMPLATE = "<|im_start|>user\n{}<|im_end|>\n<|im_start|>assistant\n"
ADD_PROMPT = "Read two integers a and b from one line and print their sum a + b."


def _openrlhf(url: str, body: dict) -> httpx.Response:
    return httpx.post(url + "/compat/openrlhf", json=body, headers=auth(), timeout=60)


def _register_prompted(url: str) -> None:
    problem = dict(ADD, id="apps/4003", prompt=ADD_PROMPT)
    r = httpx.post(url + "/v1/problems", json={"problems": [problem]}, headers=auth())
    assert r.status_code == 200, r.text


def test_openrlhf_integer_labels_find_the_dataset_id(embedded: str) -> None:
    _register_prompted(embedded)
    prompt = TEMPLATE.format(ADD_PROMPT)
    body = {
        "query": [prompt + f"```python\n{ADD_OK}\n```<|im_end|>", prompt + ADD_WRONG],
        "prompts": [prompt, prompt],
        "labels": [4003, 4003.0],
    }
    r = _openrlhf(embedded, body)
    assert r.status_code == 200, r.text
    assert r.json()["rewards"] == [1.0, 0.0]


def test_openrlhf_without_labels_finds_problems_by_prompt(embedded: str) -> None:
    _register_prompted(embedded)
    prompt = TEMPLATE.format(ADD_PROMPT)
    queries = [prompt + f"```python\n{ADD_OK}\n```", prompt + f"```python\n{ADD_WRONG}\n```"]
    empty = _openrlhf(embedded, {"query": queries, "prompts": [prompt] * 2, "labels": ["", ""]})
    assert empty.status_code == 200, empty.text
    assert empty.json()["rewards"] == [1.0, 0.0]
    query_only = _openrlhf(embedded, {"query": queries})
    assert query_only.status_code == 200, query_only.text
    assert query_only.json()["rewards"] == [1.0, 0.0]
    unknown = _openrlhf(embedded, {"query": ["no such prompt\nprint(1)"], "labels": [""]})
    assert unknown.status_code == 422 and "labels.0" in unknown.json()["message"]


def test_openrlhf_label_may_carry_the_problem(embedded: str) -> None:
    import json

    problem = {"id": "inline-add", "tests": ADD["tests"]}
    body = {
        "query": [f"```python\n{ADD_OK}\n```", ADD_WRONG],
        "labels": [json.dumps(problem), problem],
    }
    r = _openrlhf(embedded, body)
    assert r.status_code == 200, r.text
    assert r.json()["rewards"] == [1.0, 0.0]


# what verl's sandbox tests send, by SandboxFusion's language names
RUN_CODE_PROGRAMS = {
    "cpp": "#include <iostream>\nint main() { int a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }\n",
    "c": '#include <stdio.h>\nint main(void) { int a, b; scanf("%d %d", &a, &b); printf("%d\\n", a + b); }\n',
    "java": "import java.util.*;\npublic class Main { public static void main(String[] x) {"
    " Scanner s = new Scanner(System.in); System.out.println(s.nextInt() + s.nextInt()); } }\n",
    "nodejs": "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);"
    "\nconsole.log(a + b);\n",
    "typescript": "import * as fs from 'fs';\nconst [a, b]: number[] = fs.readFileSync(0, 'utf8')"
    ".trim().split(' ').map(Number);\nconsole.log(a + b);\n",
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a, b int\n\tfmt.Scan(&a, &b)\n'
    "\tfmt.Println(a + b)\n}\n",
    "rust": "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin()"
    ".read_to_string(&mut s).unwrap(); let v: Vec<i64> = s.split_whitespace()"
    '.map(|x| x.parse().unwrap()).collect(); println!("{}", v[0] + v[1]); }\n',
}  # fmt: skip


def test_run_code_compiles_and_runs_the_languages_verl_sends(embedded: str) -> None:
    for language, code in RUN_CODE_PROGRAMS.items():
        got = _run(embedded, code=code, stdin="2 3\n", language=language, compile_timeout=60)
        assert got["status"] == "Success", (language, got)
        assert got["compile_result"]["status"] == "Finished", (language, got)
        assert got["compile_result"]["return_code"] == 0
        assert got["run_result"]["stdout"].strip() == "5", (language, got)


def test_run_code_reports_a_compile_error_without_running(embedded: str) -> None:
    got = _run(embedded, code="int main() { return nope; }\n", language="cpp", compile_timeout=60)
    assert got["status"] == "Failed" and got["run_result"] is None
    assert got["compile_result"]["return_code"] == 1 and "nope" in got["compile_result"]["stderr"]


def test_run_code_refuses_an_unknown_language_as_sandboxfusion_does(embedded: str) -> None:
    got = _run(embedded, code="x", language="cobol")
    assert got["status"] == "SandboxError" and "cobol" in got["message"]


def test_submit_judges_a_cpp_problem_given_inline(embedded: str) -> None:
    problem = {"id": "inline-cpp", "language": "c++",
               "tests": [{"type": "assert", "code": "int main() { assert(add(2, 3) == 5); }"}]}  # fmt: skip
    for code, accepted in (("int add(int a, int b) { return a + b; }", True),
                           ("int add(int a, int b) { return 0; }", False)):  # fmt: skip
        body = {"id": "inline-cpp", "completion": f"```cpp\n#include <cassert>\n{code}\n```",
                "config": {"provided_data": {"problem": problem}}}  # fmt: skip
        r = httpx.post(embedded + "/submit", json=body, headers=auth(), timeout=120)
        assert r.status_code == 200, r.text
        assert r.json()["accepted"] is accepted, r.json()


def test_a_problem_whose_checker_is_broken_is_a_422_not_a_retry(embedded: str) -> None:
    # the checker fails on every output, the test's own answer included: the problem's fault
    problem = {"id": "inline-broken-checker", "tests": ADD["tests"],
               "checker": {"language": "python", "code": "import sys\nsys.exit(3)\n"}}  # fmt: skip
    body = {"id": problem["id"], "completion": f"```python\n{ADD_OK}\n```",
            "config": {"provided_data": {"problem": problem}}}  # fmt: skip
    r = httpx.post(embedded + "/submit", json=body, headers=auth(), timeout=120)
    assert r.status_code == 422 and "checker fails on the answer" in r.text, r.text
    r = _openrlhf(embedded, {"query": [ADD_OK], "labels": [problem]})
    assert r.status_code == 422 and "labels.0" in r.text, r.text


def test_submit_judges_with_the_problems_checker(embedded: str) -> None:
    # any output with the right sum of its tokens is an answer
    checker = ("import sys\nget = lambda i: sum(map(int, open(sys.argv[i]).read().split()))\n"
               "sys.exit(0 if get(2) == get(3) else 1)\n")  # fmt: skip
    problem = {"id": "inline-checker", "tests": [{"type": "stdio", "input": "", "output": "5"}],
               "checker": {"language": "python", "code": checker}}  # fmt: skip
    for code, accepted in (("print(2, 3)", True), ("print(2, 2)", False)):
        body = {"id": problem["id"], "completion": f"```python\n{code}\n```",
                "config": {"provided_data": {"problem": problem}}}  # fmt: skip
        r = httpx.post(embedded + "/submit", json=body, headers=auth(), timeout=120)
        assert r.status_code == 200, r.text
        assert r.json()["accepted"] is accepted, r.json()


# what prime-rl's CodeVerifier, code_contests scripts and SandboxFusion's README send
SF_TESTS = [{"input": {"stdin": "1 2\n"}, "output": {"stdout": "3\n"}},
            {"input": {"stdin": "10 -3\n"}, "output": {"stdout": "7\n"}}]  # fmt: skip
CPP_ADD = "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }"  # fmt: skip


def _commonoj(url: str, completion: str, **config: object) -> httpx.Response:
    row = {"id": 0, "content": "A+B", "test": SF_TESTS}
    body = {"dataset": "custom_dataset", "id": 0, "completion": completion,
            "config": {"dataset_type": "CommonOJDataset", "provided_data": row, **config}}  # fmt: skip
    return httpx.post(url + "/submit", json=body, headers=auth(), timeout=120)


def test_submit_judges_sandboxfusion_commonoj_provided_tests(embedded: str) -> None:
    for completion, language, accepted in ((f"```python\n{ADD_OK}\n```", "python", True),
                                           (f"```python\n{ADD_WRONG}\n```", "python", False),
                                           (f"Here:\n```cpp\n{CPP_ADD}\n```", "cpp", True)):  # fmt: skip
        r = _commonoj(embedded, completion, language=language, run_timeout=5)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["id"] == 0 and got["accepted"] is accepted, got
        assert got["extra"]["result"]["total"] == 2


def test_submit_commonoj_run_timeout_is_the_per_test_limit(embedded: str) -> None:
    slow = f"```python\nimport time\ntime.sleep(2.5)\n{ADD_OK}\n```"
    assert _commonoj(embedded, slow, language="python", run_timeout=5).json()["accepted"] is True
    r = _commonoj(embedded, slow, language="python", run_timeout=1)
    assert r.status_code == 200 and r.json()["tests"][0]["test_info"]["verdict"] == "timeout"


def test_submit_refuses_unusable_commonoj_data_with_a_422(embedded: str) -> None:
    no_language = _commonoj(embedded, ADD_OK)
    assert no_language.status_code == 422 and "config.language" in no_language.text
    unknown = _commonoj(embedded, ADD_OK, language="klingon")
    assert unknown.status_code == 422 and "klingon" in unknown.text
    files = [{"input": {"stdin": "", "in.txt": "1"}, "output": {"stdout": "1"}}]
    body = {"id": 0, "completion": ADD_OK,
            "config": {"language": "python", "provided_data": {"test": files}}}  # fmt: skip
    r = httpx.post(embedded + "/submit", json=body, headers=auth(), timeout=60)
    assert r.status_code == 422 and "test.0" in r.text, r.text
    listed = dict(body, config={"language": "python", "provided_data": [{"test": SF_TESTS}]})
    r = httpx.post(embedded + "/submit", json=listed, headers=auth(), timeout=60)
    assert r.status_code == 422 and "not a list" in r.text, r.text


def test_submit_inline_problem_without_a_language_takes_config_language(embedded: str) -> None:
    problem = {"id": "ab-cpp", "tests": [{"type": "stdio", "input": "1 2\n", "output": "3\n"}]}
    body = {"id": "ab-cpp", "completion": f"```cpp\n{CPP_ADD}\n```",
            "config": {"language": "cpp", "provided_data": {"problem": problem}}}  # fmt: skip
    r = httpx.post(embedded + "/submit", json=body, headers=auth(), timeout=120)
    assert r.status_code == 200 and r.json()["accepted"] is True, r.text
    # a problem's own language wins: config.language is then not used, nor checked
    own = {"language": "klingon", "provided_data": {"problem": dict(problem, language="cpp")}}
    r = httpx.post(embedded + "/submit", json=dict(body, config=own), headers=auth(), timeout=120)
    assert r.status_code == 200 and r.json()["accepted"] is True, r.text


def _first_exec_info(url: str, completion: str, language: str) -> dict:
    r = _commonoj(url, completion, language=language)
    assert r.status_code == 200, r.text
    info = r.json()["tests"][0]["exec_info"]
    for part in (info["compile_result"], info["run_result"]):
        # SandboxFusion's summary_run_code_result raises on Finished without a return code
        assert part is None or part["status"] != "Finished" or part["return_code"] is not None
    return info


def test_submit_exec_info_says_how_each_test_ran(embedded: str) -> None:
    ok = _first_exec_info(embedded, f"```cpp\n{CPP_ADD}\n```", "cpp")
    assert ok["status"] == "Success" and ok["compile_result"]["return_code"] == 0
    assert ok["run_result"]["return_code"] == 0 and ok["run_result"]["execution_time"] > 0
    wrong = _first_exec_info(embedded, ADD_WRONG, "python")  # ran fine, wrong output
    assert wrong["status"] == "Success" and wrong["run_result"]["return_code"] == 0
    exits = _first_exec_info(embedded, "raise SystemExit(3)", "python")
    assert exits["status"] == "Failed" and exits["run_result"]["return_code"] == 3
    killed = _first_exec_info(embedded, "import os\nos.kill(os.getpid(), 11)", "python")
    assert killed["status"] == "Failed" and killed["run_result"]["return_code"] == -11
    broken = _first_exec_info(embedded, "int main() { return nope; }", "cpp")
    assert broken["status"] == "Failed" and broken["run_result"] is None
    assert broken["compile_result"]["return_code"] == 1
    assert "nope" in broken["compile_result"]["stderr"]


def test_run_code_reports_a_killed_program_with_minus_its_signal(embedded: str) -> None:
    # SandboxFusion reports Popen.returncode: minus the signal, never null with Finished
    for code, language, rc in (("int main() { int *p = 0; *p = 1; return *p; }", "cpp", -11),
                               ("#include <cstdlib>\nint main() { abort(); }", "cpp", -6),
                               ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)",
                                "python", -9)):  # fmt: skip
        got = _run(embedded, code=code, language=language, compile_timeout=60)
        assert got["status"] == "Failed", got
        assert got["run_result"]["status"] == "Finished", got
        assert got["run_result"]["return_code"] == rc, (language, got)


def test_run_code_holds_the_compile_to_compile_timeout(embedded: str) -> None:
    # a fresh program (no cached build): g++ takes far longer than 10 ms on <iostream>
    code = RUN_CODE_PROGRAMS["cpp"] + f"// {secrets.token_hex(8)}\n"
    got = _run(embedded, code=code, stdin="2 3\n", language="cpp", compile_timeout=0.01)
    assert got["status"] == "Failed" and got["run_result"] is None, got
    assert got["compile_result"]["status"] == "TimeLimitExceeded", got


def test_v1_ping_answers_pong_without_a_key_as_sandboxfusion_does(embedded: str) -> None:
    r = httpx.get(embedded + "/v1/ping", timeout=10)
    assert r.status_code == 200 and r.json() == "pong", r.text
