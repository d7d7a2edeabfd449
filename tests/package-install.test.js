// The package as a stranger installs it: what the tarball holds, what its
// package.json and README promise, require() on a Node without require(esm)
// (Node < 20.19, simulated with --no-experimental-require-module), the wasm
// files reachable through `exports`, and the two packaging linters from npm:
// @arethetypeswrong/cli and publint, with nothing left to explain.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packAndInstall, run, output, root } from './support/package-packed.js';

let packed;
test.before(() => {
  packed = packAndInstall({ type: 'commonjs' });
});
test.after(() => packed?.remove());

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

test('the tarball holds the license, README, both wasm builds and both entries, and no sources or tests', () => {
  for (const needed of [
    'LICENSE',
    'README.md',
    'package.json',
    'build/wasm/posenc.wasm',
    'build/wasm/posenc-simd.wasm',
    'src/js/index.js',
    'src/js/index.d.ts',
    'src/js/index.cjs',
    'src/js/index.d.cts',
    'src/js/cli/cli.js',
  ]) {
    assert.ok(packed.files.includes(needed), `the tarball holds ${needed}`);
  }
  assert.not.ok(packed.files.some((f) => /^(tests|src\/core|src\/wasm|src\/cli|web|bench|node_modules)\//.test(f)));
  assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License/);
  assert.is(manifest.license, 'MIT');
});

test('package.json says what the package is: every family in the description and the keywords', () => {
  for (const family of ['sinusoidal', 'RoPE', 'ALiBi', '2-D', 'learned', 'float16', 'bfloat16', 'WebAssembly']) {
    assert.ok(manifest.description.includes(family), `the description names ${family}`);
  }
  for (const keyword of ['positional-encoding', 'rope', 'alibi', 'webassembly'])
    assert.ok(manifest.keywords.includes(keyword));
});

test("the README's first lines say how to install: npm install posenc, the tarball, the git repository", () => {
  const top = readFileSync(join(root, 'README.md'), 'utf8').split('\n').slice(0, 30).join('\n');
  assert.match(top, /npm install posenc\b/);
  assert.match(top, /npm pack/);
  assert.match(top, /posenc-\d+\.\d+\.\d+\.tgz/);
  assert.match(top, /git clone/);
});

// A CommonJS program as a Node 18 user writes it; the flag takes require(esm) away.
const CJS_PROGRAM = `
const posenc = require('posenc');
const esmNames = (namespace) => Object.keys(namespace).sort();
let early = '';
try { posenc.sinusoidal({ length: 1, dim: 2 }); } catch (error) { early = error.code + ': ' + error.message; }
(async () => {
  const { simd } = await posenc.init();
  const esm = await import('posenc');
  let refused = '';
  try { posenc.sinusoidal({ length: 1, dim: 3 }); } catch (error) { refused = error instanceof posenc.PosencError ? error.code : 'wrong class'; }
  const wasmPath = require.resolve('posenc/wasm/posenc.wasm');
  const scalar = await posenc.instantiate({ wasm: require('node:fs').readFileSync(wasmPath) });
  console.log(JSON.stringify({
    early, simd, refused, scalarSimd: scalar.simd,
    row1: Array.from(posenc.sinusoidal({ length: 2, dim: 4 }).subarray(4), (v) => v.toFixed(4)).join(' '),
    cjsNames: esmNames(posenc), esmNames: esmNames(esm),
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

test('require("posenc") on a Node without require(esm): NOT_INITIALIZED before init, then the whole API', () => {
  writeFileSync(join(packed.project, 'check.cjs'), CJS_PROGRAM);
  const result = run(process.execPath, ['--no-experimental-require-module', 'check.cjs'], packed.project);
  assert.is(result.status, 0, output(result));
  const got = JSON.parse(result.stdout);
  assert.match(got.early, /^NOT_INITIALIZED: .*await require\('posenc'\)\.init\(\).*import\('posenc'\)/);
  assert.is(got.refused, 'BAD_DIM');
  assert.is(got.scalarSimd, false, 'the scalar wasm, found through exports, was loaded');
  assert.is(got.row1, '0.8415 0.5403 0.0100 0.9999');
  assert.equal(
    got.cjsNames,
    got.esmNames.filter((name) => name !== 'default'),
    'the CommonJS entry exports what the ES module does',
  );
});

test('ESM: the wasm files resolve through exports (posenc/wasm/…) and load with init({ wasm })', () => {
  writeFileSync(
    join(packed.project, 'check.mjs'),
    `
import { readFile } from 'node:fs/promises';
import { init, sinusoidal } from 'posenc';
const url = import.meta.resolve('posenc/wasm/posenc-simd.wasm');
const { simd } = await init({ wasm: new URL(url) });
console.log(JSON.stringify({ url, simd, bytes: (await readFile(new URL(url))).length, value: sinusoidal({ length: 2, dim: 2 })[2] }));
`,
  );
  const result = run(process.execPath, ['check.mjs'], packed.project);
  assert.is(result.status, 0, output(result));
  const got = JSON.parse(result.stdout);
  assert.ok(got.url.endsWith('/node_modules/posenc/build/wasm/posenc-simd.wasm'), got.url);
  assert.is(got.simd, true);
  assert.ok(got.bytes > 1000);
  assert.is(got.value, Math.fround(Math.sin(1)));
});

// The .wasm subpaths are assets for bundlers, not modules: no types to find
// there, by design, so attw's entry-point check leaves them out.
test('@arethetypeswrong/cli finds no problem in the tarball (the wasm asset subpaths excluded)', () => {
  const result = run(
    process.execPath,
    [
      join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'),
      packed.tarball,
      '--format',
      'json',
      '--exclude-entrypoints',
      './wasm/posenc-simd.wasm',
      './wasm/posenc.wasm',
    ],
    root,
  );
  const report = JSON.parse(result.stdout);
  assert.equal(Object.keys(report.problems), [], output(result));
  assert.equal(report.analysis.problems, [], output(result));
  assert.is(result.status, 0, output(result));
});

test('publint finds nothing in the tarball, not even a suggestion', () => {
  const result = run(
    process.execPath,
    [join(root, 'node_modules/publint/src/cli.js'), 'run', packed.tarball, '--strict'],
    root,
  );
  assert.is(result.status, 0, output(result));
  assert.match(result.stdout, /All good!/, output(result));
});

test.run();
