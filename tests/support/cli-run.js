// Runs the native CLI (build/posenc) and the Node CLI (src/js/cli/cli.js) with the
// same arguments; sameRun asserts they agree byte for byte (stdout, stderr,
// exit code) and returns the native run.
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/js/cli/main.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const NATIVE = join(root, 'build/posenc');
export const NODE_CLI = join(root, 'src/js/cli/cli.js');

export const native = (args) => spawnSync(NATIVE, args, { maxBuffer: 1 << 28 });
export const node = (args) => spawnSync(process.execPath, [NODE_CLI, ...args], { maxBuffer: 1 << 28 });

/** The Node CLI's main function in this process: { status, stdout, stderr } as spawnSync gives them. */
export async function nodeInProcess(args) {
  const out = [];
  const err = [];
  // Copies: a command may reuse its buffer for the next chunk.
  const stdout = (chunk) => void out.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.slice()));
  const status = await runCli(args, { stdout, stderr: (text) => void err.push(text) });
  return { status, stdout: Buffer.concat(out), stderr: Buffer.from(err.join('')) };
}

export async function sameRunInProcess(args) {
  return agree(args, native(args), await nodeInProcess(args));
}

export function sameRun(args) {
  return agree(args, native(args), node(args));
}

/** Asserts the Node run b printed what the native run a printed; returns a. */
function agree(args, a, b) {
  assert.is(b.status, a.status, `exit code of ${args.join(' ')}: node ${b.stderr}`);
  assert.ok(
    Buffer.compare(a.stdout, b.stdout) === 0,
    `stdout of ${args.join(' ')} differs:\nnative ${a.stdout.subarray(0, 300)}\nnode   ${b.stdout.subarray(0, 300)}`,
  );
  assert.is(b.stderr.toString(), a.stderr.toString(), `stderr of ${args.join(' ')}`);
  return a;
}
