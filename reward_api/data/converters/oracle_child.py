"""The oracle's child process: runs one trusted reference over argument lists.

Started by ``reward_api.data.converters.oracle`` as ``python -s -P oracle_child.py`` with a
job on stdin (``code``, ``fn_name``, ``inputs``, limits) and a hash seed in the
environment; writes one JSON record per input on stdout. It imports nothing from
``reward_api``: it runs in a bare interpreter, only ever on dataset references, never on
model output (this is not a sandbox).
"""

import io
import json
import os
import resource
import signal
import sys

job = json.loads(sys.stdin.read())
out = os.fdopen(os.dup(1), "w")
sys.stdout = io.StringIO()
mem = job["memory_mb"] * 1024 * 1024
try:
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
except (ValueError, OSError):
    pass
sys.setrecursionlimit(100000)


class _Alarm(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Alarm()


signal.signal(signal.SIGALRM, _on_alarm)


def plain(v):
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        if not all(isinstance(k, str) for k in v):
            raise TypeError("dict with non-string keys")
        return {k: plain(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise TypeError("non-finite float")
        return v
    raise TypeError(type(v).__name__)


def deep_tuple(v):
    return tuple(deep_tuple(x) for x in v) if isinstance(v, list) else v


def shaped(v, shape):
    if not shape:
        return v
    kind = shape["t"]
    if kind == "deep_tuple":
        return deep_tuple(v)
    if kind in ("tuple", "list", "set") and isinstance(v, list):
        items = shape.get("items") or []
        if kind == "tuple" and len(items) == len(v):
            inner = [shaped(x, s) for x, s in zip(v, items, strict=False)]
        else:
            each = shape.get("e") or (items[0] if items else None)
            inner = [shaped(x, each) for x in v]
        return {"tuple": tuple, "list": list, "set": set}[kind](inner)
    if kind == "dict" and isinstance(v, dict):
        return {k: shaped(x, shape.get("e")) for k, x in v.items()}
    if kind in ("complex", "number") and isinstance(v, str):
        import ast

        try:
            value = ast.literal_eval(v)
            return complex(value) if kind == "complex" else value
        except (ValueError, TypeError, SyntaxError):
            return v
    return v


def too_large(v, limit):
    stack, seen = [v], 0
    while stack:
        x = stack.pop()
        seen += 1
        if seen > limit:
            return True
        if isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return False


def canonical(v):
    # repr, with set elements sorted where they can be, so outputs do not depend on the hash seed
    if isinstance(v, (set, frozenset)):
        items = [canonical(x) for x in v]
        try:
            items = [t for _, t in sorted(zip(v, items, strict=False))]
        except TypeError:
            items.sort()
        inner = "{" + ", ".join(items) + "}" if items else "set()"
        return inner if isinstance(v, set) else "frozenset(" + inner + ")"
    if isinstance(v, list):
        return "[" + ", ".join(canonical(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(canonical(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(canonical(k) + ": " + canonical(x) for k, x in v.items()) + "}"
    return repr(v)


def literal(v):
    import ast

    try:
        text = canonical(v)
    except RecursionError:
        return None
    try:
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    # a Counter or defaultdict is written as the dict it equals; a list never stands for a tuple
    same = type(back) is type(v) or (isinstance(v, dict) and type(back) is dict)
    return text if back == v and same else None


ns = {"__name__": "__oracle__"}
try:
    exec(compile(job["code"], "<reference>", "exec"), ns)
    fn = ns[job["fn_name"]]
except BaseException as e:
    out.write(json.dumps({"fatal": type(e).__name__ + ": " + str(e)[:200]}) + "\n")
    out.flush()
    sys.exit(0)
shapes = job.get("shapes") or []
for i, args in enumerate(job["inputs"]):
    if shapes:
        args = [shaped(a, shapes[j] if j < len(shapes) else None) for j, a in enumerate(args)]
    args_repr = literal(tuple(args)) if shapes else None
    signal.setitimer(signal.ITIMER_REAL, job["call_s"])
    try:
        value = fn(*args)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except BaseException as e:
        signal.setitimer(signal.ITIMER_REAL, 0)
        rec = {"i": i, "status": "error", "detail": type(e).__name__}
    else:
        if too_large(value, job["max_nodes"]):
            out.write(json.dumps({"i": i, "status": "too_large"}) + "\n")
            out.flush()
            continue
        rec = {"i": i, "status": "ok", "args_repr": args_repr, "repr": literal(value)}
        if isinstance(value, (list, tuple)):
            try:
                rec["sorted_repr"] = literal(sorted(value))
            except TypeError:
                rec["sorted_repr"] = None
        try:
            rec["value"] = plain(value)
            json.dumps(rec, allow_nan=False)
            rec["plain"] = True
        except (TypeError, ValueError, RecursionError) as e:
            rec["value"] = None
            rec["plain"] = False
            if isinstance(value, float) and value in (float("inf"), float("-inf")):
                rec["repr"] = f"float({repr(value)!r})"
            if rec["repr"] is None:
                truthy = (
                    None if isinstance(value, (int, float, str, list, tuple, dict)) else bool(value)
                )
                rec = {"i": i, "status": "unjsonable", "detail": str(e)[:80], "truthy": truthy}
    sys.stdout = io.StringIO()
    out.write(json.dumps(rec) + "\n")
    out.flush()
