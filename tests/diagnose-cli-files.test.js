// `posenc identify` on malformed files: the native CLI (src/cli/read_npy.c,
// read_safetensors.c) and the Node CLI (the package's readers,
// src/js/learned/) refuse each alike, the same message and exit status, over
// a hand-made set of broken .npy, .safetensors, CSV and raw files (each
// rule of the readers at least once) and a seeded run of mutated files.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { native, nodeInProcess } from './support/cli-run.js';
import { sweep } from './support/quick.js';

const dir = mkdtempSync(join(tmpdir(), 'posenc-identify-files-'));
const floats = (n, v = 0.5) => Buffer.from(new Float32Array(n).fill(v).buffer);
const f4 = floats(8);

function npy(header, data = f4, version = 1) {
  const text = Buffer.from(header, 'latin1');
  const length = Buffer.alloc(version === 1 ? 2 : 4);
  if (version === 1) length.writeUInt16LE(text.length);
  else length.writeUInt32LE(text.length);
  return Buffer.concat([Buffer.from([0x93, ...Buffer.from('NUMPY'), version, 0]), length, text, data]);
}
const dict = (descr, fortran, shape) => `{'descr': ${descr}, 'fortran_order': ${fortran}, 'shape': ${shape}, }\n`;

function safetensors(header, data = f4) {
  const text = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([length, text, data]);
}
const ok = { dtype: 'F32', shape: [2, 4], data_offsets: [0, 32] };
const half = (begin) => ({ dtype: 'F32', shape: [1, 4], data_offsets: [begin, begin + 16] });
const tensor = (shape, offsets, dtype = 'F32') => ({ dtype, shape, data_offsets: offsets });

const FILES = {
  // .npy: preamble, header literal, keys, dtype, order, shape, data
  'v9.npy': npy(dict("'<f4'", 'False', '(2, 4)'), f4, 9),
  'short.npy': Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0]),
  'header-past-end.npy': Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, 0xff, 0, 0x7b]),
  'not-literal.npy': npy(dict("'<f4'", 'False', '(2, x)')),
  'not-dict.npy': npy('[1, 2]\n'),
  'no-fortran.npy': npy("{'descr': '<f4', 'shape': (2, 4), }\n"),
  'int.npy': npy(dict("'<i4'", 'False', '(2, 4)')),
  'pipe.npy': npy(dict("'|f4'", 'False', '(2, 4)')),
  'latin1-dtype.npy': npy(dict("'<f\u00bb'", 'False', '(2, 4)')),
  'structured.npy': npy(dict("[('a', '<f4')]", 'False', '(2, 4)')),
  'fortran-none.npy': npy(dict("'<f4'", 'None', '(2, 4)')),
  'negative-shape.npy': npy(dict("'<f4'", 'False', '(2, -4)')),
  'fortran.npy': npy(dict("'<f4'", 'True', '(2, 4)')),
  'fortran-one-row.npy': npy(dict("'<f4'", 'True', '(1, 8)')),
  '3d.npy': npy(dict("'<f4'", 'False', '(2, 2, 2)')),
  '1d.npy': npy(dict("'<f4'", 'False', '(8,)')),
  '70-axes.npy': npy(dict("'<f4'", 'False', `(${'1, '.repeat(70)}2, 4)`)),
  'zero-by-huge.npy': npy(dict("'<f4'", 'False', '(0, 99999999999)'), Buffer.alloc(0)),
  'truncated.npy': npy(dict("'<f4'", 'False', '(4, 4)')),
  'huge.npy': npy(dict("'<f4'", 'False', '(99999999999, 99999999999)')),
  'v3-not-utf8.npy': npy(dict("'<f\u00bb'", 'False', '(2, 4)'), f4, 3),
  // .safetensors: length, JSON, rules, the tensor
  'header-past-end.safetensors': Buffer.concat([Buffer.from([0xe8, 3, 0, 0, 0, 0, 0, 0]), Buffer.from('{"a":1}')]),
  'huge-length.safetensors': Buffer.concat([Buffer.from([3, 0, 0, 0, 0, 0, 0x30, 0]), Buffer.from('{"a":1}')]),
  'bad-json.safetensors': safetensors('{"a": {', f4),
  'trailing-comma.safetensors': safetensors(`{"a": ${JSON.stringify(ok)},}`),
  'not-utf8.safetensors': safetensors(Buffer.from([0x7b, 0x22, 0x61, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1')),
  'array.safetensors': safetensors('[1,2]'),
  'entry.safetensors': safetensors({ a: 5 }),
  'no-shape.safetensors': safetensors({ a: { dtype: 'F32', data_offsets: [0, 32] } }),
  'no-dtype.safetensors': safetensors({ a: { shape: [2, 4], data_offsets: [0, 32] } }),
  'float-shape.safetensors': safetensors('{"a": {"dtype":"F32","shape":[2,4.5],"data_offsets":[0,32]}}'),
  'reversed-offsets.safetensors': safetensors({ a: tensor([2, 4], [32, 0]) }),
  'two.safetensors': safetensors({ a: ok, b: tensor([2, 4], [32, 64]) }, Buffer.concat([f4, f4])),
  'i32.safetensors': safetensors({ a: tensor([2, 4], [0, 32], 'I32') }),
  '3d.safetensors': safetensors({ a: tensor([2, 2, 2], [0, 32]) }),
  'past-end.safetensors': safetensors({ a: tensor([2, 4], [0, 64]) }),
  'overlap.safetensors': safetensors({ a: ok, b: tensor([2, 4], [16, 48]) }, Buffer.concat([f4, f4])),
  'gap.safetensors': safetensors({ a: tensor([2, 4], [8, 40]) }, Buffer.concat([f4, f4])),
  'short-cover.safetensors': safetensors({ a: ok }, Buffer.concat([f4, Buffer.alloc(4)])),
  'duplicate.safetensors': safetensors(`{"a": ${JSON.stringify(ok)}, "a": ${JSON.stringify(ok)}}`),
  'metadata-number.safetensors': safetensors({ __metadata__: 5, a: ok }),
  'metadata-object.safetensors': safetensors({ __metadata__: { format: 'pt', n: 1 }, a: ok }),
  'size-mismatch.safetensors': safetensors({ a: tensor([2, 3], [0, 32]) }),
  'zero-by-huge.safetensors': safetensors({ a: tensor([0, 9007199254740991], [0, 0]) }, Buffer.alloc(0)),
  'empty.safetensors': safetensors({}, Buffer.alloc(0)),
  // keys in file order however they are written: escapes ("\u0031" is "1"), integer-like names, text before a colon
  'integer-name-second.safetensors': safetensors(
    `{"b": ${JSON.stringify(half(0))}, "12": ${JSON.stringify(half(16))}}`,
  ),
  'escaped-name-second.safetensors': safetensors(
    `{"b": {"dtype":"F32","shape":[1,4],"data_offsets":[0,16],"x":"\\"12\\""}, "\\u0031\\u0032": ${JSON.stringify(half(16))}}`,
  ),
  'name-in-metadata.safetensors': safetensors(
    `{"__metadata__": {"k": "12"}, "b": ${JSON.stringify(half(0))}, "12": ${JSON.stringify(half(16))}}`,
  ),
  'escaped-duplicate.safetensors': safetensors(
    `{"1": ${JSON.stringify(half(0))}, "\\u0031": ${JSON.stringify(half(16))}}`,
  ),
  'escaped-distinct.safetensors': safetensors(
    `{"\\u0061": ${JSON.stringify(half(0))}, "\\ud83d\\ude00\\ud800": ${JSON.stringify(half(16))}}`,
  ),
  'spaced-duplicate.safetensors': safetensors(
    `{"a"${' '.repeat(20)}: ${JSON.stringify(half(0))}, "a"${' '.repeat(20)}: ${JSON.stringify(half(16))}}`,
  ),
  // NUL and other controls inside header strings: quoted with JSON's escapes by both CLIs
  'nul-dtype.safetensors': safetensors('{"a": {"dtype":"F3\\u00002","shape":[2,4],"data_offsets":[0,32]}}'),
  'nul-names.safetensors': safetensors(
    `{"p\\u0000s\\n\\"q\\\\": ${JSON.stringify(half(0))}, "a\\t": ${JSON.stringify(half(16))}}`,
  ),
  'nul-shape.safetensors': safetensors('{"a": {"dtype":"F32","shape":[2,"\\u0000"],"data_offsets":[0,32]}}'),
  'nul-dtype.npy': npy(dict("'<f\0'", 'False', '(2, 4)')),
  'nul-shape.npy': npy(dict("'<f4'", 'False', "(2, '\0\t\"')")),
  'many.safetensors': safetensors(
    Object.fromEntries(
      Array.from({ length: 25 }, (_, k) => [k === 7 ? 'pos_embed' : `t${k}`, tensor([1, 1], [4 * k, 4 * k + 4])]),
    ),
    floats(25),
  ),
  // text and raw
  'word.csv': Buffer.from('1,2\n3,x\n'),
  'mixed.csv': Buffer.from('a,1\n1,2\n'),
  'ragged.csv': Buffer.from('1,2\n3\n'),
  'names-only.csv': Buffer.from('a,b\n'),
  'odd.raw': Buffer.from([0, 1, 2, 0x80, 0xff]),
  'nine.raw': Buffer.from([...Array(8).fill(0x80), 1]),
};
// Valid after all: one row in Fortran order is C order; --name picks a good tensor.
const ACCEPTED = [
  'fortran-one-row.npy ',
  'two.safetensors --name a',
  'integer-name-second.safetensors --name 12',
  'escaped-name-second.safetensors --name 12',
  'name-in-metadata.safetensors --name 12',
  'escaped-distinct.safetensors --name a',
  // a 1 x 1 tensor is a one-value inv_freq vector (one column): answered, "one frequency determines neither base nor
  // rotary dim", by both CLIs alike
  'many.safetensors --name pos_embed',
];
const OPTIONS = [[], ['--rows', '3'], ['--name', 'a'], ['--dim', '4'], ['--name', 'pos_embed'], ['--name', '12']];

async function same(path, options) {
  const args = ['identify', path, ...options];
  const a = native(args);
  const b = await nodeInProcess(args);
  const what = `identify ${path.slice(dir.length + 1)} ${options.join(' ')}`;
  assert.is(b.stderr.toString(), a.stderr.toString(), `${what}: the same message`);
  assert.is(b.status, a.status, `${what}: the same exit status`);
  assert.ok(Buffer.compare(a.stdout, b.stdout) === 0, `${what}: the same output`);
  return a;
}

/** Writes each malformed file and runs both CLIs on it with each of these options, refused alike in one line. */
async function refusedAlike(optionSets) {
  for (const [name, bytes] of Object.entries(FILES)) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    for (const options of optionSets) {
      const run = await same(path, options);
      if (ACCEPTED.includes(`${name} ${options.join(' ')}`)) continue;
      assert.is(run.status, 1, `${name} ${options.join(' ')}: refused`);
      assert.match(run.stderr.toString(), /^posenc: [^\n]+\n$/, `${name}: one line`);
    }
  }
}

// The files alone, then with each option (the family loop leaves that sweep out; npm test runs both: every pair).
test('each malformed file: the same one-line message and exit status 1 from both CLIs', async () => {
  await refusedAlike(OPTIONS.filter((options) => options.length === 0));
});

sweep(test)(
  'each malformed file with each option: the same one-line message and exit status 1 from both CLIs',
  async () => {
    await refusedAlike(OPTIONS.filter((options) => options.length > 0));
  },
);

test('seeded mutations of valid files: both CLIs answer alike (message, status and output)', async () => {
  const seed = Number(process.env.POSENC_SEED ?? Date.now() % 100000);
  console.log(`  mutation seed ${seed} (POSENC_SEED=${seed} repeats it)`);
  let state = seed;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const valid = [
    npy(dict("'<f2'", 'False', '(2, 4)'), Buffer.from(new Uint16Array(8).fill(0x3800).buffer), 2),
    npy(dict("'>f8'", 'False', '(2L, 4L)'), Buffer.alloc(64, 0x3f)),
    npy(dict("'<f4'", 'False', '(1, 1, 2, 4)')),
    safetensors({ pos: tensor([2, 4], [0, 16], 'F16') }, Buffer.from(new Uint16Array(8).fill(0x3800).buffer)),
    FILES['many.safetensors'],
  ];
  const tokens = Buffer.from(' ,:[](){}0123456789"\'-.eELTF');
  for (let i = 0; i < 300; i++) {
    const bytes = Buffer.from(valid[i % valid.length]);
    for (let k = 0, n = 1 + Math.floor(random() * 3); k < n; k++) {
      const at = Math.floor(random() * Math.min(bytes.length, 200));
      // Any byte, NUL included (both CLIs quote a header string's controls as \u0000 ...).
      bytes[at] = random() < 0.5 ? Math.floor(random() * 256) : tokens[Math.floor(random() * tokens.length)];
    }
    const path = join(dir, `mutant-${i}`);
    writeFileSync(path, bytes);
    await same(path, []);
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
