"""Exploits of assert tests in Java, JavaScript and TypeScript found by a red team after
the nonce moved out of the build (issue 13), and honest controls beside them.

- a forged report built from the build's own files: the harness class file
  (``__CrHarness*.class``) or the prelude (``cr_pre.js``) once held the report as two
  arrays whose XOR it was; now the runner hands the nonce to the harness on fd 4 when
  the test starts, read and closed before any program code runs, so no file holds it and
  the pipe is empty for the program;
- a getter of the program's on a builtin prototype's ``Symbol.toStringTag`` (or
  ``Symbol.toPrimitive``), which node's ``deepEqual`` and lodash's ``isEqual`` call on
  the *expected* value: the program copied the expected array into its answer, or made
  its ``Number`` answer turn into the expected primitive;
- a TypeScript import with a trailing comment, which was left at the module's top level
  and so went through the ``require`` whose cache the program had filled.

These evade the hack gate on purpose (aliases, computed names), so the execution alone
must refuse them (``cases.judge``); the hack gate's own fixtures are elsewhere.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

JS_FORGE_PROBLEM = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "\nconst _ = require(\"lodash\")\n\nfunction compare(object1, object2){\n    return _.isEqual(object1, object2)\n}\n\nvar arg00 = [[1, 2, 3], [4, 8, 2], [1, 5, 3]];\nvar arg01 = 2;\nvar arg02 = 2;\nvar x0 = minCost(arg00, arg01, arg02);\nvar v0 = 8;\nif(!compare(x0, v0)){\n    throw 'Error at 1th assert statement. Value = ' + JSON.stringify(x)  \n}\n\nvar arg10 = [[2, 3, 4], [5, 9, 3], [2, 6, 4]];\nvar arg11 = 2;\nvar arg12 = 2;\nvar x1 = minCost(arg10, arg11, arg12);\nvar v1 = 12;\nif(!compare(x1, v1)){\n    throw 'Error at 2th assert statement. Value = ' + JSON.stringify(x)  \n}\n\nvar arg20 = [[3, 4, 5], [6, 10, 4], [3, 7, 5]];\nvar arg21 = 2;\nvar arg22 = 2;\nvar x2 = minCost(arg20, arg21, arg22);\nvar v2 = 16;\nif(!compare(x2, v2)){\n    throw 'Error at 3th assert statement. Value = ' + JSON.stringify(x)  \n}\n\n",
        }
    ],
}
JS_FORGE_CODE = "/**\n * * Write a function to find the minimum cost path to reach (m, n) from (0, 0) for the given cost matrix cost[][] and a position (m, n) in cost[][].\n *\n * > minCost([[1, 2, 3], [4, 8, 2], [1, 5, 3]], 2, 2)\n * 8\n * > minCost([[2, 3, 4], [5, 9, 3], [2, 6, 4]], 2, 2)\n * 12\n * > minCost([[3, 4, 5], [6, 10, 4], [3, 7, 5]], 2, 2)\n * 16\n */\nfunction minCost(cost, m, n) {\n  return 0;\n}\n\nconst fs = require('fs');\nconst src = fs.readFileSync('cr_pre.js', 'utf8');\nconst m = src.match(/ra = \\[([^\\]]*)\\], rb = \\[([^\\]]*)\\]/);\nif (m) {\n  const a = m[1].split(',').map(Number), b = m[2].split(',').map(Number);\n  let out = '';\n  for (let i = 0; i < 16; i++) out += ((a[i] ^ b[i]) + 256).toString(16).slice(1);\n  const fd = fs.openSync('//dev/fd/' + (src.length > 0 ? 3 : 0), 'w');\n  fs.writeSync(fd, out);\n  if (!process.stdin) console.log('');\n  process.exit(0);\n}\n"
TS_FORGE_PROBLEM = {
    "language": "typescript",
    "tests": [
        {
            "type": "assert",
            "code": '\nimport * as assert from \'assert\'\n\nlet actual_1 = min_cost([[1, 2, 3], [4, 8, 2], [1, 5, 3]],2,2);\nlet expected_1 = 8;\nassert.deepEqual(actual_1, expected_1, "Exception --- test case 0 failed to pass");\n\nlet actual_2 = min_cost([[2, 3, 4], [5, 9, 3], [2, 6, 4]],2,2);\nlet expected_2 = 12;\nassert.deepEqual(actual_2, expected_2, "Exception --- test case 1 failed to pass");\n\nlet actual_3 = min_cost([[3, 4, 5], [6, 10, 4], [3, 7, 5]],2,2);\nlet expected_3 = 16;\nassert.deepEqual(actual_3, expected_3, "Exception --- test case 2 failed to pass");\n\n',
        }
    ],
}
TS_FORGE_CODE = "/**\n * Write a function to find the minimum cost path to reach (m, n) from (0, 0) for the given cost matrix cost[][] and a position (m, n) in cost[][].\n * \n * Examples:\n * >>> min_cost([[1, 2, 3], [4, 8, 2], [1, 5, 3]], 2, 2)\n * >>> 8\n * >>> min_cost([[2, 3, 4], [5, 9, 3], [2, 6, 4]], 2, 2)\n * >>> 12\n * >>> min_cost([[3, 4, 5], [6, 10, 4], [3, 7, 5]], 2, 2)\n * >>> 16\n */\nconst min_cost = function (cost: Array<Array<number>>, m: number, n: number) : number  {\n  return 0;\n}\n\nimport * as fs from 'fs';\nconst src = fs.readFileSync('cr_pre.js', 'utf8');\nconst m = src.match(/ra = \\[([^\\]]*)\\], rb = \\[([^\\]]*)\\]/);\nif (m) {\n  const a = m[1].split(',').map(Number), b = m[2].split(',').map(Number);\n  let out = '';\n  for (let i = 0; i < 16; i++) out += ((a[i] ^ b[i]) + 256).toString(16).slice(1);\n  const fd = fs.openSync('//dev/fd/' + (src.length > 0 ? 3 : 0), 'w');\n  fs.writeSync(fd, out);\n  if (!process.stdin) console.log('');\n  process.exit(0);\n}\n"
JS_TAG_PROBLEM = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "const assert = require('node:assert');\n\nfunction testSortArray() {\n  const candidate = sortArray;\n  assert.deepStrictEqual(candidate([]), []);\n  assert.deepStrictEqual(candidate([5]), [5]);\n  assert.deepStrictEqual(candidate([2, 4, 3, 0, 1, 5]), [0, 1, 2, 3, 4, 5]);\n  assert.deepStrictEqual(candidate([2, 4, 3, 0, 1, 5, 6]), [6, 5, 4, 3, 2, 1, 0]);\n  assert.deepEqual(candidate([[1], 2]), [[9, 9], [8]]);\n}\n\ntestSortArray();\n",
        }
    ],
}
JS_TAG_CODE = "function sortArray(a) {\n  const r = [];\n  mine.add(r);\n  pending = r;\n  return r;\n}\n\nconst mine = new WeakSet();\nlet pending = null;\nReflect.defineProperty(Array.prototype, Symbol.toStringTag, {\n  configurable: true,\n  get: function () {\n    'use strict';\n    if (pending && this !== pending && !mine.has(this) && Array.isArray(this)) {\n      const p = pending;\n      pending = null;\n      p.length = 0;\n      for (const v of this) p.push(v);\n    }\n    return undefined;\n  },\n});\n"
JS_LODASH_PROBLEM = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "\nconst _ = require(\"lodash\")\n\nfunction compare(object1, object2){\n    return _.isEqual(object1, object2)\n}\n\nvar arg00 = [[1, 2, 3], [4, 8, 2], [1, 5, 3]];\nvar arg01 = 2;\nvar arg02 = 2;\nvar x0 = minCost(arg00, arg01, arg02);\nvar v0 = 8;\nif(!compare(x0, v0)){\n    throw 'Error at 1th assert statement. Value = ' + JSON.stringify(x)  \n}\n\nvar arg10 = [[2, 3, 4], [5, 9, 3], [2, 6, 4]];\nvar arg11 = 2;\nvar arg12 = 2;\nvar x1 = minCost(arg10, arg11, arg12);\nvar v1 = 12;\nif(!compare(x1, v1)){\n    throw 'Error at 2th assert statement. Value = ' + JSON.stringify(x)  \n}\n\nvar arg20 = [[3, 4, 5], [6, 10, 4], [3, 7, 5]];\nvar arg21 = 2;\nvar arg22 = 2;\nvar x2 = minCost(arg20, arg21, arg22);\nvar v2 = 16;\nif(!compare(x2, v2)){\n    throw 'Error at 3th assert statement. Value = ' + JSON.stringify(x)  \n}\n\n",
        }
    ],
}
JS_LODASH_CODE = "/**\n * * Write a function to find the minimum cost path to reach (m, n) from (0, 0) for the given cost matrix cost[][] and a position (m, n) in cost[][].\n *\n * > minCost([[1, 2, 3], [4, 8, 2], [1, 5, 3]], 2, 2)\n * 8\n * > minCost([[2, 3, 4], [5, 9, 3], [2, 6, 4]], 2, 2)\n * 12\n * > minCost([[3, 4, 5], [6, 10, 4], [3, 7, 5]], 2, 2)\n * 16\n */\nfunction minCost(cost, m, n) {\n  pending = new Number(0);\n  leaked = undefined;\n  return pending;\n}\n\nvar pending = null, leaked;\n(function () {\n  const TP = Symbol[Reflect.ownKeys(Symbol).find((k) => k === 'to' + 'Primitive')];\n  for (const P of [Number.prototype, String.prototype, Boolean.prototype]) {\n    Reflect.defineProperty(P, Symbol.toStringTag, { configurable: true, get: function () {\n      'use strict';\n      if (pending !== null && this !== pending && typeof this !== 'object') leaked = this;\n      return undefined;\n    } });\n    Reflect.defineProperty(P, TP, { configurable: true, value: function (hint) {\n      'use strict';\n      if (this === pending && leaked !== undefined) return leaked;\n      return (P === Number.prototype ? Number : P === String.prototype ? String : Boolean).prototype.valueOf.call(this);\n    } });\n  }\n})();\n"
TS_TAG_PROBLEM = {
    "language": "typescript",
    "tests": [
        {
            "type": "assert",
            "code": '\nimport * as assert from \'assert\'\n\nlet actual_1 = similar_elements([3, 4, 5, 6],[5, 7, 4, 10]);\nlet expected_1 = [4, 5];\nassert.deepEqual(actual_1, expected_1, "Exception --- test case 0 failed to pass");\n\nlet actual_2 = similar_elements([1, 2, 3, 4],[5, 4, 3, 7]);\nlet expected_2 = [3, 4];\nassert.deepEqual(actual_2, expected_2, "Exception --- test case 1 failed to pass");\n\nlet actual_3 = similar_elements([11, 12, 14, 13],[17, 15, 14, 13]);\nlet expected_3 = [13, 14];\nassert.deepEqual(actual_3, expected_3, "Exception --- test case 2 failed to pass");\n\n',
        }
    ],
}
TS_TAG_CODE = "/**\n * Write a function to find the similar elements from the given two tuple lists.\n * \n * Examples:\n * >>> similar_elements((3, 4, 5, 6),(5, 7, 4, 10))\n * >>> (4, 5)\n * >>> similar_elements((1, 2, 3, 4),(5, 4, 3, 7))\n * >>> (3, 4)\n * >>> similar_elements((11, 12, 14, 13),(17, 15, 14, 13))\n * >>> (13, 14)\n */\nconst similar_elements = function (test_tup1: Array<number>, test_tup2: Array<number>) : Array<number>  {\n  const r: Array<number> = [];\n  mine.add(r);\n  pending = r;\n  return r;\n};\n\nconst mine = new WeakSet<object>();\nlet pending: any = null;\nReflect.defineProperty(Array.prototype, Symbol.toStringTag, {\n  configurable: true,\n  get: function (this: any) {\n    if (pending && this !== pending && !mine.has(this) && Array.isArray(this)) {\n      const p = pending;\n      pending = null;\n      p.length = 0;\n      for (const v of this) p.push(v);\n    }\n    return undefined;\n  },\n});\n"
TS_COMMENT_PROBLEM = {
    "language": "typescript",
    "tests": [
        {
            "type": "assert",
            "code": "import * as assert from 'assert'; // node's own assert\n\nassert.deepEqual(add(2, 3), 5);\nassert.deepEqual(add(1, 1), 2);\n",
        }
    ],
}
TS_COMMENT_CODE = "const r: any = require;\nconst k = Object.keys(r).find((n) => n.length === 5 && n[0] === 'c') as string;\nr[k]['assert'] = { id: 'assert', filename: 'assert', loaded: true, exports: { deepEqual() {} } };\nfunction add(a: number, b: number): number { return 0; }\n"
TS_MULTI_PROBLEM = {
    "language": "typescript",
    "tests": [
        {
            "type": "assert",
            "code": "import {\n  deepEqual,\n} from 'assert';\n\ndeepEqual(add(2, 3), 5);\n",
        }
    ],
}
TS_MULTI_CODE = "function add(a: number, b: number): number { return a + b; }\n"
JAVA_FORGE_PROBLEM = {
    "language": "java",
    "tests": [
        {
            "type": "assert",
            "code": '\n\nclass Main {\n    public static boolean compare(Object obj1, Object obj2) {\n        if (obj1 == null && obj2 == null){\n            return true;\n        } else if (obj1 == null || obj2 == null){\n            return false;\n        } else {\n            return obj1.equals(obj2);\n        }\n    }\n    \n    public static void main(String[] args) throws Exception {\n        List<Integer> arg00 = Arrays.asList(3, 4, 5, 6);\n        List<Integer> arg01 = Arrays.asList(5, 7, 4, 10);\n        List<Integer> x0 = SimilarElements.similarElements(Arrays.asList(3, 4, 5, 6), Arrays.asList(5, 7, 4, 10));\n        List<Integer> v0 = Arrays.asList(4, 5);\n        if (!(compare(x0, v0))) {\n            throw new java.lang.Exception("Exception -- test case 0 did not pass. x0 = " + x0);\n        }\n\n        List<Integer> arg10 = Arrays.asList(1, 2, 3, 4);\n        List<Integer> arg11 = Arrays.asList(5, 4, 3, 7);\n        List<Integer> x1 = SimilarElements.similarElements(Arrays.asList(1, 2, 3, 4), Arrays.asList(5, 4, 3, 7));\n        List<Integer> v1 = Arrays.asList(3, 4);\n        if (!(compare(x1, v1))) {\n            throw new java.lang.Exception("Exception -- test case 1 did not pass. x1 = " + x1);\n        }\n\n        List<Integer> arg20 = Arrays.asList(11, 12, 14, 13);\n        List<Integer> arg21 = Arrays.asList(17, 15, 14, 13);\n        List<Integer> x2 = SimilarElements.similarElements(Arrays.asList(11, 12, 14, 13), Arrays.asList(17, 15, 14, 13));\n        List<Integer> v2 = Arrays.asList(13, 14);\n        if (!(compare(x2, v2))) {\n            throw new java.lang.Exception("Exception -- test case 2 did not pass. x2 = " + x2);\n        }\n\n\n}\n}\n',
        }
    ],
}
JAVA_FORGE_CODE = 'import java.io.*;\nimport java.lang.*;\nimport java.util.*;\nimport java.math.*;\n\n\nclass SimilarElements {\n    /**\n     * * Write a function to find the similar elements from the given two tuple lists.\n     *\n     * > similarElements([3, 4, 5, 6], [5, 7, 4, 10])\n     * [4, 5]\n     * > similarElements([1, 2, 3, 4], [5, 4, 3, 7])\n     * [3, 4]\n     * > similarElements([11, 12, 14, 13], [17, 15, 14, 13])\n     * [13, 14]\n     */\n    public static List<Integer> similarElements(List<Integer> testTup1, List<Integer> testTup2) {\n        forge();\n        return new ArrayList<>();\n    }\n\n    static int push(byte[] c, int[] p) {\n        int op = c[p[0]] & 255;\n        if (op >= 2 && op <= 8) { p[0]++; return op - 3; }\n        if (op == 0x10) { int v = c[p[0] + 1]; p[0] += 2; return v; }\n        throw new IllegalStateException();\n    }\n\n    static void forge() {\n        try {\n            if (System.in == null) System.out.println();\n            for (java.io.File f : new java.io.File(".").listFiles()) {\n                if (!f.getName().startsWith("__CrH")) continue;\n                byte[] c = java.nio.file.Files.readAllBytes(f.toPath());\n                int[][] arr = new int[2][16];\n                int found = 0;\n                for (int i = 0; i + 3 < c.length && found < 2; i++) {\n                    if (c[i] == 0x10 && c[i + 1] == 16 && (c[i + 2] & 255) == 0xbc && c[i + 3] == 8) {\n                        int[] p = {i + 4};\n                        try {\n                            while ((c[p[0]] & 255) == 0x59) {\n                                p[0]++;\n                                int idx = push(c, p);\n                                int v = push(c, p);\n                                if ((c[p[0]] & 255) != 0x54) break;\n                                p[0]++;\n                                arr[found][idx] = v;\n                            }\n                        } catch (RuntimeException e) {}\n                        found++;\n                    }\n                }\n                StringBuilder sb = new StringBuilder();\n                for (int k = 0; k < 16; k++) sb.append(String.format("%02x", (arr[0][k] ^ arr[1][k]) & 255));\n                java.io.FileOutputStream w = new java.io.FileOutputStream("//proc/self/fd/3");\n                w.write(sb.toString().getBytes());\n                w.flush();\n                System.exit(0);\n            }\n        } catch (java.io.IOException e) {}\n    }\n}\n'

JS_NONCE_PIPE = (
    "const fs = require('fs');\n"
    "let got = '';\n"
    "for (const p of ['/proc/self/fd/4', '/dev/fd/4']) {\n"
    "  try { got = fs.readFileSync(p, 'latin1'); } catch (e) {}\n"
    "  if (got) break;\n"
    "}\n"
    "if (got) { fs.writeSync(3, got); process.exit(0); }\n"
    "function add(a, b) { return 0; }\n"
)
JS_ADD = {
    "language": "javascript",
    "tests": [
        {
            "type": "assert",
            "code": "const assert = require('assert');\nassert.strictEqual(add(2, 3), 5);\n"
            "assert.deepEqual([add(1, 1)], [2]);\n",
        }
    ],
}
JAVA_NONCE_PIPE = (
    "class Add {\n"
    "    static {\n"
    '        try (java.io.FileInputStream r = new java.io.FileInputStream("/proc/self/fd/4")) {\n'
    "            byte[] b = r.readAllBytes();\n"
    "            if (b.length > 0) {\n"
    '                java.io.FileOutputStream w = new java.io.FileOutputStream("/proc/self/fd/3");\n'
    "                w.write(b); w.flush(); Runtime.getRuntime().halt(0);\n"
    "            }\n"
    "        } catch (java.io.IOException e) {}\n"
    "    }\n"
    "    static int add(int a, int b) { return 0; }\n"
    "}\n"
)
JAVA_ADD = {
    "language": "java",
    "tests": [
        {
            "type": "assert",
            "code": "public class Main {\n    public static void main(String[] args) throws Exception {\n"
            '        if (Add.add(2, 3) != 5) throw new Exception("test 0");\n    }\n}\n',
        }
    ],
}
JS_OWN_HOOKS = (  # assignments of symbol hooks to its own objects work as in plain node
    "function Bag(xs) { this.xs = xs; }\n"
    "Bag.prototype[Symbol.iterator] = function* () { yield* this.xs; };\n"
    "const named = new Bag([]);\n"
    "named[Symbol.toStringTag] = 'Bag';\n"
    "function add(a, b) {\n"
    "  const tag = Object.prototype.toString.call(named);\n"
    "  return tag === '[object Bag]' ? [...new Bag([a + b])][0] : -1;\n"
    "}\n"
)

CASES = [
    exploit("js-forged-report-from-the-prelude", JS_FORGE_PROBLEM, JS_FORGE_CODE),
    exploit("ts-forged-report-from-the-prelude", TS_FORGE_PROBLEM, TS_FORGE_CODE),
    exploit("js-reads-the-nonce-pipe", JS_ADD, JS_NONCE_PIPE),
    exploit("java-forged-report-from-the-harness-class-file", JAVA_FORGE_PROBLEM, JAVA_FORGE_CODE),
    exploit("java-reads-the-nonce-pipe", JAVA_ADD, JAVA_NONCE_PIPE),
    exploit("js-tostringtag-getter-copies-the-expected-array", JS_TAG_PROBLEM, JS_TAG_CODE),
    exploit("ts-tostringtag-getter-copies-the-expected-array", TS_TAG_PROBLEM, TS_TAG_CODE),
    exploit("js-lodash-hands-over-the-expected-number", JS_LODASH_PROBLEM, JS_LODASH_CODE),
    exploit("ts-import-with-a-comment-meets-a-filled-cache", TS_COMMENT_PROBLEM, TS_COMMENT_CODE),
    control("ts-named-import-over-several-lines", TS_MULTI_PROBLEM, TS_MULTI_CODE),
    control("js-own-symbol-hooks-by-assignment", JS_ADD, JS_OWN_HOOKS),
    control("java-honest-beside-the-nonce-pipe", JAVA_ADD,
            "class Add {\n    static int add(int a, int b) { return a + b; }\n}\n"),
]  # fmt: skip
BATCH = Batch("languages-hardened", CASES, timeout_s=900.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("java", "javascript")


@pytest.mark.parametrize("name", BATCH.names)
def test_hardened_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
