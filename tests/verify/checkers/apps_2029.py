"""APPS 2029 (Codeforces 1205A, almost equal): 1..2n on a circle with every n consecutive
sums within 1 of each other, or NO. Checks the answer's YES/NO and the arrangement."""

import sys

n = int(open(sys.argv[1]).read().split()[0])
out = open(sys.argv[2], encoding="utf-8", errors="replace").read().split()
ans = open(sys.argv[3]).read().split()
if not out or out[0] not in ("YES", "NO"):
    sys.exit(2)
if out[0] != ans[0]:
    sys.exit(1)
if out[0] == "NO":
    sys.exit(0 if len(out) == 1 else 2)
if len(out) != 1 + 2 * n or any(not x.isdigit() or len(x) > 7 for x in out[1:]):
    sys.exit(2)
c = [int(x) for x in out[1:]]
if sorted(c) != list(range(1, 2 * n + 1)):
    sys.exit(1)
s = sum(c[:n])
low = high = s
for j in range(2 * n):  # the window starting at j + 1
    s += c[(j + n) % (2 * n)] - c[j]
    low, high = min(low, s), max(high, s)
sys.exit(0 if high - low <= 1 else 1)
