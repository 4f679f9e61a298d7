"""Honest shape (issue 12, class 7): the test formats of the datasets we serve.

HumanEval's ``METADATA`` + ``def check(candidate): ...`` + ``check(fn)`` (with the
``import``s inside ``check``, a seeded ``random`` loop, and HumanEval/32's ``poly`` from
``setup_code``, which the program calls too); MBPP's assert lines; LeetCode's
``class Solution`` driven by asserts and by ``call`` tests with ``class_name``;
``ListNode``/``TreeNode`` and their builders from ``setup_code``, including a program
that defines its own identical ``ListNode`` and LeetCode 160, whose answer is a node
*identity* (``getIntersectionNode(a, b) is shared``); a program that prints a demo at
top level or under ``if __name__ == "__main__"``; HumanEval-X's Python ``def
check(inc)`` whose parameter bears the entry point's name. Each control is accepted with reward 1:
the setup code is the problem's, present for the program and for the judge alike.

The exploit twins are wrong programs under the same harnesses, and one that redefines
``poly`` so that the judge would accept any root if it used the program's ``poly``
(setup code is trusted: the judge must use its own): they must fail.
"""

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

HUMANEVAL = asserts(
    "METADATA = {'author': 'jt', 'dataset': 'test'}\n\n\ndef check(candidate):\n"
    "    assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3) == True\n"
    "    assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.05) == False\n"
    "    assert candidate([1.0, 2.0, 5.9, 4.0, 5.0], 0.95) == True\n"
    "    assert candidate([1.1, 2.2, 3.1, 4.1, 5.1], 0.5) == False\n"
    "    import random\n    rng = random.Random(7)\n    for _ in range(50):\n"
    "        xs = [rng.random() * 10 for _ in range(rng.randint(2, 8))]\n"
    "        t = rng.random()\n        s = sorted(xs)\n"
    "        want = any(b - a < t for a, b in zip(s, s[1:]))\n"
    "        assert candidate(xs, t) == want\n\n\ncheck(has_close_elements)\n",
    entry_points=["has_close_elements"],
)
HONEST_HUMANEVAL = (
    "from typing import List\n\n\ndef has_close_elements(numbers: List[float], threshold: float) -> bool:\n"
    "    for i, a in enumerate(numbers):\n        for j, b in enumerate(numbers):\n"
    "            if i != j and abs(a - b) < threshold:\n                return True\n    return False\n"
)
POLY_SETUP = (
    "import math\n\n\ndef poly(xs: list, x: float):\n"
    "    return sum([coeff * math.pow(x, i) for i, coeff in enumerate(xs)])\n"
)
POLY = asserts(
    "METADATA = {}\n\n\ndef check(candidate):\n    import math\n    import random\n"
    "    rng = random.Random(42)\n    import copy\n    for _ in range(100):\n"
    "        ncoeff = 2 * rng.randint(1, 4)\n        coeffs = []\n        for _ in range(ncoeff):\n"
    "            coeff = rng.randint(-10, 10)\n            if coeff == 0:\n                coeff = 1\n"
    "            coeffs.append(coeff)\n        solution = candidate(copy.deepcopy(coeffs))\n"
    "        assert math.fabs(poly(coeffs, solution)) < 1e-4\n\n\ncheck(find_zero)\n",
    setup_code=POLY_SETUP,
    entry_points=["find_zero"],
)
HONEST_POLY = (
    "def find_zero(xs: list):\n    begin, end = -1.0, 1.0\n"
    "    while poly(xs, begin) * poly(xs, end) > 0:\n        begin *= 2.0\n        end *= 2.0\n"
    "    while end - begin > 1e-10:\n        center = (begin + end) / 2.0\n"
    "        if poly(xs, center) * poly(xs, begin) > 0:\n            begin = center\n"
    "        else:\n            end = center\n    return begin\n"
)
MBPP = asserts(
    "assert similar_elements((3, 4, 5, 6), (5, 7, 4, 10)) == (4, 5)\n"
    "assert similar_elements((1, 2, 3, 4), (5, 4, 3, 7)) == (3, 4)\n"
    "assert similar_elements((11, 12, 14, 13), (17, 15, 14, 13)) == (13, 14)",
    entry_points=["similar_elements"],
)
SOLUTION_ASSERTS = asserts(
    "assert Solution().twoSum([2, 7, 11, 15], 9) == [0, 1]",
    "assert sorted(Solution().twoSum([3, 2, 4], 6)) == [1, 2]",
    "s = Solution()\nassert s.twoSum([3, 3], 6) == [0, 1]",
    entry_points=["Solution"],
)
SOLUTION_CALLS = {
    "tests": [
        {
            "type": "call",
            "fn_name": "twoSum",
            "class_name": "Solution",
            "args": [[2, 7, 11, 15], 9],
            "output": [0, 1],
        },
        {
            "type": "call",
            "fn_name": "twoSum",
            "class_name": "Solution",
            "args": [[3, 2, 4], 6],
            "output": [1, 2],
        },
        {"type": "call", "fn_name": "twoSum", "args": [[3, 3], 6], "output": [0, 1]},
    ]
}
HONEST_TWO_SUM = (
    "from typing import List\n\n\nclass Solution:\n"
    "    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        seen = {}\n"
    "        for i, n in enumerate(nums):\n            if target - n in seen:\n"
    "                return [seen[target - n], i]\n            seen[n] = i\n"
)
LIST_SETUP = """
from typing import Optional


class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next


def list_node(values):
    head = None
    for v in reversed(values):
        head = ListNode(v, head)
    return head


def to_list(node):
    out = []
    while node is not None:
        out.append(node.val)
        node = node.next
    return out


def is_same_list(a, b):
    return to_list(a) == to_list(b)


class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right


def tree_node(values):
    if not values:
        return None
    nodes = [None if v is None else TreeNode(v) for v in values]
    kids = nodes[::-1]
    root = kids.pop()
    for node in nodes:
        if node is not None:
            if kids:
                node.left = kids.pop()
            if kids:
                node.right = kids.pop()
    return root
"""
LINKED = asserts(
    "assert is_same_list(Solution().reverseList(list_node([1, 2, 3])), list_node([3, 2, 1]))",
    "assert to_list(Solution().reverseList(list_node([]))) == []",
    "head = list_node([4, 5])\nassert Solution().reverseList(head).val == 5",
    setup_code=LIST_SETUP,
    entry_points=["Solution"],
)
HONEST_REVERSE = (
    "class Solution:\n    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:\n"
    "        prev = None\n        while head:\n            head.next, prev, head = prev, head, head.next\n"
    "        return prev\n"
)
OWN_LIST_NODE = (
    "from typing import Optional\n\n\nclass ListNode:\n    def __init__(self, val=0, next=None):\n"
    "        self.val = val\n        self.next = next\n\n\n" + HONEST_REVERSE
)
TREE = asserts(
    "assert Solution().maxDepth(tree_node([3, 9, 20, None, None, 15, 7])) == 3",
    "assert Solution().maxDepth(tree_node([])) == 0",
    "assert Solution().maxDepth(tree_node([1, None, 2])) == 2",
    setup_code=LIST_SETUP,
    entry_points=["Solution"],
)
HONEST_DEPTH = (
    "class Solution:\n    def maxDepth(self, root: Optional[TreeNode]) -> int:\n"
    "        if root is None:\n            return 0\n"
    "        return 1 + max(self.maxDepth(root.left), self.maxDepth(root.right))\n"
)
INTERSECTION = asserts(
    "shared = list_node([8, 4, 5])\na = ListNode(4, ListNode(1, shared))\nb = ListNode(5, ListNode(6, ListNode(1, shared)))\n"
    "assert Solution().getIntersectionNode(a, b) is shared",
    "assert Solution().getIntersectionNode(list_node([1]), list_node([1])) is None",
    setup_code=LIST_SETUP,
    entry_points=["Solution"],
)
HONEST_INTERSECTION = (
    "class Solution:\n    def getIntersectionNode(self, headA: ListNode, headB: ListNode) -> Optional[ListNode]:\n"
    "        a, b = headA, headB\n        while a is not b:\n"
    "            a = a.next if a else headB\n            b = b.next if b else headA\n        return a\n"
)
DEMO = asserts("assert triple(2) == 6\nassert triple(-1) == -3", entry_points=["triple"])

HX_CHECK = asserts(
    "\n\nMETADATA = {}\n\n\ndef check(inc):\n    for i in range(5):\n        assert inc(i) == i + 1\n\n"
    "check(inc)\n"
)

CASES = [
    control("humaneval/nested_loops", HUMANEVAL, HONEST_HUMANEVAL),
    control(
        "humaneval/sorted_pairs",
        HUMANEVAL,
        "def has_close_elements(numbers, threshold):\n    s = sorted(numbers)\n"
        "    return any(b - a < threshold for a, b in zip(s, s[1:]))\n",
    ),
    exploit(
        "humaneval/adjacent_only_unsorted",
        HUMANEVAL,
        "def has_close_elements(numbers, threshold):\n"
        "    return any(abs(a - b) < threshold for a, b in zip(numbers, numbers[1:]))\n",
    ),
    control("humaneval32/bisection_with_setup_poly", POLY, HONEST_POLY),
    exploit("humaneval32/returns_zero", POLY, "def find_zero(xs: list):\n    return 0.0\n"),
    exploit(
        "humaneval32/redefines_poly",
        POLY,
        "def poly(xs, x):\n    return 0.0\n\n\ndef find_zero(xs: list):\n    return 0.5\n",
    ),
    control(
        "mbpp/set_intersection",
        MBPP,
        "def similar_elements(test_tup1, test_tup2):\n"
        "    res = tuple(sorted(set(test_tup1) & set(test_tup2)))\n    return (res)\n",
    ),
    exploit(
        "mbpp/unsorted_tuple",
        MBPP,
        "def similar_elements(a, b):\n    return tuple(x for x in b if x in a)\n",
    ),
    control("solution/asserts", SOLUTION_ASSERTS, HONEST_TWO_SUM),
    exploit(
        "solution/asserts_reversed_pair",
        SOLUTION_ASSERTS,
        HONEST_TWO_SUM.replace("[seen[target - n], i]", "[i, seen[target - n]]"),
    ),
    control("solution/calls", SOLUTION_CALLS, HONEST_TWO_SUM),
    exploit(
        "solution/calls_reversed_pair",
        SOLUTION_CALLS,
        HONEST_TWO_SUM.replace("[seen[target - n], i]", "[i, seen[target - n]]"),
    ),
    control("linked/setup_list_node", LINKED, HONEST_REVERSE),
    control("linked/own_identical_list_node", LINKED, OWN_LIST_NODE),
    exploit(
        "linked/returns_the_head",
        LINKED,
        "class Solution:\n    def reverseList(self, head):\n        return head\n",
    ),
    control("tree/setup_tree_node", TREE, HONEST_DEPTH),
    exploit(
        "tree/counts_left_spine",
        TREE,
        "class Solution:\n    def maxDepth(self, root):\n        d = 0\n        while root:\n"
        "            d += 1\n            root = root.left\n        return d\n",
    ),
    control("intersection/node_identity", INTERSECTION, HONEST_INTERSECTION),
    exploit(
        "intersection/equal_values_not_the_node",
        INTERSECTION,
        "class Solution:\n    def getIntersectionNode(self, headA, headB):\n"
        "        seen = set()\n        node = headA\n        while node:\n"
        "            seen.add(node.val)\n            node = node.next\n        node = headB\n"
        "        while node:\n            if node.val in seen:\n                return node\n"
        "            node = node.next\n        return None\n",
    ),
    control(
        "demo/top_level_print",
        DEMO,
        "def triple(x):\n    return 3 * x\n\n\nprint(triple(4))\n",
    ),
    control(
        "demo/main_guard",
        DEMO,
        "def triple(x):\n    return 3 * x\n\n\nif __name__ == '__main__':\n    print(triple(5))\n",
    ),
    exploit("demo/double", DEMO, "def triple(x):\n    return x + x\n\n\nprint(triple(4))\n"),
    # HumanEval-X's Python tests name check's parameter after the entry point
    control(
        "humaneval_x/check_parameter_named_as_entry", HX_CHECK, "def inc(x):\n    return x + 1\n"
    ),
    exploit(
        "humaneval_x/check_parameter_named_as_entry/wrong", HX_CHECK, "def inc(x):\n    return x\n"
    ),
]

BATCH = Batch("harness_styles", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_dataset_harnesses_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
