// Fixture for security-js.yaml (JavaScript), checked by `semgrep --test`.
// ruleid: js-process-spawn
const cp = require("child_process");
// ruleid: js-network-access
const http = require("http");
// ok: js-network-access
const fs = require("fs");

function run(cmd) {
  // ruleid: js-process-spawn
  const out = cp.execSync(cmd);
  // ruleid: js-network-access
  fetch("http://example.com/answers");
  // ruleid: js-eval
  const v = eval("1 + 1");
  // ok: js-eval
  const evaluated = [1, 2].map((x) => x * 2);
  return out.length + v + evaluated.length + fs.constants.F_OK + http.STATUS_CODES.length;
}
