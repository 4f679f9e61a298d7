"""APPS 2378 (Codeforces 1272B, snow walking robot): the longest valid route made of the
instructions, any order. Checks the length against the jury's and that the route is valid."""

import sys
from collections import Counter

out_path, ans_path = sys.argv[2], sys.argv[3]
inp = open(sys.argv[1]).read().split()
out = open(out_path, encoding="utf-8", errors="replace").read().split()
ans = open(ans_path).read().split()
pos = 0


def token():
    global pos
    if pos >= len(out):
        sys.exit(2)  # presentation: the output ended early
    pos += 1
    return out[pos - 1]


def number(text):
    if not text.isdigit() or len(text) > 7:
        sys.exit(2)
    return int(text)


q = int(inp[0])
a = 0
for s in inp[1 : 1 + q]:
    best = int(ans[a])
    a += 2 if best else 1
    k = number(token())
    if k != best:
        sys.exit(1)
    if k == 0:
        continue
    route = token()
    if len(route) != k or Counter(route) - Counter(s):
        sys.exit(1)  # a wrong length, or instructions the string does not have
    x = y = 0
    seen = {(0, 0)}
    step = {"L": (-1, 0), "R": (1, 0), "U": (0, 1), "D": (0, -1)}
    for i, c in enumerate(route):
        dx, dy = step[c]
        x, y = x + dx, y + dy
        if (x, y) in seen and not (i == k - 1 and (x, y) == (0, 0)):
            sys.exit(1)
        seen.add((x, y))
    if (x, y) != (0, 0):
        sys.exit(1)
if pos != len(out):
    sys.exit(2)  # extra output
