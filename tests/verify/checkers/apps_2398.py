"""APPS 2398 (Codeforces 1385G, columns swaps): the fewest column swaps that make both rows
permutations, or -1. Checks the count against the jury's and the rows after the swaps."""

import sys

inp = open(sys.argv[1]).read().split()
out = open(sys.argv[2], encoding="utf-8", errors="replace").read().split()
ans = open(sys.argv[3]).read().split()
pos = 0


def number():
    global pos
    if pos >= len(out) or not out[pos].lstrip("-").isdigit() or len(out[pos]) > 8:
        sys.exit(2)
    pos += 1
    return int(out[pos - 1])


t, i, a = int(inp[0]), 1, 0
for _ in range(t):
    n = int(inp[i])
    row1 = [int(x) for x in inp[i + 1 : i + 1 + n]]
    row2 = [int(x) for x in inp[i + 1 + n : i + 1 + 2 * n]]
    i += 1 + 2 * n
    best = int(ans[a])
    a += 1 + max(best, 0)
    k = number()
    if k != best:
        sys.exit(1)
    if k < 0:
        continue
    cols = [number() for _ in range(k)]
    if len(set(cols)) != k or any(not 1 <= c <= n for c in cols):
        sys.exit(1)
    for c in cols:
        row1[c - 1], row2[c - 1] = row2[c - 1], row1[c - 1]
    if sorted(row1) != list(range(1, n + 1)) or sorted(row2) != list(range(1, n + 1)):
        sys.exit(1)
if pos != len(out):
    sys.exit(2)
