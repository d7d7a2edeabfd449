// The CLIs' Unix habits (issue 27), in both CLIs alike (same stdout, stderr
// and exit code): one boolean convention (--flag / --no-flag), rope's
// description by flags as well as by --config, cos/sin caches in every
// format the tables have (npy, f32, raw), and examples in every --help that
// run as printed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate } from '../src/js/index.js';
import { native, sameRunInProcess } from './support/cli-run.js';

const pe = await instantiate();
const dir = mkdtempSync(join(tmpdir(), 'posenc-unix-'));
const configFile = (name, config) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
};
const refused = async (args, message) => {
  const run = await sameRunInProcess(args);
  assert.is(run.status, 2, `exit code of ${args.join(' ')}`);
  assert.is(run.stdout.length, 0);
  assert.is(run.stderr.toString(), `posenc: ${message}\n`, args.join(' '));
};

test('boolean flags: --flag turns on, --no-flag off (the default), the old value form refused with the new one', async () => {
  const grid = ['table2d', '--height', '2', '--width', '2', '--dim', '8', '--format', 'f32'];
  const on = (await sameRunInProcess([...grid, '--cls-token'])).stdout;
  const off = (await sameRunInProcess([...grid, '--no-cls-token'])).stdout;
  assert.is(on.length, 5 * 8 * 4, '--cls-token adds the class row');
  assert.ok(Buffer.compare(off, (await sameRunInProcess(grid)).stdout) === 0, '--no-cls-token is the default');
  assert.ok(Buffer.compare(on.subarray(8 * 4), off) === 0, 'the class row is the first');
  const want = `(write --cls-token or --no-cls-token)`;
  await refused([...grid, '--cls-token', 'true'], `--cls-token takes no value; got '--cls-token true' ${want}`);
  await refused([...grid, '--cls-token', 'false'], `--cls-token takes no value; got '--cls-token false' ${want}`);
  await refused([...grid, '--cls-token=true'], `--cls-token takes no value; got '--cls-token=true' ${want}`);
  await refused([...grid, '--no-cls-token=1'], `--cls-token takes no value; got '--no-cls-token=1' ${want}`);
  await refused(
    [...grid, '--cls-token', '--no-cls-token'],
    '--cls-token is given twice (as --cls-token or --no-cls-token); give it once',
  );
  // --causal the same way (it always was a flag), and --no-causal is the default.
  const t5 = ['t5-buckets', '--query-length', '3', '--key-length', '5'];
  const bidirectional = (await sameRunInProcess(t5)).stdout;
  assert.ok(Buffer.compare((await sameRunInProcess([...t5, '--no-causal'])).stdout, bidirectional) === 0);
  assert.not.ok(Buffer.compare((await sameRunInProcess([...t5, '--causal'])).stdout, bidirectional) === 0);
  await refused(
    [...t5, '--no-causal', '--causal'],
    '--causal is given twice (as --causal or --no-causal); give it once',
  );
  // --no- of a valued option is no option.
  await refused([...t5, '--no-format'], "unknown option '--no-format'");
  // rope's --vision and identify's --json take --no- too.
  const table = join(dir, 't.npy');
  writeFileSync(table, native(['table', '--length', '16', '--dim', '8', '--format', 'npy']).stdout);
  const report = await sameRunInProcess(['identify', table]);
  assert.ok(Buffer.compare((await sameRunInProcess(['identify', table, '--no-json'])).stdout, report.stdout) === 0);
  assert.match((await sameRunInProcess(['identify', table, '--json'])).stdout.toString(), /^\{/);
});

// HF configs and the flags that say the same RoPE.
const LLAMA3 = {
  config: {
    model_type: 'llama',
    hidden_size: 4096,
    num_attention_heads: 32,
    rope_theta: 500000,
    rope_scaling: {
      rope_type: 'llama3',
      factor: 8,
      original_max_position_embeddings: 8192,
      low_freq_factor: 1,
      high_freq_factor: 4,
    },
  },
  flags:
    '--head-dim 128 --base 500000 --scaling llama3 --factor 8 --original-max-position-embeddings 8192 --low-freq-factor 1 --high-freq-factor 4',
};
const CASES = [
  LLAMA3,
  {
    config: { model_type: 'llama', hidden_size: 256, num_attention_heads: 4 },
    flags: '--head-dim 64',
  },
  {
    config: {
      model_type: 'llama',
      hidden_size: 512,
      num_attention_heads: 8,
      rope_theta: 1e6,
      rope_scaling: { rope_type: 'linear', factor: 4 },
    },
    flags: '--head-dim 64 --base 1e6 --scaling linear --factor 4',
  },
  {
    config: {
      model_type: 'llama',
      hidden_size: 512,
      num_attention_heads: 8,
      rope_scaling: { rope_type: 'dynamic', factor: 2, original_max_position_embeddings: 16 },
    },
    flags: '--head-dim 64 --scaling dynamic --factor 2 --original-max-position-embeddings 16',
  },
  {
    config: {
      model_type: 'qwen2',
      hidden_size: 1024,
      num_attention_heads: 8,
      rope_theta: 1e6,
      rope_scaling: {
        rope_type: 'yarn',
        factor: 4,
        original_max_position_embeddings: 32768,
        beta_fast: 16,
        beta_slow: 2,
        mscale: 1,
        mscale_all_dim: 0.5,
        truncate: false,
      },
    },
    flags:
      '--head-dim 128 --base 1e6 --scaling yarn --factor 4 --original-max-position-embeddings 32768 --beta-fast 16 --beta-slow 2 --mscale 1 --mscale-all-dim 0.5 --no-truncate',
  },
  {
    config: {
      model_type: 'phi',
      hidden_size: 2560,
      num_attention_heads: 32,
      partial_rotary_factor: 0.4,
      rope_theta: 10000,
    },
    flags: '--head-dim 80 --rotary-dim 32',
  },
];

test('rope by flags prints the bytes rope --config prints, for every --what', async () => {
  for (const [k, { config, flags }] of CASES.entries()) {
    const path = configFile(`case${k}`, config);
    for (const what of [
      ['--what', 'frequencies', '--length', '40'],
      ['--what', 'attention-factor'],
      ['--what', 'cos-sin', '--offset', '5', '--length', '40', '--format', 'csv'],
    ]) {
      const byConfig = await sameRunInProcess(['rope', '--config', path, ...what]);
      const byFlags = await sameRunInProcess(['rope', ...flags.split(' '), ...what]);
      assert.is(byConfig.status, 0, `${JSON.stringify(config.rope_scaling)} ${byConfig.stderr}`);
      assert.is(byFlags.status, 0, `${flags} ${byFlags.stderr}`);
      assert.ok(Buffer.compare(byFlags.stdout, byConfig.stdout) === 0, `${flags} ${what.join(' ')}`);
    }
  }
  // A parameter changes the values (the flags are read, not ignored).
  const a = await sameRunInProcess(['rope', ...LLAMA3.flags.split(' ')]);
  const b = await sameRunInProcess([
    'rope',
    ...LLAMA3.flags.replace('--high-freq-factor 4', '--high-freq-factor 5').split(' '),
  ]);
  assert.not.ok(Buffer.compare(a.stdout, b.stdout) === 0);
});

test('rope by flags: bad values, parameters of another scaling, and flags beside --config refused alike', async () => {
  const llama = configFile('llama', LLAMA3.config);
  const cases = [
    [['--config', llama, '--base', '10'], 'give --config or --base, not both (the config sets it)'],
    [['--config', llama, '--head-dim', '64'], 'give --config or --head-dim, not both (the config sets it)'],
    [['--config', llama, '--no-truncate'], 'give --config or --truncate, not both (the config sets it)'],
    [[], "--config or --head-dim is required (a model's config.json, or the RoPE by flags: see posenc rope --help)"],
    [['--base', '10'], '--head-dim is required (an integer from 2 to 65536)'],
    [['--head-dim', '8', '--layer-type', 'x'], '--layer-type picks a layer type of --config, so it needs --config'],
    [['--head-dim', '9'], '--head-dim must be even (RoPE turns pairs) unless --rotary-dim is given; got 9'],
    [
      ['--head-dim', '8', '--rotary-dim', '10'],
      '--rotary-dim must be an even integer from 2 to --head-dim (8); got 10',
    ],
    [['--head-dim', '8', '--base', '1'], '--base must be a number above 1 and at most 1e300; got 1'],
    [
      ['--head-dim', '8', '--scaling', 'longrope'],
      '--scaling must be default, linear, dynamic, yarn or llama3; got longrope',
    ],
    [['--head-dim', '8', '--factor', '2'], '--factor is not a parameter of --scaling default (it has none)'],
    [['--head-dim', '8', '--scaling', 'linear'], '--factor is required with --scaling linear (a number at least 1)'],
    [['--head-dim', '8', '--scaling', 'linear', '--factor', '0.5'], '--factor must be a number at least 1; got 0.5'],
    [
      ['--head-dim', '8', '--scaling', 'linear', '--factor', '2', '--beta-fast', '3'],
      '--beta-fast is not a parameter of --scaling linear (--factor)',
    ],
    [
      [
        '--head-dim',
        '8',
        '--scaling',
        'llama3',
        '--factor',
        '2',
        '--original-max-position-embeddings',
        '64',
        '--truncate',
      ],
      '--truncate is not a parameter of --scaling llama3 (--factor, --original-max-position-embeddings, --low-freq-factor, --high-freq-factor)',
    ],
    [
      ['--head-dim', '8', '--scaling', 'yarn', '--factor', '2'],
      '--original-max-position-embeddings is required with --scaling yarn (the context length the model was trained with)',
    ],
    [
      ['--head-dim', '8', '--scaling', 'dynamic', '--factor', '2', '--original-max-position-embeddings', '1e3'],
      '--original-max-position-embeddings must be an integer from 1 to 4294967295; got 1e3',
    ],
    [
      [
        '--head-dim',
        '4',
        '--rotary-dim',
        '2',
        '--scaling',
        'dynamic',
        '--factor',
        '2',
        '--original-max-position-embeddings',
        '9',
      ],
      '--scaling dynamic needs a rotary dimension of at least 4; got 2',
    ],
    [
      [
        '--head-dim',
        '8',
        '--scaling',
        'yarn',
        '--factor',
        '2',
        '--original-max-position-embeddings',
        '9',
        '--mscale',
        '1e999',
      ],
      '--mscale must be a finite number; got 1e999',
    ],
    [
      [
        '--head-dim',
        '8',
        '--scaling',
        'yarn',
        '--factor',
        '2',
        '--original-max-position-embeddings',
        '9',
        '--attention-factor',
        '0',
      ],
      '--attention-factor must be a number above 0 and below 3.4e38; got 0',
    ],
    [
      [
        '--head-dim',
        '8',
        '--scaling',
        'llama3',
        '--factor',
        '2',
        '--original-max-position-embeddings',
        '9',
        '--low-freq-factor',
        '2',
      ],
      '--high-freq-factor is required with --scaling llama3 (a number above 0)',
    ],
    [
      [
        '--head-dim',
        '8',
        '--scaling',
        'llama3',
        '--factor',
        '2',
        '--original-max-position-embeddings',
        '9',
        '--low-freq-factor',
        '2',
        '--high-freq-factor',
        '2',
      ],
      '--high-freq-factor must be a number above --low-freq-factor; got 2',
    ],
  ];
  for (const [args, message] of cases) await refused(['rope', ...args], message);
});

test('rope --what cos-sin in npy, f32 and raw: the bytes of ropeCosSin, per dtype; f32 and npy refused where the tables refuse them', async () => {
  const args = [
    'rope',
    '--head-dim',
    '12',
    '--rotary-dim',
    '8',
    '--base',
    '500',
    '--what',
    'cos-sin',
    '--offset',
    '3',
    '--length',
    '5',
  ];
  const { cos, sin } = pe.ropeCosSin({ headDim: 12, rotaryDim: 8, base: 500, offset: 3, length: 5 });
  const rows = new Float32Array(5 * 8);
  for (let l = 0; l < 5; l++) {
    rows.set(cos.subarray(l * 4, l * 4 + 4), l * 8);
    rows.set(sin.subarray(l * 4, l * 4 + 4), l * 8 + 4);
  }
  const f32 = (await sameRunInProcess([...args, '--format', 'f32'])).stdout;
  assert.ok(Buffer.compare(f32, Buffer.from(rows.buffer)) === 0, 'f32: the cache rows, [cos | sin]');
  assert.ok(
    Buffer.compare((await sameRunInProcess([...args, '--format', 'raw'])).stdout, f32) === 0,
    'raw float32 is f32',
  );
  const npy = (await sameRunInProcess([...args, '--format', 'npy'])).stdout;
  const headerLength = npy.readUInt16LE(8);
  assert.match(
    npy.subarray(10, 10 + headerLength).toString(),
    /'descr': '<f4', 'fortran_order': False, 'shape': \(5, 8\)/,
  );
  assert.ok(Buffer.compare(npy.subarray(10 + headerLength), f32) === 0, 'npy: the header, then the f32 bytes');
  // float16 and bfloat16: each value rounded once from the float64 cache (as --format text shows it).
  const wide = pe.ropeCosSin({ headDim: 12, rotaryDim: 8, base: 500, offset: 3, length: 5, dtype: 'float64' });
  const all = new Float64Array(5 * 8);
  for (let l = 0; l < 5; l++) {
    all.set(wide.cos.subarray(l * 4, l * 4 + 4), l * 8);
    all.set(wide.sin.subarray(l * 4, l * 4 + 4), l * 8 + 4);
  }
  for (const dtype of ['float16', 'bfloat16']) {
    const bits = pe.roundToBits(all, { dtype });
    const raw = (await sameRunInProcess([...args, '--dtype', dtype, '--format', 'raw'])).stdout;
    assert.ok(Buffer.compare(raw, Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength)) === 0, `raw ${dtype}`);
    await refused(
      [...args, '--dtype', dtype, '--format', 'f32'],
      `--format f32 writes float32: use --format raw for --dtype ${dtype}`,
    );
  }
  const half = (await sameRunInProcess([...args, '--dtype', 'float16', '--format', 'npy'])).stdout;
  assert.match(half.subarray(10, 10 + half.readUInt16LE(8)).toString(), /'descr': '<f2'/);
  await refused(
    [...args, '--dtype', 'bfloat16', '--format', 'npy'],
    '--format npy has no bfloat16 (NumPy lacks the type): use --format raw',
  );
});

/** An npy file's header dict and its data bytes (version 1.0, as both CLIs write it). */
function readNpy(bytes) {
  assert.ok(Buffer.compare(bytes.subarray(0, 8), Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0])) === 0);
  const headerLength = bytes.readUInt16LE(8);
  assert.is((10 + headerLength) % 64, 0, 'the data starts 64-byte aligned');
  const dict = bytes.subarray(10, 10 + headerLength).toString();
  const m = /^\{'descr': '(<[a-z]\d)', 'fortran_order': False, 'shape': \(([\d, ]*)\), \} *\n$/.exec(dict);
  assert.ok(m, `npy header ${JSON.stringify(dict)}`);
  const shape = m[2]
    .split(',')
    .filter((t) => t.trim() !== '')
    .map(Number);
  const data = bytes.subarray(10 + headerLength);
  const copy = new Uint8Array(data); // aligned for the typed array
  const Type = { '<f8': Float64Array, '<f4': Float32Array, '<i4': Int32Array, '<f2': Uint16Array }[m[1]];
  assert.is(data.length, shape.reduce((a, b) => a * b, 1) * Type.BYTES_PER_ELEMENT, 'data length = shape x item size');
  return { descr: m[1], shape, shapeText: m[2], values: new Type(copy.buffer) };
}

test('alibi, t5-buckets and rope frequencies in npy, f32 and raw: the package values, the same bytes in both CLIs', async () => {
  // alibi: a (heads,) float32 array, 1-D as NumPy spells it.
  for (const heads of [1, 12, 20]) {
    const slopes = pe.alibiSlopes(heads);
    const npy = readNpy((await sameRunInProcess(['alibi', '--heads', String(heads), '--format', 'npy'])).stdout);
    assert.is(npy.descr, '<f4');
    assert.is(npy.shapeText, `${heads},`);
    assert.equal(Array.from(npy.values), Array.from(slopes), `alibi npy, ${heads} heads`);
    for (const format of ['f32', 'raw']) {
      const bytes = (await sameRunInProcess(['alibi', '--heads', String(heads), '--format', format])).stdout;
      assert.ok(Buffer.compare(bytes, Buffer.from(slopes.buffer, slopes.byteOffset, slopes.byteLength)) === 0, format);
    }
  }
  // t5-buckets: a (query_length, key_length) int32 array, across more than one chunk of 65536 values.
  const t5Cases = [
    { queryLength: 3, keyLength: 5, offset: 2, numBuckets: 32, maxDistance: 128, bidirectional: true },
    { queryLength: 300, keyLength: 257, offset: 1000, numBuckets: 16, maxDistance: 40, bidirectional: false },
    { queryLength: 2, keyLength: 0, offset: 0, numBuckets: 32, maxDistance: 128, bidirectional: true },
  ];
  for (const c of t5Cases) {
    const args = ['t5-buckets', '--query-length', String(c.queryLength), '--key-length', String(c.keyLength)];
    args.push('--offset', String(c.offset), '--num-buckets', String(c.numBuckets));
    args.push('--max-distance', String(c.maxDistance), ...(c.bidirectional ? [] : ['--causal']));
    const expected = pe.t5Buckets(c);
    const npy = readNpy((await sameRunInProcess([...args, '--format', 'npy'])).stdout);
    assert.is(npy.descr, '<i4');
    assert.equal(npy.shape, [c.queryLength, c.keyLength]);
    assert.equal(Array.from(npy.values), Array.from(expected), args.join(' '));
    const raw = (await sameRunInProcess([...args, '--format', 'raw'])).stdout;
    const exp = Int32Array.from(expected);
    assert.ok(Buffer.compare(raw, Buffer.from(exp.buffer)) === 0, `raw: ${args.join(' ')}`);
  }
  await refused(
    ['t5-buckets', '--query-length', '3', '--format', 'f32'],
    "--format f32 writes float32, and T5's buckets are integers: use --format raw (int32) or npy (<i4)",
  );
  // rope frequencies (and the attention factor): a 1-D array of the --dtype, float64 by default.
  const rope = ['rope', '--head-dim', '12', '--rotary-dim', '10', '--base', '500000', '--scaling', 'yarn'];
  rope.push('--factor', '4', '--original-max-position-embeddings', '4096');
  const { frequencies, attentionFactor } = pe.ropeFrequencies({
    headDim: 12,
    rotaryDim: 10,
    base: 500000,
    scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 },
  });
  assert.ok(attentionFactor !== 1, 'yarn: an attention factor other than 1');
  for (const [what, values] of [
    ['frequencies', frequencies],
    ['attention-factor', [attentionFactor]],
  ]) {
    const args = [...rope, '--what', what];
    const npy = readNpy((await sameRunInProcess([...args, '--format', 'npy'])).stdout);
    assert.is(npy.descr, '<f8');
    assert.is(npy.shapeText, `${values.length},`);
    assert.equal(Array.from(npy.values), Array.from(values), `${what}: the core's float64 values`);
    const raw = (await sameRunInProcess([...args, '--format', 'raw'])).stdout;
    assert.ok(Buffer.compare(raw, Buffer.from(Float64Array.from(values).buffer)) === 0, `${what} raw float64`);
    await refused([...args, '--format', 'f32'], '--format f32 writes float32: use --format raw for --dtype float64');
    const single = Float32Array.from(values);
    const f32 = (await sameRunInProcess([...args, '--dtype', 'float32', '--format', 'f32'])).stdout;
    assert.ok(Buffer.compare(f32, Buffer.from(single.buffer)) === 0, `${what} f32`);
    const npy32 = readNpy((await sameRunInProcess([...args, '--dtype', 'float32', '--format', 'npy'])).stdout);
    assert.is(npy32.descr, '<f4');
    assert.equal(Array.from(npy32.values), Array.from(single));
    for (const dtype of ['float16', 'bfloat16']) {
      const bits = pe.roundToBits(Float64Array.from(values), { dtype });
      const raw16 = (await sameRunInProcess([...args, '--dtype', dtype, '--format', 'raw'])).stdout;
      assert.ok(Buffer.compare(raw16, Buffer.from(Uint16Array.from(bits).buffer)) === 0, `${what} raw ${dtype}`);
    }
    const half = readNpy((await sameRunInProcess([...args, '--dtype', 'float16', '--format', 'npy'])).stdout);
    assert.is(half.descr, '<f2');
    assert.equal(Array.from(half.values), Array.from(pe.roundToBits(Float64Array.from(values), { dtype: 'float16' })));
    await refused(
      [...args, '--dtype', 'bfloat16', '--format', 'npy'],
      '--format npy has no bfloat16 (NumPy lacks the type): use --format raw',
    );
  }
});

test('every --help ends with examples, the same in both CLIs, and each example that reads no file runs in both', async () => {
  const general = (await sameRunInProcess(['--help'])).stdout.toString();
  const commands = general
    .split('\n')
    .map((l) => /^  ([a-z][a-z0-9-]*) {2,}/.exec(l)?.[1])
    .filter(Boolean);
  let ran = 0;
  for (const help of [
    general,
    ...(await Promise.all(commands.map(async (c) => (await sameRunInProcess([c, '--help'])).stdout.toString()))),
  ]) {
    const at = help.indexOf('\nexamples:\n');
    assert.ok(at > 0, `examples in ${help.slice(0, 40)}`);
    const lines = help
      .slice(at + '\nexamples:\n'.length)
      .trimEnd()
      .split('\n');
    assert.ok(lines.length >= 2, 'a few examples');
    for (const line of lines) {
      assert.match(line, /^  posenc [a-z0-9-]+ /);
      const args = line
        .trim()
        .split(/ +/)
        .slice(1)
        .map((a) => a.replace(/^'(.*)'$/, '$1'));
      if (args.some((a) => /\.(json|npy|safetensors)$/.test(a) && args[args.indexOf(a) - 1] !== '--output')) continue;
      const out = args.indexOf('--output');
      if (out >= 0) args[out + 1] = join(dir, args[out + 1]);
      const run = await sameRunInProcess(args);
      assert.is(run.status, 0, `${line}: ${run.stderr}`);
      ran++;
    }
  }
  assert.ok(ran >= 10, `${ran} examples ran`);
});

test('a file that cannot be opened: exit 2 in every command, the path and the OS reason named', async () => {
  const table = ['table', '--length', '1', '--dim', '2'];
  for (const [path, reason] of [
    [join(dir, 'no/such/dir/pe.npy'), 'No such file or directory'],
    [dir, 'Is a directory'],
    [join(dir, 't.npy', 'x'), 'Not a directory'],
  ]) {
    for (const args of [
      table,
      ['rope', '--head-dim', '8'],
      ['alibi', '--heads', '4'],
      ['t5-buckets', '--query-length', '2'],
    ]) {
      await refused([...args, '--output', path], `--output: cannot write ${path}: ${reason}`);
    }
  }
  // Inputs (h3's reader words them): a missing file is exit 2 wherever it is read.
  const missing = join(dir, 'missing.json');
  for (const args of [
    ['rope', '--config', missing],
    ['alibi', '--config', missing],
    ['rope', '--head-dim', '8', '--position-ids', `@${missing}`],
  ]) {
    const run = await sameRunInProcess(args);
    assert.is(run.status, 2, args.join(' '));
    assert.ok(run.stderr.includes(missing), `${args.join(' ')} names the path`);
  }
});

test.run();
