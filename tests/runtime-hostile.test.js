// Hostile inputs of issue 10 that reach the package and the CLIs, each refused
// the way posenc refuses (a coded PosencError naming the argument and what is
// allowed, inputs untouched; the CLIs' message and a non-zero exit): bases
// from about 1e301 up to the largest double used to pass every check and give
// NaN (into the caller's x, and as `nan` inside the CLI's JSON).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expectRefusal } from './support/js-bits.js';
import { instantiate, readTable, readNpy, readSafetensors, bitsToFloat32, PosencError } from '../src/js/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const HUGE_BASES = [1.0000000000000001e300 * 10, 1e305, Number.MAX_VALUE];
let posenc;
test.before(async () => {
  posenc = await instantiate();
});

function refusesBase(call, name) {
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, name);
    assert.is(error.code, 'BAD_BASE', `${name}: ${error.message}`);
    assert.match(error.message, /base/);
    assert.match(error.message, /at most 1e300/);
    return;
  }
  assert.unreachable(`${name} accepted the base`);
}

test('bases above 1e300 are BAD_BASE in every call that takes a base, and x is untouched', () => {
  for (const base of HUGE_BASES) {
    refusesBase(() => posenc.sinusoidal({ length: 4, dim: 4, base }), `sinusoidal ${base}`);
    refusesBase(() => posenc.sinusoidalAt([1, 2], { dim: 4, base }), `sinusoidalAt ${base}`);
    refusesBase(() => posenc.sinusoidal({ length: 4, dim: 4, base, dtype: 'float16' }), `float16 ${base}`);
    refusesBase(() => posenc.recipeTable({ recipe: 'float16', length: 4, dim: 4, base }), `recipeTable ${base}`);
    refusesBase(() => posenc.sinusoidal2d({ height: 2, width: 2, dim: 8, base }), `sinusoidal2d ${base}`);
    refusesBase(() => posenc.ropeFrequencies({ headDim: 8, base }), `ropeFrequencies ${base}`);
    refusesBase(
      () =>
        posenc.ropeFrequencies({
          headDim: 8,
          base,
          scaling: { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 4 },
          length: 64,
        }),
      `ropeFrequencies dynamic ${base}`,
    );
    const x = new Float32Array(16).fill(0.25);
    refusesBase(() => posenc.addSinusoidal(x, { length: 4, dim: 4, base }), `addSinusoidal ${base}`);
    assert.ok(
      x.every((v) => v === 0.25),
      'x untouched',
    );
    const q = new Float32Array(16).fill(0.5);
    refusesBase(() => posenc.rope(q, { length: 2, heads: 1, headDim: 8, base }), `rope ${base}`);
    assert.ok(
      q.every((v) => v === 0.5),
      'q untouched',
    );
  }
});

test('the largest accepted base, 1e300, gives finite values in [-1, 1]', () => {
  const table = posenc.sinusoidal({ length: 64, dim: 512, base: 1e300, offset: 2 ** 31 - 64 });
  assert.ok(table.every((v) => v >= -1 && v <= 1));
});

for (const [cli, command] of [
  ['native', [`${root}build/posenc`]],
  ['JS', [process.execPath, `${root}src/js/cli/cli.js`]],
]) {
  test(`the ${cli} CLI refuses --base 1e301 with its message and exit status 2, printing nothing`, () => {
    const run = spawnSync(
      command[0],
      [...command.slice(1), 'table', '--length', '2', '--dim', '4', '--base', '1e301', '--format', 'json'],
      { encoding: 'utf8' },
    );
    assert.is(run.status, 2, run.stderr);
    assert.is(run.stdout, '');
    assert.is(run.stderr.trim(), 'posenc: --base must be above 1 and at most 1e300; got 1e301');
  });
}

/** Views over an ArrayBuffer that is then transferred away (detached). */
function detachedViews() {
  const buffer = new ArrayBuffer(64);
  const views = {
    buffer,
    u8: new Uint8Array(buffer),
    u16: new Uint16Array(buffer),
    f32: new Float32Array(buffer),
    f64: new Float64Array(buffer),
    empty: new Float32Array(buffer, 0, 0),
  };
  structuredClone(buffer, { transfer: [buffer] });
  return views;
}

/** call() throws code with a message that names the argument. */
const refuses = (call, code, argument) => expectRefusal(PosencError, call, {}, code, [argument]);

test('a detached ArrayBuffer is BAD_BUFFER in the readers and the bit conversions, not a TypeError or no data', () => {
  const d = detachedViews();
  refuses(() => readTable(d.buffer), 'BAD_BUFFER', 'bytes', 'readTable(ArrayBuffer)');
  refuses(() => readTable(d.u8), 'BAD_BUFFER', 'bytes', 'readTable(Uint8Array)');
  refuses(() => readNpy(d.u8), 'BAD_BUFFER', 'bytes', 'readNpy');
  refuses(() => readSafetensors(d.buffer), 'BAD_BUFFER', 'bytes', 'readSafetensors');
  refuses(() => bitsToFloat32(d.u16, { dtype: 'float16' }), 'BAD_BUFFER', 'bits', 'bitsToFloat32');
  refuses(() => posenc.roundToBits(d.f64, { dtype: 'bfloat16' }), 'BAD_BUFFER', 'values', 'roundToBits');
  refuses(
    () => posenc.alibiBias({ heads: 1, queryLength: 0, out: d.empty }),
    'BAD_BUFFER',
    'out',
    'alibiBias, empty detached out',
  );
});

test('a freed WasmBuffer is BUFFER_FREED as out even when the result is empty', () => {
  const freed = posenc.alloc(0);
  freed.free();
  refuses(
    () => posenc.alibiBias({ heads: 2, queryLength: 0, keyLength: 5, out: freed }),
    'BUFFER_FREED',
    'out',
    'alibiBias',
  );
  refuses(
    () => posenc.resampleTable(new Float32Array(8), { dim: 4, newRows: 0, out: freed }),
    'BUFFER_FREED',
    'out',
    'resampleTable',
  );
  refuses(() => posenc.sinusoidal({ length: 0, dim: 4, out: freed }), 'BUFFER_FREED', 'out', 'sinusoidal');
});

// In a child process: init() keeps its state in the module, shared by the test files of this process.
test("init(): a typo is reported as init's, and a second call with other options is BAD_OPTIONS, not the first build", () => {
  const script = `
    import { init } from ${JSON.stringify(new URL('../src/js/index.js', import.meta.url).href)};
    const codes = [];
    const attempt = async (options) => { try { return await init(options); } catch (e) { codes.push(e.code + ': ' + e.message); } };
    await attempt({ simdd: false });
    const first = await attempt();
    await attempt({ simd: false });
    const same = await attempt({});
    console.log(JSON.stringify({ codes, first, same }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const { codes, first, same } = JSON.parse(run.stdout);
  assert.match(codes[0], /^UNKNOWN_OPTION: init\(\) has no option 'simdd' \(did you mean 'simd'\?\)/);
  assert.equal(first, { simd: true });
  assert.match(codes[1], /^BAD_OPTIONS: init\(\) was already called with .*simd: false.*instantiate\(options\)/);
  assert.equal(same, { simd: true });
  assert.is(codes.length, 2);
});

test.run();
