// A warm TypeScript compiler and JavaScript syntax checker for a compile cell
// (reward_api.verify.languages, "warm compilers"): one node process serves many programs,
// so TypeScript (about 9 MB of JavaScript) is loaded and optimised once, and the
// declaration files every program shares (lib.*.d.ts, @types/node under /usr and
// /node_modules, read-only in the cell) are parsed once and reused. It never runs program
// code: TypeScript only parses, checks and emits; a JavaScript check only compiles.
// Started as `node compile-server.js MODE` (tsc or js); it warms up on a program of its
// own (TypeScript: loaded, lib files parsed) and says "ready", then one line each way:
//   request  "<build dir>\t<mode>\t<file>"        mode: "tsc" or "js"
//   response "ok" | "error\t<diagnostics, backslashes and newlines escaped>"
//            | "crash\t<the exception>", after which the server ends (the compiler threw)
// tsc: the recipe's `tsc --target es2020 --module commonjs --skipLibCheck --outDir DIR
// FILE`: a whole program, type checked; any error fails the build (tsc exits non-zero).
// js: `node --check FILE` for a CommonJS file: the source compiled as a module function.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const vm = require('vm');

let ts = null;  // loaded by a tsc server only: a JavaScript cell never pays it
const shared = new Map();
let host = null;

function tsHost(options) {
  const base = ts.createCompilerHost(options);
  return Object.assign({}, base, {
    getSourceFile(name, version, onError, fresh) {
      const mine = !name.startsWith('/usr/') && !name.startsWith('/node_modules/');
      if (mine) return base.getSourceFile(name, version, onError, fresh);
      let sf = shared.get(name);
      if (sf === undefined) {
        sf = base.getSourceFile(name, version, onError, fresh);
        shared.set(name, sf);
      }
      return sf;
    },
  });
}

function format(d) {
  const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file) return `error TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.basename(d.file.fileName)}(${line + 1},${character + 1}): error TS${d.code}: ${text}`;
}

function tsc(dir, name) {
  if (ts === null) ts = require('/usr/local/lib/node_modules/typescript');  // npm's global prefix
  const options = {
    target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, skipLibCheck: true, outDir: dir,
  };
  if (host === null) host = tsHost(options);
  const program = ts.createProgram([path.join(dir, name)], options, host);
  let errors = ts.getPreEmitDiagnostics(program);
  if (!errors.some((d) => d.category === ts.DiagnosticCategory.Error)) {
    errors = errors.concat(program.emit().diagnostics);
  }
  errors = errors.filter((d) => d.category === ts.DiagnosticCategory.Error);
  return errors.length ? errors.map(format) : null;
}

function js(dir, name) {
  const file = path.join(dir, name);
  let source = fs.readFileSync(file, 'utf8');
  if (source.charCodeAt(0) === 0xFEFF) source = source.slice(1);
  try {
    vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  } catch (e) {
    // node --check's message: where, the line with a caret under the error, then the error
    const text = e && typeof e.stack === 'string' ? e.stack.split('\n    at ')[0] : String(e);
    return [text.split(file).join(name)];
  }
  return null;
}

fs.writeFileSync('warm.ts', 'const x: number[] = [1, 2].map((n) => n * 2);\nconsole.log(x);\n');
if (process.argv[2] === 'tsc') tsc(process.cwd(), 'warm.ts');
else js(process.cwd(), 'warm.ts');
process.stdout.write('ready\n');

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [dir, mode, name] = line.split('\t');
  let errors;
  try {
    errors = mode === 'tsc' ? tsc(dir, name) : js(dir, name);
  } catch (e) {
    // the compiler itself threw (a stack overflow on a hostile program): the shared
    // declaration files may be half bound, so this server says "crash" and ends; the
    // runner compiles the build again once in a fresh one
    const text = String(e && e.stack ? e.stack : e).slice(0, 2000);
    process.stdout.write(`crash\t${text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n`, () => process.exit(0));
    return;
  }
  const text = (errors || []).join('\n').replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
  process.stdout.write(errors ? `error\t${text}\n` : 'ok\n');
});
