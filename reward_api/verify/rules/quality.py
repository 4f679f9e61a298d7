# Fixture for quality.yaml, checked by `semgrep --test`.
# ruleid: wildcard-import
from math import *


def safe_div(a, b):
    # ruleid: bare-except
    try:
        return a / b
    except:
        return None


def ignore(a):
    # ruleid: swallowed-exception
    try:
        return int(a)
    except ValueError:
        pass
    # ok: bare-except
    try:
        return float(a)
    except ValueError:
        return 0.0


# ruleid: mutable-default-argument
def append(item, acc=[]):
    acc.append(item)
    return acc


# ok: mutable-default-argument
def append_ok(item, acc=None):
    return (acc or []) + [item]


def early(x):
    return x
    # ruleid: unreachable-code
    print("never")


def loop(xs):
    for x in xs:
        if x:
            continue
            # ruleid: unreachable-code
            x += 1
    # ok: unreachable-code
    return xs


def shadow(values):
    # ruleid: shadowed-builtin
    sum = 0
    # ruleid: shadowed-builtin
    for list in values:
        sum += len(list)
    # ok: shadowed-builtin
    total = sum
    return total


def checks(x):
    # ruleid: compare-to-none
    if x == None:
        return 0
    # ok: compare-to-none
    if x is None:
        return 0
    # ruleid: is-literal
    if x is 3:
        return 1
    # ruleid: type-equality
    return type(x) == int
