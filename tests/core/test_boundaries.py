"""The package's floor plan holds: who may import whom, and no import cycles.

- ``reward_api.verify`` and ``reward_api.sandbox`` (the verification library) import nothing
  from ``reward_api.service``, ``reward_api.data``, ``reward_api.bench`` or ``trainer``,
  not even inside functions.
- the embedded service (no broker) loads no Celery: building its app and gateway leaves
  ``celery`` and ``kombu`` out of ``sys.modules``.
- module-level imports inside ``reward_api`` form no cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "reward_api"
LIBRARY = ("verify", "sandbox")
FORBIDDEN = ("reward_api.service", "reward_api.data", "reward_api.bench", "trainer")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, top_level_only: bool) -> set[str]:
    """Modules a file imports (the package uses absolute imports only; a test says so)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            found.add(node.module or "")
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def _sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "rules" not in p.relative_to(PACKAGE).parts)


def test_the_verification_library_imports_no_service_data_bench_or_trainer() -> None:
    offenders = []
    for sub in LIBRARY:
        for path in _sources(PACKAGE / sub):
            for name in _imports(path, top_level_only=False):
                if name.startswith(FORBIDDEN):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, offenders


def test_the_embedded_service_imports_no_celery() -> None:
    code = (
        "import sys\n"
        "from reward_api.service.app import create_app\n"
        "from reward_api.service.gateway import Gateway\n"
        "from reward_api.service.settings import ServiceSettings\n"
        "settings = ServiceSettings(broker_url=None)\n"
        "create_app(settings)\n"
        "Gateway(settings)\n"
        "bad = [m for m in ('celery', 'kombu', 'torch', 'vllm', 'docker') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_module_level_imports_form_no_cycle() -> None:
    modules = {_module_name(p): p for p in _sources(PACKAGE)}
    graph = {
        name: {m for m in _imports(path, top_level_only=True) if m in modules and m != name}
        for name, path in modules.items()
    }
    # a package's __init__ importing its own submodules is how packages work, not a cycle
    for name in graph:
        graph[name] = {m for m in graph[name] if not m.startswith(name + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)):
            raise AssertionError("import cycle: " + " -> ".join(cycle))
