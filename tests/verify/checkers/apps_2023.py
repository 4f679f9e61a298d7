"""APPS 2023 (Codeforces 1017C, phone number): a permutation of 1..n with the least
LIS + LDS. Checks it is a permutation whose LIS + LDS equals that of the jury's."""

import sys
from bisect import bisect_left


def lis(xs):
    tails = []
    for x in xs:
        j = bisect_left(tails, x)
        tails[j : j + 1] = [x]
    return len(tails)


n = int(open(sys.argv[1]).read().split()[0])
out = open(sys.argv[2], encoding="utf-8", errors="replace").read().split()
ans = [int(x) for x in open(sys.argv[3]).read().split()]
if len(out) != n or any(not x.isdigit() or len(x) > 7 for x in out):
    sys.exit(2)
p = [int(x) for x in out]
if sorted(p) != list(range(1, n + 1)):
    sys.exit(1)
value = lis(p) + lis([-x for x in p])
sys.exit(0 if value == lis(ans) + lis([-x for x in ans]) else 1)
