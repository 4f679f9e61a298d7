/* codereward: LeetCode's nodes in a C call test (reward_api/verify/calls.py, NODES),
 * after the harness when the program names them: a struct ListNode* crosses as the list
 * of its values, a struct TreeNode* as its level order with null for a missing child and
 * trailing nulls cut; [] and null are NULL. A returned cycle or shared node is a value
 * error, found with a set of the nodes seen. */
static const void **cr_seen;
static size_t cr_seen_n, cr_seen_cap;

static int cr_visit(const void *p) { /* 1 the first time p is seen */
  if (2 * (cr_seen_n + 1) > cr_seen_cap) {
    size_t cap = cr_seen_cap ? 2 * cr_seen_cap : 1024;
    const void **old = cr_seen;
    size_t old_cap = cr_seen_cap;
    if (cap > ((size_t)1 << 24)) cr_fail("value", "the returned structure is too large");
    cr_seen = cr_alloc(cap, sizeof *cr_seen);
    cr_seen_cap = cap;
    cr_seen_n = 0;
    for (size_t i = 0; i < old_cap; i++) if (old[i]) cr_visit(old[i]);
    free(old);
  }
  size_t h = (size_t)(((uintptr_t)p >> 4) * 11400714819323198485ull) & (cr_seen_cap - 1);
  while (cr_seen[h]) {
    if (cr_seen[h] == p) return 0;
    h = (h + 1) & (cr_seen_cap - 1);
  }
  cr_seen[h] = p;
  cr_seen_n++;
  return 1;
}
static const void **cr_queue;
static size_t cr_queue_n, cr_queue_cap;
static void cr_push(const void *p) {
  if (cr_queue_n == cr_queue_cap) {
    cr_queue_cap = cr_queue_cap ? 2 * cr_queue_cap : 1024;
    cr_queue = realloc(cr_queue, cr_queue_cap * sizeof *cr_queue);
    if (!cr_queue) _exit(1);
  }
  cr_queue[cr_queue_n++] = p;
}
/* a node's value, of the definition's own integer type */
#define cr_val(field) do { long long v = cr_int(LLONG_MIN, LLONG_MAX); (field) = v; \
    if ((long long)(field) != v) cr_bad("the integer does not fit the node's value type"); } while (0)
// ---- ListNode ----
static struct ListNode *cr_dec_list(void) {
  if (cr_kind() == 'n') { cr_p++; return NULL; }
  size_t n = cr_list();
  struct ListNode *head = NULL, **tail = &head;
  for (size_t i = 0; i < n; i++) {
    struct ListNode *x = cr_alloc(1, sizeof *x);
    cr_val(x->val);
    x->next = NULL;
    *tail = x;
    tail = &x->next;
  }
  return head;
}
static void cr_enc_list(const struct ListNode *v) {
  cr_puts("[");
  for (const struct ListNode *x = v; x; x = x->next) {
    if (!cr_visit(x)) cr_fail("value", "the returned list has a cycle or a shared node");
    if (x != v) cr_puts(",");
    cr_enc_int((long long)x->val);
  }
  cr_puts("]");
}
// ---- TreeNode ----
static struct TreeNode *cr_dec_tree(void) {
  if (cr_kind() == 'n') { cr_p++; return NULL; }
  size_t n = cr_list(), made = 0;
  struct TreeNode *root = NULL, **nodes = cr_alloc(n, sizeof *nodes);
  for (size_t slot = 0; slot < n; slot++) {
    if (cr_kind() == 'n') { cr_p++; continue; }
    if (slot > 2 * made) cr_bad("the level order places a node under no parent");
    struct TreeNode *x = cr_alloc(1, sizeof *x);
    cr_val(x->val);
    x->left = x->right = NULL;
    if (slot == 0) root = x;
    else if ((slot - 1) % 2 == 0) nodes[(slot - 1) / 2]->left = x;
    else nodes[(slot - 1) / 2]->right = x;
    nodes[made++] = x;
  }
  return root;
}
static void cr_enc_tree(const struct TreeNode *v) {
  cr_puts("[");
  size_t keep = cr_on;
  cr_queue_n = 0;
  cr_push(v);
  for (size_t i = 0; i < cr_queue_n; i++) {
    const struct TreeNode *x = cr_queue[i];
    if (i) cr_puts(",");
    if (!x) { cr_puts("null"); continue; }
    if (!cr_visit(x)) cr_fail("value", "the returned tree has a cycle or a shared node");
    cr_enc_int((long long)x->val);
    keep = cr_on;
    cr_push(x->left);
    cr_push(x->right);
  }
  cr_on = keep;
  cr_puts("]");
}
// ---- end ----
