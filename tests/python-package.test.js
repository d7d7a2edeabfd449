// The Python package (src/python, README "Python"): `pip install .` into a
// fresh virtualenv with no index (offline: the in-tree backend needs nothing
// downloaded), its unit tests (src/python/tests, torch required) against the
// installed package, shared cases giving the JS package's bits, `python -m
// posenc` printing the Node CLI's bytes, and the README's Python block.
// Debian's python3 with python3-numpy, python3-venv and python3-torch (build.sh test installs them).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instantiate } from '../src/js/index.js';
import { taggedBlock } from './support/docs-blocks.js';
import { generator, seedFromEnv } from './support/random.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'posenc-python-'));
const venv = join(scratch, 'venv');
const python = join(venv, 'bin/python');
test.after(() => rmSync(scratch, { recursive: true, force: true }));

// No index and no user configuration: an install that needs the network fails here.
const env = { ...process.env, PIP_NO_INDEX: '1', PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
delete env.PYTHONPATH;
const run = (command, args, options = {}) =>
  spawnSync(command, args, { cwd: scratch, env, encoding: 'utf8', maxBuffer: 1 << 28, ...options });
const output = (r) => `status ${r.status}\n${r.stdout}\n${r.stderr}`;

const seed = seedFromEnv();
console.log(`python-package.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);

let installed = false;
test('pip install . builds the wheel offline and installs it into a virtualenv', () => {
  const made = run('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
  assert.is(made.status, 0, output(made));
  const started = Date.now();
  const pip = run(join(venv, 'bin/pip'), ['install', '--no-index', '--no-cache-dir', root]);
  assert.is(pip.status, 0, output(pip));
  console.log(`python-package: pip install . took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const where = run(python, ['-c', 'import posenc; print(posenc.library_path); print(posenc.__version__)']);
  assert.is(where.status, 0, output(where));
  const [library, version] = where.stdout.trim().split('\n');
  assert.ok(library.startsWith(join(venv, 'lib')), `the wheel's own library is loaded: ${library}`);
  assert.is(version, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  installed = true;
});

test('the unit tests pass against the installed package (torch included)', () => {
  assert.ok(installed, 'installed');
  const tests = join(root, 'src/python/tests');
  const r = run(python, ['-m', 'unittest', 'discover', '-s', tests, '-t', tests, '-v'], {
    env: { ...env, POSENC_REQUIRE_TORCH: '1' },
  });
  const ran = /Ran (\d+) tests?/.exec(r.stderr);
  console.log(`python-package: unittest ${ran ? ran[0] : '?'}, ${r.status === 0 ? 'OK' : 'FAILED'}`);
  assert.is(r.status, 0, output(r));
  assert.ok(Number(ran[1]) >= 20, `only ${ran[1]} tests ran`);
  assert.not.match(r.stderr, /skipped/);
});

// ---- shared cases: the same call in both packages, compared bit for bit ----

const LLAMA3 = {
  rope_type: 'llama3',
  factor: 8,
  low_freq_factor: 1,
  high_freq_factor: 4,
  original_max_position_embeddings: 8192,
};
const YARN = { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 };

/** Random float32 values in (-2, 2), or 16-bit patterns of finite float16/bfloat16 values. */
function randomX(count, dtype) {
  if (dtype === 'float32') return Float32Array.from({ length: count }, () => (rng.next() * 4 - 2) * rng.next());
  const top = dtype === 'float16' ? 0x7c00 : 0x7f80; // exponent all ones: inf and NaN, left out
  return Uint16Array.from({ length: count }, () => {
    let bits;
    do bits = rng.int(0, 0xffff);
    while ((bits & top) === top);
    return bits;
  });
}
const b64 = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength).toString('base64');
const spec = (typed, shape) => ({
  b64: b64(typed),
  dtype: typed instanceof Float32Array ? '<f4' : '<u2',
  shape,
});

function cases() {
  const list = [];
  const add = (py, js) => list.push({ py, js });
  // sinusoidal: odd dims of pairs, positions near 2^31, every dtype, presets, a position list
  const length = rng.int(1, 40);
  const dim = 2 * rng.int(1, 70);
  add({ call: 'sinusoidal', kwargs: { length, dim, offset: 2 ** 31 - length } }, (p) =>
    p.sinusoidal({ length, dim, offset: 2 ** 31 - length }),
  );
  for (const dtype of ['float16', 'bfloat16'])
    add({ call: 'sinusoidal', kwargs: { length: 17, dim: 34, offset: 123457, base: 500000, dtype } }, (p) =>
      p.sinusoidal({ length: 17, dim: 34, offset: 123457, base: 500000, dtype }),
    );
  add({ call: 'sinusoidal', kwargs: { length: 9, dim: 10, offset: 2, preset: 'fairseq' } }, (p) =>
    p.sinusoidal({ length: 9, dim: 10, offset: 2, preset: 'fairseq' }),
  );
  const positions = Array.from({ length: 12 }, () => rng.int(0, 2 ** 31 - 1));
  add({ call: 'sinusoidal', kwargs: { dim: 26, positions } }, (p) => p.sinusoidalAt(positions, { dim: 26 }));
  // rope: scalings, layouts, orders, positions, float16/bfloat16 bits, torch tensors
  const heads = rng.int(1, 5);
  const rows = rng.int(1, 9);
  for (const [dtype, torch] of [
    ['float32', null],
    ['float32', 'float32'],
    ['float16', null],
    ['bfloat16', null],
    ['bfloat16', 'bfloat16'],
  ]) {
    const x = randomX(2 * rows * heads * 128, dtype);
    const shape = [2, rows, heads, 128];
    const offset = rng.int(0, 2 ** 20);
    const kwargs = { offset, base: 500000, scaling: LLAMA3, ...(dtype === 'float32' ? {} : { dtype }) };
    add({ call: 'rope', x: spec(x, shape), kwargs, torch }, (p) =>
      p.rope(x.slice(), { length: rows, heads, headDim: 128, offset, base: 500000, scaling: LLAMA3, dtype }),
    );
  }
  {
    const x = randomX(heads * rows * 80, 'float32');
    const ids = Array.from({ length: rows }, () => rng.int(0, 2 ** 31 - 1));
    add(
      {
        call: 'rope',
        x: spec(x, [1, heads, rows, 80]),
        kwargs: { positions: ids, order: 'bhld', layout: 'interleaved', rotary_dim: 64, inverse: true },
      },
      (p) =>
        p.rope(x.slice(), {
          length: rows,
          heads,
          headDim: 80,
          positions: ids,
          order: 'bhld',
          layout: 'interleaved',
          rotaryDim: 64,
          inverse: true,
        }),
    );
  }
  for (const dtype of ['float32', 'float16', 'bfloat16', 'float64'])
    add(
      {
        call: 'rope_cos_sin',
        kwargs: { head_dim: 64, length: 11, offset: 50000, base: 1000000, scaling: YARN, dtype, expand: true },
      },
      (p) => {
        const { cos, sin } = p.ropeCosSin({
          headDim: 64,
          length: 11,
          offset: 50000,
          base: 1000000,
          scaling: YARN,
          dtype,
          expand: true,
        });
        return Buffer.concat([Buffer.from(cos.buffer), Buffer.from(sin.buffer)]);
      },
    );
  add({ call: 'rope_frequencies', kwargs: { head_dim: 128, base: 500000, scaling: LLAMA3 } }, (p) => {
    const { frequencies, attentionFactor } = p.ropeFrequencies({ headDim: 128, base: 500000, scaling: LLAMA3 });
    return Buffer.concat([Buffer.from(frequencies.buffer), Buffer.from(new Float64Array([attentionFactor]).buffer)]);
  });
  add({ call: 'alibi_bias', kwargs: { heads: 12, query_length: 7, key_length: 300, causal: true } }, (p) =>
    p.alibiBias({ heads: 12, queryLength: 7, keyLength: 300, causal: true }),
  );
  return list;
}

test("shared cases give the JS package's bits (both wasm builds)", async () => {
  assert.ok(installed, 'installed');
  const list = cases();
  // identify: the facts JSON of a float32-angle table with a first row of padding
  const table = new Float32Array(300 * 32);
  const wasm = await instantiate({ simd: true });
  table.set(wasm.sinusoidal({ length: 299, dim: 32, offset: 7, preset: 'marian' }), 32);
  list.push({
    py: { call: 'identify', x: spec(table, [300, 32]) },
    js: (p) => Buffer.from(p.identify(table, { rows: 300, dim: 32 }).json),
  });
  const r = run(python, [join(root, 'src/python/tests/shared_cases.py')], {
    input: JSON.stringify(list.map((c) => c.py)),
  });
  assert.is(r.status, 0, output(r));
  const got = JSON.parse(r.stdout).map((text) => Buffer.from(text, 'base64'));
  let bytes = 0;
  for (const p of [wasm, await instantiate({ simd: false })]) {
    list.forEach((c, k) => {
      const value = c.js(p);
      const expected = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      assert.ok(expected.length > 0, `case ${k} (${c.py.call}) is not empty`);
      assert.ok(
        got[k].equals(expected),
        `case ${k} (${c.py.call} ${JSON.stringify(c.py.kwargs ?? {})}): Python's bytes differ from JS's`,
      );
      bytes += expected.length;
    });
  }
  console.log(`python-package: ${list.length} cases, ${bytes} bytes equal to the JS package's (SIMD and scalar wasm)`);
});

test('python -m posenc prints the bytes of the Node CLI', () => {
  assert.ok(installed, 'installed');
  const config = join(scratch, 'llama31.json');
  writeFileSync(
    config,
    JSON.stringify({
      model_type: 'llama',
      hidden_size: 4096,
      num_attention_heads: 32,
      rope_theta: 500000,
      rope_scaling: LLAMA3,
    }),
  );
  const npy = join(scratch, 'table.npy');
  const made = run(process.execPath, [join(root, 'src/js/cli/cli.js'), 'table', '--length', '64', '--dim', '16']);
  assert.is(made.status, 0);
  for (const args of [
    ['table', '--length', '5', '--dim', '6', '--offset', '2147483640'],
    ['table', '--length', '3', '--dim', '8', '--format', 'csv', '--preset', 'marian'],
    ['table', '--length', '3', '--dim', '8', '--format', 'json', '--dtype', 'bfloat16'],
    ['table', '--length', '3', '--dim', '8', '--format', 'npy', '--dtype', 'float16'],
    ['table', '--length', '4', '--dim', '4', '--format', 'npy', '--output', npy],
    ['rope', '--config', config],
    ['rope', '--config', config, '--format', 'csv', '--dtype', 'bfloat16'],
    ['rope', '--config', config, '--what', 'cos-sin', '--length', '3', '--offset', '9000', '--format', 'json'],
    ['identify', npy],
    ['identify', npy, '--json'],
    ['table', '--length', '4', '--dim', '7'],
    ['table', '--length', '4', '--dim', '4', '--base', '1'],
    ['identify', join(scratch, 'missing.npy')],
    ['rope'],
  ]) {
    const node = spawnSync(process.execPath, [join(root, 'src/js/cli/cli.js'), ...args], { cwd: scratch });
    const py = spawnSync(python, ['-m', 'posenc', ...args], { cwd: scratch, env });
    const line = args.join(' ');
    assert.is(py.status, node.status, `exit status of ${line}: ${py.stderr}`);
    assert.ok(py.stdout.equals(node.stdout), `${line}:\nnode ${node.stdout.subarray(0, 200)}\npy   ${py.stdout}`);
    if (node.status !== 0) assert.match(py.stderr.toString(), /^posenc: /);
  }
  // A closed pipe ends quietly with status 0.
  const piped = spawnSync(
    'bash',
    ['-o', 'pipefail', '-c', `"${python}" -m posenc table --length 100000 --dim 64 | head -c 10`],
    {
      cwd: scratch,
      env,
      encoding: 'utf8',
    },
  );
  assert.is(piped.status, 0);
  assert.is(piped.stderr, '');
});

test("the README's Python block runs with the installed package and prints what it says", () => {
  assert.ok(installed, 'installed');
  const code = taggedBlock('python-example');
  const r = run(python, ['-c', code]);
  assert.is(r.status, 0, output(r));
  const [verdict, code2] = r.stdout.trim().split('\n');
  assert.ok(verdict.startsWith('interleaved layout (sines first), paper frequencies'), verdict);
  assert.is(code2, 'BAD_DIM');
  assert.match(code, /row 1 is 0\.8415 0\.5403 0\.0100 0\.9999/);
  const row = run(python, ['-c', 'import posenc; print(" ".join(f"{v:.4f}" for v in posenc.sinusoidal(10, 4)[1]))']);
  assert.is(row.stdout, '0.8415 0.5403 0.0100 0.9999\n');
});

test.run();
