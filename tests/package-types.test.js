// The TypeScript declarations (src/js/index.d.ts) against a strict usage file:
// good calls compile, refused ones are marked @ts-expect-error and must fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));

test('index.d.ts type-checks a strict usage file, and refuses what the API refuses', () => {
  const run = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  assert.is(run.status, 0, `tsc:\n${run.stdout}${run.stderr}`);
});

test.run();
