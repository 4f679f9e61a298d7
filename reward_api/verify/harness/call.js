// codereward: the trusted harness of a JavaScript or TypeScript call test
// (reward_api/verify/calls.py). This part runs before the program and keeps its own
// references to what it uses (so a program that replaces JSON, Array.isArray or
// fs.writeSync changes nothing here); the part after the program finds the entry point
// (class_name's method, else a function, else Solution's method), calls it with the
// JSON arguments read on stdin, encodes the returned value as JSON by its own code (no
// toJSON or toString of the program is asked), reports NONCE LENGTH '\n' JSON on fd 3
// and exits.
const __cr_call___CR_NONCE__ = (function () {
  const fs = require('fs');
  const write = fs.writeSync, read = fs.readFileSync, parse = JSON.parse, isArray = Array.isArray;
  const keys = Object.keys, proto = Object.getPrototypeOf, apply = Reflect.apply;
  const code = String.prototype.charCodeAt, hex = Number.prototype.toString, str = String;
  const byteLength = Buffer.byteLength, exit = process.exit, isFinite = Number.isFinite;
  const mapEach = Map.prototype.forEach, setEach = Set.prototype.forEach;
  const isView = ArrayBuffer.isView, ObjectProto = Object.prototype;
  const own = Object.getOwnPropertyDescriptor, SetC = Set, has = Set.prototype.has, add = Set.prototype.add;
  const LINKS = { list: ['next'], tree: ['left', 'right'] };
  let nodes = { list: null, tree: null };  // LeetCode's node constructors the program names: {list: ListNode, tree: TreeNode}
  function bad(why) { return { __cr_bad: why }; }
  function s(t) {
    let o = '"';
    for (let i = 0; i < t.length; i++) {
      const c = apply(code, t, [i]);
      if (c === 34) o += '\\"';
      else if (c === 92) o += '\\\\';
      else if (c < 0x20 || c > 0x7e) o += '\\u' + ('000' + apply(hex, c, [16])).slice(-4);
      else o += t[i];
    }
    return o + '"';
  }
  function enc(v, depth) {
    if (depth > 10000) throw bad('the returned value is nested too deeply');
    if (v === null || v === undefined) return 'null';
    const t = typeof v;
    if (t === 'boolean') return v ? 'true' : 'false';
    if (t === 'number') return isFinite(v) ? str(v) : (v !== v ? 'NaN' : (v > 0 ? 'Infinity' : '-Infinity'));
    if (t === 'bigint') return str(v);
    if (t === 'string') return s(v);
    if (t !== 'object') throw bad('the entry point returned a ' + t);
    const parts = [];
    let list = false;  // not a type guard: TypeScript must not narrow v
    if (isArray(v) || isView(v)) list = true;
    if (list) {
      for (let i = 0; i < v.length; i++) parts[parts.length] = enc(v[i], depth + 1);
      return '[' + parts.join(',') + ']';
    }
    if (v instanceof Set) {
      apply(setEach, v, [function (x) { parts[parts.length] = enc(x, depth + 1); }]);
      return '[' + parts.join(',') + ']';
    }
    if (v instanceof Map) {
      apply(mapEach, v, [function (x, k) {
        const key = typeof k === 'string' ? s(k) : s(enc(k, depth + 1));
        parts[parts.length] = key + ':' + enc(x, depth + 1);
      }]);
      return '{' + parts.join(',') + '}';
    }
    const p = proto(v);
    if (nodes.list && p === nodes.list.prototype) return encNodes(v, 'list', depth);
    if (nodes.tree && p === nodes.tree.prototype) return encNodes(v, 'tree', depth);
    if (p !== ObjectProto && p !== null) throw bad('the entry point returned an object of the program\'s class');
    const ks = keys(v);
    for (let i = 0; i < ks.length; i++) parts[parts.length] = s(ks[i]) + ':' + enc(v[ks[i]], depth + 1);
    return '{' + parts.join(',') + '}';
  }
  // a list's values, or a tree's level order with null for a missing child and trailing
  // nulls cut; only own data properties are read (no getter of the program runs)
  function field(n, name, kind) {
    const d = own(n, name);
    if (!d || !('value' in d)) throw bad('a returned ' + kind + ' node has no ' + name + ' value');
    return d.value;
  }
  function encNodes(v, kind, depth) {
    const seen = new SetC(), level = [v], items = [];
    let keep = 0;
    for (let i = 0; i < level.length; i++) {
      const n = level[i];
      if (n === null || n === undefined) { items[items.length] = 'null'; continue; }
      if (typeof n !== 'object' || proto(n) !== nodes[kind].prototype || apply(has, seen, [n]) || seen.size > 4194304)
        throw bad('the returned ' + kind + ' has a cycle, a shared node or a node of another type');
      apply(add, seen, [n]);
      items[items.length] = enc(field(n, 'val', kind), depth + 1);
      keep = items.length;
      const links = LINKS[kind];
      for (let k = 0; k < links.length; k++) level[level.length] = field(n, links[k], kind);
    }
    items.length = keep;
    return '[' + items.join(',') + ']';
  }
  function build(x, kind, C, i) {
    if (x === null) return null;
    if (!isArray(x)) fail('args', 'argument ' + (i + 1) + ': expected a list for a ' + (kind === 'list' ? 'ListNode' : 'TreeNode'));
    const made = [];
    let root = null;
    for (let k = 0, slot = 0; k < x.length; k++, slot++) {
      if (kind === 'tree' && x[k] === null) continue;
      if (slot > (kind === 'list' ? made.length : 2 * made.length))
        fail('args', 'argument ' + (i + 1) + ': the level order places a node under no parent');
      const n = new C(x[k]);
      n.val = x[k];
      if (kind === 'list') n.next = null;
      else { n.left = null; n.right = null; }
      if (slot === 0) root = n;
      else if (kind === 'list') made[slot - 1].next = n;
      else made[(slot - 1) >> 1][(slot - 1) % 2 === 0 ? 'left' : 'right'] = n;
      made[made.length] = n;
    }
    return root;
  }
  // the result: a null node, alone or in a declared list of them, is LeetCode's []
  function encResult(v, ret) {
    if (!ret || !nodes[ret.kind] || !(ret.many ? isArray(v) : v === null || v === undefined)) return enc(v, 0);
    if (!ret.many) return '[]';
    const parts = [];
    for (let i = 0; i < v.length; i++) parts[parts.length] = v[i] === null || v[i] === undefined ? '[]' : enc(v[i], 1);
    return '[' + parts.join(',') + ']';
  }
  function report(json) {
    write(3, '__CR_NONCE__' + byteLength(json, 'utf8') + '\n' + json);
    exit(0);
  }
  function fail(kind, why) { report('{"error":' + s(str(why)) + ',"kind":"' + kind + '"}'); }
  function args() {
    let a;
    try { a = parse(read(0, 'utf8')); } catch (e) { fail('args', 'the arguments are not JSON'); }
    if (!isArray(a)) fail('args', 'the arguments are not a list');
    return a;
  }
  return function (f, self, name, kinds, ret, types) {
    if (typeof f !== 'function') fail('entry', name);
    nodes = types;
    const a = args();
    for (let i = 0; i < a.length && i < kinds.length; i++) {
      const k = kinds[i];
      if (!k || !nodes[k.kind]) continue;
      if (!k.many) a[i] = build(a[i], k.kind, nodes[k.kind], i);
      else if (isArray(a[i])) for (let j = 0; j < a[i].length; j++) a[i][j] = build(a[i][j], k.kind, nodes[k.kind], i);
    }
    const v = apply(f, self, a);
    let json;
    try { json = encResult(v, ret); } catch (e) {
      if (e && typeof e === 'object' && typeof e.__cr_bad === 'string') fail('value', e.__cr_bad);
      throw e;
    }
    report('{"ok":' + json + '}');
  };
})();
// ---- after the program ----
// (the wrapper's own names carry the nonce: a local ``f``, ``self`` or ``call`` hid the
// program's function of that name from the lookup, and HumanEval/106's is called ``f``)
;(function (__cr_go___CR_NONCE__) {
  let __cr_self___CR_NONCE__ = null, __cr_f___CR_NONCE__ = undefined;
  __CR_LOOKUP__
  __cr_go___CR_NONCE__(__cr_f___CR_NONCE__, __cr_self___CR_NONCE__, __CR_MISSING__, __CR_KINDS__, __CR_RET__, __CR_NODES__);
})(__cr_call___CR_NONCE__);
