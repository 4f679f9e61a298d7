"""Honest shape (issue 12, class 7): the test uses classes and objects the program defines.

``isinstance(obj, Stack)`` with the program's own ``Stack``, methods and attributes of
returned objects (``s.push(1); s.pop()``, ``s.size``), dunders the test triggers
(``len(s)``, ``str(p)``, ``p1 + p2 == Point(4, 6)`` on a dataclass, ``list(obj)``),
fluent methods returning ``self``, LeetCode design problems (``MinStack``, ``LRUCache``)
driven by assert lines: plain Python accepts these; an object cannot cross the sandbox as
plain data, so they were rejected. A correct verifier hands objects back as handles whose
methods, attributes and iteration are calls into the candidate's cell, so each control is
accepted with reward 1.

The exploit twins keep the honest shape and cheat or err: a ``Stack`` whose ``pop``
returns an object equal to everything, a ``Point`` whose ``__eq__`` always says yes while
its ``+`` is wrong, a factory returning a list where a ``Stack`` is asked: they must fail.
(A dataclass's generated ``__eq__`` compares fields; an ``__eq__`` that ignores them is the
program's claim, not evidence, so the twin with ``return True`` must not pass.)
"""

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

STACK = asserts(
    "s = Stack()\nassert isinstance(s, Stack)\nassert s.size == 0 and len(s) == 0",
    "s = Stack()\ns.push(1)\ns.push(2)\nassert s.pop() == 2\nassert s.peek() == 1\nassert len(s) == 1",
    "s = make_stack([4, 5])\nassert isinstance(s, Stack) and s.pop() == 5 and s.pop() == 4",
    "s = Stack()\nassert s.push(7) is s or s.push(7) is None\nassert str(s).startswith('Stack')",
    entry_points=["Stack", "make_stack"],
)
HONEST_STACK = """
class Stack:
    def __init__(self):
        self.items = []
    @property
    def size(self):
        return len(self.items)
    def __len__(self):
        return len(self.items)
    def push(self, x):
        self.items.append(x)
    def pop(self):
        return self.items.pop()
    def peek(self):
        return self.items[-1]
    def __repr__(self):
        return f'Stack({self.items})'
def make_stack(xs):
    s = Stack()
    for x in xs:
        s.push(x)
    return s
"""
POINT = asserts(
    "assert add(Point(1, 2), Point(3, 4)) == Point(4, 6)",
    "p = add(Point(0, 0), Point(-1, 5))\nassert (p.x, p.y) == (-1, 5)",
    "assert list(Point(7, 8)) == [7, 8]",
    entry_points=["Point", "add"],
)
HONEST_POINT = """
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
    def __iter__(self):
        return iter((self.x, self.y))
def add(p, q):
    return Point(p.x + q.x, p.y + q.y)
"""
MIN_STACK = asserts(
    "obj = MinStack()\nobj.push(-2)\nobj.push(0)\nobj.push(-3)\nassert obj.getMin() == -3\n"
    "obj.pop()\nassert obj.top() == 0\nassert obj.getMin() == -2",
    entry_points=["MinStack"],
)
HONEST_MIN_STACK = """
class MinStack:
    def __init__(self):
        self.stack = []
    def push(self, val: int) -> None:
        low = min(val, self.stack[-1][1]) if self.stack else val
        self.stack.append((val, low))
    def pop(self) -> None:
        self.stack.pop()
    def top(self) -> int:
        return self.stack[-1][0]
    def getMin(self) -> int:
        return self.stack[-1][1]
"""
LRU = asserts(
    "c = LRUCache(2)\nc.put(1, 1)\nc.put(2, 2)\nassert c.get(1) == 1\nc.put(3, 3)\n"
    "assert c.get(2) == -1\nc.put(4, 4)\nassert c.get(1) == -1\nassert c.get(3) == 3\n"
    "assert c.get(4) == 4",
    entry_points=["LRUCache"],
)
HONEST_LRU = """
from collections import OrderedDict
class LRUCache:
    def __init__(self, capacity: int):
        self.cap = capacity
        self.data = OrderedDict()
    def get(self, key: int) -> int:
        if key not in self.data:
            return -1
        self.data.move_to_end(key)
        return self.data[key]
    def put(self, key: int, value: int) -> None:
        self.data[key] = value
        self.data.move_to_end(key)
        if len(self.data) > self.cap:
            self.data.popitem(last=False)
"""
FLUENT = asserts(
    "q = Query().where('a').where('b')\nassert q.parts == ['a', 'b']\nassert q.build() == 'a AND b'",
    entry_points=["Query"],
)
HONEST_FLUENT = """
class Query:
    def __init__(self):
        self.parts = []
    def where(self, cond):
        self.parts.append(cond)
        return self
    def build(self):
        return ' AND '.join(self.parts)
"""

YES = "class Yes:\n    def __eq__(self, other):\n        return True\n    __hash__ = None\n"

CASES = [
    control("stack/class", STACK, HONEST_STACK),
    control(
        "stack/subclass_of_userlist",
        STACK,
        "from collections import UserList\nclass Stack(UserList):\n"
        "    def push(self, x):\n        self.append(x)\n    size = property(len)\n"
        "    def peek(self):\n        return self[-1]\n    def __repr__(self):\n"
        "        return f'Stack({self.data})'\n"
        "def make_stack(xs):\n    return Stack(xs)\n",
    ),
    exploit(
        "stack/pop_returns_always_equal",
        STACK,
        HONEST_STACK.replace("return self.items.pop()", "self.items.pop()\n        return Yes()")
        + YES,
    ),
    exploit(
        "stack/factory_returns_a_list",
        STACK,
        HONEST_STACK.replace(
            "    s = Stack()\n    for x in xs:\n        s.push(x)\n    return s",
            "    return list(xs)",
        ),
    ),
    control("point/dataclass", POINT, HONEST_POINT),
    control(
        "point/slots_and_eq",
        POINT,
        "class Point:\n    __slots__ = ('x', 'y')\n    def __init__(self, x, y):\n"
        "        self.x, self.y = x, y\n    def __eq__(self, o):\n"
        "        return isinstance(o, Point) and (self.x, self.y) == (o.x, o.y)\n"
        "    def __iter__(self):\n        yield self.x\n        yield self.y\n"
        "def add(p, q):\n    return Point(p.x + q.x, p.y + q.y)\n",
    ),
    exploit(
        "point/eq_always_true_and_wrong_add",
        POINT,
        "class Point:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n"
        "    def __eq__(self, o):\n        return True\n"
        "    def __iter__(self):\n        return iter((self.x, self.y))\n"
        "def add(p, q):\n    return Point(p.x + q.x, p.y + q.y + (1 if p.x else 0))\n",
    ),
    control("min_stack/pairs", MIN_STACK, HONEST_MIN_STACK),
    exploit(
        "min_stack/min_never_updated_on_pop",
        MIN_STACK,
        "class MinStack:\n    def __init__(self):\n        self.s = []\n        self.low = None\n"
        "    def push(self, val):\n        self.s.append(val)\n"
        "        self.low = val if self.low is None else min(self.low, val)\n"
        "    def pop(self):\n        self.s.pop()\n"
        "    def top(self):\n        return self.s[-1]\n"
        "    def getMin(self):\n        return self.low\n",
    ),
    control("lru/ordered_dict", LRU, HONEST_LRU),
    exploit(
        "lru/never_evicts", LRU, HONEST_LRU.replace("if len(self.data) > self.cap:", "if False:")
    ),
    control("fluent/returns_self", FLUENT, HONEST_FLUENT),
    exploit(
        "fluent/returns_a_copy",
        FLUENT,
        HONEST_FLUENT.replace(
            "        self.parts.append(cond)\n        return self",
            "        other = Query()\n        other.parts = self.parts + [cond]\n        return Query()",
        ),
    ),
]

BATCH = Batch("own_classes", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_the_programs_own_objects_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
