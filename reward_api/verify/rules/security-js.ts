// Fixture for security-js.yaml (TypeScript), checked by `semgrep --test`.
// ruleid: js-process-spawn
import { execSync } from "child_process";
// ruleid: js-network-access
import * as net from "net";
// ok: js-network-access
import * as assert from "assert";

const run = (cmd: string): number => {
  assert.ok(net);
  // ruleid: js-process-spawn
  return execSync(cmd).length;
};
