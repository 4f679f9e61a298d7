"""The in-sandbox runner: a warm interpreter that forks once per test.

This file runs INSIDE the sandbox (bubblewrap cell or Docker container) under the runtime's
own Python (3.11+, standard library only). It must not import anything from ``reward_api``;
the host imports its codec (``Encoder``, ``Decoder``) and framing.

Two kinds of cell run it. A *candidate* cell runs model programs; a *judge* cell runs only a
problem's own test code and never candidate code. A test's pass signal is produced by
trusted code alone: by the host (stdio output, call results, assert statements against
literals) or by the judge (every other assert test). The candidate is only ever a callee.

Control channel (host <-> runner): stdin/stdout, frames of a 5-byte header (4-byte
big-endian payload length, 1-byte type) and a payload. Type ``J``: a JSON control message;
type ``P``: a *peer payload*, an opaque message between the judge's child and the
candidate's child that runners and host forward without parsing. Ops:

- ``{"op": "ping"}`` -> ``{"ok": true, "python": ...}``
- ``{"op": "sample", "program", "setup", "tests", limits..., "peer"}``: runs each test in a
  fresh child. ``stdio`` tests get their input on stdin; ``calls`` tests (a contract
  ``call`` test, or host-checked assert statements) get their calls from the runner over
  the child's call channel and the raw replies go back in the report, consecutive ones
  answered by one child as plain execution would; a ``serve`` test is driven by the judge:
  the runner emits ``{"ev": "serving", "test": i}``, the judge's requests reach the child
  (over a socket the host passed on the fd channel when ``peer``, else as ``P`` frames
  the runner relays, one each way in turn), and the host's ``{"op": "end"}`` ends the test;
  a child that dies while serving is reported at once (``{"ev": "gone"}``). A ``stdio``
  test with ``args`` and ``files`` (``{name: base64}``) is a problem's Python checker: its
  child runs in a folder of its own holding those files, with ``sys.argv`` set to the
  args (only in a checker cell, which never gets candidate code). The answer,
  ``{"ok": true, "tests": [...], "anomaly": ...}``, holds what each child did (exit
  status, stdout, raw replies): never a verdict against expected output, which this cell
  never sees.
- ``{"op": "sample", "builds": [...], "tests": [{"kind": "stdio", "build": i, ...}]}``: a
  program in a compiled language (``reward_api.verify.languages``). Every build is
  compiled (or unpacked from the host's cache) in its own folder of /tmp under its own
  limits before any test runs; each test is a fork and exec of its build's artifact. A test
  with ``pass_channel`` gets a pipe at fd 3 whose bytes come back as ``pass_channel`` (the
  harness's completion report, or a call test's JSON result behind it, checked on the
  host against the build's nonce; at most ``max_output_bytes``, as stdout); a test
  with ``nonce`` gets it on a pipe at fd 4, written and closed before the fork, for a
  harness that reads it before any program code runs (so no file of the build holds it);
  a test with ``args`` and ``files`` runs its build with those arguments and files (a problem's
  checker, in a cell that holds no candidate code: ``reward_api.verify.checkers``). The
  answer adds ``builds``: per build ``ok``, ``time_s``, the compiler's ``output`` (tail),
  ``limit``, and on request the packed ``artifact``.
- ``{"op": "judge", "setup", "tests": [{"code", "entry"}], limits..., "key", "peer"}``:
  a session of the judge child, which is kept for the next session of the same problem
  (``key``); ``{"op": "run", "test": i}`` runs test i's code in a fresh namespace in which
  every entry-point name is a proxy for the candidate's object, and its outcome comes back
  as ``{"ev": "verdict"}``; ``{"op": "gone"}`` tells it the candidate died; ``{"op":
  "close"}`` ends the session.

Peer protocol (JSON payloads between the judge's child and the candidate's): the judge
sends requests ``{"op": "get" | "call" | "getattr" | ..., ...}``; the candidate answers
``{"ok": VALUE}``, ``{"raise": {...}}`` or ``{"exit": code}``. Values cross in the flat
codec below: plain data is rebuilt as real builtin values on the other side; functions,
classes, generators and other objects of the program come back as *handles* whose calls,
attributes, items and iteration are further requests; objects the judge sent come back as
references to its own (identity kept), with the contents the program left them. A
judge-side function passed to the program becomes a *callback* the candidate may call (the
only request it may make). Comparisons, hashing and arithmetic on a handle never reach the
program: its objects are equal only to themselves or, when their class defines ``__eq__``,
by class and attributes, so no ``__eq__`` it defines is ever asked.

One process: a compiled test whose build says ``one_process`` (C, C++, Go and Rust:
``reward_api.verify.languages.ONE_PROCESS``) is exec'd under a seccomp filter
(``_one_process_exec``, x86-64) that lets it start threads but no child process and no
second program, so it cannot run its own test binary to read the expected values from
a failing run's messages.

Cleanliness: after each test every process of the cell but the runner dies
(``kill(-1, SIGKILL)``); after each sample ``/tmp`` and ``/dev/shm`` are wiped without
recursion, System V IPC objects are removed, and anything left over is reported as an
anomaly (the host then recycles the cell). The kernel's keyrings, which outlive every
process of a uid, are closed altogether: the runner refuses ``add_key``, ``request_key``
and ``keyctl`` for itself and its children with a seccomp filter (``_deny_keyrings``). The runner is non-dumpable (a program cannot
read its descriptors or memory) and is the namespace's init (it cannot be signalled).
Children raise their own ``oom_score_adj`` so the kernel kills them, not the runner.
"""

import atexit
import base64
import builtins
import collections
import decimal
import fractions
import importlib
import io
import json
import os
import resource
import select
import signal
import socket
import stat as stat_module
import struct
import sys
import time
import traceback
import types
import zlib

try:  # pre-import what code-RL programs import, so a fork starts warm
    import bisect  # noqa: F401
    import functools  # noqa: F401
    import heapq  # noqa: F401
    import itertools  # noqa: F401
    import math  # noqa: F401
    import re  # noqa: F401
    import string  # noqa: F401
    import typing  # noqa: F401
except ImportError:  # pragma: no cover - stdlib is always there
    pass
try:
    import sortedcontainers  # noqa: F401
except ImportError:
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
        except ImportError:  # the runtime documents numpy; the runner must not depend on it
            pass
    return _np


_HDR = struct.Struct(">IB")
MAX_FRAME_BYTES = 64 << 20
MAX_HOST_FRAME_BYTES = 256 << 20
"""Frames from the host on the control channel (the host reads ours up to the same size)."""
MAX_NODES = 2_000_000
_SELF_PID = os.getpid()
BIG = 1 << 53


# ================================================================ framing
class FrameError(Exception):
    """A frame that is too large, truncated or not what the protocol allows."""


def _read_exact(fd, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def read_frame(fd, max_bytes=MAX_FRAME_BYTES):
    """(type, payload) of the next frame on a blocking fd; None at EOF."""
    hdr = _read_exact(fd, _HDR.size)
    if hdr is None:
        return None
    n, kind = _HDR.unpack(hdr)
    if n > max_bytes:
        raise FrameError(f"frame of {n} bytes over the limit")
    body = _read_exact(fd, n)
    if body is None:
        return None
    return bytes((kind,)), body


def write_frame(fd, kind, payload):
    data = _HDR.pack(len(payload), kind[0]) + payload
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def send_json(fd, obj):
    write_frame(fd, b"J", json.dumps(obj, separators=(",", ":")).encode())


class FrameBuffer:
    """Bytes read without blocking, cut into complete frames (the relays' half of framing)."""

    def __init__(self, max_bytes=MAX_FRAME_BYTES):
        self.buf = bytearray()
        self.max_bytes = max_bytes

    def feed(self, data):
        self.buf += data

    def frames(self):
        out = []
        buf = self.buf
        pos = 0
        while len(buf) - pos >= _HDR.size:
            n, kind = _HDR.unpack_from(buf, pos)
            if n > self.max_bytes:
                raise FrameError(f"frame of {n} bytes over the limit")
            if len(buf) - pos - _HDR.size < n:
                break
            start = pos + _HDR.size
            out.append((bytes((kind,)), bytes(buf[start : start + n])))
            pos = start + n
        del buf[:pos]
        return out

    def pending(self):
        return len(self.buf)


# ================================================================ the value codec
class Malformed(Exception):
    """An encoded value that does not follow the codec (a hostile or broken peer)."""


class Unencodable(Exception):
    """A value the codec refuses (too large)."""


_COMPARE_DUNDERS = (
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__",
    "__len__", "__iter__", "__getitem__", "__contains__", "__index__", "__int__", "__float__",
    "__abs__", "__round__", "__sub__", "__add__", "__mul__", "__truediv__", "__neg__",
    "__getattribute__", "__getattr__", "keys", "values", "items", "__class__",
)  # fmt: skip
_BASES = (bool, int, float, complex, str, bytes, bytearray, list, tuple, set, frozenset, dict)
_CONTAINER_TAG = {
    list: "l",
    tuple: "t",
    set: "s",
    frozenset: "fs",
    dict: "d",
    collections.OrderedDict: "od",
    collections.defaultdict: "dd",
    collections.Counter: "ctr",
    collections.deque: "dq",
}


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


class Encoder:
    """Turns a value into flat tagged JSON: ``item`` plus a node table, with no recursion.

    An item is a JSON atom (None, bool, str, an int under 2**53, a finite float), or a
    list: ``["#", k]`` (node k), ``["i", hex]`` (a big int, in hex so no digit limit
    applies), ``["f", "inf" | "-inf" | "nan"]``. Nodes are tagged lists (``["l", items]``,
    ``["t", ...]``, ``["s", ...]``, ``["fs", ...]``, ``["d", [[k, v], ...]]`` and the other
    tags below); a node referenced twice is one object on the other side, so sharing and
    cycles survive. Type checks use exact types captured when the encoder is made (before
    a program runs): an object of a type the codec does not know as plain data goes to
    ``on_object`` (a handle), or, for the problem's own (``trusted``) classes, by its
    attributes.
    """

    def __init__(self, trusted=None, on_object=None, origin=None, max_nodes=MAX_NODES):
        self.trusted = dict(trusted or {})
        self.trusted_types = set(self.trusted.values())
        self.on_object = on_object
        self.origin = origin or {}
        """id(object) -> node index of the request it came in: sent back as ``["r", k]``."""
        self.max_nodes = max_nodes
        self._type = type
        self._id = id
        self._float_repr = float.__repr__
        self._int_hex = int.__format__
        self._dict_items = dict.items
        self._obj_getattr = object.__getattribute__
        np = _np
        self._np_generic = np.generic if np is not None else None
        self._np_ndarray = np.ndarray if np is not None else None
        self.nodes = []
        self.memo = {}
        self.keep = []
        self.work = []

    def encode(self, value):
        """``(item, nodes)``; ``keep[k]`` is the object node k stands for."""
        item = self._item(value)
        self._drain()
        return item, self.nodes

    def encode_state(self, obj):
        """The current contents of an object the request sent (its node, not a reference)."""
        k = len(self.nodes)
        self.nodes.append(None)
        self.keep.append(obj)
        self.work.append((k, obj))
        self._drain()
        return self.nodes.pop(k) if k == len(self.nodes) - 1 else ["#", k]

    def _alloc(self, node, obj, expand=True):
        if len(self.nodes) >= self.max_nodes:
            raise Unencodable("value too large")
        k = len(self.nodes)
        self.nodes.append(node)
        self.keep.append(obj)
        if expand:
            self.work.append((k, obj))
        return ["#", k]

    def _item(self, v):
        t = self._type(v)
        if v is None or t is bool or t is str:
            return v
        if t is int:
            return v if -BIG < v < BIG else ["i", self._int_hex(v, "x")]
        if t is float:
            r = self._float_repr(v)
            return v if r not in ("inf", "-inf", "nan") else ["f", r]
        key = self._id(v)
        ref = self.memo.get(key)
        if ref is not None:
            return ref
        k = self.origin.get(key)
        if k is not None:
            return ["r", k]
        ref = self._alloc(None, v)
        self.memo[key] = ref
        return ref

    def _drain(self):
        while self.work:
            k, v = self.work.pop()
            self.nodes[k] = self._node(v)

    def _node(self, v):
        t = self._type(v)
        tag = _CONTAINER_TAG.get(t)
        name = _BUILTIN_NAMES.get(self._id(v))
        if name is not None and getattr(builtins, name, None) is v:
            return ["bi", name]  # int, len, ValueError...: the other side's own builtin
        if t is _Record:  # an object of the other side's class, sent back by name
            attrs = dict(self._obj_getattr(v, "__dict__"))
            name = str(attrs.pop("_cr_class", "object"))
            return ["o", name, [[str(a), self._item(b)] for a, b in attrs.items()]]
        if tag is None and t not in _SCALAR_TAGS and t not in self.trusted_types:
            np_node = self._numpy(v, t)
            if np_node is not None:
                return np_node
            if self.trusted and t.__name__ in self.trusted:
                return self._object(v, t)
            base = _plain_base(t)
            if base is None:
                if self.on_object is None:
                    raise Unencodable(t.__name__)
                return self.on_object(v)
            node = self._base_node(base(v) if base in _SCALARS else v, base)
            if base in _ANNOTATED:  # the type's name and fields go along: type() tells
                fields = getattr(t, "_fields", None) if base is tuple else None
                ok = type(fields) is tuple and all(type(f) is str for f in fields)
                node.append([t.__name__, list(fields) if ok else None])
            return node
        if t in self.trusted_types:
            return self._object(v, t)
        return self._base_node(v, t)

    def _base_node(self, v, t):
        tag = _CONTAINER_TAG.get(t)
        item = self._item
        if tag == "l":
            return ["l", [item(x) for x in list.__iter__(v)]]
        if tag == "t":
            return ["t", [item(x) for x in tuple.__iter__(v)]]
        if tag == "s":
            return ["s", [item(x) for x in set.__iter__(v)]]
        if tag == "fs":
            return ["fs", [item(x) for x in frozenset.__iter__(v)]]
        if tag in ("d", "od", "ctr"):
            return [tag, [[item(a), item(b)] for a, b in self._dict_items(v)]]
        if tag == "dd":
            factory = v.default_factory
            fname = factory.__name__ if factory in _FACTORIES.values() else None
            return ["dd", [[item(a), item(b)] for a, b in self._dict_items(v)], fname]
        if tag == "dq":
            return ["dq", [item(x) for x in collections.deque.__iter__(v)], v.maxlen]
        if t is bool:
            return ["bool", bool(v)]
        if t is int:
            return ["int", item(int.__int__(v))]
        if t is float:
            return ["float", item(float.__float__(v))]
        if t is str:
            return ["str", str.__str__(v)]
        if t is complex:
            return ["c", item(v.real), item(v.imag)]
        if t is bytes:
            return ["b", bytes.hex(v)]
        if t is bytearray:
            return ["ba", bytes.hex(bytes(v))]
        if t is decimal.Decimal:
            return ["dec", decimal.Decimal.__str__(v)]
        if t is fractions.Fraction:
            return ["frac", item(v.numerator), item(v.denominator)]
        if t is range:
            return ["rg", item(v.start), item(v.stop), item(v.step)]
        raise Unencodable(t.__name__)

    def _object(self, v, t):
        try:
            attrs = self._obj_getattr(v, "__dict__")
        except AttributeError:
            attrs = {}
            for name in getattr(t, "__slots__", ()) or ():
                try:
                    attrs[name] = self._obj_getattr(v, name)
                except AttributeError:
                    pass
        pairs = [[str(a), self._item(b)] for a, b in self._dict_items(dict(attrs))]
        return ["o", t.__name__, pairs]

    def _numpy(self, v, t):
        if self._np_generic is not None and t.__module__ == "numpy":
            if isinstance(v, self._np_generic):
                return ["np", v.dtype.str, self._item(v.item())]
            if t is self._np_ndarray:
                flat = [self._item(x) for x in v.ravel().tolist()]
                return ["nd", v.dtype.str, list(v.shape), flat]
        return None


_BUILTIN_NAMES = {
    id(obj): name for name, obj in vars(builtins).items()
    if isinstance(obj, type | types.BuiltinFunctionType) and not name.startswith("_")
}  # fmt: skip
"""Builtins by identity, taken when the runner starts (before any program runs)."""
_BUILTIN_SET = frozenset(_BUILTIN_NAMES.values())
_SCALARS = (bool, int, float, complex, str, bytes, bytearray)
_ANNOTATED = {int, float, str, tuple, list, dict, set, frozenset}
_SCALAR_TAGS = {complex, bytes, bytearray, decimal.Decimal, fractions.Fraction, range}
_MUTABLE = {list, dict, set, bytearray, collections.deque, collections.OrderedDict,
            collections.defaultdict, collections.Counter}  # fmt: skip
_FACTORIES = {"list": list, "int": int, "set": set, "dict": dict, "str": str, "float": float}


class Decoder:
    """The inverse of ``Encoder``: real builtin values, built without recursion.

    ``classes``: the problem's own classes by name (objects are rebuilt from attributes;
    an unknown name becomes a plain attribute object). ``on_handle`` and ``on_callback``
    turn ``h`` and ``cb`` nodes into proxies; ``args`` resolves ``arg`` nodes. Anything
    that is not a well-formed encoding raises ``Malformed``.
    """

    def __init__(self, classes=None, on_handle=None, on_callback=None, origin=()):
        self.classes = classes or {}
        self.on_handle = on_handle
        self.on_callback = on_callback
        self.origin = origin
        """The objects of the request a reply answers, by node index (``["r", k]`` items)."""
        self.nodes = []
        self.objs = []
        self.filling = []

    def decode(self, item, nodes, states=()):
        """The value of ``item``; with ``states`` (``[k, node]`` pairs: the request's object
        k as the other side left it) also ``(value, [(k, contents), ...])``."""
        if not isinstance(nodes, list) or len(nodes) > MAX_NODES:
            raise Malformed("bad node table")
        if not isinstance(states, list | tuple) or len(states) > MAX_NODES:
            raise Malformed("bad states")
        self.nodes = list(nodes)
        extra = []
        for st in states:
            if type(st) is not list or len(st) != 2 or type(st[0]) is not int:
                raise Malformed("bad state")
            if not 0 <= st[0] < len(self.origin):
                raise Malformed("bad state target")
            extra.append((st[0], len(self.nodes)))
            self.nodes.append(st[1])
        self.objs = [_UNSET] * len(self.nodes)
        self.filling = []
        try:
            value = self._item(item)
            contents = [(k, self._obj(idx)) for k, idx in extra]
            while self.filling:
                self._fill(*self.filling.pop())
        except Malformed:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError,
                ArithmeticError, RecursionError, MemoryError) as exc:  # fmt: skip
            raise Malformed(f"{type(exc).__name__}: {str(exc)[:100]}") from None
        if states:
            return value, contents
        return value

    def _item(self, x):
        if x is None or type(x) in (bool, str, int, float):
            return x
        if type(x) is not list or len(x) < 2 or type(x[0]) is not str:
            raise Malformed("bad item")
        tag = x[0]
        if tag == "#":
            return self._obj(x[1])
        if tag == "i":
            if type(x[1]) is not str or len(x[1]) > 4_000_000:
                raise Malformed("bad int")
            return int(x[1], 16)
        if tag == "f":
            if x[1] not in ("inf", "-inf", "nan"):
                raise Malformed("bad float")
            return float(x[1])
        if tag == "r":
            k = x[1]
            if type(k) is not int or not 0 <= k < len(self.origin):
                raise Malformed("bad origin reference")
            return self.origin[k]
        raise Malformed("bad item tag")

    def _obj(self, k):
        """Node k's object; immutable nodes are built once their children are (explicit stack)."""
        if type(k) is not int or not 0 <= k < len(self.nodes):
            raise Malformed("bad reference")
        got = self.objs[k]
        if got is _BUILDING:
            raise Malformed("a cycle through immutable values")
        if got is not _UNSET:
            return got
        stack = [k]
        while stack:
            j = stack[-1]
            if self.objs[j] is not _UNSET and self.objs[j] is not _BUILDING:
                stack.pop()
                continue
            node = self.nodes[j]
            if type(node) is not list or not node or type(node[0]) is not str:
                raise Malformed("bad node")
            shell = self._shell(j, node)
            if shell is not _UNSET:
                self.objs[j] = shell
                stack.pop()
                continue
            missing = [c for c in _child_refs(node) if self._pending(c)]
            if missing:
                if self.objs[j] is _BUILDING:
                    raise Malformed("a cycle through immutable values")
                self.objs[j] = _BUILDING
                stack.extend(missing)
                continue
            self.objs[j] = self._immutable(node)
            stack.pop()
        return self.objs[k]

    def _pending(self, c):
        if type(c) is not int or not 0 <= c < len(self.nodes):
            raise Malformed("bad reference")
        return self.objs[c] is _UNSET or self.objs[c] is _BUILDING

    def _shell(self, j, node):
        """An empty mutable container (filled later), or _UNSET for an immutable node."""
        tag = node[0]
        if tag == "l":
            obj = []
        elif tag in ("d", "od", "ctr"):
            obj = {"d": dict, "od": collections.OrderedDict, "ctr": collections.Counter}[tag]()
        elif tag == "dd":
            factory = _FACTORIES.get(node[2]) if len(node) > 2 else None
            obj = collections.defaultdict(factory)
        elif tag == "s":
            obj = set()
        elif tag == "dq":
            maxlen = node[2] if len(node) > 2 else None
            if maxlen is not None and (type(maxlen) is not int or maxlen < 0):
                raise Malformed("bad deque")
            obj = collections.deque(maxlen=maxlen)
        elif tag == "ba":
            obj = bytearray(bytes.fromhex(node[1]))
            return obj
        elif tag == "o":
            cls = self.classes.get(node[1]) if type(node[1]) is str else None
            if cls is None:
                obj = _Record.__new__(_Record)
                object.__setattr__(obj, "_cr_class", str(node[1]))
            else:
                obj = object.__new__(cls)
        elif tag == "bi":
            if type(node[1]) is not str or node[1] not in _BUILTIN_SET:
                raise Malformed("unknown builtin")
            return getattr(builtins, node[1])
        elif tag == "h":
            if self.on_handle is None:
                raise Malformed("unexpected handle")
            return self.on_handle(node)
        elif tag == "cb":
            if self.on_callback is None:
                raise Malformed("unexpected callback")
            return self.on_callback(node)
        else:
            return _UNSET
        sub = _annotation(node, tag)
        if sub is not None and tag in ("l", "d", "s"):
            obj = _synth({"l": list, "d": dict, "s": set}[tag], sub)()
        self.filling.append((obj, node))
        return obj

    def _fill(self, obj, node):
        tag = node[0]
        item = self._item
        if tag == "l":
            obj.extend(item(x) for x in _seq(node[1]))
        elif tag in ("d", "od", "ctr", "dd"):
            for pair in _seq(node[1]):
                if type(pair) is not list or len(pair) != 2:
                    raise Malformed("bad pair")
                obj[item(pair[0])] = item(pair[1])
        elif tag == "s":
            obj.update(item(x) for x in _seq(node[1]))
        elif tag == "dq":
            obj.extend(item(x) for x in _seq(node[1]))
        elif tag == "o":
            for pair in _seq(node[2]):
                if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                    raise Malformed("bad attribute")
                try:
                    object.__setattr__(obj, pair[0], item(pair[1]))
                except (AttributeError, TypeError):
                    obj.__dict__[pair[0]] = item(pair[1])

    def _immutable(self, node):
        value = self._base_immutable(node)
        sub = _annotation(node, node[0])
        if sub is not None and node[0] in _SUB_BASES:
            cls = _synth(_SUB_BASES[node[0]], sub)
            if hasattr(cls, "_fields"):
                return cls(*value)
            return cls(value)
        return value

    def _base_immutable(self, node):
        tag = node[0]
        item = self._item
        if tag == "t":
            return tuple(item(x) for x in _seq(node[1]))
        if tag == "fs":
            return frozenset(item(x) for x in _seq(node[1]))
        if tag == "c":
            return complex(_number(item(node[1])), _number(item(node[2])))
        if tag == "b":
            return bytes.fromhex(node[1])
        if tag == "dec":
            if type(node[1]) is not str or len(node[1]) > 100_000:
                raise Malformed("bad decimal")
            return decimal.Decimal(node[1])
        if tag == "frac":
            num, den = item(node[1]), item(node[2])
            if type(num) is not int or type(den) is not int:
                raise Malformed("bad fraction")
            return fractions.Fraction(num, den)
        if tag == "rg":
            parts = [item(x) for x in node[1:4]]
            if any(type(p) is not int for p in parts):
                raise Malformed("bad range")
            return range(*parts)
        if tag == "bool":
            return bool(node[1])
        if tag == "int":
            v = item(node[1])
            if type(v) is not int:
                raise Malformed("bad int")
            return v
        if tag == "float":
            v = item(node[1])
            if type(v) not in (int, float):
                raise Malformed("bad float")
            return float(v)
        if tag == "str":
            if type(node[1]) is not str:
                raise Malformed("bad str")
            return node[1]
        if tag == "np":
            np = _ensure_numpy()
            value = item(node[2])
            if np is None:
                return value
            return np.dtype(str(node[1])).type(value)
        if tag == "nd":
            np = _ensure_numpy()
            flat = [item(x) for x in _seq(node[3])]
            shape = [int(s) for s in _seq(node[2])]
            if np is None:
                return flat
            dtype = np.dtype(str(node[1]))
            if dtype.kind == "O":  # elements are objects: assigned one by one, not broadcast
                arr = np.empty(len(flat), dtype=object)
                for i, x in enumerate(flat):
                    arr[i] = x
                return arr.reshape(shape)
            return np.array(flat, dtype=dtype).reshape(shape)
        raise Malformed(f"unknown node tag {tag!r}")


class _Sentinel:
    __slots__ = ()


_UNSET = _Sentinel()
_BUILDING = _Sentinel()


class _Record:
    """An object of a class the decoding side does not have: its attributes, by name."""

    def __repr__(self):
        return "<{} {!r}>".format(
            self._cr_class,
            {k: v for k, v in self.__dict__.items() if k != "_cr_class"},
        )


def _seq(x):
    if type(x) is not list:
        raise Malformed("expected a list")
    return x


def _number(v):
    if type(v) not in (int, float):
        raise Malformed("bad number")
    return v


_SUB_BASES = {"t": tuple, "fs": frozenset, "int": int, "float": float, "str": str}
_SUBCLASSES = {}


def _annotation(node, tag):
    """[type name, fields] of a builtin subclass's node, or None."""
    at = {"l": 2, "d": 2, "s": 2, "t": 2, "fs": 2, "int": 2, "float": 2, "str": 2}.get(tag)
    if at is None or len(node) <= at or node[at] is None:
        return None
    sub = node[at]
    if type(sub) is not list or len(sub) != 2 or type(sub[0]) is not str:
        raise Malformed("bad type annotation")
    fields = sub[1]
    if fields is not None and (type(fields) is not list or not all(type(f) is str for f in fields)):
        raise Malformed("bad fields")
    return sub[0], tuple(fields) if fields is not None else None


def _synth(base, sub):
    """A stand-in for the program's subclass of a builtin: same name, the base's behaviour
    (a namedtuple keeps its fields), so ``type(x) == int`` answers as plain Python would."""
    name, fields = sub
    key = (base, name, fields)
    cls = _SUBCLASSES.get(key)
    if cls is None:
        safe = name if name.isidentifier() else "Subclass"
        if (
            fields is not None
            and base is tuple
            and all(f.isidentifier() and not f.startswith("_") for f in fields)
        ):
            cls = collections.namedtuple(safe, fields, rename=True)
        else:
            cls = type(safe, (base,), {"__module__": "__program__"})
        cls.__module__ = "__program__"
        _SUBCLASSES[key] = cls
    return cls


def _child_refs(node):
    """Node indices an immutable node needs first."""
    out = []
    tag = node[0]
    if tag in ("t", "fs"):
        parts = _seq(node[1])
    elif tag in ("c",) or tag in ("frac",):
        parts = node[1:3]
    elif tag == "rg":
        parts = node[1:4]
    elif tag in ("int", "float"):
        parts = node[1:2]
    elif tag == "np":
        parts = node[2:3]
    elif tag == "nd":
        parts = _seq(node[3])
    else:
        return out
    for x in parts:
        if type(x) is list and len(x) == 2 and x[0] == "#":
            out.append(x[1])
    return out


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), allow_nan=False).encode()


def loads(payload):
    """JSON of a peer payload; Malformed for anything that is not (deep nesting included)."""
    try:
        return json.loads(payload)
    except (ValueError, RecursionError, MemoryError) as exc:
        raise Malformed(f"not JSON: {type(exc).__name__}") from None


# ================================================================ the candidate: a callee
def _flags(obj):
    """What a handle supports, as the program's object says (a lie buys nothing)."""
    t = type(obj)
    f = ""
    if callable(obj):
        f += "c"
    if hasattr(t, "__iter__"):
        f += "i"
    if hasattr(t, "__next__"):
        f += "n"
    if hasattr(t, "__len__"):
        f += "l"
    if hasattr(t, "__getitem__"):
        f += "g"
    if isinstance(obj, type):
        f += "t"
        if issubclass(obj, BaseException):
            f += "e"
    elif isinstance(obj, types.ModuleType):
        f += "m"
    elif getattr(t, "__eq__", object.__eq__) is not object.__eq__:
        f += "q"  # the class defines equality: the judge compares such objects by their data
    return f


def _exc_base(cls):
    """The nearest builtin exception class of an exception class."""
    for klass in cls.__mro__:
        if klass.__module__ == "builtins" and issubclass(klass, BaseException):
            return klass.__name__
    return "Exception"


class _ProgramExit(BaseException):
    """The program asked to exit during a call: the callee answers no more."""

    def __init__(self, code):
        self.code = code


class Callee:
    """The candidate child's side of the peer protocol: serves requests on its objects."""

    def __init__(self, ns, trusted, rfd, wfd):
        self.ns = ns
        self.trusted = trusted
        self.rfd, self.wfd = rfd, wfd
        self.handles = {}
        self.handle_of = {}
        self.stubs = {}
        self.next_id = 1

    # -- values
    def export(self, obj):
        """A handle on one of the program's objects (the same object, the same handle)."""
        key = id(obj)
        hid = self.handle_of.get(key)
        if hid is None:
            hid = self.next_id
            self.next_id += 1
            self.handles[hid] = obj
            self.handle_of[key] = hid
        flags = _flags(obj)
        name = getattr(obj, "__name__", None)
        if not isinstance(name, str):
            name = type(obj).__name__
        extra = _exc_base(obj) if "e" in flags else None
        return ["h", hid, flags, name, extra]

    def stub(self, node):
        cid = node[1]
        if type(cid) is not int:
            raise Malformed("bad callback")
        fn = self.stubs.get(cid)
        if fn is None:
            fn = self.stubs[cid] = self._make_stub(cid)
        return fn

    def _make_stub(self, cid):
        callee = self

        def callback(*args, **kwargs):
            return callee.call_back(cid, args, kwargs)

        return callback

    def decoder(self, origin=()):
        return Decoder(
            self.trusted, on_handle=self._resolve_handle, on_callback=self.stub, origin=origin
        )

    def _resolve_handle(self, node):
        hid = node[1]
        if hid not in self.handles:
            raise Malformed("unknown handle")
        return self.handles[hid]

    def reply(self, value, request=None):
        """``{"ok": value}``; objects the request sent come back as references to them, and
        those the call changed come back with their contents (``st``)."""
        origin, snapshots = request if request is not None else ({}, [])
        enc = Encoder(self.trusted, on_object=self.export, origin=origin)
        item, _nodes = enc.encode(value)
        states = []
        for k, obj, before in snapshots:
            if _snapshot(obj) != before:
                states.append([k, enc.encode_state(obj)])
        return {"ok": item, "n": enc.nodes, "st": states}

    # -- the loop
    def send(self, msg):
        write_frame(self.wfd, b"P", dumps(msg))

    def recv(self):
        frame = read_frame(self.rfd)
        if frame is None:
            raise _ProgramExit(None)
        return loads(frame[1])

    def serve(self):
        """Answer requests until the channel closes or the judge ends the test."""
        while True:
            msg = self.recv()
            if not isinstance(msg, dict):
                raise Malformed("bad request")
            if msg.get("op") == "end":
                return
            self.send(self.handle(msg))

    def call_back(self, cid, args, kwargs):
        """A call of a judge-side function: a request of ours, answered before we go on."""
        enc = Encoder(self.trusted, on_object=self.export)
        item, nodes = enc.encode([list(args), dict(kwargs)])
        self.send({"op": "call", "cb": cid, "a": item, "n": nodes})
        while True:
            msg = self.recv()
            if not isinstance(msg, dict):
                raise Malformed("bad message")
            if "op" in msg:
                if msg["op"] == "end":
                    raise _ProgramExit(None)
                self.send(self.handle(msg))
                continue
            if "ok" in msg:
                return self.decoder().decode(msg["ok"], msg.get("n", []))
            if "raise" in msg:
                raise _builtin_exception(msg["raise"], self.decoder())
            raise Malformed("bad reply")

    def handle(self, msg):
        """One request; the program's exception is data, an exit ends the callee."""
        op = msg.get("op")
        try:
            value, request = self._op(msg)
            if msg.get("plain"):  # the host's own call: it needs the value, not identities
                request = None
            out = self.reply(value, request)
            if msg.get("truth"):
                out["truth"] = bool(value)
            return out
        except _ProgramExit:
            raise
        except SystemExit as exc:
            raise _ProgramExit(exc.code) from None
        except Malformed:
            raise
        except Unencodable as exc:
            return {"raise": {"type": "TypeError", "base": "TypeError",
                              "msg": f"the program returned a value too large to send: {exc}"}}  # fmt: skip
        except StopIteration as exc:
            if op == "next":
                return {"raise": _describe(exc, self)}
            # only iteration may end by StopIteration (PEP 479): a function raising it to cut a
            # loop of the test's short is a failure, not an early end
            err = RuntimeError("the program raised StopIteration outside iteration")
            return {"raise": _describe(err, self)}
        except BaseException as exc:
            return {"raise": _describe(exc, self)}

    def _target(self, msg):
        ref = msg.get("t")
        if type(ref) is str:
            try:
                return self.ns[ref]
            except KeyError:
                raise NameError(f"name {ref!r} is not defined") from None
        if type(ref) is int and ref in self.handles:
            return self.handles[ref]
        raise Malformed("bad target")

    def _op(self, msg):
        """(value, request): the request's origins and snapshots when it sent objects."""
        op = msg.get("op")
        if op == "get":
            name = msg.get("name")
            if type(name) is not str:
                raise Malformed("bad name")
            try:
                return self.ns[name], None
            except KeyError:
                if hasattr(builtins, name):
                    return getattr(builtins, name), None
                raise NameError(f"name {name!r} is not defined") from None
        if op == "calltest":
            fn = _resolve_callable(self.ns, msg.get("fn"), msg.get("cls"))
            (args, kwargs), request = self._args(msg)
            return fn(*args, **kwargs), request
        target = self._target(msg)
        if op == "call":
            (args, kwargs), request = self._args(msg)
            return target(*args, **kwargs), request
        if op == "getattr":
            return getattr(target, str(msg.get("name"))), None
        if op == "state":  # the data of an object whose class defines equality
            return [type(target), _attributes(target)], None
        if op == "setattr":
            value, request = self._value(msg)
            setattr(target, str(msg.get("name")), value)
            return None, request
        if op == "delattr":
            delattr(target, str(msg.get("name")))
            return None, None
        if op == "getitem":
            key, request = self._value(msg)
            return target[key], request
        if op == "setitem":
            (key, value), request = self._value(msg)
            target[key] = value
            return None, request
        if op == "delitem":
            key, request = self._value(msg)
            del target[key]
            return None, request
        if op == "len":
            return len(target), None
        if op == "bool":
            return bool(target), None
        if op == "iter":
            return iter(target), None
        if op == "next":
            return next(target), None
        if op == "str":
            return str(target), None
        if op == "repr":
            return repr(target), None
        if op == "format":
            return format(target, str(msg.get("spec", ""))), None
        if op == "isinstance":
            value, request = self._value(msg)
            return isinstance(value, target), request
        if op == "issubclass":
            value, request = self._value(msg)
            return issubclass(value, target), request
        raise Malformed("unknown op")

    def _value(self, msg):
        dec = self.decoder()
        value = dec.decode(msg.get("a"), msg.get("n", []))
        origin = {}
        snapshots = []
        for k, obj in enumerate(dec.objs):
            if obj is _UNSET or obj is _BUILDING or type(obj) in _ATOMS:
                continue
            origin[id(obj)] = k
            before = _snapshot(obj)
            if before is not None:
                snapshots.append((k, obj, before))
        return value, (origin, snapshots)

    def _args(self, msg):
        got, request = self._value(msg)
        if (
            type(got) is not list
            or len(got) != 2
            or type(got[0]) is not list
            or type(got[1]) is not dict
        ):
            raise Malformed("bad arguments")
        return (got[0], got[1]), request


_ATOMS = (type(None), bool, int, float, str)


class _Snapshot:
    """A shallow copy of a mutable object's contents, compared by the identity of its parts."""

    __slots__ = ("kind", "parts")

    def __init__(self, kind, parts):
        self.kind, self.parts = kind, parts

    def __ne__(self, other):
        if not isinstance(other, _Snapshot) or self.kind != other.kind:
            return True
        a, b = self.parts, other.parts
        if self.kind == "eq":
            return a != b
        return len(a) != len(b) or any(x is not y for x, y in zip(a, b, strict=False))

    def __eq__(self, other):
        return not self.__ne__(other)

    __hash__ = None


def _snapshot(obj):
    """A snapshot of a mutable object (list, dict, set, bytearray, deque, an object's
    attributes), or None for an immutable one."""
    if isinstance(obj, (list, collections.deque)):
        return _Snapshot("seq", list(obj))
    if isinstance(obj, dict):
        return _Snapshot("seq", [x for pair in dict.items(obj) for x in pair])
    if isinstance(obj, set):
        return _Snapshot("eq", frozenset(obj))
    if isinstance(obj, bytearray):
        return _Snapshot("eq", bytes(obj))
    if isinstance(
        obj, (tuple, frozenset, bytes, complex, decimal.Decimal, fractions.Fraction, range)
    ):
        return None
    try:
        attrs = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return None
    if callable(obj) or isinstance(obj, type):
        return None
    return _Snapshot("seq", [x for pair in attrs.items() for x in pair])


def _attributes(obj):
    try:
        attrs = dict(object.__getattribute__(obj, "__dict__"))
    except AttributeError:
        attrs = {}
    for klass in type(obj).__mro__:
        for name in klass.__dict__.get("__slots__", ()) or ():
            if isinstance(name, str) and name not in attrs:
                try:
                    attrs[name] = object.__getattribute__(obj, name)
                except AttributeError:
                    pass
    return attrs


def _describe(exc, callee):
    """An exception of the program's, as data: its type, nearest builtin base, message and
    arguments (so ``e.args`` reads as plain Python would)."""
    t = type(exc)
    try:
        msg = str(exc)[:500]
    except BaseException:
        msg = ""
    out = {"type": t.__name__, "base": _exc_base(t), "msg": msg}
    if t.__module__ != "builtins":
        out["cls"] = callee.export(t)[1]
    try:
        args = exc.value if isinstance(exc, StopIteration) else exc.args
        enc = Encoder(callee.trusted, on_object=callee.export)
        item, nodes = enc.encode(args)
        out["args"] = {"ok": item, "n": nodes}
        if isinstance(exc, StopIteration):
            out["value"] = True
    except BaseException:
        pass
    return out


_EXCEPTIONS = {
    name: obj for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, Exception)
}  # fmt: skip


def _builtin_exception(desc, decoder=None):
    if not isinstance(desc, dict):
        return RuntimeError("the other side raised")
    cls = _EXCEPTIONS.get(desc.get("type")) or _EXCEPTIONS.get(desc.get("base")) or RuntimeError
    return _build_exception(cls, desc, decoder)


def _build_exception(cls, desc, decoder):
    """An exception of ``cls`` with the arguments the other side sent, where they decode."""
    args = desc.get("args")
    if decoder is not None and isinstance(args, dict):
        try:
            value = decoder.decode(args.get("ok"), args.get("n", []))
            if desc.get("value") and cls is StopIteration:
                return StopIteration(value)
            if type(value) is tuple:
                return cls(*value)
        except (Malformed, TypeError, ValueError):
            pass
    return cls(str(desc.get("msg", ""))[:500])


def _resolve_callable(ns, name, cls_name):
    if type(name) is not str:
        raise Malformed("bad function name")
    if cls_name:
        return getattr(ns[cls_name](), name)
    if name in ns and callable(ns[name]):
        return ns[name]
    if "Solution" in ns and isinstance(ns["Solution"], type):
        return getattr(ns["Solution"](), name)
    raise NameError(f"function {name!r} is not defined")


# ================================================================ the judge: test code
def _own_classes(ns):
    """The classes a namespace's own code defined (the problem's setup, the test)."""
    return {
        k: v for k, v in dict.items(ns)
        if isinstance(v, type) and v.__module__ == "__main__" and not issubclass(v, BaseException)
    }  # fmt: skip


class CandidateGone(BaseException):
    """The candidate exited, crashed, hung or broke the protocol: the test cannot pass.

    A BaseException, so no ``except Exception`` in the test code swallows it; the verdict
    does not depend on it propagating anyway (``Judge.gone`` decides).
    """


class Judge:
    """The judge child's side: runs test code; the program's names are remote proxies."""

    def __init__(self, rfd, wfd, classes, peer=-1):
        self.rfd, self.wfd = rfd, wfd
        self.peer = peer
        """A socket straight to the candidate's child, or -1 (peer frames go via the runner)."""
        self.peer_buf = FrameBuffer()
        self.peer_frames = []
        if peer >= 0:
            os.set_blocking(peer, False)
        self.classes = classes
        self.proxies = {}
        self.callbacks = {}
        self.callback_of = {}
        self.exc_classes = {}
        self.gone = None
        self.calls = 0
        self.ns = None
        self.comparing = set()

    # -- transport
    def _send(self, msg):
        data = dumps(msg)
        if self.peer < 0:
            write_frame(self.wfd, b"P", data)
            return
        view = memoryview(_HDR.pack(len(data), b"P"[0]) + data)
        while view:
            try:
                n = os.write(self.peer, view)
                view = view[n:]
            except BlockingIOError:
                # the candidate does not read: wait, but keep taking control (its death)
                r, _w, _ = select.select([self.rfd], [self.peer], [], 1.0)
                if self.rfd in r:
                    self._control(read_frame(self.rfd))
            except OSError:
                self.gone = "the program closed the call channel"
                raise CandidateGone(self.gone) from None

    def reset(self):
        """Forget everything of the last test: handle ids start again in each candidate."""
        self.gone = None
        self.calls = 0
        self.proxies = {}
        self.callbacks = {}
        self.callback_of = {}
        self.exc_classes = {}
        self.comparing = set()
        self.ns = None

    def set_peer(self, fd):
        """This session's socket to the candidate's child (-1: frames go via the runner)."""
        if self.peer >= 0 and self.peer != fd:
            try:
                os.close(self.peer)
            except OSError:
                pass
        self.peer = fd
        self.peer_buf = FrameBuffer()
        self.peer_frames = []
        if fd >= 0:
            os.set_blocking(fd, False)

    def drain_peer(self):
        """Drop what a finished test's candidate left on the socket."""
        self.peer_buf = FrameBuffer()
        self.peer_frames = []
        if self.peer < 0:
            return
        while True:
            try:
                if not os.read(self.peer, 1 << 16):
                    return
            except (BlockingIOError, OSError):
                return

    def _control(self, frame):
        if frame is None:
            os._exit(3)  # the runner is gone: nothing to report to
        kind, payload = frame
        if kind == b"J":
            ctl = json.loads(payload)
            if ctl.get("op") == "gone":
                self.gone = str(ctl.get("reason", "the program died"))
                raise CandidateGone(self.gone)

    def _next_frame(self):
        """The next frame from the candidate (a control frame is handled on the way)."""
        if self.peer < 0:
            return read_frame(self.rfd)
        while True:
            if self.peer_frames:
                return self.peer_frames.pop(0)
            r, _, _ = select.select([self.rfd, self.peer], [], [], 5.0)
            if self.rfd in r:
                self._control(read_frame(self.rfd))
            if self.peer in r:
                try:
                    chunk = os.read(self.peer, 1 << 20)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self.gone = "the program closed the call channel"
                    raise CandidateGone(self.gone)
                self.peer_buf.feed(chunk)
                self.peer_frames.extend(self.peer_buf.frames())

    def _wait(self):
        """The candidate's answer to our last request, serving its callbacks meanwhile."""
        while True:
            if self.gone is not None:
                raise CandidateGone(self.gone)
            try:
                frame = self._next_frame()
            except FrameError as exc:
                self.gone = f"the program broke the call protocol ({exc})"
                raise CandidateGone(self.gone) from None
            if frame is None:
                os._exit(3)  # the runner is gone: nothing to report to
            kind, payload = frame
            if kind == b"J":
                ctl = json.loads(payload)
                if ctl.get("op") == "gone":
                    self.gone = str(ctl.get("reason", "the program died"))
                    raise CandidateGone(self.gone)
                continue
            try:
                msg = loads(payload)
                if not isinstance(msg, dict):
                    raise Malformed("bad message")
                if "op" in msg:
                    self._serve_callback(msg)
                    continue
                return msg
            except Malformed as exc:
                self.gone = f"the program broke the call protocol ({exc})"
                raise CandidateGone(self.gone) from None

    def _classes(self):
        """Classes the codec rebuilds by name: those the setup and the test code define (not
        the ones they import: a ``deque`` stays a deque)."""
        ns = self.ns
        if ns is None:
            return {}
        return _own_classes(ns)

    def decoder(self, origin=()):
        return Decoder(self._classes(), on_handle=self.proxy, origin=origin)

    def request(self, msg, origin=()):
        """Send a request, wait for its answer (serving callbacks), return the value.

        ``origin``: the objects the request sent, by node index; the answer refers to them
        as ``["r", k]`` and sends the contents of those the program changed."""
        if self.gone is not None:
            raise CandidateGone(self.gone)
        self.calls += 1
        self._send(msg)
        reply = self._wait()
        if "exit" in reply:
            self.gone = "the program exited during a call"
            raise CandidateGone(self.gone)
        if "raise" in reply:
            raise self._exception(reply["raise"])
        if "ok" not in reply:
            self.gone = "the program broke the call protocol"
            raise CandidateGone(self.gone)
        try:
            states = reply.get("st") or []
            dec = self.decoder(origin)
            if states:
                value, contents = dec.decode(reply["ok"], reply.get("n", []), states)
                for k, new in contents:
                    _apply_state(origin[k], new)
            else:
                value = dec.decode(reply["ok"], reply.get("n", []))
        except Malformed as exc:
            self.gone = f"the program sent a malformed value ({exc})"
            raise CandidateGone(self.gone) from None
        return value

    def encode(self, value):
        """(item, nodes, origin) of a value sent to the program; callables become callbacks."""
        enc = Encoder(self._classes(), on_object=self._export_judge_object)
        item, nodes = enc.encode(value)
        return item, nodes, enc.keep

    def _export_judge_object(self, obj):
        if isinstance(obj, _Remote):
            return ["h", object.__getattribute__(obj, "_cr_id")]
        if isinstance(obj, types.ModuleType):
            raise TypeError("cannot pass a module to the program")
        if callable(obj):
            key = id(obj)
            cid = self.callback_of.get(key)
            if cid is None:
                cid = len(self.callbacks) + 1
                self.callbacks[cid] = obj
                self.callback_of[key] = cid
            return ["cb", cid]
        raise TypeError(f"cannot pass a {type(obj).__name__} to the program")

    def _serve_callback(self, msg):
        """The program calls a function the test gave it (the only request it may make)."""
        try:
            fn = self.callbacks.get(msg.get("cb")) if msg.get("op") == "call" else None
            if fn is None:
                raise Malformed("the program may only call functions it was given")
            dec = self.decoder()
            got = dec.decode(msg.get("a"), msg.get("n", []))
            if type(got) is not list or len(got) != 2 or type(got[1]) is not dict:
                raise Malformed("bad callback arguments")
            try:
                value = fn(*got[0], **got[1])
                item, nodes, _ = self.encode(value)
                out = {"ok": item, "n": nodes}
            except CandidateGone:
                raise
            except Exception as exc:
                out = {"raise": {"type": type(exc).__name__, "base": _exc_base(type(exc)),
                                 "msg": str(exc)[:500]}}  # fmt: skip
        except Malformed as exc:
            self.gone = f"the program broke the call protocol ({exc})"
            raise CandidateGone(self.gone) from None
        self._send(out)

    def _exception(self, desc):
        if not isinstance(desc, dict):
            return RuntimeError("the program raised")
        cls_id = desc.get("cls")
        if type(cls_id) is int:
            cls = self._exc_class(cls_id, str(desc.get("type", "Error")), str(desc.get("base")))
        else:
            cls = _EXCEPTIONS.get(desc.get("type")) or _EXCEPTIONS.get(desc.get("base"))
            if cls is None:
                cls = RuntimeError
        return _build_exception(cls, desc, self.decoder())

    def _exc_class(self, cls_id, name, base):
        cls = self.exc_classes.get(cls_id)
        if cls is None:
            parent = _EXCEPTIONS.get(base, Exception)
            cls = type(
                name if name.isidentifier() else "ProgramError",
                (parent,),
                {"__module__": "__program__"},
            )
            self.exc_classes[cls_id] = cls
        return cls

    def proxy(self, node):
        hid = node[1]
        if type(hid) is not int:
            raise Malformed("bad handle")
        got = self.proxies.get(hid)
        if got is None:
            flags = str(node[2]) if len(node) > 2 else ""
            name = str(node[3]) if len(node) > 3 else "object"
            if "e" in flags:
                got = self._exc_class(hid, name, str(node[4]) if len(node) > 4 else "Exception")
            elif "m" in flags and _importable(name):
                got = importlib.import_module(
                    name
                )  # a module: the judge's own, never the program's
            else:
                got = _proxy_class(flags)(self, hid, name)
                object.__setattr__(got, "_cr_flags", flags)
            self.proxies[hid] = got
        return got

    def run(self, code, setup, entry):
        """Run one test's code; (verdict, detail)."""
        ns = _TestNamespace(self, entry)
        ns["__name__"] = "__main__"
        ns["__builtins__"] = builtins
        self.ns = ns
        try:
            if setup:
                exec(compile(setup, "<setup>", "exec"), ns)
            exec(compile(code, "<test>", "exec"), ns)
        except CandidateGone:
            pass
        except AssertionError:
            if self.gone is None:
                return "assert", "assertion failed"
        except SystemExit:
            if self.gone is None:
                return "error", "the test code exited"
        except BaseException as exc:
            if self.gone is None:
                return "error", type(exc).__name__
        if self.gone is not None:
            return "gone", self.gone
        return "pass", ""


_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"numpy", "sortedcontainers"}
_MODULE_ALIASES = {"np": "numpy"}


def _importable(name):
    """A module of the runtime a test may mean by this name (the standard library, numpy)."""
    return name in _STDLIB and not name.startswith("_") and name not in ("this", "antigravity")


class _TestNamespace(dict):
    """Globals of test code: each use of an entry-point name goes to the program."""

    def __init__(self, judge, entry):
        super().__init__()
        self._judge = judge
        self._entry = frozenset(entry)
        self._callable = {}

    def __missing__(self, name):
        if name not in self._entry:
            module = _MODULE_ALIASES.get(name, name)
            if _importable(module):  # a module the test uses without importing: the judge's own
                return importlib.import_module(module)
            raise KeyError(name)
        known = self._callable.get(name)
        if known is not None:
            return known
        value = self._judge.request({"op": "get", "name": name})
        if isinstance(value, _Remote | type) and not isinstance(value, _RemoteName):  # noqa: SIM102
            if isinstance(value, type) or "c" in object.__getattribute__(value, "_cr_flags"):
                # functions and classes resolve by name at each call, as the program's
                # global would; values (numbers, lists) are fetched at each use
                named = value if isinstance(value, type) else _RemoteName(self._judge, name, value)
                self._callable[name] = named
                return named
        return value


class _Remote:
    """A handle on an object of the program: every use is a request to the candidate."""

    __slots__ = ("_cr_flags", "_cr_id", "_cr_judge", "_cr_name")

    def __init__(self, judge, hid, name):
        object.__setattr__(self, "_cr_judge", judge)
        object.__setattr__(self, "_cr_id", hid)
        object.__setattr__(self, "_cr_name", name)

    def _cr_req(self, op, **extra):
        judge = object.__getattribute__(self, "_cr_judge")
        msg = {"op": op, "t": self._cr_target()}
        msg.update(extra)
        return judge.request(msg)

    def _cr_target(self):
        return object.__getattribute__(self, "_cr_id")

    def _cr_value(self, op, value, **extra):
        judge = object.__getattribute__(self, "_cr_judge")
        item, nodes, origin = judge.encode(value)
        msg = {"op": op, "t": self._cr_target(), "a": item, "n": nodes}
        msg.update(extra)
        return judge.request(msg, origin)

    def __getattr__(self, name):
        if name.startswith("_cr_"):
            raise AttributeError(name)
        return self._cr_req("getattr", name=name)

    def __setattr__(self, name, value):
        self._cr_value("setattr", value, name=name)

    def __delattr__(self, name):
        self._cr_req("delattr", name=name)

    def __repr__(self):
        value = self._cr_req("repr")
        return value if type(value) is str else "<program object>"

    def __str__(self):
        value = self._cr_req("str")
        return value if type(value) is str else "<program object>"

    def __format__(self, spec):
        value = self._cr_req("format", spec=spec)
        return value if type(value) is str else "<program object>"

    def __bool__(self):
        return bool(self._cr_req("bool") is True)

    def __eq__(self, other):
        return _remote_equal(self, other)

    def __ne__(self, other):
        return not _remote_equal(self, other)

    def __hash__(self):
        if "q" in object.__getattribute__(self, "_cr_flags"):
            return hash(_Remote)  # equal by data: one bucket, compared by __eq__
        return hash((_Remote, object.__getattribute__(self, "_cr_id")))

    def __instancecheck__(self, obj):
        return self._cr_value("isinstance", obj) is True

    def __subclasscheck__(self, cls):
        return self._cr_value("issubclass", cls) is True


def _remote_equal(a, b):
    """Equality of the program's objects, decided by the judge: the same object is equal
    to itself; two objects whose class defines ``__eq__`` are equal when they are of the
    same class and their attributes are equal (the class's own ``__eq__`` is never asked, so
    an always-equal one buys nothing); anything else is unequal."""
    if a is b:
        return True
    if not isinstance(b, _Remote):
        return False
    ga, gb = object.__getattribute__(a, "_cr_id"), object.__getattribute__(b, "_cr_id")
    if ga == gb:
        return True
    flags = object.__getattribute__(a, "_cr_flags")
    if "q" not in flags or "q" not in object.__getattribute__(b, "_cr_flags"):
        return False
    judge = object.__getattribute__(a, "_cr_judge")
    key = (min(ga, gb), max(ga, gb))
    if key in judge.comparing:
        return True  # a cycle: equal so far, as the rest of the comparison decides
    judge.comparing.add(key)
    try:
        cls_a, attrs_a = a._cr_req("state")
        cls_b, attrs_b = b._cr_req("state")
        return cls_a is cls_b and attrs_a == attrs_b
    finally:
        judge.comparing.discard(key)


def _r_call(self, *args, **kwargs):
    judge = object.__getattribute__(self, "_cr_judge")
    item, nodes, origin = judge.encode([list(args), kwargs])
    msg = {"op": "call", "t": self._cr_target(), "a": item, "n": nodes}
    return judge.request(msg, origin)


def _r_iter(self):
    if "n" in object.__getattribute__(self, "_cr_flags"):
        return self
    return self._cr_req("iter")


def _r_next(self):
    return self._cr_req("next")


def _r_len(self):
    value = self._cr_req("len")
    if type(value) is not int:
        raise TypeError("__len__ did not return an int")
    return value


def _r_getitem(self, key):
    return self._cr_value("getitem", key)


def _r_setitem(self, key, value):
    self._cr_value("setitem", [key, value])


def _r_delitem(self, key):
    self._cr_value("delitem", key)


_PROXY_CLASSES = {}


def _proxy_class(flags):
    """The proxy type for a set of capabilities (so callable(), iter(), len() tell the truth)."""
    key = "".join(sorted(set(flags) & set("cinlg")))
    cls = _PROXY_CLASSES.get(key)
    if cls is None:
        ns = {"__slots__": ()}
        if "c" in key:
            ns["__call__"] = _r_call
        if "i" in key or "n" in key:
            ns["__iter__"] = _r_iter
        if "n" in key:
            ns["__next__"] = _r_next
        if "l" in key:
            ns["__len__"] = _r_len
        if "g" in key:
            ns["__getitem__"] = _r_getitem
            ns["__setitem__"] = _r_setitem
            ns["__delitem__"] = _r_delitem
        cls = type("ProgramObject", (_Remote,), ns)
        _PROXY_CLASSES[key] = cls
    return cls


class _RemoteName(_Remote):
    """A program's global function or class, looked up by name at each call (as the
    program's own global would be); isinstance() and attributes work as on its handle."""

    __slots__ = ("_cr_gname",)

    def __init__(self, judge, name, handle):
        _Remote.__init__(self, judge, object.__getattribute__(handle, "_cr_id"), name)
        object.__setattr__(self, "_cr_flags", object.__getattribute__(handle, "_cr_flags"))
        object.__setattr__(self, "_cr_gname", name)

    def _cr_target(self):
        return object.__getattribute__(self, "_cr_gname")

    __call__ = _r_call

    def __eq__(self, other):
        if isinstance(other, _Remote):
            return object.__getattribute__(self, "_cr_id") == object.__getattribute__(
                other, "_cr_id"
            )
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((_Remote, object.__getattribute__(self, "_cr_id")))


def _apply_state(orig, new):
    """Give one of the judge's objects the contents the program left it with, in place.

    Each changed object of a request comes with its own state, and the parts it kept are
    references to the judge's own objects, so identities survive the call."""
    if isinstance(orig, list) and isinstance(new, list):
        orig[:] = new
    elif (isinstance(orig, dict) and isinstance(new, dict)) or (
        isinstance(orig, set) and isinstance(new, set)
    ):
        orig.clear()
        orig.update(new)
    elif isinstance(orig, bytearray) and isinstance(new, bytearray):
        orig[:] = new
    elif isinstance(orig, collections.deque) and isinstance(new, collections.deque):
        orig.clear()
        orig.extend(new)
    elif not isinstance(orig, type) and not callable(orig):
        try:
            attrs = dict(object.__getattribute__(new, "__dict__"))
        except AttributeError:
            return
        attrs.pop("_cr_class", None)
        try:
            current = object.__getattribute__(orig, "__dict__")
            current.clear()
            current.update(attrs)
        except AttributeError:
            for name, value in attrs.items():
                try:
                    object.__setattr__(orig, name, value)
                except (AttributeError, TypeError):
                    pass


# ================================================================ the test child
def _limit_values(job):
    """The resource limits of a test child, as ``(resource, value)`` pairs: computed in the
    runner before the fork (its address space is the child's at the fork, so the base of
    ``RLIMIT_AS`` is the same), so the child between its fork and its ``execve`` only makes
    the system calls (each page it writes there is a copy: ``_Child``)."""
    mem = int(job.get("memory_mb", 512)) << 20
    try:
        with open("/proc/self/statm") as f:
            base = int(f.read().split()[0]) * resource.getpagesize()
    except OSError:
        base = 0
    cpu = int(job.get("cpu_s") or float(job.get("time_s", 6))) + 1
    fsize = int(job.get("max_file_mb", 64)) << 20
    procs = int(job.get("max_procs", 32))
    return [
        (resource.RLIMIT_AS, (base + mem, base + mem)),
        (resource.RLIMIT_CPU, (cpu, cpu + 1)),
        (resource.RLIMIT_FSIZE, (fsize, fsize)),
        (resource.RLIMIT_NOFILE, (256, 256)),
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_MSGQUEUE, (0, 0)),
        (resource.RLIMIT_NPROC, (procs, procs)),  # last: the one a docker cell may refuse
    ]


def _apply_limits(values):
    """In the child: ``_limit_values``' limits, then its ``oom_score_adj`` raised so the
    kernel's OOM killer takes the test, never the runner."""
    for res, value in values[:-1]:
        resource.setrlimit(res, value)
    try:
        resource.setrlimit(*values[-1])
    except (ValueError, OSError):
        pass
    try:  # the kernel's OOM killer takes the test, never the runner
        if _PRCTL is not None:
            _PRCTL(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: the runner's own files stay closed
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        try:
            os.write(fd, b"1000")
        finally:
            os.close(fd)
    except OSError:
        pass


def _limits(job):
    _apply_limits(_limit_values(job))


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


def _interpreter_exit():
    """What CPython does when a program ends (returns, raises or calls ``sys.exit``) before
    it flushes: wait for the program's non-daemon threads (``threading._shutdown``), then
    run its ``atexit`` handlers. A stdio program that starts its work in a thread and never
    joins it (the Codeforces idiom ``threading.Thread(target=main).start()``) prints its
    answer only then. ``os._exit`` skips both, as in CPython."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:
            pass
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def _exit_code(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except BaseException:
        pass
    return 1


CALL_R, CALL_W = 3, 4  # the test child's call channel (requests in, replies out)
PASS_FD = 3  # an exec'd test's completion report or call result (it has no call channel)
PEER_FD = 5  # a socket straight to the other side's child (the process backend passes one)
NONCE_FD = 4  # an exec'd assert test's nonce, for its harness to read before the program runs
_INT_DIGITS = sys.get_int_max_str_digits()  # CPython's default, before main() lifts it


def _child_main(job, test):
    """Runs in the forked child; never returns."""
    status = 0
    kind = test["kind"]
    _write, _exit = os.write, os._exit
    atexit._clear()  # the runner's own handlers are not the program's
    try:
        os.chdir(test.get("cwd") or "/tmp")
        sys.set_int_max_str_digits(_INT_DIGITS)  # the program's Python, as plain Python's
        ns = _fresh_main()
        if test.get("args"):  # a checker's INPUT OUTPUT ANSWER
            sys.argv = ["checker.py", *(str(a) for a in test["args"])]
        _std_streams()
        setup = job.get("setup")
        if setup:
            exec(job.get("_setup_code") or compile(setup, "<setup>", "exec"), ns)
        trusted = _own_classes(ns)
        program = job.get("_program_code") or compile(job["program"], "<solution>", "exec")
        if kind == "stdio":
            try:
                exec(program, ns)
            finally:
                _interpreter_exit()
        else:
            if test.get("peer"):
                callee = Callee(ns, trusted, PEER_FD, PEER_FD)
            else:
                callee = Callee(ns, trusted, CALL_R, CALL_W)
            exec(program, ns)
            _flush()
            write_frame(CALL_W, b"R", b"")
            callee.serve()
        _flush()
    except _ProgramExit as exc:
        status = _exit_code(exc.code)
        _flush()
    except SystemExit as exc:
        status = _exit_code(exc.code)
        _flush()
    except MemoryError:
        status = 101
    except BaseException:
        try:
            traceback.print_exc()
        except BaseException:
            pass
        _flush()
        status = 1
    _exit(status)


# ================================================================ the runner side
def _kill_all():
    """Kill every process in this pid namespace but the runner; reap them; True when none is
    left. Orphans are reparented to the runner (the namespace's init), so once no child is
    left to reap, none is left at all (the /proc check makes sure)."""
    deadline = time.perf_counter() + 2.0
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = -1
            if pid <= 0:
                break
        if pid == -1:
            others = [
                p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, _SELF_PID)
            ]
            if not others:
                return True
        if time.perf_counter() > deadline:
            return False
        time.sleep(0.0002)


class _Child:
    """One forked test child and its pipes, as the runner watches it.

    A stdio child gets a stdin pipe; a callee gets the call channel (fds 3 and 4) instead;
    both get stdout and stderr. One poll object serves the child's whole life."""

    def __init__(self, job, test, stdin_data, call_channel, peer_fd=-1, pass_channel=False):
        self.job = job
        self.cap = int(job.get("max_output_bytes", 1 << 24))
        r_out, w_out = os.pipe()
        r_err, w_err = os.pipe()
        plumbing = [(w_out, 1), (w_err, 2)]
        theirs = [w_out, w_err]
        self.w_in = self.w_call = self.r_call = -1
        if stdin_data:
            r_in, self.w_in = os.pipe()
            plumbing.append((r_in, 0))
            theirs.append(r_in)
        if call_channel:
            r_call_in, self.w_call = os.pipe()
            self.r_call, w_call_out = os.pipe()
            plumbing += [(r_call_in, CALL_R), (w_call_out, CALL_W)]
            theirs += [r_call_in, w_call_out]
        if peer_fd >= 0:
            plumbing.append((peer_fd, PEER_FD))
        self.r_pass = -1
        if pass_channel:  # the harness of a compiled assert test reports completion here
            self.r_pass, w_pass = os.pipe()
            plumbing.append((w_pass, PASS_FD))
            theirs.append(w_pass)
        nonce = test.get("nonce")
        if nonce and not call_channel:  # read once by the harness: never in the build's files
            r_nonce, w_nonce = os.pipe()
            os.write(w_nonce, str(nonce).encode("ascii"))
            os.close(w_nonce)
            plumbing.append((r_nonce, NONCE_FD))
            theirs.append(r_nonce)
        # made before the fork: each page the child writes before its ``execve`` is a copy
        launch = _prepare_exec(test) if test.get("argv") else None
        limits = _limit_values(job)
        ruleset = -1  # kept open in the child until its program enforces it
        if launch is not None and launch["one_process"] is not None:
            ruleset = launch["one_process"].get("landlock", -1)
        self.t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()
                for fd, target in plumbing:
                    os.dup2(fd, target)
                if ruleset > PEER_FD:
                    os.closerange(PEER_FD + 1, ruleset)
                    os.closerange(ruleset + 1, 65536)
                else:
                    os.closerange(PEER_FD + 1, 65536)
                if peer_fd < 0:
                    os.close(PEER_FD)
                _apply_limits(limits)
            except BaseException:
                os._exit(120)
            if test.get("argv"):
                _launch(launch)
            _child_main(job, test)
            os._exit(121)
        self.pid = pid
        for fd in theirs:
            os.close(fd)
        self.r_out, self.r_err = r_out, r_err
        self.poller = select.poll()
        self.open = {r_out: bytearray(), r_err: bytearray()}
        self.out, self.err = self.open[r_out], self.open[r_err]
        for fd in self.open:
            self.poller.register(fd, select.POLLIN)
        if self.r_call >= 0:
            self.open[self.r_call] = None
            self.poller.register(self.r_call, select.POLLIN)
        self.passed = bytearray()
        if self.r_pass >= 0:
            self.open[self.r_pass] = self.passed
            self.poller.register(self.r_pass, select.POLLIN)
        self.call_out = bytearray()
        self.writing = set()
        if self.w_in >= 0:
            os.set_blocking(self.w_in, False)
            self.poller.register(self.w_in, select.POLLOUT)
            self.writing.add(self.w_in)
        if self.w_call >= 0:
            os.set_blocking(self.w_call, False)
        self.stdin = memoryview(stdin_data)
        self.calls = FrameBuffer(self.cap + 1024)
        self.deadline = self.t0 + float(job.get("time_s", 6))
        self.status = None
        self.end = None
        self.reason = None
        try:
            self.pidfd = os.pidfd_open(pid)
            self.poller.register(self.pidfd, select.POLLIN)
        except (AttributeError, OSError):
            self.pidfd = -1
        self.extra = set()

    def reap(self):
        if self.status is None:
            wpid, st = os.waitpid(self.pid, os.WNOHANG)
            if wpid:
                self.status = st
                self.end = time.perf_counter()
                if self.pidfd >= 0:
                    self.poller.unregister(self.pidfd)
                    os.close(self.pidfd)
                    self.pidfd = -1
        return self.status is not None

    def _close_write(self, fd):
        if fd in self.writing:
            self.poller.unregister(fd)
            self.writing.discard(fd)
        try:
            os.close(fd)
        except OSError:
            pass
        if fd == self.w_in:
            self.w_in = -1
        elif fd == self.w_call:
            self.w_call = -1
            self.call_out.clear()

    def pump(self, extra_fds=(), timeout_s=0.05):
        """Move bytes for up to ``timeout_s``; return (call frames, ready extra fds)."""
        for fd in extra_fds:
            if fd not in self.extra:
                self.extra.add(fd)
                self.poller.register(fd, select.POLLIN)
        wants = self.call_out and self.w_call >= 0
        if wants and self.w_call not in self.writing:
            self.poller.register(self.w_call, select.POLLOUT)
            self.writing.add(self.w_call)
        elif not wants and self.w_call in self.writing:
            self.poller.unregister(self.w_call)
            self.writing.discard(self.w_call)
        frames = []
        ready_extra = []
        for fd, _ev in self.poller.poll(max(0, int(timeout_s * 1000))):
            if fd == self.w_call:
                try:
                    n = os.write(fd, self.call_out[: 1 << 16])
                    del self.call_out[:n]
                except BlockingIOError:
                    pass
                except OSError:
                    self._close_write(fd)
            elif fd == self.w_in:
                try:
                    n = os.write(fd, self.stdin[:65536])
                except (BlockingIOError, InterruptedError):
                    n = 0
                except OSError:
                    n = -1
                if n < 0 or n >= len(self.stdin):
                    self._close_write(fd)
                else:
                    self.stdin = self.stdin[n:]
            elif fd in self.extra:
                ready_extra.append(fd)
            elif fd in self.open:
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    del self.open[fd]
                    self.poller.unregister(fd)
                    os.close(fd)
                    continue
                if fd == self.r_call:
                    self.calls.feed(chunk)
                    try:
                        frames.extend(self.calls.frames())
                    except FrameError:
                        self.reason = self.reason or "output_limit"
                    continue
                self.open[fd] += chunk
                self._check_output()
        self.reap()
        if self.status is None and time.perf_counter() >= self.deadline:
            self.reason = self.reason or "timeout"
        return frames, ready_extra

    def send_call(self, kind, payload):
        """Queue a frame for the child's call channel (written as it reads, never blocking)."""
        self.call_out += _HDR.pack(len(payload), kind[0]) + payload

    def finish(self):
        if self.status is None and self.end is None:
            self.end = time.perf_counter()
        clean = _kill_all()
        if self.status is None:
            try:
                _, self.status = os.waitpid(self.pid, 0)
            except ChildProcessError:
                self.status = 0 if self.reason is None else 9
        self._drain_left()
        for fd in list(self.open) + [f for f in (self.w_in, self.w_call, self.pidfd) if f >= 0]:
            try:
                os.close(fd)
            except OSError:
                pass
        self.open = {}
        self.w_in = self.w_call = self.pidfd = -1
        report = {
            "time_s": round((self.end or time.perf_counter()) - self.t0, 6),
            "stdout": self.out[: self.cap].decode("utf-8", "replace"),
            "pass_channel": self.passed[: self.cap].decode("utf-8", "replace"),
            "stderr_tail": self.err[-2000:].decode("utf-8", "replace"),
            "limit": self.reason,
            "clean": clean,
        }
        if os.WIFSIGNALED(self.status):
            report["signal"] = os.WTERMSIG(self.status)
            report["exit_code"] = None
        else:
            report["exit_code"] = os.WEXITSTATUS(self.status)
        return report

    def _drain_left(self):
        """What the child's pipes still hold once every process is gone: a runner that was
        descheduled between the reap and its last read (the 50 ms grace of ``_run_stdio``)
        must not lose the end of stdout or of the pass channel. Never blocks: with no writer
        left a read ends at EOF; if one survived (not ``clean``), at the first empty read."""
        for fd, buf in list(self.open.items()):
            if buf is None:
                continue
            try:
                os.set_blocking(fd, False)
                while len(buf) <= 2 * self.cap:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        break
                    buf += chunk
            except OSError:  # BlockingIOError included: nothing more now
                pass
        self._check_output()

    def _check_output(self):
        """``output_limit`` once stdout, stdout and stderr together, or the pass channel
        hold more than the cap allows."""
        out, err = len(self.out), len(self.err)
        if out > self.cap or out + err > 2 * self.cap or len(self.passed) > self.cap:
            self.reason = self.reason or "output_limit"

    def gone(self):
        return self.reason is not None or self.status is not None


def _run_stdio(job, test):
    child = _Child(
        job,
        test,
        test.get("input", "").encode("utf-8"),
        call_channel=False,
        pass_channel=bool(test.get("pass_channel")),
    )
    while not child.gone() or child.open:
        child.pump()
        if child.reason or (child.status is not None and time.perf_counter() - child.end > 0.05):
            break
    return child.finish()


def _wait_ready(child):
    """Wait for the child's ready frame (the program is loaded); False if it died first or
    wrote anything else on its call channel (only the runner's code sends that frame)."""
    while not child.gone():
        frames, _ = child.pump()
        if frames:
            if frames[0][0] == b"R" and len(frames) == 1:
                return True
            child.reason = child.reason or "protocol"
            return False
    return False


def _await_reply(child):
    """The child's one answer to the frame just queued; None if it died, hung or sent more."""
    got = None
    while not child.gone():
        frames, _ = child.pump()
        if not frames:
            continue
        if len(frames) > 1 or frames[0][0] != b"P":
            child.reason = child.reason or "protocol"
            return None
        got = frames[0][1]
        break
    return got


class _Callee:
    """A test child kept for consecutive call tests of a sample (a program answering a call
    test, or host-checked asserts): one process answers them in turn, as one process runs
    all of a sample's asserts in plain execution. A child that dies, hangs or breaks the
    protocol fails the test it was answering, and the next test gets a fresh one."""

    def __init__(self, job):
        self.job = job
        self.child = None

    def run(self, test):
        if self.child is None or self.child.gone():
            self.close()
            # the child may answer every call test left: CPU seconds for all of them (each
            # test's own time is the wall clock the runner keeps)
            left = max(1, len(self.job["tests"]) - self.job["tests"].index(test))
            job = {**self.job, "cpu_s": float(self.job.get("time_s", 6)) * left}
            self.child = _Child(job, test, b"", call_channel=True)
            if not _wait_ready(self.child):
                report = self.child.finish()
                self.child = None
                report["ready"] = False
                report["replies"] = []
                return report
        child = self.child
        t0 = time.perf_counter()
        child.deadline = t0 + float(self.job.get("time_s", 6))  # each test its own time
        replies = []
        for call in test.get("calls", []):
            child.send_call(b"P", call.encode())
            got = _await_reply(child)
            if got is None:
                break
            replies.append(got.decode("utf-8", "replace"))
        if len(replies) < len(test.get("calls", [])) or child.gone():
            report = child.finish()
            self.child = None
        else:
            report = {"time_s": round(time.perf_counter() - t0, 6), "stdout": "",
                      "stderr_tail": "", "limit": None, "clean": True, "exit_code": 0}  # fmt: skip
        report["ready"] = True
        report["replies"] = replies
        return report

    def close(self):
        """End the kept child, if any; True when it left nothing behind."""
        child, self.child = self.child, None
        if child is None:
            return True
        child.send_call(b"P", b'{"op":"end"}')
        end_by = time.perf_counter() + 0.2
        while not child.reap() and time.perf_counter() < end_by and not child.reason:
            child.pump(timeout_s=0.01)
        return bool(child.finish().get("clean", True))


_GONE = {
    "timeout": "the test ran out of time",
    "output_limit": "the program wrote too much output",
    "protocol": "the program wrote on the call channel itself",
}


def _run_served(job, test, index, ctl_in, ctl_out, ctl_buf, peer_fd=-1):
    """A judge-driven test: relay peer frames between the host and the child until "end".

    With a peer socket (``peer_fd``) the judge's child and this one talk directly, and the
    runner only watches the child (its death, time and output) until "end"."""
    direct = peer_fd >= 0
    test = {**test, "peer": direct}
    child = _Child(job, test, b"", call_channel=True, peer_fd=peer_fd)
    ready = _wait_ready(child)
    if not ready:
        report = child.finish()
        report["ready"] = False
        return report, False
    send_json(ctl_out, {"ev": "serving", "test": index})
    announced_gone = False
    stop = False
    childs_turn = False  # the judge speaks first; then each side answers the other in turn
    while True:
        frames, ready_ctl = child.pump(extra_fds=(ctl_in,), timeout_s=0.05)
        for kind, payload in frames:
            if kind == b"P" and childs_turn and not child.gone() and not direct:
                childs_turn = False
                write_frame(ctl_out, b"P", payload)
            else:  # out of turn: a program writing on the channel itself
                child.reason = child.reason or "protocol"
        if child.gone() and not announced_gone:
            announced_gone = True
            reason = _GONE.get(child.reason, "the program ended during a call")
            send_json(
                ctl_out, {"ev": "gone", "test": index, "reason": reason, "limit": child.reason}
            )
        if ready_ctl:
            try:
                chunk = os.read(ctl_in, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                child.finish()
                sys.exit(0)
            ctl_buf.feed(chunk)
        done = False
        for kind, payload in ctl_buf.frames():
            if kind == b"P":
                if not child.gone() and not direct:
                    childs_turn = True
                    child.send_call(b"P", payload)
            elif kind == b"J":
                msg = json.loads(payload)
                if msg.get("op") == "end":
                    stop = bool(msg.get("stop"))
                    done = True
        if done:
            break
    if not direct:
        child.send_call(b"P", b'{"op":"end"}')
    report = child.finish()
    report["ready"] = True
    return report, stop


def _wipe(path):
    """Remove everything under path without recursion (deep trees, long paths); True if empty."""
    try:
        root = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    stack = [(root, None, None)]  # (dir fd, parent fd, name in parent)
    removed = 0
    started = time.perf_counter()
    try:
        while stack:
            if time.perf_counter() - started > 5.0 or removed > 1_000_000:
                return False
            dfd, parent, name = stack[-1]
            descended = False
            before = removed
            # entries are unlinked as the scan meets them, never listed first: a folder of
            # a million empty files holds its kernel memory against the cell's limit, and
            # a list of their names on top of it was the runner's OOM kill
            try:
                entries = os.scandir(dfd)
            except OSError:
                entries = iter(())
            for entry in entries:
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if is_dir:
                    try:
                        os.chmod(entry.name, 0o700, dir_fd=dfd, follow_symlinks=False)
                    except (OSError, NotImplementedError):
                        pass
                    try:
                        sub = os.open(
                            entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dfd
                        )
                    except OSError:
                        continue
                    stack.append((sub, dfd, entry.name))
                    descended = True
                    break
                try:
                    os.unlink(entry.name, dir_fd=dfd)
                    removed += 1
                except OSError:
                    pass
            if hasattr(entries, "close"):
                entries.close()
            if descended or removed > before:  # a scan that unlinks as it goes may skip some
                continue
            stack.pop()
            if parent is not None:
                os.close(dfd)
                try:
                    os.rmdir(name, dir_fd=parent)
                    removed += 1
                except OSError:
                    pass
        return not os.listdir(path)
    finally:
        for dfd, _, _ in stack:
            try:
                os.close(dfd)
            except OSError:
                pass
        try:
            os.close(root)
        except OSError:
            pass


def _reset_modes():
    """The writable folders back to the modes they had when the cell started (a program may
    chmod them, being their owner); True when they already had them."""
    ok = True
    for path, mode in _MODES.items():
        try:
            if os.stat(path).st_mode & 0o7777 != mode:
                ok = False
                os.chmod(path, mode)
        except OSError:
            ok = False
    return ok


def _wipe_ipc():
    """Remove System V IPC objects left in this cell's IPC namespace; True if none were."""
    found = False
    for kind, ctl in (("shm", "shmctl"), ("sem", "semctl"), ("msg", "msgctl")):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) < 2:
                continue
            found = True
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                ident = int(parts[1])
                if kind == "sem":
                    libc.semctl(ident, 0, 0)  # IPC_RMID
                else:
                    getattr(libc, ctl)(ident, 0, None)  # IPC_RMID
            except (OSError, ValueError, AttributeError):
                pass
    return not found


def _prepare_exec(test):
    """What the child of a test in another language than Python needs to become its
    compiler or compiled program (``_launch``), made in the runner before the fork: its
    argv, environment and, for a build that says ``one_process``, what
    ``_one_process_exec`` installs. None when it cannot be made (the child then exits 127,
    as a failed ``execve`` does)."""
    try:
        env = dict(os.environ)
        env.update(test.get("env") or {})
        argv = [str(a) for a in test["argv"]]
        launch = {"cwd": test["cwd"], "argv": argv, "env": env, "one_process": None}
        if test.get("one_process"):
            faults = test.get("one_process") == "no_fault_handlers"
            launch["one_process"] = _one_process_prepare(argv, env, test["cwd"], faults)
    except (OSError, ValueError, TypeError, KeyError):
        return None
    return launch


def _launch(launch):
    """In the child: become the test's program (``_prepare_exec``); never returns."""
    try:
        if launch is not None:
            os.chdir(launch["cwd"])
            if launch["one_process"] is not None:
                _one_process_exec(launch["one_process"])
                os._exit(126)  # the filter could not be installed: no run without it
            os.execvpe(launch["argv"][0], launch["argv"], launch["env"])
    except BaseException:
        pass
    os._exit(127)


_AUDIT_ARCH_X86_64 = 0xC000003E
_X86_64 = {"clone": 56, "fork": 57, "vfork": 58, "execve": 59, "execveat": 322, "clone3": 435,
           "mmap": 9, "mprotect": 10, "mremap": 25, "shmat": 30, "remap_file_pages": 216,
           "memfd_create": 319, "pkey_mprotect": 329, "personality": 135,
           "rt_sigaction": 13}  # fmt: skip
_FAULT_SIGNALS = (4, 5, 6, 7, 8, 11)
"""SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV: the signals an instruction of the
test's own code raises (a trapping comparison, a read of a page, ``assert``'s abort)."""
_CLONE_THREAD = 0x10000
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM, _ENOSYS = 1, 38


def _one_process_filter(path_address, faults=False):
    """The seccomp program of a ``one_process`` test (x86-64): no new process (``fork``,
    ``vfork``, a ``clone`` without ``CLONE_THREAD``: EPERM; ``clone3``, whose flags a filter
    cannot read: ENOSYS, so the C library falls back to ``clone`` for its threads) and no
    other program (``execveat``, and every ``execve`` but the one whose path is the
    runner's own buffer at ``path_address``, in the address space the exec replaces);
    the x32 and i386 system calls: EPERM. And no code of its own making (EPERM): no
    ``mprotect`` or ``pkey_mprotect`` that asks for ``PROT_EXEC``, no ``mmap`` both writable
    and executable, no ``mremap`` to a fixed address (a page of code moved over the
    test's), no ``shmat`` with ``SHM_EXEC``, no ``remap_file_pages`` or ``memfd_create``,
    no ``personality`` but its query (``READ_IMPLIES_EXEC`` would make every readable
    mapping executable without a ``PROT_EXEC`` the filter could see).
    With ``faults`` (a C or C++ assert test that runs beside the program: its
    comparisons are instructions of the program's process) no handler of ``_FAULT_SIGNALS``
    either (``rt_sigaction`` with an action: EPERM; a query is allowed): a red team's
    program answered a signalling NaN, unmasked FE_INVALID, and its SIGFPE handler copied
    the expected operand of the test's trapping ``ucomisd`` into the answer's and resumed
    it; another returned an unreadable page and its SIGSEGV handler mapped it in with the
    string the test's ``strcmp`` was comparing it with. A fault in the test's code now ends
    the run, as it does where no program handles it.
    A red team's program made the page of the test's ``main`` writable from a constructor
    and wrote ``xor eax, eax; ret`` at its entry: the harness called it, it returned 0 at
    once, and the report was written (paid 1.0). The loader maps libraries read-only and
    executable and protects RELRO read-only, so no honest program asks for these.
    Everything else is allowed."""
    ld, jeq, jge, jset, ret = _BPF_LD, _BPF_JEQ, _BPF_JGE, _BPF_JSET, _BPF_RET
    lo, hi = path_address & 0xFFFFFFFF, path_address >> 32
    n = _X86_64
    # (code, k, label if true, label if false); a label names an instruction below
    code = [
        (ld, 4, None, None),
        (jeq, _AUDIT_ARCH_X86_64, None, "eperm"),
        (ld, 0, None, None),
        (jge, 0x40000000, "eperm", None),
        (jeq, n["fork"], "eperm", None),
        (jeq, n["vfork"], "eperm", None),
        (jeq, n["execveat"], "eperm", None),
        (jeq, n["clone3"], "enosys", None),
        (jeq, n["clone"], "clone", None),
        (jeq, n["execve"], "execve", None),
        (jeq, n["mprotect"], "exec_prot", None),
        (jeq, n["pkey_mprotect"], "exec_prot", None),
        (jeq, n["mmap"], "mmap", None),
        (jeq, n["mremap"], "mremap", None),
        (jeq, n["shmat"], "shmat", None),
        (jeq, n["remap_file_pages"], "eperm", None),
        (jeq, n["memfd_create"], "eperm", None),
        (jeq, n["personality"], "personality", None),
        *([(jeq, n["rt_sigaction"], "sigaction", None)] if faults else []),
        (ret, _RET_ALLOW, None, None),
        ("sigaction", ld, 16, None, None),  # signum
        *[(jeq, sig, "sigaction_act", None) for sig in _FAULT_SIGNALS],
        (ret, _RET_ALLOW, None, None),
        ("sigaction_act", ld, 24, None, None),  # act: NULL (a query) only
        (jeq, 0, None, "eperm"),
        (ld, 28, None, None),
        (jeq, 0, "allow", "eperm"),
        ("personality", ld, 16, None, None),  # persona: only the query 0xffffffff
        (jeq, 0xFFFFFFFF, "allow", "eperm"),
        ("exec_prot", ld, 32, None, None),  # prot
        (jset, 4, "eperm", "allow"),  # PROT_EXEC
        ("mmap", ld, 32, None, None),  # prot
        (jset, 4, None, "allow"),  # PROT_EXEC
        (jset, 2, "eperm", "allow"),  # and PROT_WRITE
        ("mremap", ld, 40, None, None),  # flags
        (jset, 2 | 4, "eperm", "allow"),  # MREMAP_FIXED, MREMAP_DONTUNMAP
        ("shmat", ld, 32, None, None),  # shmflg
        (jset, 0o100000, "eperm", "allow"),  # SHM_EXEC
        ("clone", ld, 16, None, None),
        (jset, _CLONE_THREAD, "allow", "eperm"),
        ("execve", ld, 16, None, None),
        (jeq, lo, None, "eperm"),
        (ld, 20, None, None),
        (jeq, hi, "allow", "eperm"),
        ("allow", ret, _RET_ALLOW, None, None),
        ("eperm", ret, _RET_ERRNO | _EPERM, None, None),
        ("enosys", ret, _RET_ERRNO | _ENOSYS, None, None),
    ]
    return _bpf(code)


_BPF_LD, _BPF_JEQ, _BPF_JGE, _BPF_JSET, _BPF_RET = 0x20, 0x15, 0x35, 0x45, 0x06
"""BPF_LD|BPF_W|BPF_ABS (a word of ``seccomp_data``), BPF_JMP|{BPF_JEQ,BPF_JGE,BPF_JSET}|BPF_K,
BPF_RET|BPF_K: the only instructions the runner's seccomp programs use."""


def _bpf(code):
    """A seccomp program's bytes from rows ``(op, k, label if true, label if false)``; a
    row led by a string is the instruction that label names. Both of the runner's filters
    (``_one_process_filter``, ``_deny_keyrings``) are written this way, so a jump is
    never counted by hand."""
    import struct

    labels, rows = {}, []
    for i, row in enumerate(code):
        if isinstance(row[0], str):
            labels[row[0]] = i
            row = row[1:]
        rows.append(row)
    out = b""
    for i, (op, k, t, f) in enumerate(rows):
        jt = labels[t] - i - 1 if t else 0
        jf = labels[f] - i - 1 if f else 0
        out += struct.pack("<HBBI", op, jt, jf, k)
    return out


_CTYPES_KIT = {}


def _ctypes_kit():
    """The C library's handle and the ctypes structures of the seccomp and Landlock calls,
    made once: the runner makes them at its start (``main``), so a test's forked child
    does not build ctypes classes (each a few hundred copied-on-write pages) before its
    ``execve``."""
    if not _CTYPES_KIT:
        import ctypes

        class _Fprog(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        class _Beneath(ctypes.Structure):
            _pack_ = 1
            _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

        _CTYPES_KIT.update(libc=ctypes.CDLL(None, use_errno=True), fprog=_Fprog,
                           beneath=_Beneath)  # fmt: skip
    return _CTYPES_KIT


def _fprog(prog):
    """``prog`` (``_bpf``'s bytes) as ``SECCOMP_MODE_FILTER`` takes it: (its buffer, which
    must stay alive, and the ``sock_fprog`` that points at it)."""
    import ctypes

    c_prog = ctypes.create_string_buffer(prog, len(prog))
    return c_prog, _ctypes_kit()["fprog"](len(prog) // 8, ctypes.addressof(c_prog))


def _install_seccomp(libc, prog):
    """Install ``prog`` (``_bpf``'s bytes) on this process and all it starts, after
    ``PR_SET_NO_NEW_PRIVS``. True when the filter is in place."""
    _c_prog, fprog = _fprog(prog)
    return _filter_on(libc, fprog)


def _filter_on(libc, fprog, landlock=-1):
    """``PR_SET_NO_NEW_PRIVS``, then the Landlock ruleset ``landlock`` enforced where there
    is one (it needs no-new-privs too; its fd closed), then the seccomp filter ``fprog``
    (``_fprog``'s). True when the filter is in place."""
    import ctypes

    ul = ctypes.c_ulong
    if libc.prctl(38, ul(1), ul(0), ul(0), ul(0)) != 0:  # PR_SET_NO_NEW_PRIVS
        return False
    if landlock >= 0:
        libc.syscall(446, landlock, 0)  # landlock_restrict_self
        os.close(landlock)
    return libc.prctl(22, ul(2), ctypes.byref(fprog), ul(0), ul(0)) == 0  # SECCOMP_MODE_FILTER


_LANDLOCK_FILE = (1 << 1) | (1 << 2)  # LANDLOCK_ACCESS_FS_WRITE_FILE, LANDLOCK_ACCESS_FS_READ_FILE
_PROC_KEPT = ("/proc/self/fd", "/proc/stat", "/proc/cpuinfo", "/proc/meminfo")
_LANDLOCK = None
"""The fd of ``_landlock_proc``'s ruleset once made (-1: this kernel has no Landlock)."""


def _landlock_proc(libc):
    """Keep a ``one_process`` test from opening files under ``/proc`` for reading or
    writing (a Landlock ruleset, inherited across the ``execve``), but its own ``fd``
    folder (``/dev/stdin``) and the CPU and memory summaries: every other top-level
    folder of the cell stays open as before. ``/proc/self/mem`` writes through page
    protections: a red team's program wrote ``xor eax, eax; ret`` at the entry of the
    test's ``main`` through it (paid 1.0), and a program reads the harness's memory,
    the test's code and its own executable there too (``/proc/self/exe``, ``maps``).
    Where the kernel has no Landlock, nothing is restricted (the languages module's
    "Not covered").

    The ruleset's fd (close-on-exec; -1 where there is none), made once, in the runner:
    each such test's child enforces it (``landlock_restrict_self``, ``_one_process_exec``)
    instead of making its own, so the child between its fork and its ``execve`` makes a
    few system calls, not sixty. The cell's root is read-only, so the top-level folders
    the rules name are those of every later test."""
    global _LANDLOCK
    if _LANDLOCK is not None:
        return _LANDLOCK
    import ctypes

    _Beneath = _ctypes_kit()["beneath"]
    handled = ctypes.c_uint64(_LANDLOCK_FILE)
    ruleset = libc.syscall(444, ctypes.byref(handled), ctypes.c_size_t(8), ctypes.c_uint32(0))
    if ruleset < 0:
        _LANDLOCK = -1
        return _LANDLOCK
    try:
        paths = [os.path.join("/", e) for e in os.listdir("/") if e != "proc"]
    except OSError:
        os.close(ruleset)
        raise
    for path in [*paths, *_PROC_KEPT]:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        rule = _Beneath(_LANDLOCK_FILE, fd)
        libc.syscall(445, ruleset, 1, ctypes.byref(rule), ctypes.c_uint32(0))
        os.close(fd)
    _LANDLOCK = ruleset
    return _LANDLOCK


def _one_process_prepare(argv, env, cwd, faults=False):
    """In the runner, before the fork: what ``_one_process_exec`` needs (the program's
    path, argv and environment as C arrays, the filter, the Landlock ruleset), so the
    child builds nothing (each page it writes between its fork and its ``execve`` is a
    copy of the runner's). The filter names the address of the path's buffer, which is
    the same in the child."""
    import ctypes

    path = argv[0]
    if "/" not in path:  # execvpe's search, over the test's PATH, from the test's folder
        for d in (env.get("PATH") or os.defpath).split(os.pathsep):
            cand = os.path.join(d or ".", path)
            where = os.path.join(cwd, cand)
            if os.path.isfile(where) and os.access(where, os.X_OK):
                path = cand
                break
    if os.uname().machine not in ("x86_64", "AMD64"):  # not ``platform``: 4 ms per child
        return {"plain": (path, argv, env)}
    kit = _ctypes_kit()
    c_path = ctypes.create_string_buffer(os.fsencode(path))
    strings = [os.fsencode(a) for a in argv]
    c_argv = (ctypes.c_char_p * (len(strings) + 1))(*strings, None)
    pairs = [os.fsencode(f"{k}={v}") for k, v in env.items()]
    c_env = (ctypes.c_char_p * (len(pairs) + 1))(*pairs, None)
    c_prog, fprog = _fprog(_one_process_filter(ctypes.addressof(c_path), faults))
    return {"plain": None, "libc": kit["libc"], "path": c_path, "argv": c_argv, "env": c_env,
            "prog": c_prog, "fprog": fprog, "landlock": _landlock_proc(kit["libc"])}  # fmt: skip


def _one_process_exec(ready):
    """``execve`` the test's program with ``_one_process_filter`` installed, so it runs as
    this one process and this one program: it can start threads, but no child and no
    other program. A program that runs its own test binary as a child (or execs it anew
    from an exit handler) reads the test's failure messages, which print the expected
    values (libtest's ``right: 5``, testify's ``expected: 5``, an ``assert``'s text), and
    answers the real run from them. ``ready``: ``_one_process_prepare``'s. Returns only
    when it could not exec (on a machine other than x86-64 the filter is not written: the
    program runs without it). ``PR_SET_NO_NEW_PRIVS`` first, which Landlock needs too,
    then the runner's Landlock ruleset, then the filter."""
    if ready["plain"] is not None:
        os.execve(*ready["plain"])
    if _filter_on(ready["libc"], ready["fprog"], ready["landlock"]):
        ready["libc"].execve(ready["path"], ready["argv"], ready["env"])


class _Builds:
    """The programs of one sample in a compiled language, each compiled once in its own
    folder of /tmp, all before any of them runs (so no program can touch a later build's
    compile or build cache), under the build's own limits (time, memory, output). A test
    runs only when its build's folder is as the last test of that build left it
    (``_fingerprint``): every test runs as the same user, so an earlier test's program can
    write a later build's folder (it rewrote the next assert test's unit); such a test is
    reported ``tampered``, a failure of the program's.

    A build is ``{"files": {name: text}, "compile": argv | None, "run": argv, "env",
    "time_s", "memory_mb", "max_procs", "as_extra_mb", "seed_cache": [from, to],
    "remove": [names]}``; ``remove`` are files deleted after the compile (a binary's
    sources). A test of a build may carry ``args`` (appended to the build's ``run``) and
    ``files`` (``{name: base64}``, written in the build's folder for that test alone and
    deleted after it: a checker's input, output and answer files)."""

    def __init__(self, job):
        self.specs = job.get("builds") or []
        self.procs = int(
            job.get("max_procs", 32)
        )  # docker lifts RLIMIT_NPROC (its pids cgroup binds)
        self.done = []
        stop = bool(job.get("stop_on_first_failure"))
        for i, spec in enumerate(self.specs):
            if stop and self.done and not self.done[-1]["ok"]:
                self.done.append(dict(self.done[-1], skipped=True))
                continue
            self.done.append(self._build(i, spec))
        # each build's folder as the last test of that build left it (its compile, before any
        # test), then closed (mode 0) until a test of its own runs: a test of another build
        # runs as the same user, and a program may read or write any folder of /tmp (a red
        # team's first test rewrote the next test's main.js to a test of its own, which
        # passed; another read the next tests' units and answered them from a table in /tmp)
        self.seen = [_fingerprint(b["dir"]) if b.get("ok") and b.get("dir") else None
                     for b in self.done]  # fmt: skip
        self.closed = [_close(b.get("dir")) if not b.get("skipped") else None for b in self.done]

    def _build(self, i, spec):
        import shutil

        d = f"/tmp/.build-{i}-{os.urandom(6).hex()}"
        os.mkdir(d, 0o755)
        unwritable = _write_sources(d, spec.get("files"))
        if unwritable is not None:
            return {"ok": False, "time_s": 0.0, "output": unwritable, "limit": None, "dir": d}
        t0 = time.perf_counter()
        seed = spec.get("seed_cache")
        if seed and os.path.isdir(seed[0]) and not os.path.exists(seed[1]):
            try:
                shutil.copytree(seed[0], seed[1])
            except OSError:
                pass  # a cold cache costs time, never correctness
        report = {"ok": True, "time_s": 0.0, "output": "", "limit": None, "dir": d}
        if spec.get("failed") is not None:  # compiled in a compile cell, and it failed
            report["ok"] = False
            return report
        if spec.get("artifact") is not None:  # compiled before (the host's cache)
            report["cached"] = _unpack(d, spec["artifact"])
            report["ok"] = report["cached"]
            report["time_s"] = round(time.perf_counter() - t0, 6)
            return report
        if spec.get("compile"):
            limits = {
                "time_s": float(spec.get("time_s", 60)),
                "memory_mb": int(spec.get("memory_mb", 2048)),
                "max_output_bytes": 1 << 20,
                "max_procs": max(self.procs, int(spec.get("max_procs", 64))),
                "max_file_mb": 128,
            }
            test = {"kind": "stdio", "argv": spec["compile"], "cwd": d, "env": spec.get("env"),
                    "input": spec.get("input") or ""}  # fmt: skip
            r = _run_stdio(limits, test)
            ok = r.get("exit_code") == 0 and not r.get("limit") and r.get("signal") is None
            text = (r.get("stdout", "")[-4000:] + r.get("stderr_tail", "")).strip()
            report.update(ok=ok, output=text[-4000:], limit=r.get("limit"),
                          signal=r.get("signal"), clean=r.get("clean", True))  # fmt: skip
        report["time_s"] = round(time.perf_counter() - t0, 6)
        for name in spec.get("remove") or ():
            try:
                os.unlink(os.path.join(d, os.path.basename(name)))
            except OSError:
                pass
        if report["ok"] and spec.get("return_artifact"):
            # read before any program of the sample runs: the compiler's output alone
            report["artifact"] = _pack(d)
        return report

    def run(self, job, test):
        """The report of a test of build ``test["build"]``: its run, or its compile error."""
        i = int(test["build"])
        built = self.done[i]
        if not built["ok"]:
            return {"compile_error": True, "clean": built.get("clean", True),
                    "exit_code": None, "limit": None, "time_s": 0.0}  # fmt: skip
        # its folder still closed as the runner closed it (a program that opened it to read
        # or write changed its mode, or its change time if it closed it again), then opened,
        # and its contents as its own last test left them
        if not _reopen(built["dir"], self.closed[i]) or (
            self.seen[i] is not None and _fingerprint(built["dir"]) != self.seen[i]
        ):
            return {"tampered": True, "clean": True, "exit_code": None, "limit": None,
                    "time_s": 0.0}  # fmt: skip
        try:
            return self._run(job, test, i, built)
        finally:
            if self.seen[i] is not None:  # what this build's own program did is its own
                self.seen[i] = _fingerprint(built["dir"])
            self.closed[i] = _close(built["dir"])

    def _run(self, job, test, i, built):
        spec = self.specs[i]
        argv = list(spec["run"]) + list(test.get("args") or ())
        t = dict(
            test,
            argv=argv,
            cwd=built["dir"],
            env=spec.get("env"),
            one_process=spec.get("one_process") or False,
        )
        limits = dict(job)
        if spec.get("as_extra_mb"):  # a JVM reserves address space far beyond what it uses
            limits["memory_mb"] = int(job.get("memory_mb", 512)) + int(spec["as_extra_mb"])
        if spec.get("max_procs"):
            limits["max_procs"] = max(int(job.get("max_procs", 32)), int(spec["max_procs"]))
        return _with_files(built["dir"], test, lambda: _run_stdio(limits, t))

    def summary(self, room=None):
        """Each build's report; a packed artifact only while the answer has ``room`` for it
        (JSON bytes; None: no bound)."""
        keys = ("ok", "time_s", "output", "limit", "signal", "skipped", "cached", "artifact")
        out = [{k: b.get(k) for k in keys} for b in self.done]
        for b in out:
            if room is not None and b["artifact"] is not None:
                size = _json_len(b["artifact"])
                if size > room:
                    b["artifact"] = None  # not cached on the host: a fresh compile next time
                else:
                    room -= size
        return out


def _write_sources(d, files):
    """Write a build's files into folder d; None, or why one could not be written (the
    program's own doing, its build's failure: a Java class named with 300 letters is a
    file name too long, and that OSError out of the runner was a ``sandbox_error``)."""
    for name, text in (files or {}).items():
        try:
            # a lone surrogate cannot be UTF-8: written as U+FFFD, the compiler's to judge
            with open(os.path.join(d, os.path.basename(name)), "w", encoding="utf-8",
                      errors="replace") as f:  # fmt: skip
                f.write(text)
        except OSError as exc:
            return f"cannot write {os.path.basename(name)[:64]!r}: {exc.strerror}"
    return None


def _close(folder):
    """``folder`` made inaccessible (mode 0) to the programs of other builds, and its change
    time after that (which only a change of the folder itself moves again); None when it is
    missing."""
    if not folder:
        return None
    try:
        os.chmod(folder, 0)
        return os.lstat(folder).st_ctime_ns
    except OSError:
        return None


def _reopen(folder, closed):
    """Whether ``folder`` is as ``_close`` left it (mode 0, the same change time); it is
    opened (0o755) for its test either way."""
    if closed is None:
        return True
    try:
        st = os.lstat(folder)
        intact = stat_module.S_IMODE(st.st_mode) == 0 and st.st_ctime_ns == closed
        os.chmod(folder, 0o755)
    except OSError:
        return False
    return intact


def _fingerprint(folder):
    """What changes when anything in ``folder`` is written, added, removed, renamed or has
    its mode changed: each entry's path, mode, inode, size and modification and change
    times (a program can set a file's modification time back, never its change time), read
    without following links or reading contents (a test's cost is a few ``lstat`` calls)."""
    out = []
    todo = [(folder, "")]
    while todo:
        path, rel = todo.pop()
        try:
            st = os.lstat(path)
        except OSError as exc:
            out.append((rel, "error", exc.errno))
            continue
        if rel:
            out.append((rel, st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        else:  # its mode and change time move with ``_close`` and ``_reopen``
            out.append((rel, st.st_ino, st.st_mtime_ns))
        if not stat_module.S_ISDIR(st.st_mode) or len(out) > 100_000:
            continue
        try:
            names = sorted(os.listdir(path))
        except OSError as exc:
            out.append((rel, "unlistable", exc.errno))
            continue
        todo.extend((os.path.join(path, n), f"{rel}/{n}") for n in reversed(names))
    return out


def _with_files(folder, test, run):
    """``run()`` with the test's ``files`` (``{name: base64}``) written in ``folder``, and
    deleted after it; a file that cannot be written (a full /tmp) is reported instead."""
    written = []
    try:
        try:
            for name, data in (test.get("files") or {}).items():
                path = os.path.join(folder, os.path.basename(str(name)))
                written.append(path)
                with open(path, "wb") as f:
                    f.write(base64.b64decode(data, validate=True))
        except (OSError, ValueError, TypeError) as exc:  # the host decides whose fault
            return {"files_error": f"{type(exc).__name__}: {exc}"[:200], "clean": True,
                    "exit_code": None, "limit": None, "time_s": 0.0}  # fmt: skip
        return run()
    finally:
        for path in written:
            try:
                os.unlink(path)
            except OSError:
                pass


def _run_checker(job, test, index):
    """A Python program run with ``args`` and ``files`` (a problem's checker): forked from
    this warm runner like any Python test, in a folder of its own that holds its files."""
    folder = f"/tmp/.check-{index}-{os.urandom(6).hex()}"
    os.mkdir(folder, 0o755)
    try:
        return _with_files(folder, test, lambda: _run_stdio(job, dict(test, cwd=folder)))
    finally:
        try:
            os.rmdir(folder)
        except OSError:
            pass  # left for the wipe after the sample


MAX_ARTIFACT_BYTES = 32 << 20
"""The bytes a packed build sends, at most (the files' bytes, compressed where they are more
than this)."""
MAX_UNPACKED_BYTES = 96 << 20
"""The bytes a packed build's files hold, at most: a cell's /tmp (128 MB) holds them and the
program's own files."""
ZLIB_MODE = 0o100000
"""A packed file's mode bit: its bytes are zlib's. A build whose files hold more than
``MAX_ARTIFACT_BYTES`` is sent compressed: a Rust program's table initialised to a
constant (``static mut DIST: [i64; 5_000_000] = [INF; 5_000_000]``) is 40 MB of ``.data``
in its binary, which plain ``rustc`` builds and runs, and whose build was refused."""


MAX_PACK_DEPTH = 64
"""Folders a packed build may nest (a Java package is a folder per name: 1,100 of them made
``os.walk`` and ``shutil.rmtree`` recurse past Python's limit, and the runner's
``RecursionError`` was a ``sandbox_error``). A deeper build is not packed (its build fails,
as one too large)."""


def _pack(d):
    """A build folder's files as ``[[relative path, mode, base64], ...]``, compressed where
    they hold more than ``MAX_ARTIFACT_BYTES`` (``ZLIB_MODE``); None when too big or too deep
    (walked without recursion)."""
    out = _pack_files(d, False)
    return _pack_files(d, True) if out is _TOO_BIG else out


_TOO_BIG = object()


def _pack_files(d, squeeze):
    out, total, raw = [], 0, 0
    stack = [(d, 0)]
    while stack:
        top, depth = stack.pop()
        with os.scandir(top) as entries:
            for entry in entries:
                path = entry.path
                if entry.is_dir(follow_symlinks=False):
                    if depth + 1 > MAX_PACK_DEPTH:
                        return None
                    stack.append((path, depth + 1))
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
                with open(path, "rb") as f:
                    data = f.read((MAX_UNPACKED_BYTES if squeeze else MAX_ARTIFACT_BYTES) + 1)
                mode = os.stat(path).st_mode & 0o755
                if squeeze:
                    raw += len(data)
                    if raw > MAX_UNPACKED_BYTES:
                        return None
                    data = zlib.compress(data, 1)
                    mode |= ZLIB_MODE
                total += len(data)
                if total > MAX_ARTIFACT_BYTES:
                    return None if squeeze else _TOO_BIG
                rel = os.path.relpath(path, d)
                out.append([rel, mode, base64.b64encode(data).decode("ascii")])
    return out


def _unpack(d, files):
    """Write a packed build into folder d; False when the pack is not one we made."""
    try:
        left = MAX_UNPACKED_BYTES
        for rel, mode, data in files:
            parts = str(rel).split("/")
            if str(rel).startswith("/") or ".." in parts or len(parts) > MAX_PACK_DEPTH + 1:
                return False
            folder = d
            for part in parts[:-1]:  # no os.makedirs: it recurses once per level
                folder = os.path.join(folder, part)
                if not os.path.isdir(folder):
                    os.mkdir(folder, 0o755)
            path = os.path.join(folder, parts[-1])
            raw = base64.b64decode(data)
            if int(mode) & ZLIB_MODE:
                z = zlib.decompressobj()
                raw = z.decompress(raw, left + 1)
                if not z.eof or z.unconsumed_tail or len(raw) > left:
                    return False
            left -= len(raw)
            with open(path, "wb") as f:
                f.write(raw)
            os.chmod(path, int(mode) & 0o755)
    except (OSError, ValueError, TypeError, zlib.error):
        return False
    return True


UNPACKABLE = "the build's files are too large or nested too deep to be returned"


def _remove_tree(path):
    """Remove a folder and everything in it, without recursion (``_wipe``)."""
    try:
        # a build's folder is closed (mode 0) once built (``_close``), and the runner, its
        # owner without CAP_DAC_OVERRIDE, could not open it to empty it: each build of a
        # compile cell left its artifact in /tmp (0.9 MB a Rust test), until the 128 MB
        # tmpfs was full and a later build's link failed there (ENOSPC, a compile_error)
        os.chmod(path, 0o700)
    except OSError:
        pass
    _wipe(path)
    try:
        os.rmdir(path)
    except OSError:
        pass


# ================================================================ the compile cell
MAX_SERVER_COMPILES = 1024
"""Compiles a warm server serves before it is started afresh (bounds what it accumulates)."""
SERVER_START_S = 120.0
"""Wall seconds a warm server may take to start and warm up (a JVM on a loaded host)."""


class _CompileServer:
    """A warm compiler (javac in one JVM; TypeScript or node's parser in one node) that the
    runner of a *compile cell* keeps across requests. A compile cell runs compilers only,
    never a program: a cell that runs programs kills every process but the runner after
    each test, and a server beside a program (same uid) could be signalled or traced by it,
    so warm servers live apart. The server is started under the compile limits (address
    space, processes, file size); each request has its own wall clock, and a request that
    runs out of it, or a server that dies, ends the server (a fresh one serves the next).

    ``spec``: ``{"files": {name: text}, "start": argv, "env", "memory_mb", "max_procs"}``;
    ``procs``: the request's own process limit, which wins when higher, as it does for a
    build's compiler (docker: the container's pids cgroup bounds the cell, and RLIMIT_NPROC
    would count every process of the host's sandbox uid, so a JVM or node beside busy
    neighbours could not start its threads).
    Protocol, one line each way: ``dir TAB mode TAB file...`` in, ``ok`` or ``error TAB
    diagnostics`` (backslashes and newlines escaped) out."""

    def __init__(self, spec, key, procs=0):
        self.key = key
        self.compiles = 0
        d = self.dir = f"/tmp/.server-{os.urandom(6).hex()}"
        os.mkdir(d, 0o755)
        for name, text in (spec.get("files") or {}).items():
            with open(os.path.join(d, os.path.basename(name)), "w", encoding="utf-8") as f:
                f.write(text)
        limits = {"time_s": 24 * 3600, "memory_mb": int(spec.get("memory_mb", 2048)),
                  "max_procs": max(int(procs), int(spec.get("max_procs", 128))),
                  "max_file_mb": 128}  # fmt: skip
        r_req, self.w_req = os.pipe()
        self.r_ans, w_ans = os.pipe()
        env = dict(os.environ)
        env.update(spec.get("env") or {})
        argv = [str(a) for a in spec["start"]]
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()
                null = os.open("/dev/null", os.O_RDWR)
                os.dup2(r_req, 0)
                os.dup2(w_ans, 1)
                os.dup2(null, 2)
                os.closerange(3, 65536)
                _limits(limits)
                os.chdir(d)
                os.execvpe(argv[0], argv, env)
            except BaseException:
                pass
            os._exit(127)
        self.pid = pid
        os.close(r_req)
        os.close(w_ans)
        self.buf = b""
        # its start (a JVM, loading TypeScript and parsing the lib files) is not any
        # sample's compile time: the server says "ready" when it is warm
        if self._line(float(spec.get("start_s", SERVER_START_S))) != "ready":
            self.kill()
            raise RuntimeError("the warm compiler did not start")

    def _line(self, time_s):
        """The server's next answer line, or None (deadline passed, or it died)."""
        deadline = time.perf_counter() + time_s
        while b"\n" not in self.buf:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            try:
                r, _, _ = select.select([self.r_ans], [], [], left)
                chunk = os.read(self.r_ans, 1 << 16) if r else b""
            except OSError:
                return None
            if r and not chunk:
                return None
            self.buf += chunk
            if len(self.buf) > 1 << 22:
                return None
        answer, _, self.buf = self.buf.partition(b"\n")
        return answer.decode("utf-8", "replace")

    def compile(self, d, mode, files, time_s):
        """(ok, diagnostics), ok None when the compiler crashed (the server has ended), or
        None when the server missed its deadline or died (it is then killed)."""
        line = "\t".join([d, mode, *files]) + "\n"
        try:
            os.write(self.w_req, line.encode())
        except OSError:
            text = None
        else:
            text = self._line(time_s)
        if text is None:
            self.kill()
            return None
        self.compiles += 1
        if text == "ok":
            return True, ""
        kind, _, diag = text.partition("\t")
        diag = diag.replace("\\\\", "\0").replace("\\n", "\n").replace("\0", "\\")
        if kind == "crash":  # the compiler crashed; the server has ended (its state is lost)
            self.kill()
            return None, diag
        return False, diag

    def alive(self):
        try:
            wpid, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return wpid == 0

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        for fd in (self.w_req, self.r_ans):
            try:
                os.close(fd)
            except OSError:
                pass
        self.w_req = self.r_ans = -1


_SERVER = None


def _compile(job):
    """A compile cell's request: each build compiled by the warm server the request names
    (``server``; a build's ``serve`` is the server's mode), or by its own ``compile``
    command when it has no ``serve`` (as ``_Builds`` would in the cell that runs it), in
    its own folder, then packed (the host hands the pack to a cell that runs it) and
    removed."""

    global _SERVER
    spec = job.get("server") or {}
    key = json.dumps(spec, sort_keys=True)
    reports = []
    for i, build in enumerate(job.get("builds") or []):
        if not build.get("serve"):
            one = {
                "builds": [dict(build, return_artifact=True)],
                "max_procs": job.get("max_procs", 32),
            }
            done = _Builds(one).done[0]
            packed = done.pop("artifact", None)
            _remove_tree(done.pop("dir"))
            report = {k: done.get(k) for k in ("ok", "output", "limit", "signal", "time_s")}
            if report["ok"]:
                report["artifact"] = packed
                report["ok"] = packed is not None
                if packed is None:
                    report["output"] = UNPACKABLE
            reports.append(report)
            continue
        if _SERVER is not None and (
            _SERVER.key != key or not _SERVER.alive() or _SERVER.compiles >= MAX_SERVER_COMPILES
        ):
            _SERVER.kill()
            _SERVER = None
        d = f"/tmp/.build-{i}-{os.urandom(6).hex()}"
        os.mkdir(d, 0o755)
        names = [os.path.basename(name) for name in build.get("files") or {}]
        unwritable = _write_sources(d, build.get("files"))
        if unwritable is not None:
            _remove_tree(d)
            reports.append({"ok": False, "output": unwritable, "limit": None, "signal": None,
                            "time_s": 0.0})  # fmt: skip
            continue
        t0 = time.perf_counter()
        report = {"ok": False, "output": "", "limit": None, "signal": None}
        # a compiler that crashes may have been left broken by an earlier build: the build
        # is compiled again once by a fresh server, and a second crash is its own
        for _attempt in range(2):
            if _SERVER is None:
                _SERVER = _CompileServer(spec, key, int(job.get("max_procs", 0)))
            answer = _SERVER.compile(d, str(build["serve"]), names, float(build.get("time_s", 60)))
            if answer is None:
                _SERVER = None
                report["limit"] = "timeout"
            elif answer[0] is None:
                _SERVER = None
                report["output"] = "the compiler crashed: " + answer[1][-4000:]
                _clear(d, keep=set(names))  # the crashed attempt's output
                continue
            else:
                report["ok"], report["output"] = answer[0], answer[1][-4000:]
            break
        report["time_s"] = round(time.perf_counter() - t0, 6)
        for name in build.get("remove") or ():
            try:
                os.unlink(os.path.join(d, os.path.basename(name)))
            except OSError:
                pass
        if report["ok"]:
            report["artifact"] = _pack(d)
            report["ok"] = report["artifact"] is not None
            if report["artifact"] is None:
                report["output"] = UNPACKABLE
        _remove_tree(d)
        reports.append(report)
    # anything else in /tmp (a server killed at its limits may leave files) goes; the
    # server's own folder stays
    keep = {os.path.basename(_SERVER.dir)} if _SERVER is not None else set()
    _clear("/tmp", keep=keep)
    left = set(os.listdir("/tmp")) - keep  # what could not be removed: the host recycles the cell
    room = MAX_ANSWER_BYTES  # the packs together must fit in one answer
    for report in reports:
        if report.get("artifact") is not None:
            size = _json_len(report["artifact"])
            if size > room:
                report.update(ok=False, artifact=None,
                              output="the builds are too large to return together")  # fmt: skip
            else:
                room -= size
    return {"ok": True, "builds": reports, "anomaly": bool(left)}


def _clear(folder, keep):
    """Remove every entry of ``folder`` whose name is not in ``keep`` (folders whole)."""
    for name in set(os.listdir(folder)) - keep:
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            _remove_tree(path)
        else:
            try:
                os.unlink(path)
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


def _failed(report):
    return (
        bool(
            report.get("limit") or report.get("signal") or report.get("exit_code") not in (0, None)
        )
        or report.get("ready") is False
        or bool(report.get("compile_error"))
    )


def _sample(job, ctl_in, ctl_out, ctl_buf):
    if job.get("numpy"):
        _ensure_numpy()
    _precompile(job)
    peer_fd = _received_fd() if job.get("peer") else -1
    try:
        return _run_sample(job, ctl_in, ctl_out, ctl_buf, peer_fd)
    finally:
        if peer_fd >= 0:
            os.close(peer_fd)


def _run_sample(job, ctl_in, ctl_out, ctl_buf, peer_fd):
    reports = []
    callee = _Callee(job)
    kept_clean = True
    used = 0  # JSON bytes of the reports so far (MAX_ANSWER_BYTES)
    builds = _Builds(job) if job.get("builds") else None
    for index, test in enumerate(job["tests"]):
        stop = False
        kind = test["kind"]
        if kind != "calls":
            kept_clean &= callee.close()
        if kind == "stdio" and builds is not None and "build" in test:
            report = builds.run(job, test)
        elif kind == "stdio" and test.get("files") is not None:
            report = _run_checker(job, test, index)
        elif kind == "stdio":
            report = _run_stdio(job, test)
        elif kind == "calls":
            report = callee.run(test)
        elif kind == "serve":
            report, stop = _run_served(job, test, index, ctl_in, ctl_out, ctl_buf, peer_fd)
        else:
            report = {"error": "unknown test kind", "clean": True, "exit_code": None, "limit": None}
        report, size, fit = _within_answer(report, used)
        used += size
        reports.append(report)
        if not fit or not report.get("clean", True):
            break
        if stop or (_failed(report) and job.get("stop_on_first_failure")):
            break
        if report.get("limit") == "timeout" and job.get("stop_after_timeout"):
            break  # all-or-nothing: one timeout decides, and the rest would time out too
    kept_clean &= callee.close()
    clean = _wipe("/tmp") & _wipe("/dev/shm") & _wipe_ipc() & _reset_modes()
    anomaly = not clean or not kept_clean or any(not r.get("clean", True) for r in reports)
    answer = {"ok": True, "tests": reports, "anomaly": anomaly}
    if builds is not None:
        answer["builds"] = builds.summary(MAX_ANSWER_BYTES - used)
    return answer


MAX_ANSWER_BYTES = 224 << 20
"""What one answer's JSON may hold of a sample's outputs and packed artifacts: the host reads
frames of up to 256 MiB (``cell.MAX_FRAME_BYTES``), and each test's own caps do not bound
the sum. A program wrote 16 MiB of invalid UTF-8 on stdout in each of four tests (each
within its cap): each byte is U+FFFD, six bytes of JSON, and the 400 MB answer was the
host's ``FrameError``, a ``sandbox_error`` of the program's making. The test whose report
would pass the bound keeps none of its output and is ``output_limit``; the sample stops
there. An artifact that would pass it is not returned (the host's cache misses)."""
_BIG_FIELDS = ("stdout", "pass_channel", "stderr_tail", "replies")


def _json_len(obj):
    """The length of ``obj`` as ``send_json`` writes it."""
    return len(json.dumps(obj, separators=(",", ":")))


def _within_answer(report, used):
    """(report, its JSON length, whether it fit): a report that would take the answer past
    ``MAX_ANSWER_BYTES`` loses its outputs and becomes ``output_limit``."""
    size = _json_len(report)
    if used + size <= MAX_ANSWER_BYTES:
        return report, size, True
    report = dict(report)
    for key in _BIG_FIELDS:
        if key in report:
            report[key] = [] if isinstance(report[key], list) else ""
    report["limit"] = report.get("limit") or "output_limit"
    return report, _json_len(report), False


# ================================================================ the judge session
MAX_JUDGE_SESSIONS = 256


def _judge_child(job, fd):
    """The judge's child: runs the tests of the sessions of one problem, in fresh namespaces.

    ``fd`` is its control socket to the runner (frames both ways; the peer socket of each
    session arrives on it too). It never runs candidate code; it lives until the runner
    kills it (another problem, a timeout, a death, or MAX_JUDGE_SESSIONS sessions)."""
    try:
        # CPU time accumulates across sessions: the runner's wall clock bounds each test
        _limits({**job, "time_s": 24 * 3600})
        ctl = socket.socket(fileno=fd)
        judge = Judge(fd, fd, {}, -1)
        while True:
            frame = read_frame(fd)
            if frame is None:
                break
            kind, payload = frame
            if kind != b"J":
                continue  # a late reply of a finished test
            msg = json.loads(payload)
            op = msg.get("op")
            if op == "session":
                if msg.get("peer"):
                    _, fds, _, _ = socket.recv_fds(ctl, 16, 1)
                    os.dup2(fds[0], PEER_FD)
                    os.close(fds[0])
                    judge.set_peer(PEER_FD)
                continue
            if op == "end_session":
                judge.set_peer(-1)
                write_frame(fd, b"S", b"")
                continue
            if op != "run":
                continue
            i = int(msg["test"])
            test = job["tests"][i]
            judge.drain_peer()
            judge.reset()
            t0 = time.perf_counter()
            verdict, detail = judge.run(test["code"], job.get("setup"), test.get("entry", ()))
            out = {"ev": "verdict", "test": i, "verdict": verdict, "detail": str(detail)[:300],
                   "calls": judge.calls, "time_s": round(time.perf_counter() - t0, 6)}  # fmt: skip
            write_frame(fd, b"V", json.dumps(out).encode())
    except BaseException:
        os._exit(1)
    os._exit(0)


class _JudgeProcess:
    """The runner's handle on its judge child, kept across the sessions of one problem."""

    def __init__(self, job):
        self.key = job.get("key")
        self.sessions = 0
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()
                os.dup2(theirs.fileno(), 3)
                os.closerange(4, 65536)
            except BaseException:
                os._exit(120)
            _judge_child(job, 3)
            os._exit(121)
        theirs.close()
        self.pid = pid
        self.fd = self.sock.fileno()
        self.buf = FrameBuffer()
        self.alive = True

    def reusable_for(self, job):
        if not self.alive or job.get("key") is None or job.get("key") != self.key:
            return False
        if self.sessions >= MAX_JUDGE_SESSIONS:
            return False
        try:
            wpid, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            wpid = self.pid
        return wpid == 0

    def send(self, kind, payload):
        write_frame(self.fd, kind, payload)

    def kill(self):
        self.alive = False
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        self.sock.close()


_JUDGE_PROCESS = None


def _judge(job, ctl_in, ctl_out, ctl_buf):
    """A judge session: the judge child runs each test the host asks for; frames are relayed.

    The child is kept for the next session of the same problem (``key``): a fresh process
    per sample would pay its fork and first page faults each time. Anything unusual (a
    timeout, a death, a process left behind) ends it."""
    global _JUDGE_PROCESS
    if job.get("numpy"):
        _ensure_numpy()
    peer_fd = _received_fd() if job.get("peer") else -1
    child = _JUDGE_PROCESS
    if child is None or not child.reusable_for(job):
        if child is not None:
            child.kill()
        child = _JUDGE_PROCESS = _JudgeProcess(job)
    child.sessions += 1
    child.send(b"J", dumps({"op": "session", "peer": peer_fd >= 0}))
    if peer_fd >= 0:
        socket.send_fds(child.sock, [b"F"], [peer_fd])
        os.close(peer_fd)
    running = None
    deadline = None
    per_test = float(job.get("time_s", 6))
    send_json(ctl_out, {"ev": "judge_ready"})
    keep = True
    while True:
        rlist = [ctl_in] + ([child.fd] if child.alive else [])
        timeout = 0.05 if running is not None else 1.0
        r, _, _ = select.select(rlist, [], [], timeout)
        if child.alive and child.fd in r:
            try:
                chunk = os.read(child.fd, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                child.alive = False
            else:
                child.buf.feed(chunk)
                for kind, payload in child.buf.frames():
                    if kind == b"P":
                        write_frame(ctl_out, b"P", payload)
                    elif kind == b"V":
                        running = None
                        write_frame(ctl_out, b"J", payload)
        if running is not None and (time.perf_counter() > deadline or not child.alive):
            verdict = "timeout" if child.alive else "judge_error"
            detail = "timeout" if child.alive else "the judge died"
            send_json(
                ctl_out, {"ev": "verdict", "test": running, "verdict": verdict, "detail": detail}
            )
            running = None
            keep = False
            child.kill()
        if ctl_in in r:
            chunk = os.read(ctl_in, 1 << 20)
            if not chunk:
                child.kill()
                sys.exit(0)
            ctl_buf.feed(chunk)
            closing = False
            for kind, payload in ctl_buf.frames():
                if kind == b"P":
                    if child.alive:
                        child.send(b"P", payload)
                    continue
                msg = json.loads(payload)
                op = msg.get("op")
                if op == "run":
                    running = int(msg.get("test", 0))
                    deadline = time.perf_counter() + per_test + 1.0
                    if child.alive:
                        child.send(b"J", payload)
                elif op == "gone":
                    if child.alive:
                        child.send(b"J", payload)
                elif op == "close":
                    closing = True
            if closing:
                break
    if keep and child.alive and not _end_session(child):
        keep = False
    if not keep or not child.alive:
        child.kill()
        _JUDGE_PROCESS = None
        clean = _kill_all()
    else:
        clean = _only_left(child.pid) or _kill_all_and_forget()
    _wipe("/tmp")
    return {"ok": True, "clean": clean}


def _end_session(child):
    """Tell the judge child the session is over; True once it has said so (within 2 s)."""
    try:
        child.send(b"J", dumps({"op": "end_session"}))
    except OSError:
        return False
    deadline = time.perf_counter() + 2.0
    while time.perf_counter() < deadline:
        r, _, _ = select.select([child.fd], [], [], 0.05)
        if not r:
            continue
        try:
            chunk = os.read(child.fd, 1 << 20)
        except OSError:
            return False
        if not chunk:
            return False
        child.buf.feed(chunk)
        if any(kind == b"S" for kind, _ in child.buf.frames()):
            return True
    return False


def _only_left(pid):
    """True when the judge child is the only process besides the runner."""
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, _SELF_PID, pid)]
    return not others


def _kill_all_and_forget():
    """Processes besides the judge child were left behind: end everything, child included."""
    global _JUDGE_PROCESS
    if _JUDGE_PROCESS is not None:
        _JUDGE_PROCESS.kill()
        _JUDGE_PROCESS = None
    _kill_all()
    return False


_PRCTL = None
_KEYS_DENIED = False
_MODES = {}
_FD_SOCK = None


# The kernel's key retention service keeps a key linked into the user keyring (``@u``) or
# the user session keyring (``@us``) for as long as the uid exists in the user namespace,
# whatever process made it: a sample's ``add_key`` was read back by the next sample of the
# cell (a red team's honest sample left its answers there and a later one printed them).
# No program of code RL needs keys, so the cell's init refuses the three syscalls for
# itself and everything it starts (docker's default seccomp profile refuses them too).
_KEY_SYSCALLS = {
    # machine: ((audit arch, (add_key, request_key, keyctl)), ...), compat ABIs included
    "x86_64": (
        (0xC000003E, (248, 249, 250, 0x40000000 | 248, 0x40000000 | 249, 0x40000000 | 250)),
        (0x40000003, (286, 287, 288)),
    ),
    "aarch64": ((0xC00000B7, (217, 218, 219)), (0x40000028, (309, 310, 311))),
}


def _deny_keyrings():
    """Install a seccomp filter answering EPERM to add_key, request_key and keyctl in this
    process and every process it starts; True when it is in place."""
    rules = _KEY_SYSCALLS.get(os.uname().machine)
    if rules is None:
        return False
    import ctypes

    code = [(_BPF_LD, 4, None, None)]  # seccomp_data.arch
    for j, (arch, numbers) in enumerate(rules):
        code.append((f"arch{j}", _BPF_JEQ, arch, None, f"arch{j + 1}"))
        code.append((_BPF_LD, 0, None, None))  # seccomp_data.nr
        code += [(_BPF_JEQ, nr, "deny", None) for nr in numbers]
        code.append((_BPF_RET, _RET_ALLOW, None, None))
    code.append((f"arch{len(rules)}", _BPF_RET, _RET_ALLOW, None, None))
    code.append(("deny", _BPF_RET, _RET_ERRNO | _EPERM, None, None))
    return _install_seccomp(ctypes.CDLL(None, use_errno=True), _bpf(code))


def _received_fd():
    """The next socket the host passed on the fd channel (a peer, for a judged sample)."""
    if _FD_SOCK is None:
        raise FrameError("no fd channel")
    _, fds, _, _ = socket.recv_fds(_FD_SOCK, 16, 1)
    if len(fds) != 1:
        raise FrameError("expected one descriptor")
    return fds[0]


def main():
    import fcntl

    global _PRCTL

    global _FD_SOCK
    ctl_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 100)
    ctl_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 100)
    if "--fd-channel" in sys.argv:  # where the host passes peer sockets (SCM_RIGHTS)
        given = int(sys.argv[sys.argv.index("--fd-channel") + 1])
        _FD_SOCK = socket.socket(fileno=fcntl.fcntl(given, fcntl.F_DUPFD_CLOEXEC, 100))
        os.close(given)
    null = os.open("/dev/null", os.O_RDWR)
    low = (0, 1, 2, CALL_R, CALL_W, PEER_FD)  # kept taken, so test pipes never land on them
    for fd in low:
        if fd != null:
            os.dup2(null, fd)
    if null not in low:
        os.close(null)
    try:  # non-dumpable: the program cannot open /proc/<runner>/fd or ptrace the runner
        import ctypes

        _PRCTL = ctypes.CDLL(None).prctl
        _PRCTL(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
        _ctypes_kit()
    except Exception:
        pass
    global _KEYS_DENIED
    try:
        _KEYS_DENIED = _deny_keyrings()
    except Exception:
        _KEYS_DENIED = False
    for path in ("/tmp", "/dev/shm"):  # what _reset_modes restores after each sample
        try:
            _MODES[path] = os.stat(path).st_mode & 0o7777
        except OSError:
            pass
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    sys.set_int_max_str_digits(0)
    # the host's frames may carry packed builds (up to ``MAX_ANSWER_BYTES`` of them, the
    # pipeline's bound): a request of two 30 MB binaries was over 64 MiB, the runner died of
    # it, and the sample was a ``sandbox_error``. The host is trusted; children's frames
    # keep the smaller bound.
    ctl_buf = FrameBuffer(MAX_HOST_FRAME_BYTES)
    while True:
        frames = ctl_buf.frames()
        if not frames:
            chunk = os.read(ctl_in, 1 << 20)
            if not chunk:
                return
            ctl_buf.feed(chunk)
            continue
        for kind, payload in frames:
            if kind != b"J":
                continue  # a stray peer frame of a finished test
            req = json.loads(payload)
            op = req.get("op")
            try:
                if op == "ping":
                    resp = {
                        "ok": True,
                        "python": sys.version.split()[0],
                        "numpy": _np is not None,
                        "keyrings_denied": _KEYS_DENIED,
                    }
                elif op == "sample":
                    resp = _sample(req, ctl_in, ctl_out, ctl_buf)
                elif op == "judge":
                    resp = _judge(req, ctl_in, ctl_out, ctl_buf)
                elif op == "compile":
                    resp = _compile(req)
                elif op in ("end", "gone", "close", "run"):
                    continue  # late control for a test or session that is over
                else:
                    resp = {"ok": False, "error": f"unknown op {op!r}"}
            except Exception as exc:  # a runner bug: report it, the host recycles the cell
                resp = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            send_json(ctl_out, resp)


if __name__ == "__main__":
    main()
