// Runs the native CLI (build/posenc) and the Node CLI (src/js/cli/cli.js) with the
// same arguments; sameRun asserts they agree byte for byte (stdout, stderr,
// exit code) and returns the native run.
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const NATIVE = join(root, 'build/posenc');
const NODE_CLI = join(root, 'src/js/cli/cli.js');

export const native = (args) => spawnSync(NATIVE, args, { maxBuffer: 1 << 28 });
export const node = (args) => spawnSync(process.execPath, [NODE_CLI, ...args], { maxBuffer: 1 << 28 });

export function sameRun(args) {
  const a = native(args);
  const b = node(args);
  assert.is(b.status, a.status, `exit code of ${args.join(' ')}: node ${b.stderr}`);
  assert.ok(
    Buffer.compare(a.stdout, b.stdout) === 0,
    `stdout of ${args.join(' ')} differs:\nnative ${a.stdout.subarray(0, 300)}\nnode   ${b.stdout.subarray(0, 300)}`,
  );
  assert.is(b.stderr.toString(), a.stderr.toString(), `stderr of ${args.join(' ')}`);
  return a;
}
