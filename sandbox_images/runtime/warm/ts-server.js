// A warm TypeScript compiler: one node process compiles many programs, so TypeScript
// (about 9 MB of JavaScript) is loaded and optimised once, and the declaration files every
// program shares (lib.*.d.ts, @types/node) are parsed once and reused.
// Protocol (JavacServer's), one line each way:
//   request  "<work dir>\t<file name>\t<transpile | check>"
//   response "ok" | "error\t<diagnostics, newlines escaped as \n>"
// transpile: ts.transpileModule, syntax errors only (types are erased unchecked);
// check: a whole program, type checked; any error refuses to emit (tsc --noEmitOnError).
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const ts = require('/usr/local/lib/node_modules/typescript');  // npm's global prefix

const options = {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  skipLibCheck: true,
};
const shared = new Map();  // declaration files of the root (/usr, /node_modules), parsed once
const base = ts.createCompilerHost(options);
const host = Object.assign({}, base, {
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

function lines(diags) {
  return diags.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file) return text;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${line + 1}: ${text}`;
  });
}

function compile(dir, name, mode) {
  const file = path.join(dir, name);
  const out = file.replace(/\.ts$/, '.js');
  if (mode !== 'check') {
    const r = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      compilerOptions: options, reportDiagnostics: true, fileName: file,
    });
    const errors = r.diagnostics || [];
    if (errors.length) return { ok: false, diagnostics: lines(errors) };
    fs.writeFileSync(out, r.outputText);
    return { ok: true, diagnostics: [] };
  }
  const program = ts.createProgram([file], options, host);
  const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) return { ok: false, diagnostics: lines(errors) };
  program.emit();
  return { ok: true, diagnostics: [] };
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let reply;
  try {
    reply = compile(...line.split('\t'));
  } catch (e) {
    reply = { ok: false, diagnostics: [String(e)] };
  }
  const text = reply.diagnostics.join('\n').replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
  process.stdout.write(reply.ok ? 'ok\n' : `error\t${text}\n`);
});
