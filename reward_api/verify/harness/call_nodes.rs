
// codereward: LeetCode's nodes in a Rust call test (reward_api/verify/calls.py, NODES),
// appended after the harness when the program names them: `Option<Box<ListNode>>` crosses
// as the list of its values, `Option<Rc<RefCell<TreeNode>>>` as its level order with
// null for a missing child and trailing nulls cut; [] and null are None. Nothing here is
// called by method syntax on the program's types.
#[allow(dead_code, unused_imports)]
mod __cr_nodes {
    use super::__cr_call::{Dec, Enc, In, Res};
    use ::std::cell::RefCell;
    use ::std::collections::HashSet;
    use ::std::rc::Rc;
    use ::std::string::{String, ToString};
    use ::std::vec::Vec;

    const MAX_NODES: usize = 1 << 22;

    fn s(t: &str) -> String {
        ToString::to_string(t)
    }

    fn open(i: &mut In) -> Res<Option<usize>> {
        if In::kind(i)? == b'n' {
            i.p += 1;
            return Ok(None);
        }
        In::list(i).map(Some)
    }
    // ---- ListNode ----
    impl Dec for Option<::std::boxed::Box<super::ListNode>> {
        fn dec(i: &mut In) -> Res<Self> {
            let n = match open(i)? {
                None => return Ok(None),
                Some(n) => n,
            };
            let mut vals = Vec::new();
            for _ in 0..n {
                Vec::push(&mut vals, Dec::dec(i)?);
            }
            let mut head = None;
            while let Some(val) = Vec::pop(&mut vals) {
                head = Some(::std::boxed::Box::new(super::ListNode { val, next: head }));
            }
            Ok(head)
        }
    }
    impl Enc for Option<::std::boxed::Box<super::ListNode>> {
        fn enc(&self, o: &mut String) -> Res<()> {
            String::push(o, '[');
            let mut at = self;
            let mut first = true;
            while let Some(n) = at {
                if !first {
                    String::push(o, ',');
                }
                first = false;
                Enc::enc(&n.val, o)?;
                at = &n.next;
            }
            String::push(o, ']');
            Ok(())
        }
    }
    // ---- TreeNode ----
    type Tree = Option<Rc<RefCell<super::TreeNode>>>;
    impl Dec for Option<Rc<RefCell<super::TreeNode>>> {
        fn dec(i: &mut In) -> Res<Self> {
            let n = match open(i)? {
                None => return Ok(None),
                Some(n) => n,
            };
            let mut made: Vec<Rc<RefCell<super::TreeNode>>> = Vec::new();
            let mut root = None;
            for slot in 0..n {
                if In::kind(i)? == b'n' {
                    i.p += 1;
                    continue;
                }
                if slot > 2 * made.len() {
                    return Err(s("the level order places a node under no parent"));
                }
                let node = Rc::new(RefCell::new(super::TreeNode { val: Dec::dec(i)?, left: None, right: None }));
                if slot == 0 {
                    root = Some(Rc::clone(&node));
                } else {
                    let mut parent = RefCell::borrow_mut(&made[(slot - 1) / 2]);
                    if (slot - 1) % 2 == 0 {
                        parent.left = Some(Rc::clone(&node));
                    } else {
                        parent.right = Some(Rc::clone(&node));
                    }
                }
                Vec::push(&mut made, node);
            }
            Ok(root)
        }
    }
    impl Enc for Option<Rc<RefCell<super::TreeNode>>> {
        fn enc(&self, o: &mut String) -> Res<()> {
            let mut seen = HashSet::new();
            let mut level: Vec<Tree> = Vec::new();
            Vec::push(&mut level, Option::clone(self));
            let mut items = String::new();
            let mut keep = 0;
            let mut k = 0;
            while k < level.len() {
                if k > 0 {
                    String::push(&mut items, ',');
                }
                let at = Option::clone(&level[k]);
                k += 1;
                let node = match at {
                    None => {
                        String::push_str(&mut items, "null");
                        continue;
                    }
                    Some(node) => node,
                };
                if !HashSet::insert(&mut seen, Rc::as_ptr(&node) as usize) || seen.len() > MAX_NODES {
                    return Err(s("the returned tree has a cycle or a shared node"));
                }
                let b = RefCell::borrow(&node);
                Enc::enc(&b.val, &mut items)?;
                keep = items.len();
                Vec::push(&mut level, Option::clone(&b.left));
                Vec::push(&mut level, Option::clone(&b.right));
            }
            String::push(o, '[');
            String::push_str(o, &items[..keep]);
            String::push(o, ']');
            Ok(())
        }
    }
    // ---- end ----
}
