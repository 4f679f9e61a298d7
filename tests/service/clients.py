"""The real trainer clients, installed from PyPI beside the project (never into its venv).

Each package goes into its own folder under ``CLIENTS_DIR`` with ``pip install --no-deps
--target``: only the client files are used, run by this interpreter (which has requests,
aiohttp, pydantic, torch and transformers), each in a subprocess with only its folder on
``PYTHONPATH``. ``make client-venvs`` (and the tests, when a folder is missing) install:

| folder | package | the code the tests run, unmodified |
|---|---|---|
| verl-0.9.1 | verl 0.9.1 | verl/utils/reward_score/sandbox_fusion (``compute_score``, ``check_correctness``, ``call_sandbox_api``) |
| openrlhf-0.8.1, openrlhf-0.9.0 | openrlhf | openrlhf/utils/remote_rm_utils.py (``request_api_wrapper``) |
| openrlhf-0.11.2 | openrlhf 0.11.2 (newest release) | openrlhf/utils/agent.py (``SingleTurnAgentExecutor._fetch_rewards_via_http``) |
| sandbox-fusion-0.3.7 | sandbox-fusion 0.3.7 and tenacity | sandbox_fusion/client.py (``run_code``, ``submit``) |
| trl-1.16.0 | trl 1.16.0, datasets, accelerate (+ their small pure deps) | ``GRPOTrainer`` with a reward function |

Modules are loaded from their files (``load_script`` below): the packages' ``__init__``
would import their training stacks (ray, deepspeed, vLLM), which the HTTP code never
touches. Where a client file imports Ray at the top only to decorate its Ray actors
(OpenRLHF 0.8/0.9), a module named ``ray`` whose ``remote`` returns its argument is put
in ``sys.modules`` first; the functions under test do not use Ray.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENTS_DIR = Path(os.environ.get("CODEREWARD_CLIENTS_DIR", ROOT / ".venv" / "tools" / "clients"))
PACKAGES = {
    "verl-0.9.1": ["verl==0.9.1"],
    "openrlhf-0.8.1": ["openrlhf==0.8.1"],
    "openrlhf-0.9.0": ["openrlhf==0.9.0"],
    "openrlhf-0.11.2": ["openrlhf==0.11.2"],
    "sandbox-fusion-0.3.7": ["sandbox-fusion==0.3.7", "tenacity"],
    "trl-1.16.0": [
        "trl==1.16.0",
        "datasets==5.2.0",
        "accelerate",
        "multiprocess",
        "xxhash",
        "pandas",
    ],
}


def ensure(name: str) -> Path:
    """The folder of one client, installed with pip the first time."""
    target = CLIENTS_DIR / name
    if not (target / ".installed").exists():
        target.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
               str(target), *PACKAGES[name]]  # fmt: skip
        subprocess.run(cmd, check=True, timeout=1200)
        (target / ".installed").touch()
    return target


LOADER = '''
import importlib.util, sys, types
from pathlib import Path

def load_script(name, path, packages=()):
    """Load a module from its file, its parent packages as empty namespaces."""
    root = Path(path).parents[len(name.split(".")) - 1]
    parts = name.split(".")
    for i in range(1, len(parts)):
        pkg = ".".join(parts[:i])
        if pkg not in sys.modules:
            mod = types.ModuleType(pkg)
            mod.__path__ = [str(root.joinpath(*parts[:i]))]
            sys.modules[pkg] = mod
    spec = importlib.util.spec_from_file_location(name, path,
        submodule_search_locations=[str(Path(path).parent)] if path.endswith("__init__.py") else None)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod

def ray_decorators_only():
    ray = types.ModuleType("ray")
    ray.remote = lambda obj=None, **kw: obj if obj is not None else (lambda o: o)
    sys.modules["ray"] = ray
'''


def run_client(name: str, script: str, timeout_s: float = 600, extra_path: str = "") -> str:
    """Run ``script`` (after ``LOADER``) with one client's folder on the path; its stdout."""
    folder = ensure(name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEREWARD_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), extra_path) if p)
    env["CLIENT_DIR"] = str(folder)
    r = subprocess.run([sys.executable, "-c", LOADER + script], env=env, capture_output=True,
                       text=True, timeout=timeout_s)  # fmt: skip
    if r.returncode != 0:
        raise AssertionError(f"{name} client failed:\n{r.stdout[-3000:]}\n{r.stderr[-5000:]}")
    return r.stdout
