// The learned table the page ships (web/models/toy-transformer-wpe.npy) is
// what web/models/train-toy-transformer.js makes from seed 1: retrained here
// (about 1–2 minutes on 2 cores), byte for byte, with the task solved.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readNpy } from '../src/js/index.js';
import { sweep } from './support/quick.js';

const slow = sweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const script = new URL('../web/models/train-toy-transformer.js', import.meta.url).pathname;
const shipped = new URL('../web/models/toy-transformer-wpe.npy', import.meta.url).pathname;

test('the shipped position table is 128 × 16 float32, finite, and not a constant', async () => {
  const { table, rows, dim } = readNpy(new Uint8Array(await readFile(shipped)));
  assert.equal([rows, dim], [128, 16]);
  assert.ok(table.every(Number.isFinite));
  assert.ok(Math.max(...table) - Math.min(...table) > 0.1, 'trained values spread');
});

slow('retraining from seed 1 gives the shipped table byte for byte, with the task solved', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'posenc-train-'));
  try {
    const out = join(dir, 'wpe.npy');
    const { stdout } = await promisify(execFile)('node', [script, '1', out], { timeout: 600_000 });
    const summary = stdout.trim().split('\n').at(-1);
    console.log(`  ${summary}`);
    const accuracy = Number(summary.match(/accuracy ([\d.]+)%/)[1]);
    assert.ok(accuracy >= 95, `accuracy ${accuracy}%`);
    assert.ok(Buffer.compare(await readFile(out), await readFile(shipped)) === 0, 'same bytes as the shipped file');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
