// A lean `npm start`: it installs the root's npm packages and builds the wasm
// only; bench/'s packages (tfjs, ~300 MB, used by the benchmarks and the toy
// model's training script), Chromium and the native test tools come with
// `npm test` / `npm run bench`. Checked on the package files (tfjs is in
// bench/'s own package.json and lock, not the root's; every tfjs import resolves)
// and on build.sh itself, run with a stand-in `npm` that records what it is asked to install.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './support/cli-run.js';

const json = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const TFJS = ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm'];

test("tfjs is bench/'s (its package.json and lock), not the root's; the scripts ask build.sh for what they need", () => {
  const pkg = json('package.json');
  const lock = json('package-lock.json');
  const bench = json('bench/package.json');
  const benchLock = json('bench/package-lock.json');
  for (const name of TFJS) {
    assert.not.ok(pkg.devDependencies?.[name] ?? pkg.dependencies?.[name], `${name} not in the root package.json`);
    assert.not.ok(lock.packages[`node_modules/${name}`], `${name} not in the root lock`);
    assert.ok(bench.dependencies[name], `${name} in bench/package.json`);
    assert.is(benchLock.packages[`node_modules/${name}`].version, bench.dependencies[name], `${name} locked`);
    assert.equal(benchLock.packages[''].dependencies, bench.dependencies, "bench's lock is its package.json's");
  }
  assert.match(pkg.scripts.start, /^bash build\.sh wasm && vite /);
  assert.match(pkg.scripts.test, /^bash build\.sh test && /);
  assert.match(pkg.scripts.bench, /^bash build\.sh bench && /);
});

test('every importer of tfjs finds it (bench/ and the training script under web/models/) after build.sh test', () => {
  for (const from of ['bench/impls/tfjs.js', 'bench/rope-run.js', 'web/models/train-toy-transformer.js']) {
    const require = createRequire(join(root, from));
    for (const name of TFJS) assert.ok(require.resolve(`${name}/package.json`), `${name} from ${from}`);
  }
});

/** Runs build.sh TARGET in a copy of the package files with a recording `npm`; the npm commands it ran. */
function npmCalls(target) {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-start-'));
  try {
    for (const f of ['build.sh', 'package.json', 'package-lock.json', 'bench/package.json', 'bench/package-lock.json'])
      cpSync(join(root, f), join(dir, f));
    // The wasm modules newer than every source: the build has nothing to compile.
    mkdirSync(join(dir, 'src/core'), { recursive: true });
    mkdirSync(join(dir, 'src/wasm'), { recursive: true });
    // The boundary header's generator and its inputs (build.sh regenerates the header before any wasm step).
    mkdirSync(join(dir, 'src/js/runtime'), { recursive: true });
    for (const f of ['src/wasm/boundary-gen.js', 'src/js/runtime/boundary.js', 'src/core/posenc.h'])
      cpSync(join(root, f), join(dir, f));
    mkdirSync(join(dir, 'build/wasm'), { recursive: true });
    const later = new Date(Date.now() + 60_000);
    for (const w of ['posenc.wasm', 'posenc-simd.wasm']) {
      writeFileSync(join(dir, 'build/wasm', w), '');
      utimesSync(join(dir, 'build/wasm', w), later, later);
    }
    const bin = join(dir, 'fake-bin');
    mkdirSync(bin);
    // Records its arguments and makes the directory npm ci would make.
    const npm = `#!/bin/sh\necho "$*" >> "${dir}/npm.log"\nprefix=.\n[ "$3" = bench ] && prefix=bench\nmkdir -p "$prefix/node_modules/@tensorflow" && touch "$prefix/node_modules/.package-lock.json"\n`;
    writeFileSync(join(bin, 'npm'), npm);
    chmodSync(join(bin, 'npm'), 0o755);
    const run = spawnSync('bash', [join(dir, 'build.sh'), target], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, POSENC_NO_BROWSER: '1' },
    });
    assert.is(run.status, 0, run.stderr.toString());
    return readFileSync(join(dir, 'npm.log'), 'utf8').trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("npm start's build (build.sh wasm) installs the root's packages only", () => {
  assert.equal(npmCalls('wasm'), ['ci --no-audit --no-fund']);
});

test.run();
