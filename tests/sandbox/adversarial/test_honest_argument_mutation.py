"""Honest shape (issue 12, class 7): the test checks an argument the program mutated.

``a = [3, 1]; sort_in_place(a); assert a == [1, 3]``, LeetCode's "do not return anything,
modify ``nums`` in-place" (``rotate(nums, k)`` returning ``None``), dicts, sets, nested
lists and a ``deque`` filled by the callee, a second name bound to the same list: in plain
Python the test sees the callee's changes. A correct verifier sends arguments as plain
data and brings back the state of every mutable argument after the call, written into
the judge's own objects (so an alias sees it too), and accepts each control with reward 1.

The exploit twins are programs plain Python rejects too (a sorted copy returned while the
argument stays unsorted, a mutation with the wrong values) and one that fills the list
with objects equal to everything: they must fail.
"""

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

SORT = asserts(
    "a = [3, 1]\nsort_in_place(a)\nassert a == [1, 3]",
    "a = [5, 4, 9, 0]\nalias = a\nassert sort_in_place(a) is None\nassert alias == [0, 4, 5, 9] and alias is a",
    entry_points=["sort_in_place"],
)
ROTATE = asserts(
    "nums = [1, 2, 3, 4, 5, 6, 7]\nassert rotate(nums, 3) is None\nassert nums == [5, 6, 7, 1, 2, 3, 4]",
    "nums = [-1]\nrotate(nums, 2)\nassert nums == [-1]",
    entry_points=["rotate"],
)
CONTAINERS = asserts(
    "d = {'a': 1}\ncount_into(d, 'a b a')\nassert d == {'a': 3, 'b': 1}",
    "s = set()\ncount_into(s, 'x y')\nassert s == {'x', 'y'}",
    "grid = [[0] * 3 for _ in range(2)]\nmark(grid, 1, 2)\nassert grid == [[0, 0, 0], [0, 0, 1]]",
    "from collections import deque\nq = deque([1])\nmark(q, 0, 5)\nassert list(q) == [1, 5]",
    entry_points=["count_into", "mark"],
)
SOLUTION = asserts(
    "nums = [0, 1, 0, 3, 12]\nSolution().moveZeroes(nums)\nassert nums == [1, 3, 12, 0, 0]",
    "nums = [2, 0, 2, 1, 1, 0]\nSolution().sortColors(nums)\nassert nums == [0, 0, 1, 1, 2, 2]",
    entry_points=["Solution"],
)

HONEST_CONTAINERS = """
def count_into(acc, text):
    for w in text.split():
        if isinstance(acc, dict):
            acc[w] = acc.get(w, 0) + 1
        else:
            acc.add(w)
def mark(target, row, col):
    if hasattr(target, 'appendleft'):
        target.append(col)
    else:
        target[row][col] = 1
"""
HONEST_SOLUTION = """
class Solution:
    def moveZeroes(self, nums):
        keep = [x for x in nums if x != 0]
        nums[:] = keep + [0] * (len(nums) - len(keep))
    def sortColors(self, nums):
        counts = [nums.count(c) for c in range(3)]
        i = 0
        for c in range(3):
            for _ in range(counts[c]):
                nums[i] = c
                i += 1
"""
YES = "class Yes:\n    def __eq__(self, other):\n        return True\n    __hash__ = None\n"

CASES = [
    control("sort/list_sort", SORT, "def sort_in_place(a):\n    a.sort()\n"),
    control(
        "sort/slice_assignment",
        SORT,
        "def sort_in_place(a):\n    a[:] = sorted(a)\n",
    ),
    control(
        "sort/bubble_swaps",
        SORT,
        "def sort_in_place(a):\n    for i in range(len(a)):\n        for j in range(len(a) - 1 - i):\n"
        "            if a[j] > a[j + 1]:\n                a[j], a[j + 1] = a[j + 1], a[j]\n",
    ),
    exploit("sort/returns_sorted_copy", SORT, "def sort_in_place(a):\n    return sorted(a)\n"),
    exploit(
        "sort/fills_with_always_equal",
        SORT,
        YES + "def sort_in_place(a):\n    a[:] = [Yes() for _ in a]\n",
    ),
    exploit("sort/rebinds_the_local", SORT, "def sort_in_place(a):\n    a = sorted(a)\n"),
    control(
        "rotate/slices",
        ROTATE,
        "def rotate(nums, k):\n    k %= len(nums)\n    nums[:] = nums[-k:] + nums[:-k] if k else nums\n",
    ),
    control(
        "rotate/reverse_three_times",
        ROTATE,
        "def rotate(nums, k):\n    k %= len(nums)\n    nums.reverse()\n"
        "    nums[:k] = reversed(nums[:k])\n    nums[k:] = reversed(nums[k:])\n",
    ),
    exploit(
        "rotate/wrong_direction",
        ROTATE,
        "def rotate(nums, k):\n    k %= len(nums)\n    nums[:] = nums[k:] + nums[:k]\n",
    ),
    control("containers/dict_set_grid_deque", CONTAINERS, HONEST_CONTAINERS),
    exploit(
        "containers/grid_row_aliasing_bug",
        CONTAINERS,
        HONEST_CONTAINERS.replace(
            "        target[row][col] = 1", "        for r in target:\n            r[col] = 1"
        ),
    ),
    control("solution/in_place", SOLUTION, HONEST_SOLUTION),
    exploit(
        "solution/rebinds_instead_of_mutating",
        SOLUTION,
        HONEST_SOLUTION.replace("nums[:] = keep", "nums = keep"),
    ),
]

BATCH = Batch("argument_mutation", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_mutated_arguments_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
