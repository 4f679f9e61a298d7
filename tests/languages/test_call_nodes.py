"""LeetCode's ``ListNode`` and ``TreeNode`` in call tests (``reward_api.verify.calls``,
``NODES``), with the real compilers on the process backend: a list argument becomes a
linked list, a level order a binary tree, and a returned node is encoded back by the
harness (a cycle or a shared node is a wrong answer, never a hang); LeetCode's definition
is added when the program keeps it in a comment, and the program's own is used when it
defines one. An overloaded C++ or Java entry point is called by the tests' arity.

Needs root, bwrap and the language roots (``make runtimes``); skips without them outside CI.
"""

from __future__ import annotations

import pytest

from reward_api.schemas import Verdict
from reward_api.verify import calls, languages
from reward_api.verify.pipeline import Verifier
from tests.conftest import run

NODE_LANGUAGES = ("c", "cpp", "java", "javascript", "typescript", "go", "rust")
UNTYPED = ("javascript", "typescript")
"""Their node values are not checked against a type: ``["a"]`` is a list of one string."""


def _needs(language: str) -> None:
    if not (languages.default_root(language) / ".codereward-runtime").exists():
        pytest.skip(f"no {language} runtime at {languages.default_root(language)}: make runtimes")


PROGRAMS = {
    "c": """#include <stdlib.h>
/**
 * Definition for singly-linked list.
 * struct ListNode {
 *     int val;
 *     struct ListNode *next;
 * };
 */
struct ListNode* reverseList(struct ListNode* head) {
    struct ListNode* prev = NULL;
    while (head) { struct ListNode* n = head->next; head->next = prev; prev = head; head = n; }
    return prev;
}
static int cmp(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }
struct ListNode* mergeKLists(struct ListNode** lists, int listsSize) {
    int all[10000], n = 0;
    for (int i = 0; i < listsSize; i++) for (struct ListNode* l = lists[i]; l; l = l->next) all[n++] = l->val;
    qsort(all, n, sizeof(int), cmp);
    struct ListNode d = {0, NULL}, *t = &d;
    for (int i = 0; i < n; i++) { t->next = malloc(sizeof *t); t = t->next; t->val = all[i]; t->next = NULL; }
    return d.next;
}
struct TreeNode* invertTree(struct TreeNode* root) {
    if (!root) return NULL;
    struct TreeNode* l = root->left;
    root->left = invertTree(root->right); root->right = invertTree(l);
    return root;
}
int maxDepth(struct TreeNode* root) {
    if (!root) return 0;
    int a = maxDepth(root->left), b = maxDepth(root->right);
    return 1 + (a > b ? a : b);
}
struct TreeNode* shared(struct TreeNode* root) {
    if (root) { struct TreeNode* c = calloc(1, sizeof *c); c->val = 1; root->left = root->right = c; }
    return root;
}
struct ListNode* loop(struct ListNode* head) { if (head) head->next = head; return head; }
""",
    "javascript": """/**
 * Definition for singly-linked list.
 * function ListNode(val, next) {
 *     this.val = (val===undefined ? 0 : val)
 *     this.next = (next===undefined ? null : next)
 * }
 */
/**
 * @param {ListNode} head
 * @return {ListNode}
 */
var reverseList = function(head) {
    let prev = null;
    while (head) { const n = head.next; head.next = prev; prev = head; head = n; }
    return prev;
};
/**
 * @param {ListNode[]} lists
 * @return {ListNode}
 */
var mergeKLists = function(lists) {
    const all = [];
    for (let l of lists) for (; l; l = l.next) all.push(l.val);
    all.sort((a, b) => a - b);
    const d = new ListNode(); let t = d;
    for (const x of all) { t.next = new ListNode(x); t = t.next; }
    return d.next;
};
/**
 * @param {TreeNode} root
 * @return {TreeNode}
 */
var invertTree = function(root) {
    if (!root) return null;
    [root.left, root.right] = [invertTree(root.right), invertTree(root.left)];
    return root;
};
/**
 * @param {TreeNode} root
 * @return {number}
 */
function maxDepth(root) { return root ? 1 + Math.max(maxDepth(root.left), maxDepth(root.right)) : 0; }
/**
 * @param {TreeNode} root
 * @return {TreeNode}
 */
const shared = (root) => { if (root) root.left = root.right = new TreeNode(1); return root; };
/**
 * @param {ListNode} head
 * @return {ListNode}
 */
var loop = function(head) { if (head) head.next = head; return head; };
""",
    "typescript": """/**
 * class ListNode { val: number; next: ListNode | null; ... }
 */
function reverseList(head: ListNode | null): ListNode | null {
    let prev: ListNode | null = null;
    while (head) { const n = head.next; head.next = prev; prev = head; head = n; }
    return prev;
}
function mergeKLists(lists: Array<ListNode | null>): ListNode | null {
    const all: number[] = [];
    for (let l of lists) for (; l; l = l.next) all.push(l.val);
    all.sort((a, b) => a - b);
    const d: ListNode = new ListNode(); let t = d;
    for (const x of all) { t.next = new ListNode(x); t = t.next; }
    return d.next;
}
function invertTree(root: TreeNode | null): TreeNode | null {
    if (!root) return null;
    [root.left, root.right] = [invertTree(root.right), invertTree(root.left)];
    return root;
}
function maxDepth(root: TreeNode | null): number { return root ? 1 + Math.max(maxDepth(root.left), maxDepth(root.right)) : 0; }
const shared = (root: TreeNode | null): TreeNode | null => { if (root) root.left = root.right = new TreeNode(1); return root; };
function loop(head: ListNode | null): ListNode | null { if (head) head.next = head; return head; }
""",
    "cpp": """#include <bits/stdc++.h>
using namespace std;
/**
 * Definition for singly-linked list.
 * struct ListNode {
 *     int val;
 *     ListNode *next;
 * };
 */
class Solution {
public:
    ListNode* reverseList(ListNode* head) {
        ListNode* prev = nullptr;
        while (head) { ListNode* n = head->next; head->next = prev; prev = head; head = n; }
        return prev;
    }
    ListNode* mergeKLists(vector<ListNode*>& lists) {
        vector<int> all;
        for (auto l : lists) for (; l; l = l->next) all.push_back(l->val);
        sort(all.begin(), all.end());
        ListNode dummy; ListNode* t = &dummy;
        for (int x : all) { t->next = new ListNode(x); t = t->next; }
        return dummy.next;
    }
    TreeNode* invertTree(TreeNode* root) {
        if (!root) return root;
        swap(root->left, root->right);
        invertTree(root->left); invertTree(root->right);
        return root;
    }
    int maxDepth(TreeNode* root) { return root ? 1 + max(maxDepth(root->left), maxDepth(root->right)) : 0; }
    ListNode* loop(ListNode* head) { if (head) head->next = head; return head; }
    TreeNode* shared(TreeNode* root) { if (root) root->right = root->left = new TreeNode(1); return root; }
};
""",
    "java": """import java.util.*;
/**
 * public class ListNode { int val; ListNode next; }
 */
class Solution {
    public ListNode reverseList(ListNode head) {
        ListNode prev = null;
        while (head != null) { ListNode n = head.next; head.next = prev; prev = head; head = n; }
        return prev;
    }
    public ListNode mergeKLists(ListNode[] lists) {
        List<Integer> all = new ArrayList<>();
        for (ListNode l : lists) for (; l != null; l = l.next) all.add(l.val);
        Collections.sort(all);
        ListNode d = new ListNode(), t = d;
        for (int x : all) { t.next = new ListNode(x); t = t.next; }
        return d.next;
    }
    public TreeNode invertTree(TreeNode root) {
        if (root == null) return null;
        TreeNode l = invertTree(root.left); root.left = invertTree(root.right); root.right = l;
        return root;
    }
    public int maxDepth(TreeNode root) { return root == null ? 0 : 1 + Math.max(maxDepth(root.left), maxDepth(root.right)); }
    public ListNode loop(ListNode head) { if (head != null) head.next = head; return head; }
    public TreeNode shared(TreeNode root) { if (root != null) root.right = root.left = new TreeNode(1); return root; }
}
""",
    "go": """/**
 * type ListNode struct { Val int; Next *ListNode }
 */
import "sort"

func reverseList(head *ListNode) *ListNode {
	var prev *ListNode
	for head != nil {
		n := head.Next
		head.Next = prev
		prev, head = head, n
	}
	return prev
}
func mergeKLists(lists []*ListNode) *ListNode {
	all := []int{}
	for _, l := range lists {
		for ; l != nil; l = l.Next {
			all = append(all, l.Val)
		}
	}
	sort.Ints(all)
	d := &ListNode{}
	t := d
	for _, x := range all {
		t.Next = &ListNode{Val: x}
		t = t.Next
	}
	return d.Next
}
func invertTree(root *TreeNode) *TreeNode {
	if root == nil {
		return nil
	}
	root.Left, root.Right = invertTree(root.Right), invertTree(root.Left)
	return root
}
func maxDepth(root *TreeNode) int {
	if root == nil {
		return 0
	}
	a, b := maxDepth(root.Left), maxDepth(root.Right)
	if a > b {
		return a + 1
	}
	return b + 1
}
func loop(head *ListNode) *ListNode { if head != nil { head.Next = head }; return head }
func shared(root *TreeNode) *TreeNode { if root != nil { root.Left = &TreeNode{Val: 1}; root.Right = root.Left }; return root }
""",
    "rust": """// Definition for singly-linked list.
// #[derive(PartialEq, Eq, Clone, Debug)]
// pub struct ListNode {
//   pub val: i32,
//   pub next: Option<Box<ListNode>>
// }
use std::rc::Rc;
use std::cell::RefCell;
impl Solution {
    pub fn reverse_list(head: Option<Box<ListNode>>) -> Option<Box<ListNode>> {
        let (mut prev, mut cur) = (None, head);
        while let Some(mut n) = cur { cur = n.next.take(); n.next = prev; prev = Some(n); }
        prev
    }
    pub fn merge_k_lists(lists: Vec<Option<Box<ListNode>>>) -> Option<Box<ListNode>> {
        let mut all = vec![];
        for mut l in lists { while let Some(n) = l { all.push(n.val); l = n.next; } }
        all.sort();
        let mut head = None;
        for &x in all.iter().rev() { let mut n = ListNode::new(x); n.next = head; head = Some(Box::new(n)); }
        head
    }
    pub fn invert_tree(root: Option<Rc<RefCell<TreeNode>>>) -> Option<Rc<RefCell<TreeNode>>> {
        if let Some(n) = root.clone() {
            let l = n.borrow_mut().left.take();
            let r = n.borrow_mut().right.take();
            n.borrow_mut().left = Self::invert_tree(r);
            n.borrow_mut().right = Self::invert_tree(l);
        }
        root
    }
    pub fn max_depth(root: Option<Rc<RefCell<TreeNode>>>) -> i32 {
        match root { None => 0, Some(n) => { let b = n.borrow(); 1 + Self::max_depth(b.left.clone()).max(Self::max_depth(b.right.clone())) } }
    }
    pub fn loop_(head: Option<Box<ListNode>>) -> Option<Box<ListNode>> { head }
    pub fn shared(root: Option<Rc<RefCell<TreeNode>>>) -> Option<Rc<RefCell<TreeNode>>> {
        if let Some(n) = root.clone() { let c = Some(Rc::new(RefCell::new(TreeNode::new(1)))); n.borrow_mut().left = c.clone(); n.borrow_mut().right = c; }
        root
    }
}
""",
}
RUST_NAMES = {"reverseList": "reverse_list", "mergeKLists": "merge_k_lists",
              "invertTree": "invert_tree", "maxDepth": "max_depth", "loop": "loop_"}  # fmt: skip
OK = (Verdict.accepted, "")
CASES = [
    ("reverseList", [[1, 2, 3, 4, 5]], [5, 4, 3, 2, 1], OK),
    ("reverseList", [[]], [], OK),
    ("reverseList", [None], [], OK),
    ("reverseList", [[1, 2]], [1, 2], (Verdict.wrong_answer, "")),
    ("reverseList", [["a"]], ["a"], (Verdict.runtime_error, "argument 1")),
    ("mergeKLists", [[[1, 4, 5], [1, 3, 4], [2, 6]]], [1, 1, 2, 3, 4, 4, 5, 6], OK),
    ("mergeKLists", [[]], [], OK),
    ("invertTree", [[4, 2, 7, 1, 3, 6, 9]], [4, 7, 2, 9, 6, 3, 1], OK),
    ("invertTree", [[1, 2]], [1, None, 2], OK),
    ("invertTree", [[]], [], OK),
    ("maxDepth", [[3, 9, 20, None, None, 15, 7]], 3, OK),
    ("maxDepth", [[1, None, None, 2]], 1, (Verdict.runtime_error, "no parent")),
    ("shared", [[1]], [1, 1, 1], (Verdict.wrong_answer, "shared node")),
    ("loop", [[1, 2]], [1], (Verdict.wrong_answer, "cycle")),
]


@pytest.mark.parametrize("language", NODE_LANGUAGES)
def test_lists_and_trees_cross_as_leetcodes_json_from_one_build(
    verifier: Verifier, language: str
) -> None:
    """Every case of one program from one build: lists, empty and null lists, a list of
    lists, level orders with nulls, a wrong answer, a bad argument, a level order with an
    orphan, and returned structures that are not lists or trees (Rust's ownership cannot
    make a cycle: its ``loop_`` answers the list it was given)."""
    _needs(language)
    cases = CASES if language != "rust" else [*CASES[:-1], ("loop", [[1, 2]], [1, 2], OK)]
    if language in UNTYPED:
        cases = [(f, a, o, OK if a == [["a"]] else v) for f, a, o, v in cases]
    tests = [
        {"type": "call", "fn_name": RUST_NAMES.get(f, f) if language == "rust" else f,
         "args": a, "output": o}
        for f, a, o, _ in cases
    ]  # fmt: skip
    result = run(verifier, {"language": language, "tests": tests}, PROGRAMS[language])
    got = [(t.verdict, t.detail or "") for t in result.tests]
    for (f, a, _, (verdict, detail)), (v, d) in zip(cases, got, strict=True):
        assert v == verdict and detail in d, (f, a, v, d)


OWN = {
    "cpp": """#include <bits/stdc++.h>
#define int long long
using namespace std;
struct ListNode {
    int val;
    ListNode *next;
    ListNode(int x) : val(x), next(NULL) {}
};
class Solution {
public:
    ListNode* middleNode(ListNode* head) {
        ListNode *slow = head, *fast = head;
        while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
        return slow;
    }
};
""",
    "java": """public class ListNode {
    long val;
    ListNode next;
    ListNode(long x) { val = x; }
}
class Solution {
    public ListNode middleNode(ListNode head) {
        ListNode slow = head, fast = head;
        while (fast != null && fast.next != null) { slow = slow.next; fast = fast.next.next; }
        return slow;
    }
}
""",
    "go": """package main

type ListNode struct {
	Val  int64
	Next *ListNode
}

func middleNode(head *ListNode) *ListNode {
	slow, fast := head, head
	for fast != nil && fast.Next != nil {
		slow, fast = slow.Next, fast.Next.Next
	}
	return slow
}
""",
    "rust": """#[derive(PartialEq, Eq, Clone, Debug)]
pub struct ListNode {
    pub val: i64,
    pub next: Option<Box<ListNode>>,
}
struct Solution;
impl Solution {
    pub fn middle_node(head: Option<Box<ListNode>>) -> Option<Box<ListNode>> {
        let mut n = 0;
        let mut at = &head;
        while let Some(x) = at { n += 1; at = &x.next; }
        let mut cur = head;
        for _ in 0..n / 2 { cur = cur.unwrap().next; }
        cur
    }
}
""",
}


OWN.update(
    {
        "c": """#include <stddef.h>
typedef struct ListNode {
    long long val;
    struct ListNode *next;
} ListNode;

ListNode* middleNode(ListNode* head) {
    ListNode *slow = head, *fast = head;
    while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
    return slow;
}
""",
        "javascript": """class ListNode {
    constructor(val) { this.val = val; this.next = null; }
}
class Solution {
    /**
     * @param {ListNode} head
     * @return {ListNode}
     */
    middleNode(head) {
        let slow = head, fast = head;
        while (fast && fast.next) { slow = slow.next; fast = fast.next.next; }
        return slow;
    }
}
""",
        "typescript": """class ListNode {
    val: number;
    next: ListNode | null = null;
    constructor(val: number) { this.val = val; }
}
class Solution {
    public middleNode(head: ListNode | null): ListNode | null {
        let slow = head, fast = head;
        while (fast && fast.next) { slow = slow!.next; fast = fast.next.next; }
        return slow;
    }
}
""",
    }
)


@pytest.mark.parametrize("language", NODE_LANGUAGES)
def test_a_programs_own_node_definition_is_used_with_its_value_type(
    verifier: Verifier, language: str
) -> None:
    """The program defines ListNode itself (64-bit values; C++, Java and JavaScript with
    only a value constructor; C through a typedef; JavaScript and TypeScript in a class
    method): no second definition is added, and values past 32 bits cross."""
    _needs(language)
    fn = "middle_node" if language == "rust" else "middleNode"
    big = 2**40
    tests = [
        {"type": "call", "fn_name": fn, "args": [[1, 2, big, 4, 5]], "output": [big, 4, 5]},
        {"type": "call", "fn_name": fn, "args": [[7]], "output": [7]},
    ]
    result = run(verifier, {"language": language, "tests": tests}, OWN[language])
    assert result.accepted, [(t.verdict, t.detail) for t in result.tests]


def test_leetcodes_definition_goes_after_the_includes_so_the_header_stays_precompiled() -> None:
    program = (
        "#include <bits/stdc++.h>\n#define X(a) \\\n  a\nusing namespace std;\n"
        "/**\n * struct ListNode { int val; ListNode *next; };\n */\n"
        "class Solution { public: ListNode* f(ListNode* h) { return h; } };\n"
    )
    source = calls.call_build("cpp", program, None, "f").files["main.cpp"]
    head, _, rest = source.partition("struct ListNode {\n")
    assert head.startswith(program[: program.index("class Solution")])
    assert rest.count("struct ListNode") == 0 and "class Solution" in rest
    assert "#define __CR_LIST_NODE 1" in source and "__CR_TREE_NODE 1" not in source


@pytest.mark.parametrize(
    ("language", "program", "added"),
    [
        ("java", "class Solution { ListNode f(ListNode h) { return h; } }", {"ListNode.java"}),
        (
            "java",
            "class TreeNode { int val; TreeNode left, right; }\n"
            "class Solution { TreeNode f(TreeNode t) { return t; } }",
            set(),
        ),
        ("java", "// ListNode\nclass Solution { int f(int x) { return x; } }", set()),
    ],
)
def test_a_java_node_class_is_added_only_when_the_program_uses_it_without_one(
    language: str, program: str, added: set[str]
) -> None:
    files = calls.call_build(language, program, None, "f").files
    assert {f for f in files if f in ("ListNode.java", "TreeNode.java")} == added


OVERLOADED = {
    "cpp": """#include <bits/stdc++.h>
using namespace std;
class Solution {
public:
    bool isSymmetric(TreeNode* root) { return !root || isSymmetric(root->left, root->right); }
    bool isSymmetric(TreeNode* a, TreeNode* b) {
        if (!a || !b) return a == b;
        return a->val == b->val && isSymmetric(a->left, b->right) && isSymmetric(a->right, b->left);
    }
    int sum(const vector<int>& v) const { return accumulate(v.begin(), v.end(), 0); }
    int sum(const vector<int>& v, int k) const { return accumulate(v.begin(), v.end(), 0) * k; }
};
""",
    "java": """class Solution {
    public boolean isSymmetric(TreeNode root) { return root == null || isSymmetric(root.left, root.right); }
    private boolean isSymmetric(TreeNode a, TreeNode b) {
        if (a == null || b == null) return a == b;
        return a.val == b.val && isSymmetric(a.left, b.right) && isSymmetric(a.right, b.left);
    }
    public int sum(int[] v) { int s = 0; for (int x : v) s += x; return s; }
    public int sum(int[] v, int k) { return sum(v) * k; }
}
""",
}


@pytest.mark.parametrize("language", sorted(OVERLOADED))
def test_an_overloaded_entry_point_is_called_by_the_tests_arity(
    verifier: Verifier, language: str
) -> None:
    """A recursive helper of the entry point's name (LeetCode's isSymmetric) and a public
    overload: each test calls the overload its argument count names, const or not."""
    _needs(language)
    cases = [("isSymmetric", [[1, 2, 2, 3, 4, 4, 3]], True),
             ("isSymmetric", [[1, 2, 2, None, 3, None, 3]], False),
             ("sum", [[1, 2, 3]], 6), ("sum", [[1, 2, 3], 2], 12), ("sum", [[1, 2, 3], 2], 6)]  # fmt: skip
    tests = [{"type": "call", "fn_name": f, "class_name": "Solution", "args": a, "output": o}
             for f, a, o in cases]  # fmt: skip
    result = run(verifier, {"language": language, "tests": tests}, OVERLOADED[language])
    assert [t.verdict for t in result.tests] == [Verdict.accepted] * 4 + [Verdict.wrong_answer]


# found by an attack on the harness (each mis-graded an honest program before its fix)
SPLIT = {  # LeetCode 725: a list of lists, null parts among them
    "java": """class Solution {
    public ListNode[] splitListToParts(ListNode head, int k) {
        int n = 0; for (ListNode c = head; c != null; c = c.next) n++;
        ListNode[] out = new ListNode[k];
        ListNode cur = head;
        for (int i = 0; i < k && cur != null; i++) {
            out[i] = cur;
            int size = n / k + (i < n % k ? 1 : 0);
            for (int j = 1; j < size; j++) cur = cur.next;
            ListNode nx = cur.next; cur.next = null; cur = nx;
        }
        return out;
    }
}
""",
    "javascript": """/**
 * @param {ListNode} head
 * @param {number} k
 * @return {ListNode[]}
 */
var splitListToParts = function(head, k) {
    let n = 0; for (let c = head; c; c = c.next) n++;
    const out = new Array(k).fill(null);
    let cur = head;
    for (let i = 0; i < k && cur; i++) {
        out[i] = cur;
        const size = Math.floor(n / k) + (i < n % k ? 1 : 0);
        for (let j = 1; j < size; j++) cur = cur.next;
        const nx = cur.next; cur.next = null; cur = nx;
    }
    return out;
};
""",
    "c": """struct ListNode** splitListToParts(struct ListNode* head, int k, int* returnSize) {
    int n = 0; for (struct ListNode* c = head; c; c = c->next) n++;
    struct ListNode** out = calloc(k, sizeof *out);
    struct ListNode* cur = head;
    for (int i = 0; i < k && cur; i++) {
        out[i] = cur;
        int size = n / k + (i < n % k ? 1 : 0);
        for (int j = 1; j < size; j++) cur = cur->next;
        struct ListNode* nx = cur->next; cur->next = NULL; cur = nx;
    }
    *returnSize = k;
    return out;
}
""",
}


@pytest.mark.parametrize("language", sorted(SPLIT))
def test_null_nodes_in_a_returned_array_are_empty_lists(verifier: Verifier, language: str) -> None:
    """``[[1],[2],[3],[],[]]``: Java and JavaScript encoded the null parts as null; C refused
    a ``struct ListNode**`` result (and its snippet has no includes: LeetCode's headers)."""
    _needs(language)
    tests = [
        {"type": "call", "fn_name": "splitListToParts", "args": [[1, 2, 3], 5],
         "output": [[1], [2], [3], [], []]},
        {"type": "call", "fn_name": "splitListToParts", "args": [[1, 2, 3, 4], 2],
         "output": [[1, 2], [3, 4]]},
        {"type": "call", "fn_name": "splitListToParts", "args": [[1, 2, 3], 4],
         "output": [[1], [2], [3], None]},
    ]  # fmt: skip
    result = run(verifier, {"language": language, "tests": tests}, SPLIT[language])
    got = [t.verdict for t in result.tests]
    assert got == [Verdict.accepted] * 2 + [Verdict.wrong_answer], result.tests


IN_PLACE = {  # LeetCode's in-place problems answer nothing: null
    "java": "class Solution { public void sortColors(int[] nums) { java.util.Arrays.sort(nums); } }",
    "cpp": "class Solution {\npublic:\n    void sortColors(vector<int>& nums) { sort(nums.begin(), nums.end()); }\n};\n",
    "c": "static int cmp(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }\n"
    "void sortColors(int* nums, int numsSize) { qsort(nums, numsSize, sizeof(int), cmp); }\n",
    "rust": "impl Solution {\n    pub fn sort_colors(nums: &mut Vec<i32>) { nums.sort(); }\n}\n",
    "go": 'package main\n\nimport "sort"\n\nfunc sortColors(nums []int) { sort.Ints(nums) }\n',
    "javascript": "var sortColors = function(nums) { nums.sort(); };\n",
}


@pytest.mark.parametrize("language", sorted(IN_PLACE))
def test_an_entry_point_that_returns_nothing_answers_null(
    verifier: Verifier, language: str
) -> None:
    """Java wrote ``{"ok":}`` for a void method (a malformed answer, so every in-place
    problem failed); Rust takes ``&mut Vec``; C++ and C snippets without includes get
    LeetCode's headers."""
    _needs(language)
    fn = "sort_colors" if language == "rust" else "sortColors"
    tests = [{"type": "call", "fn_name": fn, "args": [[2, 0, 1]], "output": None},
             {"type": "call", "fn_name": fn, "args": [[2, 0, 1]], "output": [0, 1, 2]}]  # fmt: skip
    result = run(verifier, {"language": language, "tests": tests}, IN_PLACE[language])
    assert [t.verdict for t in result.tests] == [Verdict.accepted, Verdict.wrong_answer], (
        result.tests
    )


INHERITED = {
    "cpp": """#include <bits/stdc++.h>
using namespace std;
class Base {
public:
    virtual int weight() { return 0; }
    int solve(vector<int>& a) { int s = 0; for (int x : a) s += x * weight(); return s; }
};
class Solution : public Base {
public:
    int weight() override { return 1; }
};
""",
    "java": """class Base {
    int weight() { return 0; }
    public int solve(int[] a) { int s = 0; for (int x : a) s += x * weight(); return s; }
}
class Solution extends Base {
    @Override int weight() { return 1; }
}
""",
}


@pytest.mark.parametrize("language", sorted(INHERITED))
def test_an_inherited_entry_point_is_called_on_the_named_class(
    verifier: Verifier, language: str
) -> None:
    """``Solution`` inherits ``solve`` from ``Base`` and overrides what it calls: the harness
    made a Base (C++ from the member pointer's class, Java from the declaring class)."""
    _needs(language)
    tests = [{"type": "call", "fn_name": "solve", "args": [[1, 2, 3]], "output": 6}]
    result = run(verifier, {"language": language, "tests": tests}, INHERITED[language])
    assert result.accepted, result.tests


def test_an_alias_naming_a_node_comes_after_leetcodes_definitions(verifier: Verifier) -> None:
    """``using Item = pair<TreeNode*, int>;`` was taken for the preamble, and LeetCode's
    TreeNode went after it."""
    _needs("cpp")
    tests = [{"type": "call", "fn_name": "maxDepth", "args": [[3, 9, 20, None, None, 15, 7]],
              "output": 3}]  # fmt: skip
    result = run(verifier, {"language": "cpp", "tests": tests}, USING_ALIAS)
    assert result.accepted, result.tests


USING_ALIAS = """#include <bits/stdc++.h>
using namespace std;
using Item = pair<TreeNode*, int>;
class Solution {
public:
    int maxDepth(TreeNode* root) {
        if (!root) return 0;
        int best = 0;
        vector<Item> st{{root, 1}};
        while (!st.empty()) {
            auto [n, d] = st.back(); st.pop_back();
            best = max(best, d);
            if (n->left) st.push_back({n->left, d + 1});
            if (n->right) st.push_back({n->right, d + 1});
        }
        return best;
    }
};
"""


@pytest.mark.parametrize(
    ("program", "before"),
    [
        ("using namespace std; class Solution { ListNode* f(ListNode* h) { return h; } };\n", ""),
        ("#include <vector>\n/* a */ int x; ListNode* f(ListNode* h) { return h; }\n", "#include <vector>\n"),
        ("#include <vector>\nusing std::vector; // v\n/*\n x */\nListNode* f(ListNode* h);\n",
         "#include <vector>\nusing std::vector; // v\n/*\n x */\n"),
    ],
)  # fmt: skip
def test_leetcodes_definitions_go_before_the_first_line_of_code(program: str, before: str) -> None:
    assert calls._after_preamble(program, "DEFS\n") == before + "DEFS\n" + program[len(before) :]
