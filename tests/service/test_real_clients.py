"""The real trainer clients, unmodified, against ``codereward serve`` (``clients.py`` says
how they are installed and loaded): each gets the answers its own code expects, and its
scores equal ours.

- verl 0.9.1 ``compute_score`` (sandbox_fusion): one /run_code per test; its score is the
  share of tests passed, which must equal our ``passed / total`` for the same program.
- SandboxFusion's client 0.3.7: ``run_code`` and ``submit`` (its ``EvalResult`` parses),
  CommonOJ provided data, and its ``summary_run_code_result`` of each test's run.
- OpenRLHF 0.8.1 and 0.9.0 ``request_api_wrapper`` and 0.11.2 (newest release)
  ``SingleTurnAgentExecutor._fetch_rewards_via_http``, with an APPS-style integer label,
  an empty label (found by prompt) and a string id.
- TRL 1.16 ``GRPOTrainer`` for one step on a tiny local model with
  ``reward_api.client.trl_reward_func`` as its reward function.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from clients import ROOT, run_client
from gateway_procs import ADD, ADD_OK, ADD_WRONG, SQUARE, base_env, start_server

PROMPT = "Read two integers a and b from one line and print their sum, a + b."
PROGRAMS = {"ok": ADD_OK, "wrong": ADD_WRONG, "zero": "print(0)", "crash": "raise SystemExit(2)"}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    proc, base = start_server(base_env(), tmp_path_factory.mktemp("clients"))
    problems = [ADD, SQUARE, dict(ADD, id="apps/4003", prompt=PROMPT)]
    assert httpx.post(base + "/v1/problems", json={"problems": problems}).status_code == 200
    yield base
    proc.stop()


def _ours(url: str, problem_id: str, code: str) -> float:
    r = httpx.post(url + "/v1/rewards", timeout=120,
                   json={"items": [{"problem_id": problem_id, "code": code}]})  # fmt: skip
    res = r.json()["results"][0]
    return res["passed"] / res["total"]


def test_verl_compute_score_equals_our_pass_rate(url: str) -> None:
    inputs = [t["input"] for t in ADD["tests"]]
    outputs = [t["output"] for t in ADD["tests"]]
    script = f"""
import json, os, threading
verl = os.environ["CLIENT_DIR"] + "/verl/utils/reward_score/sandbox_fusion/__init__.py"
sf = load_script("verl.utils.reward_score.sandbox_fusion", verl)
out = {{}}
for name, code in {json.dumps(PROGRAMS)}.items():
    completion = "```python\\n" + code + "\\n```"
    score, meta = sf.compute_score({url + "/run_code"!r}, threading.Semaphore(8), 1024, completion,
                                   {{"inputs": {inputs!r}, "outputs": {outputs!r}}}, timeout=10)
    out[name] = [score, [m.get("status") for m in meta]]
print(json.dumps(out))
"""
    got = json.loads(run_client("verl-0.9.1", script).strip().splitlines()[-1])
    for name, code in PROGRAMS.items():
        assert got[name][0] == _ours(url, "add", code), (name, got[name])
        assert "api_error" not in got[name][1] and "sandbox_error" not in got[name][1]
    assert got["ok"][0] == 1.0 and got["wrong"][0] == 0.2 and got["crash"][1][0] == "runtime_error"


def test_verl_call_based_wrapper_runs_in_our_sandbox(url: str) -> None:
    """verl wraps an APPS fn_name problem in its own harness and compares stdout."""
    script = f"""
import json, os
path = os.environ["CLIENT_DIR"] + "/verl/utils/reward_score/sandbox_fusion/utils.py"
utils = load_script("verl.utils.reward_score.sandbox_fusion.utils", path)
res, meta = utils.check_correctness({url + "/run_code"!r},
    {{"inputs": ["3", "4"], "outputs": ["9", "16"], "fn_name": "sq"}}, "def sq(n):\\n    return n * n")
print(json.dumps(res))
"""
    assert json.loads(run_client("verl-0.9.1", script).strip().splitlines()[-1]) == [True, True]


def test_sandboxfusion_client_run_code_and_submit(url: str) -> None:
    ok, wrong = (f"```python\n{c}\n```" for c in (ADD_OK, ADD_WRONG))
    script = f"""
import json, os
from sandbox_fusion import run_code, submit, RunCodeRequest, SubmitRequest, TestConfig
r = run_code(RunCodeRequest(code="print(input()[::-1])", stdin="abc\\n", language="python"),
             endpoint={url!r})
s = submit(SubmitRequest(dataset="mine", id="add", completion={ok!r},
                         config=TestConfig()), endpoint={url!r})
w = submit(SubmitRequest(dataset="mine", id="add", completion={wrong!r},
                         config=TestConfig()), endpoint={url!r})
print(json.dumps([r.status, r.run_result.stdout, s.accepted, len(s.tests), w.accepted]))
"""
    out = run_client("sandbox-fusion-0.3.7", script).strip().splitlines()[-1]
    assert json.loads(out) == ["Success", "cba\n", True, 5, False]


def test_sandboxfusion_client_submits_commonoj_data_and_summarises_each_run(url: str) -> None:
    ok, wrong = (f"```python\n{c}\n```" for c in (ADD_OK, ADD_WRONG))
    script = f"""
import json
from sandbox_fusion import run_code, submit, RunCodeRequest, SubmitRequest, TestConfig
from sandbox_fusion.client import summary_run_code_result
from sandbox_fusion.models import SummaryMapping
m = SummaryMapping(CompileFailed="CE", RunFailed="RE", RunTimeout="TLE")
tests = [{{"input": {{"stdin": "1 2\\n"}}, "output": {{"stdout": "3\\n"}}}}]
out = []
for completion in ({ok!r}, {wrong!r}, "```python\\nraise SystemExit(3)\\n```"):
    res = submit(SubmitRequest(dataset="custom_dataset", id=0, completion=completion,
                               config=TestConfig(dataset_type="CommonOJDataset", language="python",
                                                 provided_data={{"id": 0, "content": "A+B",
                                                                 "test": tests}})),
                 endpoint={url!r})
    out.append([res.accepted, summary_run_code_result(res.tests[0].exec_info, m)])
r = run_code(RunCodeRequest(code="int main() {{ int *p = 0; *p = 1; return *p; }}", language="cpp"),
             endpoint={url!r})
out.append([r.run_result.return_code, summary_run_code_result(r, m)])
print(json.dumps(out))
"""
    out = run_client("sandbox-fusion-0.3.7", script).strip().splitlines()[-1]
    assert json.loads(out) == [[True, "Success"], [False, "Success"], [False, "RE"], [-11, "RE"]]


def _openrlhf_body() -> tuple[list[str], list[str], list]:
    prompt = f"<|im_start|>user\n{PROMPT}<|im_end|>\n<|im_start|>assistant\n"
    queries = [prompt + f"```python\n{ADD_OK}\n```<|im_end|>", prompt + f"```python\n{ADD_WRONG}\n```",
               prompt + f"```python\n{ADD_OK}\n```"]  # fmt: skip
    return queries, [prompt] * 3, [4003, "", "apps/4003"]


@pytest.mark.parametrize("version", ["0.8.1", "0.9.0"])
def test_openrlhf_remote_rm_wrapper(url: str, version: str) -> None:
    queries, prompts, labels = _openrlhf_body()
    call = (
        "m.request_api_wrapper(URL, data, 'rewards')" if version == "0.8.1"
        else "m.request_api_wrapper(URL, data)['rewards']"
    )  # fmt: skip
    script = f"""
import json, os
ray_decorators_only()
d = os.environ["CLIENT_DIR"] + "/openrlhf/utils/"
load_script("openrlhf.utils.logging_utils", d + "logging_utils.py")
m = load_script("openrlhf.utils.remote_rm_utils", d + "remote_rm_utils.py")
URL = {url + "/compat/openrlhf"!r}
data = {{"query": {queries!r}, "prompts": {prompts!r}, "labels": {labels!r}}}
print(json.dumps({call}))
"""
    out = run_client(f"openrlhf-{version}", script).strip().splitlines()[-1]
    assert json.loads(out) == [1.0, 0.0, 1.0]


def test_openrlhf_newest_agent_executor(url: str) -> None:
    queries, prompts, labels = _openrlhf_body()
    script = f"""
import asyncio, json, os
d = os.environ["CLIENT_DIR"] + "/openrlhf/utils/"
load_script("openrlhf.utils.logging_utils", d + "logging_utils.py")
agent = load_script("openrlhf.utils.agent", d + "agent.py")
ex = agent.SingleTurnAgentExecutor({url + "/compat/openrlhf"!r})
out = []
for q, p, lab in zip({queries!r}, {prompts!r}, {labels!r}):
    (info,) = asyncio.run(ex._fetch_rewards_via_http([q], [p], [lab]))
    out.append([info["rewards"], info["scores"], sorted(info["extra_logs"])])
print(json.dumps(out))
"""
    out = json.loads(run_client("openrlhf-0.11.2", script).strip().splitlines()[-1])
    assert [o[0] for o in out] == [[1.0], [0.0], [1.0]]
    assert out[0][2] == ["accepted", "pass_rate"]


def test_trl_grpo_trainer_calls_our_reward_function(url: str, tmp_path: Path) -> None:
    pytest.importorskip("torch")  # the trainer's tier (make trainer-deps); TRL needs torch
    pytest.importorskip("transformers")
    script = f"""
import json, os, sys
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, {str(ROOT)!r})
from datasets import Dataset
from trl import GRPOConfig, GRPOTrainer
from transformers import AutoModelForCausalLM, AutoTokenizer
from trainer.demo.tinymodel import build_tiny_model
from reward_api.client import RewardClient, trl_reward_func

texts = ["print(1)\\n", "a, b = map(int, input().split())\\nprint(a + b)\\n"] * 20
model_dir = build_tiny_model(__import__("pathlib").Path({str(tmp_path)!r}), texts, hidden_size=64, layers=1)
seen = []
base = trl_reward_func(RewardClient({url!r}))
def codereward(prompts, completions, **kwargs):
    rewards = base(prompts, completions, **kwargs)
    seen.append((list(kwargs["problem_id"]), rewards))
    return rewards
data = Dataset.from_list([{{"prompt": "Add two numbers:\\n", "problem_id": "add"}}] * 4)
args = GRPOConfig(output_dir={str(tmp_path / "out")!r}, max_steps=1, per_device_train_batch_size=2,
                  num_generations=2, max_completion_length=8, report_to=[], use_cpu=True,
                  logging_steps=1, save_strategy="no", bf16=False)
tok = AutoTokenizer.from_pretrained(str(model_dir))
model = AutoModelForCausalLM.from_pretrained(str(model_dir))
trainer = GRPOTrainer(model=model, reward_funcs=[codereward], args=args, train_dataset=data,
                      processing_class=tok)
trainer.train()
print(json.dumps(seen))
"""
    out = run_client("trl-1.16.0", script, timeout_s=900, extra_path=str(ROOT))
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen, "GRPOTrainer never called the reward function"
    for ids, rewards in seen:
        assert set(ids) == {"add"} and len(rewards) == len(ids)
        assert all(r in (0.0, 1.0) for r in rewards)  # verified: a tiny model's text scores 0
