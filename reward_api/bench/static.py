"""Static-analysis benchmark: milliseconds per program, batched engine vs one call each.

``bench_static()`` scans the same ``n`` realistic programs (17 lines on average; stdio and
function style, a third with findings) four ways, all in the same run so that ratios
compare like with like on a shared machine:

- ``batched``: the production path, one ``semgrep-core`` run for the batch, every rule;
- ``batched_gate``: the hack gate alone (``reward_hacking`` rules after the prefilter);
- ``batched_cli``: one ``semgrep`` command-line run for the batch;
- ``per_call`` (``per_call_core``): the command line (the engine) once per program.

Wall-clock figures swell with other load on the cores; the ``*_cpu_*`` figures (user +
system time of the engine processes) do not. Nothing here gates a test.

Run alone: ``python -m reward_api.bench.static`` (JSON on stdout).
"""

from __future__ import annotations

import json
import resource
import sys
import time

from reward_api.verify.static_analysis import (
    CATEGORIES,
    HACKING,
    Engine,
    scan_program,
    scan_programs,
)


def bench_static(n: int = 64, per_call_samples: int = 3) -> dict[str, float]:
    """Milliseconds per program: one engine call for ``n`` programs vs one call each.

    ``batched_ms_per_program``: the production path with every rule (semgrep-core, one
    call per batch, all three categories, as preset ``hard`` scans).
    ``batched_gate_ms_per_program``: the hack gate alone (``reward_hacking`` rules and the
    prefilter, as presets ``default`` and ``easy`` scan).
    ``per_call_ms_per_program``: the naive baseline, the semgrep CLI once per program,
    timed on ``per_call_samples`` programs because each call costs seconds.
    ``*_cpu_ms_per_program``: the engine's CPU time (user + system), which does not grow
    when other processes share the cores; the other figures are wall-clock.
    """
    programs = bench_programs(n)
    scan_programs(programs[:2])  # warm the page cache and the merged rule files
    scan_programs(programs[:2], categories=(HACKING,))
    out: dict[str, float] = {"n": float(n)}
    runs: tuple[tuple[str, Engine, tuple[str, ...]], ...] = (
        ("batched", "core", CATEGORIES),
        ("batched_gate", "core", (HACKING,)),
        ("batched_cli", "cli", CATEGORIES),
    )
    for key, engine, categories in runs:
        cpu0 = _children_cpu_s()
        t0 = time.perf_counter()
        scan_programs(programs, engine=engine, categories=categories)
        out[f"{key}_ms_per_program"] = round((time.perf_counter() - t0) * 1000 / n, 2)
        out[f"{key}_cpu_ms_per_program"] = round((_children_cpu_s() - cpu0) * 1000 / n, 2)
    k = max(1, min(per_call_samples, n))
    per_call: tuple[tuple[str, Engine], ...] = (("per_call_core", "core"), ("per_call", "cli"))
    for key, engine in per_call:
        t0 = time.perf_counter()
        for program in programs[:k]:
            scan_program(program, engine=engine)
        out[f"{key}_ms_per_program"] = round((time.perf_counter() - t0) * 1000 / k, 2)
    out["mean_program_lines"] = round(sum(p.count("\n") for p in programs) / n, 1)
    out["per_call_over_batched"] = round(
        out["per_call_ms_per_program"] / out["batched_ms_per_program"], 1
    )
    out["cli_batch_over_core_batch"] = round(
        out["batched_cli_ms_per_program"] / out["batched_ms_per_program"], 1
    )
    return out


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_BENCH_PROGRAMS = (
    """import sys
from collections import defaultdict


def solve(n, edges):
    graph = defaultdict(list)
    for u, v in edges:
        graph[u].append(v)
        graph[v].append(u)
    seen = [False] * (n + 1)
    components = 0
    for start in range(1, n + 1):
        if seen[start]:
            continue
        components += 1
        stack = [start]
        seen[start] = True
        while stack:
            u = stack.pop()
            for v in graph[u]:
                if not seen[v]:
                    seen[v] = True
                    stack.append(v)
    return components


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    edges = [(int(data[2 + 2 * i]), int(data[3 + 2 * i])) for i in range(m)]
    print(solve(n, edges))


main()
""",
    """def longest_common_subsequence(a, b):
    rows, cols = len(a), len(b)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[rows][cols]
""",
    """import heapq


class Solution:
    def shortest(self, n, roads, source):
        adj = [[] for _ in range(n)]
        for u, v, w in roads:
            adj[u].append((v, w))
            adj[v].append((u, w))
        dist = [float("inf")] * n
        dist[source] = 0
        heap = [(0, source)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, w in adj[u]:
                if d + w < dist[v]:
                    dist[v] = d + w
                    heapq.heappush(heap, (dist[v], v))
        return [x if x != float("inf") else -1 for x in dist]
""",
    """n = int(input())
values = list(map(int, input().split()))
best = current = values[0]
for x in values[1:]:
    current = max(x, current + x)
    best = max(best, current)
if best < 0:
    print(-1)
    exit()
print(best)
""",
    """def is_valid(s, cache={}):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    try:
        for ch in s:
            if ch in "([{":
                stack.append(ch)
            elif not stack or stack.pop() != pairs[ch]:
                return False
    except:
        return False
    return not stack
""",
    """import os


def run_checks(paths):
    results = []
    for path in paths:
        if path == None:
            continue
        results.append(os.system("wc -l " + path))
    return results
""",
)


def bench_programs(n: int) -> list[str]:
    """``n`` realistic programs (10 to 35 lines; stdio and function style; some findings)."""
    out = []
    for i in range(n):
        body = _BENCH_PROGRAMS[i % len(_BENCH_PROGRAMS)]
        out.append(f"# candidate {i}\n" + body)
    return out


def main() -> int:
    """Print ``bench_static()`` as JSON."""
    json.dump(bench_static(), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
