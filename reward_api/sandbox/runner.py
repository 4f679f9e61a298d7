"""The in-sandbox runner: a warm interpreter that forks once per test.

This file runs INSIDE the sandbox (bubblewrap cell or Docker container) under the runtime's
own Python (3.11+, standard library only). It must not import anything from ``reward_api``.

Protocol: the host writes frames (4-byte big-endian length + UTF-8 JSON) to the runner's
stdin and reads frames from its stdout. Requests:

- ``{"op": "ping"}`` -> ``{"ok": true, "python": "3.11.2"}``
- ``{"op": "sample", "program", "setup", "tests", "time_s", "memory_mb", "max_output_bytes",
  "max_file_mb", "max_procs", "stop_on_first_failure"}`` -> ``{"ok": true, "tests": [...]}``
  where each test report holds what the program did (stdout, exit status, encoded values);
  never a verdict against expected output, which the runner never sees.
- ``{"op": "judge", "setup", "prelude", "checks": [{"expr", "values"}], "time_s",
  "memory_mb"}`` -> ``{"ok": true, "outcomes": [...]}``: evaluates trusted comparison
  expressions over values produced by a candidate in ANOTHER cell. A judge cell never runs
  candidate code.

Per test the runner forks a child that runs the program in a fresh ``__main__`` namespace
under rlimits (address space, CPU, file size, open files, processes, no core dumps), with
new pipes as stdin/stdout/stderr and a results pipe. Values a test produces (a ``call``
test's return value, the lifted sub-expressions of an ``assert`` test) are turned into
plain tagged JSON by an encoder whose type checks use exact types captured before the
program ran: always-equal objects, lying ``int`` subclasses and other home-made types
are refused, not trusted. After each test every process of the sandbox other than the
runner and the namespace's init is killed (``kill(-1, SIGKILL)``), so nothing a test
starts outlives it. After each sample ``/tmp`` and ``/dev/shm`` are wiped.

What the candidate can still do in its own process: anything, including writing forged
records on the results pipe. That buys nothing: records are only values, compared with
expected outputs outside this sandbox, and a forged record is no better than returning
that value honestly.
"""

import builtins
import io
import json
import os
import resource
import select
import signal
import struct
import sys
import time
import traceback
import types

try:  # pre-import what code-RL programs import, so a fork starts warm
    import bisect  # noqa: F401
    import collections
    import decimal
    import fractions
    import functools  # noqa: F401
    import heapq  # noqa: F401
    import itertools  # noqa: F401
    import math  # noqa: F401
    import re  # noqa: F401
    import string  # noqa: F401
    import typing  # noqa: F401
except ImportError:  # pragma: no cover - stdlib is always there
    pass
# numpy is imported into the runner only once a sample needs it (the host says so): a warm
# numpy makes every later fork of this cell about 1 ms dearer.
_np = None


def _ensure_numpy():
    global _np
    if _np is None:
        try:
            import numpy

            _np = numpy
        except ImportError:  # the runtime documents numpy, but the runner must not depend on it
            pass


try:
    import sortedcontainers  # noqa: F401
except ImportError:
    pass

RESULT_FD = 3
MAX_RESULT_BYTES = 64 << 20
_HDR = struct.Struct(">I")
_SELF_PID = os.getpid()


# ---------------------------------------------------------------- control channel
def _read_exact(fd, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def _recv(fd):
    hdr = _read_exact(fd, 4)
    if hdr is None:
        return None
    (n,) = _HDR.unpack(hdr)
    body = _read_exact(fd, n)
    if body is None:
        return None
    return json.loads(body)


def _send(fd, obj):
    data = json.dumps(obj, separators=(",", ":")).encode()
    data = _HDR.pack(len(data)) + data
    while data:
        n = os.write(fd, data)
        data = data[n:]


# ---------------------------------------------------------------- trusted value encoder
_EXACT = {
    list: "l",
    tuple: "t",
    set: "s",
    frozenset: "fs",
    dict: "d",
}
_EXTRA = {
    collections.OrderedDict: "od",
    collections.defaultdict: "dd",
    collections.Counter: "ctr",
    collections.deque: "dq",
}
_COMPARE_DUNDERS = (
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__hash__",
    "__bool__",
    "__len__",
    "__iter__",
    "__getitem__",
    "__contains__",
    "__index__",
    "__int__",
    "__float__",
    "__abs__",
    "__round__",
    "__sub__",
    "__add__",
    "__mul__",
    "__truediv__",
    "__neg__",
    "__getattribute__",
    "__getattr__",
    "keys",
    "values",
    "items",
    "__class__",
)
_BASES = (bool, int, float, complex, str, bytes, list, tuple, set, frozenset, dict)


class Unencodable(Exception):
    pass


class _Raised:
    """What a guarded lift point became when it raised (short-circuit operands)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def _guarded(fn):
    try:
        return fn()
    except Exception as exc:
        return _Raised(type(exc).__name__)


class _Deferred:
    """The judge's stand-in for a raised operand: using it raises, as the original would."""

    def __init__(self, name):
        self.name = name

    def _fail(self, *args, **kwargs):
        raise RuntimeError("operand raised " + self.name)

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __len__ = _fail
    __iter__ = __getitem__ = __contains__ = __add__ = __sub__ = __call__ = __getattr__ = _fail
    __hash__ = None


def _plain_base(t):
    """The builtin base of a subclass that overrides nothing that compares or converts."""
    for base in _BASES:
        if base in t.__mro__:
            for name in _COMPARE_DUNDERS:
                got = None
                for klass in t.__mro__:
                    if name in klass.__dict__:
                        got = klass
                        break
                overridden = got is not None and got not in (base, object)
                if (
                    overridden
                    and got.__module__ != "builtins"
                    and not (base is int and got is bool)
                ):
                    return None
            return base
    return None


def make_encoder(trusted_classes):
    """Build an encoder closed over references captured now, before the program runs."""
    _type = type
    _id = id
    _isfinite = float.__repr__
    np_scalar = _np.generic if _np is not None else None
    np_array = _np.ndarray if _np is not None else None
    decimal_t = decimal.Decimal
    fraction_t = fractions.Fraction
    obj_getattr = object.__getattribute__
    trusted_names = dict(trusted_classes)
    list_iter, tuple_iter, dict_items = list.__iter__, tuple.__iter__, dict.items
    set_iter, fs_iter = set.__iter__, frozenset.__iter__
    budget = [0]

    def enc(v, memo):
        budget[0] -= 1
        if budget[0] < 0:
            raise Unencodable("value too large")
        t = _type(v)
        if v is None or t is bool or t is str:
            return v
        if t is _Raised:
            return ["err", v.name]
        if t is int:
            return v if -(1 << 53) < v < (1 << 53) else ["i", int.__repr__(v)]
        if t is float:
            r = _isfinite(v)
            return v if r not in ("inf", "-inf", "nan") else ["f", r]
        if t is complex:
            return ["c", enc(v.real, memo), enc(v.imag, memo)]
        if t is bytes:
            return ["b", bytes.hex(v)]
        key = _id(v)
        if key in memo:
            return ["ref", memo[key]]
        tag = _EXACT.get(t) or _EXTRA.get(t)
        if tag is None and t is not decimal_t and t is not fraction_t:
            if np_scalar is not None and isinstance(v, np_scalar) and t.__module__ == "numpy":
                return ["np", t.__name__, enc(v.item(), memo)]
            if np_array is not None and t is np_array:
                memo[key] = len(memo)
                return ["nd", v.dtype.str, list(v.shape), enc(v.tolist(), memo)]
            if t.__name__ in trusted_names or t in trusted_classes.values():
                memo[key] = len(memo)
                try:
                    attrs = obj_getattr(v, "__dict__")
                except AttributeError:
                    attrs = {}
                return ["o", t.__name__, [[k, enc(x, memo)] for k, x in dict_items(attrs)]]
            base = _plain_base(t)
            if base is None:  # a home-made type: opaque, equal to nothing outside
                return ["o", "?" + t.__name__, []]
            if base in (bool, int, float, complex, str, bytes):
                return enc(base(v), memo)
            tag = _EXACT[base]
            t = base
        if t is decimal_t:
            return ["dec", str(v)]
        if t is fraction_t:
            return ["frac", str(v.numerator), str(v.denominator)]
        memo[key] = len(memo)
        if tag in ("d", "od", "dd", "ctr"):
            return [tag, [[enc(k, memo), enc(x, memo)] for k, x in dict_items(v)]]
        if tag == "l":
            return ["l", [enc(x, memo) for x in list_iter(v)]]
        if tag == "t":
            return ["t", [enc(x, memo) for x in tuple_iter(v)]]
        if tag == "s":
            return ["s", [enc(x, memo) for x in set_iter(v)]]
        if tag == "fs":
            return ["fs", [enc(x, memo) for x in fs_iter(v)]]
        if tag == "dq":
            return ["dq", [enc(x, memo) for x in list(v)]]
        raise Unencodable(t.__name__)

    def encode(v):
        budget[0] = 2000000
        return enc(v, {})

    return encode


def make_decoder(classes):
    """Inverse of the encoder, for the judge (classes: trusted setup classes by name)."""

    class Opaque:
        """An object of a class the judge does not know: equal to nothing but itself."""

        def __init__(self, name, attrs):
            self.__dict__.update(attrs)
            self._cr_name = name

    def dec(x, refs):
        if not isinstance(x, list):
            return x
        tag = x[0]
        if tag == "ref":
            return refs[x[1]]
        if tag == "i":
            return int(x[1])
        if tag == "err":
            return _Deferred(x[1])
        if tag == "f":
            return float(x[1])
        if tag == "c":
            return complex(dec(x[1], refs), dec(x[2], refs))
        if tag == "b":
            return bytes.fromhex(x[1])
        if tag == "dec":
            return decimal.Decimal(x[1])
        if tag == "frac":
            return fractions.Fraction(int(x[1]), int(x[2]))
        if tag == "np":
            return dec(x[2], refs)
        if tag == "nd":
            slot = len(refs)
            refs.append(None)
            data = dec(x[3], refs)
            arr = _np.array(data, dtype=x[1]).reshape(x[2]) if _np is not None else data
            refs[slot] = arr
            return arr
        if tag == "o":
            slot = len(refs)
            cls = classes.get(x[1])
            obj = object.__new__(cls) if cls is not None else Opaque.__new__(Opaque)
            refs.append(obj)
            attrs = {k: dec(v, refs) for k, v in x[2]}
            if cls is None:
                attrs["_cr_name"] = x[1]
            obj.__dict__.update(attrs)
            return obj
        slot = len(refs)
        if tag in ("l", "dq"):
            out = [] if tag == "l" else collections.deque()
            refs.append(out)
            out.extend(dec(v, refs) for v in x[1])
            return out
        if tag in ("d", "od", "dd", "ctr"):
            factory = {"d": dict, "od": collections.OrderedDict, "ctr": collections.Counter}
            out = factory[tag]() if tag != "dd" else collections.defaultdict(None)
            refs.append(out)
            for k, v in x[1]:
                out[dec(k, refs)] = dec(v, refs)
            return out
        refs.append(None)
        items = [dec(v, refs) for v in x[1]]
        out = {"t": tuple, "s": set, "fs": frozenset}[tag](items)
        refs[slot] = out
        return out

    return lambda x: dec(x, [])


# ---------------------------------------------------------------- the test child
def _limits(job):
    mem = int(job.get("memory_mb", 512)) << 20
    try:
        with open("/proc/self/statm") as f:
            base = int(f.read().split()[0]) * resource.getpagesize()
    except OSError:
        base = 0
    resource.setrlimit(resource.RLIMIT_AS, (base + mem, base + mem))
    cpu = int(float(job.get("time_s", 6))) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    fsize = int(job.get("max_file_mb", 64)) << 20
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    procs = int(job.get("max_procs", 32))
    try:
        resource.setrlimit(resource.RLIMIT_NPROC, (procs, procs))
    except (ValueError, OSError):
        pass


def _fresh_main():
    mod = types.ModuleType("__main__")
    mod.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = mod
    sys.argv = ["solution.py"]
    return mod.__dict__


def _std_streams():
    sys.stdin = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8"
    )
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8"
    )
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)), encoding="utf-8", line_buffering=True
    )
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr


def _record(obj):
    data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
    while data:
        n = os.write(RESULT_FD, data)
        data = data[n:]


def _exit_code(exc):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _child_main(job, test):
    """Runs in the forked child; never returns."""
    status = 0
    try:
        os.chdir("/tmp")
        ns = _fresh_main()
        _std_streams()
        setup = job.get("setup")
        kind = test["kind"]
        if setup:
            exec(job.get("_setup_code") or compile(setup, "<setup>", "exec"), ns)
        trusted = {k: v for k, v in ns.items() if isinstance(v, type)}
        encode = make_encoder(trusted)
        program = job.get("_program_code") or compile(job["program"], "<solution>", "exec")
        if kind == "stdio":
            exec(program, ns)
        elif kind == "call":
            exec(program, ns)
            fn = _resolve_callable(ns, test)
            args = json.loads(test["args"])
            value = fn(*args)
            _record({"value": encode(value)})
        elif kind == "lifted":
            exec(program, ns)
            test_code = compile(test["code"], "<test>", "exec")

            def lift(slot, values):
                _record({"slot": slot, "values": [encode(v) for v in values]})

            ns["__cr_lift__"] = lift
            ns["__cr_try__"] = _guarded
            exec(test_code, ns)
        elif kind == "assert":
            exec(program, ns)
            exec(compile(test["code"], "<test>", "exec"), ns)
        _flush()
        if kind != "stdio":
            _record({"done": True})
    except SystemExit as exc:
        status = _exit_code(exc)
        _flush()
        if test["kind"] != "stdio":
            _record({"error": "SystemExit", "detail": "exited before the test completed"})
    except Unencodable as exc:
        _record({"error": "Unencodable", "detail": "returned an object of type " + str(exc)})
        status = 1
    except MemoryError:
        _record({"error": "MemoryError"})
        status = 1
    except BaseException as exc:  # the program's own failure: report its type
        try:
            traceback.print_exc()
        except BaseException:
            pass
        try:
            _record({"error": type(exc).__name__})
        except BaseException:
            pass
        _flush()
        status = 1
    os._exit(status)


def _resolve_callable(ns, test):
    name = test["fn_name"]
    cls_name = test.get("class_name")
    if cls_name:
        return getattr(ns[cls_name](), name)
    if name in ns and callable(ns[name]):
        return ns[name]
    if "Solution" in ns and isinstance(ns["Solution"], type):
        return getattr(ns["Solution"](), name)
    raise NameError(f"function {name!r} is not defined")


# ---------------------------------------------------------------- the runner side
def _kill_all():
    """Kill every process in this pid namespace except the runner and init; reap."""
    for _ in range(100):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, _SELF_PID)]
        if not others:
            return True
        time.sleep(0.002)
    return False


def _run_test(job, test, stdin_data):
    """Fork one test; return the raw report (no verdict: the host decides)."""
    pipes = [os.pipe() for _ in range(4)]  # stdin, stdout, stderr, results
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.setsid()
            for fd, target in (
                (pipes[0][0], 0),
                (pipes[1][1], 1),
                (pipes[2][1], 2),
                (pipes[3][1], RESULT_FD),
            ):
                os.dup2(fd, target)
            os.closerange(RESULT_FD + 1, 65536)
            _limits(job)
        except BaseException:
            os._exit(120)
        _child_main(job, test)
        os._exit(121)
    for fd in (pipes[0][0], pipes[1][1], pipes[2][1], pipes[3][1]):
        os.close(fd)
    w_in, r_out, r_err, r_res = pipes[0][1], pipes[1][0], pipes[2][0], pipes[3][0]
    os.set_blocking(w_in, False)
    stdin_buf = memoryview(stdin_data)
    if not stdin_buf:
        os.close(w_in)
        w_in = -1
    out, err, res = bytearray(), bytearray(), bytearray()
    cap = int(job.get("max_output_bytes", 1 << 24))
    deadline = t0 + float(job.get("time_s", 6))
    reason = None
    status = None
    poller = select.poll()
    open_fds = {r_out: out, r_err: err, r_res: res}
    for fd in open_fds:
        poller.register(fd, select.POLLIN)
    try:  # wakes the poll when the child exits, even if something else holds its pipes
        pidfd = os.pidfd_open(pid)
        poller.register(pidfd, select.POLLIN)
    except (AttributeError, OSError):
        pidfd = -1
    if w_in >= 0:
        poller.register(w_in, select.POLLOUT)
    while True:
        if status is None:
            wpid, st = os.waitpid(pid, os.WNOHANG)
            if wpid:
                status = st
                end = time.perf_counter()
        if status is not None and not open_fds:
            break
        now = time.perf_counter()
        if status is None and now >= deadline:
            reason = "timeout"
            break
        if status is not None and now - end > 0.05:
            break  # the program is gone but something it started holds the pipes
        timeout_ms = max(1, int(min(deadline - now, 0.05) * 1000)) if status is None else 5
        for fd, ev in poller.poll(timeout_ms):
            if fd == pidfd:
                poller.unregister(pidfd)
                continue
            if fd == w_in:
                if ev & (select.POLLERR | select.POLLHUP):
                    poller.unregister(w_in)
                    os.close(w_in)
                    w_in = -1
                    continue
                try:
                    n = os.write(w_in, stdin_buf[:65536])
                except (BrokenPipeError, BlockingIOError):
                    n = -1
                if n < 0 or n >= len(stdin_buf):
                    poller.unregister(w_in)
                    os.close(w_in)
                    w_in = -1
                else:
                    stdin_buf = stdin_buf[n:]
                continue
            buf = open_fds.get(fd)
            if buf is None:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                poller.unregister(fd)
                del open_fds[fd]
                continue
            buf += chunk
            if len(out) + len(err) > cap * 2 or len(out) > cap or len(res) > MAX_RESULT_BYTES:
                reason = "output_limit"
        if reason:
            break
    if status is None:
        end = time.perf_counter()
    clean = _kill_all()
    if status is None:
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = 0 if reason is None else 9
    for fd in list(open_fds) + [f for f in (w_in, pidfd) if f >= 0]:
        try:
            os.close(fd)
        except OSError:
            pass
    report = {
        "time_s": round(end - t0, 6),
        "stdout": out[:cap].decode("utf-8", "replace"),
        "stderr_tail": err[-2000:].decode("utf-8", "replace"),
        "limit": reason,
        "clean": clean,
    }
    if os.WIFSIGNALED(status):
        report["signal"] = os.WTERMSIG(status)
        report["exit_code"] = None
    else:
        report["exit_code"] = os.WEXITSTATUS(status)
    records = []
    for line in bytes(res).splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            records.append({"error": "garbled"})
    report["records"] = records
    return report


def _wipe(path):
    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        full = os.path.join(path, name)
        try:
            os.chmod(full, 0o700, follow_symlinks=False)
        except OSError:
            pass
        if os.path.isdir(full) and not os.path.islink(full):
            _wipe(full)
            try:
                os.rmdir(full)
            except OSError:
                pass
        else:
            try:
                os.unlink(full)
            except OSError:
                pass


def _precompile(job):
    """Compile once in the runner so each forked test starts from code objects.

    Compiling runs no program code; a program that does not compile is left to each test
    child, which reports the error as the program's.
    """
    for src, dst, name in (
        ("program", "_program_code", "<solution>"),
        ("setup", "_setup_code", "<setup>"),
    ):
        if job.get(src):
            try:
                job[dst] = compile(job[src], name, "exec")
            except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
                job[dst] = None


def _sample(job):
    if job.get("numpy"):
        _ensure_numpy()
    _precompile(job)
    reports = []
    for test in job["tests"]:
        stdin = test.get("input", "").encode("utf-8") if test["kind"] == "stdio" else b""
        report = _run_test(job, test, stdin)
        reports.append(report)
        failed = report["limit"] or report.get("signal") or report["exit_code"] != 0
        if not report["clean"]:
            break
        if failed and job.get("stop_on_first_failure"):
            break
        if report["limit"] == "timeout" and job.get("stop_after_timeout"):
            break  # all-or-nothing: one timeout decides, and the rest would time out too
    _wipe("/tmp")
    _wipe("/dev/shm")
    anomaly = any(not r["clean"] for r in reports) or bool(os.listdir("/tmp"))
    return {"ok": True, "tests": reports, "anomaly": anomaly}


def _judge(job):
    """Evaluate trusted checks over decoded candidate values in a forked child."""
    if job.get("numpy"):
        _ensure_numpy()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            _limits(job)
            ns = _fresh_main()
            for code in (job.get("setup"), job.get("prelude")):
                if code:
                    exec(compile(code, "<setup>", "exec"), ns)
            classes = {k: v for k, v in ns.items() if isinstance(v, type)}
            decode = make_decoder(classes)
            outcomes = []
            for check in job["checks"]:
                try:
                    ns["__cr_v"] = [decode(v) for v in check["values"]]
                    outcomes.append(bool(eval(check["expr"], ns)))
                except BaseException as exc:
                    outcomes.append("error:" + type(exc).__name__)
            data = json.dumps(outcomes).encode()
        except BaseException as exc:
            data = json.dumps("error:" + type(exc).__name__).encode()
        while data:
            n = os.write(w, data)
            data = data[n:]
        os._exit(0)
    os.close(w)
    buf = bytearray()
    deadline = time.perf_counter() + float(job.get("time_s", 6))
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([r], [], [], 0.05)
        if ready:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            buf += chunk
    os.close(r)
    _kill_all()
    try:
        outcomes = json.loads(bytes(buf)) if buf else "error:timeout"
    except ValueError:
        outcomes = "error:garbled"
    if isinstance(outcomes, str):
        outcomes = [outcomes] * len(job["checks"])
    return {"ok": True, "outcomes": outcomes}


def main():
    import fcntl

    ctl_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 100)
    ctl_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 100)
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, RESULT_FD):  # keep low fds taken so test pipes never land on 0-3
        if fd != null:
            os.dup2(null, fd)
    if null not in (0, 1, RESULT_FD):
        os.close(null)
    try:  # non-dumpable: the program cannot open /proc/<runner>/fd or ptrace the runner
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except Exception:
        pass
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    while True:
        req = _recv(ctl_in)
        if req is None:
            return
        op = req.get("op")
        try:
            if op == "ping":
                resp = {"ok": True, "python": sys.version.split()[0], "numpy": _np is not None}
            elif op == "sample":
                resp = _sample(req)
            elif op == "judge":
                resp = _judge(req)
            else:
                resp = {"ok": False, "error": f"unknown op {op!r}"}
        except Exception as exc:  # a runner bug: report it, the host recycles the cell
            resp = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        _send(ctl_out, resp)


if __name__ == "__main__":
    main()
