"""APPS 2400 (Codeforces 1328D, carousel): colour the figures with the fewest colours so that
neighbours of different types differ. Checks the count against the jury's and the colouring."""

import sys

inp = open(sys.argv[1]).read().split()
out = open(sys.argv[2], encoding="utf-8", errors="replace").read().split()
ans = open(sys.argv[3]).read().split()
pos = 0


def number():
    global pos
    if pos >= len(out) or not out[pos].isdigit() or len(out[pos]) > 7:
        sys.exit(2)
    pos += 1
    return int(out[pos - 1])


q, i, a = int(inp[0]), 1, 0
for _ in range(q):
    n = int(inp[i])
    t = inp[i + 1 : i + 1 + n]
    i += 1 + n
    best = int(ans[a])
    a += 1 + n
    if number() != best:
        sys.exit(1)
    c = [number() for _ in range(n)]
    if any(not 1 <= x <= best for x in c):
        sys.exit(1)
    if any(t[j] != t[(j + 1) % n] and c[j] == c[(j + 1) % n] for j in range(n)):
        sys.exit(1)
if pos != len(out):
    sys.exit(2)
