// The published package works: `npm pack`, install the tarball into a scratch
// project (offline: posenc has no runtime dependencies), import it, run the bin.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = (args, cwd) =>
  spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

test('npm pack → install → import posenc, init, row 1, npx posenc table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-pack-'));
  try {
    // build.sh already ran (npm test runs it first), so skip the prepack script.
    const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
    assert.is(pack.status, 0, pack.stderr);
    const [info] = JSON.parse(pack.stdout);
    const files = info.files.map((f) => f.path);
    for (const needed of [
      'build/wasm/posenc.wasm',
      'build/wasm/posenc-simd.wasm',
      'src/js/index.js',
      'src/js/index.d.ts',
      'src/js/cli/cli.js',
      'package.json',
      'src/js/relative/relative.js',
      'src/js/relative/relative.d.ts',
      'src/js/cli/t5-buckets.js',
      'src/js/cli/identify.js',
    ]) {
      assert.ok(files.includes(needed), `the tarball holds ${needed}`);
    }
    assert.not.ok(
      files.some((f) => f.startsWith('tests/') || f.startsWith('src/core/') || f.startsWith('node_modules/')),
      'no tests, C sources or deps',
    );

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const install = npm(
      ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', join(dir, info.filename)],
      project,
    );
    assert.is(install.status, 0, install.stderr);

    writeFileSync(
      join(project, 'check.mjs'),
      `
import { init, sinusoidal, alloc, PosencError } from 'posenc';
const { simd } = await init();
const table = sinusoidal({ length: 10, dim: 4 });
const buffer = alloc(40);
sinusoidal({ length: 10, dim: 4, out: buffer });
let refused = '';
try { sinusoidal({ length: 10, dim: 5 }); } catch (e) { refused = e instanceof PosencError ? e.code : 'wrong class'; }
console.log(JSON.stringify({ simd, row1: Array.from(table.subarray(4, 8), (v) => v.toFixed(4)).join(' '),
  same: buffer.array.every((v, i) => Object.is(v, table[i])), refused }));
`,
    );
    const run = spawnSync(process.execPath, ['check.mjs'], { cwd: project, encoding: 'utf8' });
    assert.is(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.is(result.row1, '0.8415 0.5403 0.0100 0.9999');
    assert.is(result.same, true);
    assert.is(result.refused, 'BAD_DIM');

    const npx = spawnSync('npx', ['--no', 'posenc', 'table', '--length', '10', '--dim', '4'], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.is(npx.status, 0, npx.stderr);
    const lines = npx.stdout.split('\n');
    assert.is(lines.length, 11);
    assert.is(lines[1], '0.8415 0.5403 0.0100 0.9999');
    assert.is(lines[0], '0.0000 1.0000 0.0000 1.0000');

    // The installed package's t5-buckets subcommand: one query at key 2 of 5 (T5's encoder buckets).
    const t5 = spawnSync(
      'npx',
      ['--no', 'posenc', 't5-buckets', '--query-length', '1', '--key-length', '5', '--offset', '2'],
      {
        cwd: project,
        encoding: 'utf8',
      },
    );
    assert.is(t5.status, 0, t5.stderr);
    assert.is(t5.stdout, '2 1 0 17 18\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
