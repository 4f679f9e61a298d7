'use strict';
// The startup snapshot every JavaScript and TypeScript test starts from
// (`node --snapshot-blob /usr/lib/codereward/node.blob [-r PRELUDE] main.js`).
//
// Debian's node is built without Node's own startup snapshot and without the code cache of
// its built-in modules, so every plain `node` runs its whole bootstrap in JavaScript (about
// 95 ms of a 105 ms start here). This file is run once, when the runtime root is built
// (`node --snapshot-blob ... --build-snapshot node-boot.js`): the heap it leaves, the
// bootstrap done and the modules below loaded, is what each test's node deserializes.
//
// What a test sees is what plain `node main.js` gives it: node refreshes process.argv,
// process.env, the clock and the random seeds on deserialization; `-r` preloads run before
// the main function, as they do before the main module; the main module is loaded by the
// CommonJS loader's own `runMain`, so `require`, `module`, `require.main === module` and the
// exit codes are node's (tests/languages/test_node_snapshot.py compares them).
//
// Only built-in modules that Node 18 supports in a user snapshot are loaded here (no native
// handles: no crypto, child_process, net or worker_threads); any other loads at run time.
const v8 = require('v8');

for (const name of ['assert', 'buffer', 'events', 'fs', 'path', 'string_decoder', 'util']) {
  require(name);
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // `module` is not a snapshot-supported built-in, so node warns on stderr when this
  // function asks for it; the warning is about this file, never the program's.
  const emitWarning = process.emitWarning;
  let Module;
  process.emitWarning = () => {};
  try {
    Module = require('module');
  } finally {
    process.emitWarning = emitWarning;
  }
  if (process.argv.length > 1) {
    process.argv[1] = require('path').resolve(process.argv[1]);
  }
  Module.runMain();
});
