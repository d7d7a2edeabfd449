// Every subcommand of both CLIs: the same bytes (stdout, stderr, exit code)
// from the native and the Node CLI over the model table's configs and sweeps
// of each command's options, values equal to the package's, and the common
// options (--output, --version, --help) on each command. The Node CLI runs
// in this process (its main function, src/js/cli/main.js) except where the
// process itself matters (--version, --output: the bin's own wiring).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate } from '../src/js/index.js';
import { MODELS } from './support/model-configs.js';
import { native, sameRun, sameRunInProcess, root } from './support/cli-run.js';

const pe = await instantiate();
const dir = mkdtempSync(join(tmpdir(), 'posenc-cli-'));
const configFile = (name, config) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return path;
};
const numbers = (stdout) => stdout.toString().trim().split('\n').map(Number);
// Qwen2-VL-7B's RoPE fields (head_dim 3584 / 28 = 128, mrope_section [16, 24, 24]) and a YaRN config of that size.
const QWEN2_VL = {
  model_type: 'qwen2_vl',
  hidden_size: 3584,
  num_attention_heads: 28,
  rope_theta: 1000000,
  max_position_embeddings: 32768,
  rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] },
};
const YARN = { ...QWEN2_VL, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8192 } };

const tableFile = join(dir, 'table.npy');
writeFileSync(tableFile, native(['table', '--length', '64', '--dim', '16', '--format', 'npy']).stdout);

// One run of each subcommand (the general help lists them; a new one needs a line here).
const EXAMPLES = {
  table: ['table', '--length', '3', '--dim', '4'],
  rope: ['rope', '--config', configFile('llama', MODELS[0].config)],
  alibi: ['alibi', '--heads', '8'],
  table2d: ['table2d', '--height', '2', '--width', '3', '--dim', '8'],
  't5-buckets': ['t5-buckets', '--query-length', '3', '--key-length', '5'],
  identify: ['identify', tableFile],
  config: ['config', join(root, 'tests/fixtures/configs/smollm3-3b-base.json')],
};
// The subcommands that print values, and the --dtype each offers (the package's types for that family; first: default).
const DTYPES = {
  table: ['float32', 'float16', 'bfloat16'],
  rope: ['float64', 'float32', 'float16', 'bfloat16'],
  alibi: ['float32'],
  table2d: ['float32'],
};

test('every subcommand in the general help has an example here, and --help, --version, --output on each', async () => {
  const listed = native(['--help'])
    .stdout.toString()
    .split('\n')
    .map((l) => /^  ([a-z][a-z0-9-]*) {2,}/.exec(l)?.[1])
    .filter(Boolean);
  assert.equal(listed.sort(), Object.keys(EXAMPLES).sort());
  const version = `posenc ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`;
  for (const [name, args] of Object.entries(EXAMPLES)) {
    assert.match((await sameRunInProcess([name, '--help'])).stdout.toString(), new RegExp(`^usage: posenc ${name} `));
    assert.is(sameRun([...args, '--version']).stdout.toString(), version);
    const stdout = (await sameRunInProcess(args)).stdout;
    assert.ok(stdout.length > 0, `${name} prints something`);
    for (const run of [native, (a) => sameRun(a)]) {
      const path = join(dir, `${name}.out`);
      rmSync(path, { force: true });
      const result = run([...args, '--output', path]);
      assert.is(result.status, 0);
      assert.is(result.stdout.length, 0, '--output leaves stdout empty');
      assert.ok(Buffer.compare(readFileSync(path), stdout) === 0, `${name} --output holds what stdout gets`);
    }
  }
  assert.is(sameRun(['table', '--length', '1', '--dim', '2', '--output', join(dir, 'no/such/dir')]).status, 2);
});

test('--dtype on every subcommand that prints values: its types accepted, the default the same bytes as none, others refused alike', async () => {
  for (const [name, dtypes] of Object.entries(DTYPES)) {
    const args = EXAMPLES[name];
    assert.match((await sameRunInProcess([name, '--help'])).stdout.toString(), /\n {2}--dtype T /);
    const plain = (await sameRunInProcess(args)).stdout;
    for (const dtype of dtypes) {
      const run = await sameRunInProcess([...args, '--dtype', dtype]);
      assert.is(run.status, 0, `${name} --dtype ${dtype}: ${run.stderr}`);
      if (dtype === dtypes[0]) assert.ok(Buffer.compare(run.stdout, plain) === 0, `${name}: ${dtype} is the default`);
    }
    for (const dtype of ['float32', 'float16', 'bfloat16', 'float64', 'int8'].filter((d) => !dtypes.includes(d))) {
      const run = await sameRunInProcess([...args, '--dtype', dtype]);
      assert.is(run.status, 2, `${name} --dtype ${dtype}`);
      assert.match(run.stderr.toString(), new RegExp(`^posenc: --dtype must be ${dtypes[0]}.*; got ${dtype}\n$`));
    }
  }
});

/** x rounded to nearest even with `bits` fraction bits and a least exponent (float16: 10, -14; bfloat16: 7, -126). */
function roundTo(x, bits, minExponent) {
  if (x === 0) return x;
  const ulp = 2 ** (Math.max(Math.floor(Math.log2(Math.abs(x))), minExponent) - bits);
  const n = x / ulp; // exact: a power-of-two scaling
  let r = Math.round(n);
  if (Math.abs(n - Math.trunc(n)) === 0.5) r = 2 * Math.round(n / 2); // ties to even
  return r * ulp;
}

test('rope --dtype: each frequency and attention factor rounded once from float64 to the type', async () => {
  const round = {
    float64: (x) => x,
    float32: Math.fround,
    float16: (x) => roundTo(x, 10, -14),
    bfloat16: (x) => roundTo(x, 7, -126),
  };
  const ropes = MODELS.filter(({ hf }) => hf.kind === 'rope' && hf.type !== 'longrope' && !hf.layers);
  for (const [k, { id, config }] of ropes.slice(0, 4).entries()) {
    const path = configFile(`dtype${k}`, config);
    const want = pe.ropeFrequencies({ config, length: 70000 });
    for (const [dtype, nearest] of Object.entries(round)) {
      const base = ['rope', '--config', path, '--length', '70000', '--dtype', dtype];
      // 17 significant digits give a double back, 9 a float32 (and so a float16 or bfloat16).
      const back = (stdout) => numbers(stdout).map(dtype === 'float64' ? (x) => x : Math.fround);
      const printed = back((await sameRunInProcess(base)).stdout);
      assert.equal(printed, Array.from(want.frequencies, nearest), `${id} ${dtype}`);
      const factor = back((await sameRunInProcess([...base, '--what', 'attention-factor'])).stdout);
      assert.equal(factor, [nearest(want.attentionFactor)], `${id} ${dtype} attention factor`);
    }
  }
  // A tie check of the oracle itself: 1 + 2^-11 is halfway between two float16s and rounds to even (1).
  assert.is(roundTo(1 + 2 ** -11, 10, -14), 1);
  assert.is(roundTo(1 + 3 * 2 ** -11, 10, -14), 1 + 2 ** -9);
});

test('rope --config: every model of the table, every format; the frequencies are ropeFrequencies({ config })', async () => {
  for (const [k, { id, config, hf }] of MODELS.entries()) {
    const path = configFile(`model${k}`, config);
    const layers = hf.kind === 'rope' ? Object.keys(hf.layers ?? { '': 0 }) : [''];
    for (const layer of layers) {
      const base = ['rope', '--config', path, ...(layer ? ['--layer-type', layer] : [])];
      if (k < 2 || hf.layers)
        for (const format of ['csv', 'json']) await sameRunInProcess([...base, '--format', format]);
      const result = await sameRunInProcess([...base, '--length', '10', '--offset', '9000']);
      if (hf.kind !== 'rope' || hf.type === 'longrope') {
        assert.is(result.status, 1, `${id}: refused`);
        continue;
      }
      assert.is(result.status, 0, `${id}: ${result.stderr}`);
      const want = pe.ropeFrequencies({ config, ...(layer ? { layerType: layer } : {}), length: 9010 });
      assert.equal(
        numbers(result.stdout),
        Array.from(want.frequencies),
        `${id}: 17 significant digits give the doubles back`,
      );
      if (want.attentionFactor !== 1)
        assert.equal(
          numbers((await sameRunInProcess([...base, '--what', 'attention-factor', '--length', '9010'])).stdout),
          [want.attentionFactor],
        );
    }
  }
  // A per-layer config without --layer-type, or with an unknown one, and --layer-type on a config with one RoPE.
  const gemma = configFile('gemma', MODELS.find((m) => m.hf.layers).config);
  for (const args of [[], ['--layer-type', 'local']])
    assert.is((await sameRunInProcess(['rope', '--config', gemma, ...args])).status, 2);
  assert.is(
    (
      await sameRunInProcess([
        'rope',
        '--config',
        configFile('llama', MODELS[0].config),
        '--layer-type',
        'full_attention',
      ])
    ).status,
    2,
  );
});

test("alibi: --heads and --config give the package's slopes", async () => {
  for (const heads of [1, 3, 12, 112, 1000]) {
    if (heads === 12)
      for (const format of ['text', 'csv'])
        await sameRunInProcess(['alibi', '--heads', String(heads), '--format', format]);
    const json = JSON.parse(
      (await sameRunInProcess(['alibi', '--heads', String(heads), '--format', 'json'])).stdout.toString(),
    );
    assert.equal(
      json.map(Math.fround),
      Array.from(pe.alibiSlopes(heads)),
      `${heads} heads: 9 significant digits give the float32 back`,
    );
  }
  for (const { config, hf } of MODELS.filter((m) => m.hf.kind === 'alibi')) {
    const result = await sameRunInProcess(['alibi', '--config', configFile('alibi', config)]);
    assert.equal(numbers(result.stdout).map(Math.fround), Array.from(pe.alibiSlopes(hf.heads)));
  }
  assert.is((await sameRunInProcess(['alibi', '--config', configFile('llama', MODELS[0].config)])).status, 1);
});

test('table2d: every format equals sinusoidal2d, with and without the class token', async () => {
  for (const [height, width, dim, cls, base] of [
    [1, 1, 4, false, '10000'],
    [2, 3, 8, true, '100'],
    [7, 5, 12, false, '1e4'],
    [14, 14, 64, true, '10000'],
  ]) {
    const args = [
      'table2d',
      '--height',
      String(height),
      '--width',
      String(width),
      '--dim',
      String(dim),
      cls ? '--cls-token' : '--no-cls-token',
      '--base',
      base,
    ];
    await sameRunInProcess([...args, '--format', ['text', 'csv', 'json', 'npy'][height % 4]]);
    const f32 = (await sameRunInProcess([...args, '--format', 'f32'])).stdout;
    const want = pe.sinusoidal2d({ height, width, dim, clsToken: cls, base: Number(base) });
    assert.ok(
      Buffer.compare(f32, Buffer.from(want.buffer, want.byteOffset, want.byteLength)) === 0,
      `${height}x${width}x${dim}`,
    );
  }
});

test('table --dtype: float16 and bfloat16 in every format; raw and npy bytes are sinusoidal({ dtype })', async () => {
  for (const dtype of ['float16', 'bfloat16']) {
    const args = ['table', '--length', '130', '--dim', '10', '--offset', '65470', '--dtype', dtype];
    for (const format of ['text', 'csv', 'json', ...(dtype === 'float16' ? ['npy'] : [])])
      await sameRunInProcess([...args, '--format', format]);
    const raw = (await sameRunInProcess([...args, '--format', 'raw'])).stdout;
    const want = pe.sinusoidal({ length: 130, dim: 10, offset: 65470, dtype });
    assert.ok(Buffer.compare(raw, Buffer.from(want.buffer, want.byteOffset, want.byteLength)) === 0, `${dtype} raw`);
  }
  const text = (
    await sameRunInProcess(['table', '--length', '2', '--dim', '4', '--dtype', 'bfloat16'])
  ).stdout.toString();
  assert.is(text, '0.0000 1.0000 0.0000 1.0000\n0.8398 0.5391 0.0100 1.0000\n'); // sin 1 = 0.84147 -> bfloat16 0.83984375
});

/** Position ids and axes `posenc rope` must refuse (both CLIs alike), for a config with rotary_dim 128. */
function ropeAxesRefusals(llama) {
  const qwen = configFile('qwen-bad', { ...QWEN2_VL, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 23] } });
  const cosSin = ['rope', '--config', llama, '--what', 'cos-sin'];
  return [
    [...cosSin, '--position-ids', '1;2;3'], // three rows without sections
    [...cosSin, '--mrope-section', '16,24,24', '--position-ids', '1;2'],
    [...cosSin, '--mrope-section', '16,24,24', '--position-ids', '1,2;3;4'], // rows of unequal length
    [...cosSin, '--mrope-section', '16,24,23', '--position-ids', '1;2;3'],
    [...cosSin, '--mrope-section', '16,24', '--position-ids', '1;2'],
    [...cosSin, '--mrope-section', '16,24,24,0'],
    [...cosSin, '--position-ids', '1,x'],
    [...cosSin, '--position-ids', '2147483648'],
    [...cosSin, '--position-ids', '-1'],
    [...cosSin, '--position-ids', ''],
    [...cosSin, '--position-ids', '1', '--offset', '2'],
    [...cosSin, '--position-ids', `@${join(dir, 'missing-ids.txt')}`],
    [...cosSin, '--vision'],
    [...cosSin, '--vision', '--mrope-section', '16,24,24', '--position-ids', '1;2'],
    ['rope', '--config', configFile('qwen', QWEN2_VL), '--what', 'cos-sin', '--mrope-section', '24,16,24'],
    ['rope', '--config', qwen, '--what', 'cos-sin'],
    ['rope', '--config', configFile('yarn', YARN), '--what', 'cos-sin', '--vision', '--position-ids', '1;2'],
  ];
}

test('bad arguments of each subcommand: exit code 2 (1 for a refused config) and the same one-line message', async () => {
  const llama = configFile('llama', MODELS[0].config);
  const bad = [
    ['rope'],
    ['rope', '--config', join(dir, 'missing.json')],
    ['rope', '--config', llama, '--what', 'cos-sin', '--dtype', 'float64'],
    ['rope', '--config', llama, '--what', 'sin'],
    ['rope', '--config', llama, '--format', 'f32'],
    ['rope', '--config', llama, '--lenght', '3'],
    ['rope', '--config', llama, '--length', '2147483648', '--offset', '1'],
    ['rope', '--config', configFile('bad', '{"model_type": "llama",}')],
    [
      'rope',
      '--config',
      configFile('unknown', {
        model_type: 'llama',
        hidden_size: 64,
        num_attention_heads: 2,
        rope_scaling: { rope_type: 'linear', factor: 2, extra: 1 },
      }),
    ],
    ...ropeAxesRefusals(llama),
    ['alibi'],
    ['alibi', '--heads', '0'],
    ['alibi', '--heads', '65537'],
    ['alibi', '--heads', '4', '--config', llama],
    ['table2d'],
    ['table2d', '--height', '2'],
    ['table2d', '--height', '2', '--width', '2', '--dim', '6'],
    ['table2d', '--height', '2', '--width', '2', '--dim', '8', '--cls-token', 'yes'],
    ['table2d', '--height', '2', '--width', '2', '--dim', '8', '--cls-token', 'true'],
    ['table2d', '--height', '0', '--width', '2', '--dim', '8'],
    ['table2d', '--height', '65536', '--width', '65536', '--dim', '8'],
    ['table', '--length', '2', '--dim', '4', '--dtype', 'float64'],
    ['table', '--length', '2', '--dim', '4', '--dtype', 'float16', '--format', 'f32'],
    ['table', '--length', '2', '--dim', '4', '--dtype', 'bfloat16', '--format', 'npy'],
    ['table2d', '--height', '2', '--width', '2', '--dim', '8', '--base', '1'],
  ];
  for (const args of bad) {
    const result = await sameRunInProcess(args);
    assert.ok(result.status === 2 || result.status === 1, `exit code of ${args.join(' ')}`);
    assert.is(result.stdout.length, 0, 'nothing on stdout');
    assert.match(result.stderr.toString(), /^posenc: [^\n]+\n$/, `one line on stderr for ${args.join(' ')}`);
  }
  assert.match(native(['rope', '--config', bad[8][2]]).stderr.toString(), /config key 'rope_scaling.extra'/);
});

test("rope --what cos-sin: plain, mrope and 2-D rows, same bytes from both CLIs, values by HF's formulas in float64", async () => {
  const qwen = configFile('qwen', QWEN2_VL);
  const llama = configFile('llama128', { ...QWEN2_VL, rope_scaling: undefined, model_type: 'llama' });
  const w = (i, dim, base = 1e6) => base ** ((-2 * i) / dim);
  // Qwen2-VL: [16, 24, 24] pairs follow the temporal, height and width ids (HF's apply_multimodal_rotary_pos_emb).
  const t = [0, 4, 4, 4, 9];
  const h = [0, 4, 4, 5, 9];
  const wd = [0, 4, 5, 4, 9];
  const axisOf = (i) => (i < 16 ? t : i < 40 ? h : wd);
  const mrope = (l, i) => axisOf(i)[l] * w(i, 128);
  const idsFile = join(dir, 'ids.txt');
  writeFileSync(idsFile, `${t.join(' ')}\n${h.join(',')}\n\n${wd.join(', ')}\n`);
  const inline = `${t.join(',')};${h.join(',')};${wd.join(',')}`;
  const runs = [
    [['--config', qwen, '--position-ids', inline], mrope],
    [['--config', qwen, '--position-ids', `@${idsFile}`], mrope],
    [['--config', llama, '--mrope-section', '16,24,24', '--position-ids', inline], mrope],
    [
      ['--config', qwen, '--mrope-section', '16,24,24', '--position-ids', inline, '--dtype', 'bfloat16'],
      mrope,
      2 ** -8,
    ],
    // No ids: every axis at offset + l, which is plain RoPE; ids of one row likewise.
    [['--config', qwen, '--offset', '7', '--length', '5'], (l, i) => (7 + l) * w(i, 128)],
    [['--config', llama, '--position-ids', '3 9 27 81 243'], (l, i) => 3 ** (l + 1) * w(i, 128)],
    // 2-D (Qwen2-VL's vision tower): pairs 0 … 31 by the row, 32 … 63 by the column, each with w_j of dim 64.
    [
      ['--config', llama, '--vision', '--position-ids', '0,0,1,1,2;0,1,0,1,2'],
      (l, i) =>
        [
          [0, 0, 1, 1, 2],
          [0, 1, 0, 1, 2],
        ][i < 32 ? 0 : 1][l] * w(i % 32, 64),
    ],
  ];
  for (const [args, angle, tolerance = 6e-8] of runs) {
    const base = ['rope', ...args, '--what', 'cos-sin'];
    for (const format of ['text', 'json']) await sameRunInProcess([...base, '--format', format]);
    const result = await sameRunInProcess([...base, '--format', 'csv']);
    assert.is(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
    const lines = result.stdout.toString().trim().split('\n').slice(1);
    assert.is(lines.length, 5, args.join(' '));
    for (const [l, line] of lines.entries()) {
      const values = line.split(',').slice(1).map(Number);
      assert.is(values.length, 128);
      for (let i = 0; i < 64; i++) {
        const [c, s] = [Math.cos(angle(l, i)), Math.sin(angle(l, i))];
        // 9 decimals of the dtype's value: half a unit of the 9th decimal plus the dtype's rounding.
        for (const [got, want] of [
          [values[i], c],
          [values[64 + i], s],
        ])
          assert.ok(
            Math.abs(got - want) <= 5e-10 + tolerance,
            `${args.join(' ')} row ${l} pair ${i}: ${got} vs ${want}`,
          );
      }
    }
  }
  // The same ids set dynamic NTK's length (the largest + 1) for the frequencies, as ropeFrequencies({ length }).
  const dynamic = { ...QWEN2_VL, rope_scaling: { rope_type: 'dynamic', factor: 2 }, max_position_embeddings: 8 };
  const result = await sameRunInProcess([
    'rope',
    '--config',
    configFile('dynamic', dynamic),
    '--position-ids',
    '3 40 9',
  ]);
  assert.equal(numbers(result.stdout), Array.from(pe.ropeFrequencies({ config: dynamic, length: 41 }).frequencies));
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
