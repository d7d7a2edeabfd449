// Learned position tables: reading .npy and .safetensors files written here
// byte by byte from their specifications (every dtype and byte order, header
// variants, then truncated, malformed and fuzzed files, which must give a
// PosencError and never anything else), and resampling a table to a new
// number of rows against hand-derived values, an exact BigInt oracle and the
// four builds bit for bit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, instantiate, readTable, readNpy, readSafetensors, resampleTable, PosencError } from '../src/js/index.js';
import { sameBits, bitsOf, compared } from './support/builds-bits.js';
import { runBuilds, serve, describe } from './support/learned-harness.js';
import { HARNESS, HARNESS_ASAN, runHarness } from './support/native-harness.js';
import { lerpFloat32, float32Scaled, nearFloat32Tie } from './support/learned-exact.js';
import {
  npyFile,
  npyDict,
  safetensorsFile,
  safetensorsRaw,
  elementBytes,
  halfValue,
  bfloat16Value,
  concat,
} from './support/learned-files.js';
import { snapshot, unchanged } from './support/js-bits.js';
import { generator, seedFromEnv } from './support/random.js';

const seed = seedFromEnv();
console.log(`learned-readers.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);
const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };

const randomFloats = (n, range = 2) => Float32Array.from({ length: n }, () => (rng.next() * 2 - 1) * range);
const random16 = (n, skip) =>
  Array.from({ length: n }, () => {
    let h;
    do h = rng.int(0, 0xffff);
    while (skip(h));
    return h;
  });

/** Runs call; it must throw a PosencError with this code whose message holds every text. */
function refused(call, code, texts = [], what = '') {
  try {
    call();
  } catch (error) {
    if (!(error instanceof PosencError))
      throw new Error(`${what}: threw ${error?.name}: ${error?.message}, not a PosencError`);
    assert.is(error.code, code, `${what}: ${error.message}`);
    for (const text of texts)
      assert.ok(
        error.message.includes(text),
        `${what}: message ${JSON.stringify(error.message)} lacks ${JSON.stringify(text)}`,
      );
    return error;
  }
  assert.unreachable(`${what}: no error`);
}

// ----------------------------------------------------------------- .npy

test('.npy float32, little- and big-endian, versions 1.0, 2.0 and 3.0', () => {
  const values = randomFloats(7 * 5);
  for (const [descr, little] of [
    ['<f4', true],
    ['>f4', false],
  ]) {
    for (const version of [1, 2, 3]) {
      const file = npyFile({ descr, shape: [7, 5], version, data: elementBytes(values, 'f4', little) });
      const result = readNpy(file, { rows: 7, dim: 5 });
      assert.equal([result.rows, result.dim, result.dtype], [7, 5, descr]);
      assert.equal(result.shape, [7, 5]);
      sameBits(result.table, values, `${descr} v${version}`);
    }
  }
});

test('.npy header length: 64-byte alignment per the spec, and the data right after it', () => {
  for (const version of [1, 2, 3]) {
    const file = npyFile({ shape: [2, 3], version, data: elementBytes([1, 2, 3, 4, 5, 6], 'f4') });
    const view = new DataView(file.buffer);
    const headerLength = version === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
    const start = (version === 1 ? 10 : 12) + headerLength;
    assert.is(start % 64, 0, `v${version} data offset ${start}`);
    assert.is(file[start - 1], 0x0a, 'header ends in a newline');
    assert.equal(Array.from(readNpy(file).table), [1, 2, 3, 4, 5, 6]);
  }
});

test('.npy float64 rounds to the nearest float32, both byte orders', () => {
  const values = Array.from({ length: 24 }, () => (rng.next() - 0.5) * 2 ** rng.int(-30, 30));
  values.push(0.1, -1 / 3, 1e-50, -1e300, 2 ** -149 * 0.75, 3.4028235677973366e38); // to subnormal, 0, -inf, over
  for (const [descr, little] of [
    ['<f8', true],
    ['>f8', false],
  ]) {
    const { table } = readNpy(npyFile({ descr, shape: [values.length, 1], data: elementBytes(values, 'f8', little) }));
    sameBits(table, Float32Array.from(values.map(Math.fround)), descr);
  }
});

test('.npy float16: every non-NaN bit pattern, both byte orders, equals the binary16 definition', () => {
  const all = Array.from({ length: 0x10000 }, (_, h) => h).filter((h) => !((h & 0x7c00) === 0x7c00 && h & 0x3ff));
  for (const [descr, little] of [
    ['<f2', true],
    ['>f2', false],
  ]) {
    const { table, rows, dim } = readNpy(
      npyFile({ descr, shape: [all.length / 2, 2], data: elementBytes(all, 'f2', little) }),
    );
    assert.equal([rows, dim], [all.length / 2, 2]);
    sameBits(table, Float32Array.from(all, halfValue), descr);
  }
  const nan = readNpy(npyFile({ descr: '<f2', shape: [1, 2], data: elementBytes([0x7e00, 0xfc01], 'f2') })).table;
  assert.ok(Number.isNaN(nan[0]) && Number.isNaN(nan[1]), 'half NaNs stay NaN');
});

test('.npy header variants numpy and other writers produce', () => {
  const data = elementBytes([1, 2, 3, 4, 5, 6], 'f4');
  for (const header of [
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
    '{"descr": "<f4", "fortran_order": False, "shape": (2, 3)}',
    "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}",
    "{'descr':'<f4','fortran_order':False,'shape':(2,3)}",
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }", // Python 2
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3), }", // leading axes of 1 are dropped
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 3), }",
  ]) {
    const result = readNpy(npyFile({ header, data }));
    assert.equal([result.rows, result.dim], [2, 3], header);
    assert.equal(Array.from(result.table), [1, 2, 3, 4, 5, 6], header);
  }
  // Fortran order with one non-trivial axis is the same memory as C order.
  const column = readNpy(npyFile({ header: npyDict('<f4', [1, 6], true), data }));
  assert.equal([column.rows, column.dim], [1, 6]);
  // Bytes after the array are ignored, as np.load does.
  assert.equal(
    Array.from(readNpy(concat(npyFile({ shape: [2, 3], data }), new Uint8Array(5))).table),
    [1, 2, 3, 4, 5, 6],
  );
});

test('.npy in every input form: ArrayBuffer, Uint8Array at an odd offset, Buffer, DataView', () => {
  const values = randomFloats(12);
  const file = npyFile({ shape: [3, 4], data: elementBytes(values, 'f4') });
  const shifted = new Uint8Array(file.length + 3);
  shifted.set(file, 3);
  for (const input of [file.slice().buffer, shifted.subarray(3), Buffer.from(file), new DataView(shifted.buffer, 3)]) {
    sameBits(readNpy(input).table, values, input.constructor.name);
  }
});

test('.npy refusals: fortran order, other dtypes, shapes that are not tables, expected sizes', () => {
  const data = elementBytes(new Array(12).fill(1), 'f4');
  refused(() => readNpy(npyFile({ descr: '<f4', shape: [3, 4], fortran: true, data })), 'BAD_FILE_ORDER', [
    'Fortran',
    'np.ascontiguousarray',
  ]);
  for (const descr of ['<i4', '<i8', '|u1', '<c8', '|b1', '<U4', '=f4', '<f16', 'float32']) {
    refused(
      () => readNpy(npyFile({ descr, shape: [3, 4], data })),
      'BAD_FILE_DTYPE',
      [descr, "'<f2', '<f4', '<f8'"],
      descr,
    );
  }
  refused(
    () => readNpy(npyFile({ header: "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }", data })),
    'BAD_FILE_DTYPE',
    ['structured'],
  );
  refused(() => readNpy(npyFile({ shape: [12], data })), 'BAD_SHAPE', ['(12,)', '2-D']);
  refused(() => readNpy(npyFile({ shape: [], data })), 'BAD_SHAPE', ['()']);
  refused(() => readNpy(npyFile({ shape: [2, 2, 3], data })), 'BAD_SHAPE', ['(2, 2, 3)']);
  refused(() => readNpy(npyFile({ shape: [3, 4], data }), { rows: 4 }), 'BAD_SHAPE', ['(3, 4)', 'expected 4 rows']);
  refused(() => readNpy(npyFile({ shape: [3, 4], data }), { rows: 3, dim: 5 }), 'BAD_SHAPE', ['expected dim 5']);
  refused(() => readNpy(npyFile({ shape: [3, 4], data }), { row: 3 }), 'UNKNOWN_OPTION', ["did you mean 'rows'"]);
  refused(() => readNpy(npyFile({ shape: [3, 4], data }), { dim: 0 }), 'BAD_DIM', ['dim', 'got 0']);
  refused(() => readNpy('positions.npy'), 'BAD_BUFFER', ['fs.readFileSync', 'got "positions.npy"']);
  refused(() => readNpy([0x93, 0x4e]), 'BAD_BUFFER', ['an Array']);
});

test('.npy malformed files are BAD_FILE with a reason', () => {
  const data = elementBytes([1, 2, 3, 4, 5, 6], 'f4');
  const good = npyFile({ shape: [2, 3], data });
  const patched = (at, bytes) => {
    const f = good.slice();
    f.set(bytes, at);
    return f;
  };
  for (const [file, text] of [
    [new Uint8Array(0), '\\x93NUMPY'],
    [new TextEncoder().encode('PK\x03\x04 a zip, not an npy'), '\\x93NUMPY'],
    [patched(6, [4, 0]), 'version 4.0'],
    [patched(6, [0, 0]), 'version 0.0'],
    [patched(8, [0xff, 0x7f]), 'header says it is 32767 bytes'],
    [npyFile({ header: "{'descr': '<f4', 'fortran_order': False}", data }), "no 'shape'"],
    [npyFile({ header: "{'descr': '<f4', 'shape': (2, 3)}", data }), "no 'fortran_order'"],
    [npyFile({ header: '[1, 2, 3]', data }), 'not a dict'],
    [
      npyFile({ header: "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), ", data }),
      'not a Python dict literal',
    ],
    [
      npyFile({ header: "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} x", data }),
      'not a Python dict literal',
    ],
    [
      npyFile({ header: "{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}", data }),
      'not a Python dict literal',
    ],
    [
      npyFile({ header: "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", data }),
      "'fortran_order' must be True or False",
    ],
    [
      npyFile({ header: "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", data }),
      "'shape' must be a tuple of integers",
    ],
    [
      npyFile({ header: "{'descr': '<f4', 'fortran_order': False, 'shape': '2, 3'}", data }),
      "'shape' must be a tuple of integers",
    ],
    [npyFile({ shape: [2, 4], data }), 'truncated'],
    [npyFile({ shape: [2 ** 40, 2 ** 40], data }), 'truncated'],
    [npyFile({ shape: [2 ** 52, 3], data }), 'truncated'],
    [concat(npyFile({ shape: [2, 3], data, version: 3 }).subarray(0, 12), new Uint8Array([0xff, 0xfe])), 'header says'],
  ]) {
    refused(() => readNpy(file), 'BAD_FILE', ['not a valid .npy file', text], text);
  }
  const v3 = npyFile({ shape: [2, 3], data, version: 3 });
  v3[20] = 0xff; // inside the header text: not UTF-8
  refused(() => readNpy(v3), 'BAD_FILE', ['not UTF-8']);
});

test('.npy: every truncation of a file is BAD_FILE', () => {
  for (const version of [1, 2, 3]) {
    const file = npyFile({ descr: '>f8', shape: [3, 2], version, data: elementBytes([1, 2, 3, 4, 5, 6], 'f8', false) });
    for (let n = 0; n < file.length; n++)
      refused(() => readNpy(file.subarray(0, n)), 'BAD_FILE', [], `v${version} first ${n} of ${file.length} bytes`);
    assert.equal(Array.from(readNpy(file).table), [1, 2, 3, 4, 5, 6]);
  }
});

test('.npy and .safetensors fuzz: damaged bytes give a result or a PosencError, never another exception', () => {
  const files = [
    npyFile({ descr: '<f2', shape: [4, 3], data: elementBytes(new Array(12).fill(0x3c00), 'f2') }),
    safetensorsFile(
      {
        'pos.weight': { dtype: 'F32', shape: [3, 2], data: elementBytes([1, 2, 3, 4, 5, 6], 'f4') },
        other: { dtype: 'BF16', shape: [2], data: elementBytes([0x3f80, 0x4000], 'bf16') },
      },
      { format: 'pt' },
    ),
  ];
  let outcomes = { ok: 0, refused: 0 };
  for (let n = 0; n < 3000; n++) {
    const file = rng.pick(files).slice();
    for (let k = rng.int(1, 4); k > 0; k--)
      file[rng.int(0, Math.min(file.length - 1, 140))] = rng.pick([
        0,
        0xff,
        0x20,
        0x7b,
        0x22,
        0x27,
        0x28,
        0x2c,
        rng.int(0, 255),
      ]);
    try {
      const result = readTable(file, file[0] === 0x93 ? undefined : { name: 'pos.weight' });
      assert.ok(result.table instanceof Float32Array && result.table.length === result.rows * result.dim);
      outcomes.ok++;
    } catch (error) {
      if (!(error instanceof PosencError)) throw new Error(`damaged file (seed ${seed}, case ${n}): ${error.stack}`);
      outcomes.refused++;
    }
  }
  console.log(`fuzz: ${outcomes.ok} damaged files still read, ${outcomes.refused} refused`);
  assert.ok(outcomes.refused > 100, 'the fuzzer damaged too little');
});

// ------------------------------------------------------------ .safetensors

function modelFile() {
  const positions = randomFloats(10 * 4);
  const half = random16(6, (h) => (h & 0x7c00) === 0x7c00);
  const brain = random16(8, (h) => (h & 0x7f80) === 0x7f80);
  const doubles = Array.from({ length: 6 }, () => rng.next() * 1e3 - 500);
  const file = safetensorsFile(
    {
      'model.embed_tokens.weight': { dtype: 'F16', shape: [3, 2], data: elementBytes(half, 'f2') },
      'model.embed_positions.weight': { dtype: 'F32', shape: [10, 4], data: elementBytes(positions, 'f4') },
      'encoder.pos_embed': { dtype: 'BF16', shape: [1, 4, 2], data: elementBytes(brain, 'bf16') },
      'rel.bias': { dtype: 'F64', shape: [2, 3], data: elementBytes(doubles, 'f8') },
      'layer.0.ln.eps': { dtype: 'I64', shape: [1], data: new Uint8Array(8) },
    },
    { format: 'pt' },
  );
  return { file, positions, half, brain, doubles };
}

test('.safetensors: a tensor by name, F32 / F16 / BF16 / F64 exact (F64 rounded to nearest)', () => {
  const { file, positions, half, brain, doubles } = modelFile();
  const pos = readSafetensors(file, { name: 'model.embed_positions.weight', rows: 10, dim: 4 });
  assert.equal([pos.rows, pos.dim, pos.dtype, pos.name], [10, 4, 'F32', 'model.embed_positions.weight']);
  sameBits(pos.table, positions, 'F32');
  sameBits(
    readSafetensors(file, { name: 'model.embed_tokens.weight' }).table,
    Float32Array.from(half, halfValue),
    'F16',
  );
  const vit = readSafetensors(file, { name: 'encoder.pos_embed' });
  assert.equal([vit.rows, vit.dim, vit.shape], [4, 2, [1, 4, 2]]);
  sameBits(vit.table, Float32Array.from(brain, bfloat16Value), 'BF16');
  sameBits(readSafetensors(file, { name: 'rel.bias' }).table, Float32Array.from(doubles, Math.fround), 'F64');
  sameBits(readTable(file, { name: 'model.embed_positions.weight' }).table, positions, 'readTable');
});

test('.safetensors: every BF16 bit pattern equals the bfloat16 definition', () => {
  const all = Array.from({ length: 0x10000 }, (_, h) => h).filter((h) => !((h & 0x7f80) === 0x7f80 && h & 0x7f));
  const file = safetensorsFile({ t: { dtype: 'BF16', shape: [all.length / 2, 2], data: elementBytes(all, 'bf16') } });
  sameBits(readSafetensors(file).table, Float32Array.from(all, bfloat16Value), 'BF16'); // one tensor: no name needed
});

test('.safetensors refusals: a missing name lists the tensors, other dtypes, shapes', () => {
  const { file } = modelFile();
  const missing = refused(() => readSafetensors(file, { name: 'model.embed_position.weight' }), 'BAD_NAME', [
    'no tensor named "model.embed_position.weight"',
    'it holds 5 tensors',
    '"model.embed_positions.weight"',
    '"model.embed_tokens.weight"',
    '"rel.bias"',
  ]);
  assert.ok(
    missing.message.indexOf('embed_positions') < missing.message.indexOf('embed_tokens'),
    'names with "pos" come first',
  );
  refused(() => readSafetensors(file), 'BAD_NAME', ['name must say which tensor', 'it holds 5 tensors']);
  refused(() => readSafetensors(file, { name: '__metadata__' }), 'BAD_NAME', ['no tensor named "__metadata__"']);
  refused(() => readSafetensors(file, { name: 'toString' }), 'BAD_NAME', ['no tensor named "toString"']);
  refused(() => readSafetensors(file, { name: 3 }), 'BAD_NAME', ['got 3']);
  refused(() => readSafetensors(file, { name: 'layer.0.ln.eps' }), 'BAD_FILE_DTYPE', ['I64', 'F32, F16, BF16, F64']);
  refused(() => readSafetensors(file, { name: 'model.embed_positions.weight', dim: 8 }), 'BAD_SHAPE', [
    '(10, 4)',
    'expected dim 8',
  ]);
  refused(() => readSafetensors(file, { name: 'model.embed_positions.weight', rows: 12, dim: 3 }), 'BAD_SHAPE', [
    'expected 12 rows and dim 3',
  ]);
  refused(() => readSafetensors(safetensorsFile({}), { name: 'x' }), 'BAD_NAME', ['it holds no tensors']);
  for (const dtype of ['I8', 'U8', 'BOOL', 'F8_E4M3', 'I32']) {
    refused(
      () =>
        readSafetensors(
          safetensorsFile({ w: { dtype, shape: [2, 2], data: new Uint8Array(4 * { I32: 4 }[dtype] ?? 4) } }),
        ),
      'BAD_FILE_DTYPE',
      [dtype],
      dtype,
    );
  }
  refused(() => readTable(npyFile({ shape: [1, 1], data: elementBytes([1], 'f4') }), { name: 'w' }), 'BAD_NAME', [
    '.npy file',
  ]);
});

test(".safetensors names in the header's own order, however a key is escaped or spaced", () => {
  const f4 = elementBytes([1, 2, 3, 4, 5, 6, 7, 8], 'f4');
  const entry = (begin, end, extra = '') =>
    `{"dtype":"F32","shape":[1,${(end - begin) / 4}],"data_offsets":[${begin},${end}]${extra}}`;
  const listed = (text) => {
    const error = refused(() => readSafetensors(safetensorsRaw(text, f4)), 'BAD_NAME', ['name must say which tensor']);
    return JSON.parse(`[${error.message.slice(error.message.indexOf(': ', error.message.indexOf('holds')) + 2)}]`);
  };
  // JavaScript's object lists "12" first; the file, and the native CLI, list b first.
  assert.equal(listed(`{"b": ${entry(0, 16)}, "12": ${entry(16, 32)}}`), ['b', '12']);
  // "12" written as escapes, and the quoted text "12" inside an earlier string: indexOf found the wrong one.
  assert.equal(listed(`{"b": ${entry(0, 16, ',"note":"\\"12\\""')}, "\\u0031\\u0032": ${entry(16, 32)}}`), ['b', '12']);
  assert.equal(listed(`{"__metadata__": {"k": "12"}, "b": ${entry(0, 16)}, "12": ${entry(16, 32)}}`), ['b', '12']);
  assert.equal(listed(`{"\\u0041": ${entry(0, 16)}, "\\u0042": ${entry(16, 32)}}`), ['A', 'B']);
  const one = readSafetensors(safetensorsRaw(`{"\\u0031": ${entry(0, 32)}}`, f4), { name: '1' });
  assert.equal([one.name, one.dim], ['1', 8]);
  // The same key escaped two ways, or far from its colon, is a duplicate.
  refused(
    () => readSafetensors(safetensorsRaw(`{"1": ${entry(0, 16)}, "\\u0031": ${entry(16, 32)}}`, f4)),
    'BAD_FILE',
    ['the header names "1" twice'],
  );
  refused(
    () =>
      readSafetensors(
        safetensorsRaw(`{"a"${' '.repeat(20)}: ${entry(0, 16)}, "a"${' '.repeat(20)}: ${entry(16, 32)}}`, f4),
      ),
    'BAD_FILE',
    ['the header names "a" twice'],
  );
  // A string from the file is quoted with JSON's escapes: a NUL never reaches a message raw.
  refused(
    () => readSafetensors(safetensorsRaw('{"a": {"dtype":"F3\\u00002","shape":[1,8],"data_offsets":[0,32]}}', f4)),
    'BAD_FILE_DTYPE',
    ['dtype F3\\u00002;'],
  );
});

test('.safetensors malformed headers and data are BAD_FILE with a reason', () => {
  const f4 = elementBytes([1, 2, 3, 4, 5, 6], 'f4');
  const entry = (e) => safetensorsRaw(JSON.stringify({ w: e }), f4);
  for (const [file, text] of [
    [new Uint8Array(5), 'shorter than the 8-byte header length'],
    [
      safetensorsRaw('{"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}}', f4, 1 << 20),
      'header length is 1048576',
    ],
    [
      safetensorsRaw('{"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}}', f4, 2 ** 40),
      'header length is 1099511627776',
    ],
    [safetensorsRaw('{"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]', f4), 'not UTF-8 JSON'],
    [safetensorsRaw('[1, 2]', f4), 'not a JSON object'],
    [safetensorsRaw('{"w": 5}', f4), 'not an object'],
    [entry({ shape: [2, 3], data_offsets: [0, 24] }), 'no dtype string'],
    [entry({ dtype: 'F32', shape: [2, 3] }), 'data_offsets'],
    [entry({ dtype: 'F32', shape: [2, 3], data_offsets: [24, 0] }), 'data_offsets'],
    [entry({ dtype: 'F32', shape: [2, 3], data_offsets: [0, 24, 5] }), 'data_offsets'],
    [entry({ dtype: 'F32', shape: [2, -3], data_offsets: [0, 24] }), 'list of integers'],
    [entry({ dtype: 'F32', shape: [2, 3.5], data_offsets: [0, 24] }), 'list of integers'],
    [entry({ dtype: 'F32', shape: '2x3', data_offsets: [0, 24] }), 'list of integers'],
    [entry({ dtype: 'F32', shape: [2, 3], data_offsets: [0, 28] }), 'truncated'],
    [entry({ dtype: 'F32', shape: [2, 2], data_offsets: [0, 24] }), 'not the 24 bytes'],
    [entry({ dtype: 'F32', shape: [2 ** 40, 2 ** 40], data_offsets: [0, 24] }), 'not the 24 bytes'],
    [entry({ dtype: 'F64', shape: [2, 3], data_offsets: [0, 24] }), 'not the 24 bytes'],
  ]) {
    refused(() => readSafetensors(file, { name: 'w' }), 'BAD_FILE', ['not a valid .safetensors file', text], text);
  }
  const bad = safetensorsRaw('{"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}}', f4);
  bad[12] = 0xc3; // a lone UTF-8 lead byte inside the JSON
  refused(() => readSafetensors(bad, { name: 'w' }), 'BAD_FILE', ['not UTF-8 JSON']);
});

test('.safetensors: every truncation is BAD_FILE, also one that cuts only a tensor after the chosen one', () => {
  const file = safetensorsFile({
    pos: { dtype: 'F16', shape: [3, 2], data: elementBytes([0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600], 'f2') },
    later: { dtype: 'F32', shape: [2], data: elementBytes([7, 8], 'f4') },
  });
  for (let n = 0; n < file.length; n++) {
    refused(
      () => readSafetensors(file.subarray(0, n), { name: 'pos' }),
      'BAD_FILE',
      [],
      `first ${n} of ${file.length} bytes`,
    );
  }
  refused(() => readSafetensors(file.subarray(0, file.length - 1), { name: 'pos' }), 'BAD_FILE', [
    '"later" ends at byte 20',
    'truncated',
  ]);
  assert.equal(Array.from(readSafetensors(file, { name: 'pos' }).table), [1, 2, 3, 4, 5, 6]);
});

test('readTable tells the formats apart by their bytes and refuses anything else', () => {
  const npy = npyFile({ descr: '<f8', shape: [2, 2], data: elementBytes([1, 2, 3, 4], 'f8') });
  assert.equal(Array.from(readTable(npy, { rows: 2, dim: 2 }).table), [1, 2, 3, 4]);
  for (const junk of [
    new Uint8Array(0),
    new TextEncoder().encode('hello, world'),
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0),
  ]) {
    refused(() => readTable(junk), 'BAD_FILE', ['neither with "\\x93NUMPY"']);
  }
  refused(() => readTable(npy, { names: 'x' }), 'UNKNOWN_OPTION', ["did you mean 'name'"]);
});

// -------------------------------------------------------------- resampling

test('resampling by hand: 3 rows to 5 (midpoints), to 4 (thirds), to 2, to 1; 1 row to 3', () => {
  const table = Float32Array.from([0, 1, 10, 11, 20, 21]);
  for (const instance of [wasm.simd, wasm.scalar]) {
    // new row r reads old position r·(3-1)/(5-1) = r/2: 0, 0.5, 1, 1.5, 2
    sameBits(
      instance.resampleTable(table, { dim: 2, newRows: 5 }),
      Float32Array.from([0, 1, 5, 6, 10, 11, 15, 16, 20, 21]),
      '3 -> 5',
    );
    // r·2/3: 0, 2/3, 4/3, 2 -> 0 + (2/3)·10, 1 + (2/3)·10, 10 + (1/3)·10, 11 + (1/3)·10
    sameBits(
      instance.resampleTable(table, { dim: 2, newRows: 4 }),
      Float32Array.from([0, 1, 20 / 3, 23 / 3, 40 / 3, 43 / 3, 20, 21]),
      '3 -> 4',
    );
    sameBits(
      instance.resampleTable(table, { dim: 2, newRows: 2 }),
      Float32Array.from([0, 1, 20, 21]),
      '3 -> 2: the ends',
    );
    sameBits(instance.resampleTable(table, { dim: 2, newRows: 1 }), Float32Array.from([0, 1]), '3 -> 1: row 0');
    sameBits(
      instance.resampleTable(Float32Array.of(-2.5, 7), { dim: 2, newRows: 3 }),
      Float32Array.of(-2.5, 7, -2.5, 7, -2.5, 7),
      '1 -> 3',
    );
    assert.is(instance.resampleTable(table, { dim: 2, newRows: 0 }).length, 0);
    assert.is(instance.resampleTable(new Float32Array(0), { dim: 3, newRows: 0 }).length, 0);
  }
});

test('resampling copies rows bit for bit wherever the old position is whole: ends, same size, 5 -> 3, 3 -> 9', () => {
  const special = Float32Array.of(-0, 0, Infinity, -Infinity, 1e-45, -3.4028234663852886e38, NaN, 1);
  const table = concat(new Uint8Array(special.buffer), new Uint8Array(randomFloats(4 * 8).buffer));
  const rows = new Float32Array(table.buffer); // 5 rows of 8
  const same = wasm.simd.resampleTable(rows, { dim: 8, newRows: 5 });
  assert.equal(
    Array.from(new Uint32Array(same.buffer).slice(0, 6)),
    Array.from(new Uint32Array(rows.buffer).slice(0, 6)),
  );
  assert.ok(Number.isNaN(same[6]));
  sameBits(same.subarray(8), rows.subarray(8), 'same size');
  const half = wasm.scalar.resampleTable(rows, { dim: 8, newRows: 3 }); // rows 0, 2, 4
  sameBits(half.subarray(8, 16), rows.subarray(16, 24), '5 -> 3, row 1 is old row 2');
  sameBits(half.subarray(16), rows.subarray(32), '5 -> 3, row 2 is old row 4');
  const three = Float32Array.from(randomFloats(9));
  const nine = wasm.simd.resampleTable(three, { dim: 3, newRows: 9 }); // r·2/8: whole at r = 0, 4, 8
  for (const [r, old] of [
    [0, 0],
    [4, 1],
    [8, 2],
  ])
    sameBits(nine.subarray(3 * r, 3 * r + 3), three.subarray(3 * old, 3 * old + 3), `3 -> 9 row ${r}`);
});

/** Every value against the exact oracle; posenc.h allows the other neighbour only within 2^-51 (|a| + |b|) of a float32 tie. */
function assertExact(got, table, rows, dim, newRows, what) {
  const steps = newRows - 1;
  let near = 0;
  for (let r = 0; r < newRows; r++) {
    const x = steps === 0 ? 0 : r * (rows - 1);
    const i = steps === 0 ? 0 : Math.floor(x / steps);
    const rem = steps === 0 ? 0 : x % steps;
    for (let j = 0; j < dim; j++) {
      const a = table[i * dim + j];
      const b = rem === 0 ? a : table[(i + 1) * dim + j];
      // Whole positions are copies; an exact zero is -0 only from -0 and -0, as in IEEE sums.
      let exact = rem === 0 ? a : lerpFloat32(a, b, rem, steps || 1);
      if (exact === 0 && rem !== 0 && Object.is(a, -0) && Object.is(b, -0)) exact = -0;
      if (bitsOf(got[r * dim + j]) === bitsOf(exact)) continue;
      const num = float32Scaled(a) * BigInt((steps || 1) - rem) + float32Scaled(b) * BigInt(rem);
      const slack = 2 ** -51 * (Math.abs(a) + Math.abs(b));
      assert.ok(
        nearFloat32Tie(num, BigInt(steps || 1) << 149n, slack),
        `${what}: row ${r} column ${j}: ${got[r * dim + j]}, exact ${exact}`,
      );
      near++;
    }
  }
  return near;
}

/** The documented formula step by step in double: float32(w0·a + w1·b), w0 = (steps − rem)/steps, w1 = rem/steps. */
function documented(table, rows, dim, newRows) {
  const out = new Float32Array(newRows * dim);
  for (let r = 0; r < newRows; r++) {
    const steps = newRows - 1;
    const x = steps === 0 ? 0 : r * (rows - 1);
    const i = steps === 0 ? 0 : Math.floor(x / steps);
    const rem = steps === 0 ? 0 : x % steps;
    for (let j = 0; j < dim; j++) {
      const a = table[i * dim + j];
      out[r * dim + j] = rem === 0 ? a : ((steps - rem) / steps) * a + (rem / steps) * table[(i + 1) * dim + j];
    }
  }
  return out;
}

test('resampling against the exact rational oracle and the documented double formula', () => {
  let values = 0;
  let near = 0;
  for (let n = 0; n < 80; n++) {
    const rows = rng.int(1, 40);
    const dim = rng.int(1, 20);
    const newRows = rng.int(1, 120);
    const table = Float32Array.from({ length: rows * dim }, () =>
      rng.next() < 0.1 ? rng.pick([0, -0, 1e-40, -3e38, 3e38]) : (rng.next() - 0.5) * 2 ** rng.int(-20, 20),
    );
    const got = (n % 2 ? wasm.simd : wasm.scalar).resampleTable(table, { dim, newRows, rows });
    near += assertExact(got, table, rows, dim, newRows, `${rows}x${dim} -> ${newRows}`);
    sameBits(got, documented(table, rows, dim, newRows), `documented formula ${rows}x${dim} -> ${newRows}`);
    values += got.length;
  }
  console.log(`resample oracle: ${values} values, ${near} near a tie and on its other side`);
});

test('1000 rows to 2999 against the exact oracle; embedding-like values, the last row a copy', () => {
  // Row r reads old position r·999/2998: whole only at r = 0 and 2998 (gcd(999, 2998) = 1).
  const table = randomFloats(1000 * 3, 0.1);
  const got = wasm.simd.resampleTable(table, { dim: 3, newRows: 2999 });
  assertExact(got, table, 1000, 3, 2999, '1000 -> 2999');
  sameBits(got.subarray(3 * 2998), table.subarray(3 * 999), 'last row');
});

test('four builds bit for bit: dims 1 … 34 × row counts around the SIMD width, JS arrays and WasmBuffers', () => {
  const before = compared.values;
  const reqs = [];
  for (let dim = 1; dim <= 34; dim++)
    for (const rows of [1, 2, 3, 5, 17, 64])
      for (const newRows of [0, 1, 2, 3, 4, 7, 16, 65, 100]) {
        const table = Float32Array.from({ length: rows * dim }, () => {
          const u = rng.next();
          if (u < 0.05) return rng.pick([0, -0, 1e-45, -1e-45, 1.1754942e-38, 3.4e38, -3.4e38]);
          return (rng.next() - 0.5) * 2 ** rng.int(-40, 40);
        });
        reqs.push({ op: 'resample', rows, dim, newRows, table, viaAlloc: rng.next() < 0.25 });
      }
  const results = runBuilds(reqs, wasm);
  for (const [k, r] of reqs.entries()) {
    const ref = results['native scalar'][k];
    for (const build of ['native simd', 'wasm simd', 'wasm scalar'])
      sameBits(results[build][k], ref, `${build} vs native scalar, ${describe(r)}`, r.dim);
  }
  const n = compared.values - before;
  console.log(`resample builds: ${reqs.length} shapes on 4 builds, ${n} values compared`);
  assert.ok(reqs.length === 34 * 6 * 9 && n > 3e5, `only ${reqs.length} shapes, ${n} values`);
});

test('infinities: the same value (NaN-aware) on every build', () => {
  const table = Float32Array.of(Infinity, -Infinity, 1, Infinity, 5, Infinity, Infinity, 2, -Infinity, 3, 0, -Infinity);
  const reqs = [{ op: 'resample', rows: 2, dim: 6, newRows: 5, table }];
  const results = runBuilds(reqs, wasm);
  const ref = Array.from(results['native scalar'][0]);
  // (1 − t)·a + t·b at t = 1/4: an infinity wins over a finite value, inf and -inf make NaN.
  assert.equal(
    ref.slice(6, 12).map(String),
    ['Infinity', '-Infinity', '-Infinity', 'Infinity', '3.75', 'NaN'],
    `row 1: ${ref.slice(6, 12)}`,
  );
  for (const [build, [out]] of Object.entries(results)) {
    assert.equal(
      Array.from(out, (v) => (Number.isNaN(v) ? 'NaN' : v)),
      ref.map((v) => (Number.isNaN(v) ? 'NaN' : v)),
      build,
    );
  }
});

test('ASan + UBSan harness: the same bits on both kernel sets, no stray access', () => {
  const reqs = [];
  for (const dim of [1, 2, 3, 4, 5, 7, 8, 9])
    reqs.push({ op: 'resample', rows: 3, dim, newRows: 7, table: randomFloats(3 * dim) });
  for (const kernels of ['scalar', 'simd']) {
    const plain = serve(HARNESS, kernels, reqs);
    serve(HARNESS_ASAN, kernels, reqs).forEach((out, k) =>
      sameBits(out, plain[k], `asan ${kernels} ${describe(reqs[k])}`),
    );
  }
  const run = runHarness(HARNESS, ['resample', 'simd', '0', '4', '3'], Buffer.alloc(0));
  assert.is(run.status, 4, run.stderr);
  assert.ok(run.stderr.includes('no row for some position'), run.stderr);
  const dim = runHarness(HARNESS, ['resample', 'scalar', '1', '0', '3'], Buffer.alloc(0));
  assert.is(dim.status, 4, dim.stderr);
  assert.ok(dim.stderr.includes('dim must be between'), dim.stderr);
});

test('out: filled in place with its sentinels untouched; WasmBuffers in and out; the table is never written', () => {
  const table = randomFloats(6 * 5);
  const tableBefore = snapshot(table);
  const block = new Float32Array(9 * 5 + 32).fill(-777.25);
  const out = block.subarray(16, 16 + 45);
  assert.is(wasm.simd.resampleTable(table, { rows: 6, dim: 5, newRows: 9, out }), out);
  unchanged(table, tableBefore, 'table');
  assert.ok(
    block.subarray(0, 16).every((v) => v === -777.25) && block.subarray(61).every((v) => v === -777.25),
    'sentinels',
  );
  const expected = wasm.scalar.resampleTable(table, { dim: 5, newRows: 9 });
  sameBits(out, expected, 'out');

  const guardA = wasm.simd.alloc(4);
  const inWasm = wasm.simd.alloc(30);
  const result = wasm.simd.alloc(45);
  const guardB = wasm.simd.alloc(4);
  guardA.array.fill(9.5);
  guardB.array.fill(9.5);
  inWasm.array.set(table);
  assert.is(wasm.simd.resampleTable(inWasm, { dim: 5, newRows: 9, out: result }), result);
  sameBits(result.array, expected, 'WasmBuffer to WasmBuffer');
  sameBits(wasm.simd.resampleTable(inWasm, { dim: 5, newRows: 9 }), expected, 'WasmBuffer to a new array');
  assert.ok(
    guardA.array.every((v) => v === 9.5) && guardB.array.every((v) => v === 9.5),
    'neighbouring buffers untouched',
  );
  [guardA, inWasm, result, guardB].forEach((b) => b.free());
});

test('a table read from a file resamples; package-level resampleTable needs init()', async () => {
  const fresh = await import('../src/js/default-instance.js?learned-before-init');
  refused(() => fresh.resampleTable(new Float32Array(4), { dim: 2, newRows: 3 }), 'NOT_INITIALIZED', ['init()']);
  await init();
  const positions = randomFloats(8 * 6);
  const file = safetensorsFile({
    'model.embed_positions.weight': { dtype: 'F32', shape: [8, 6], data: elementBytes(positions, 'f4') },
  });
  const { table, rows, dim } = readTable(file.buffer, { name: 'model.embed_positions.weight', dim: 6 });
  const longer = resampleTable(table, { rows, dim, newRows: 15 });
  sameBits(longer, wasm.simd.resampleTable(positions, { dim: 6, newRows: 15 }), 'package level');
  sameBits(longer.subarray(0, 6), positions.subarray(0, 6), 'first row');
  sameBits(longer.subarray(12, 18), positions.subarray(6, 12), 'row 2 is old row 1 (8 -> 15: r·7/14)');
});

test('the C core refuses overlapping buffers, NULL, a short out and an empty table (raw wasm exports)', async () => {
  const { readFileSync } = await import('node:fs');
  for (const file of ['posenc.wasm', 'posenc-simd.wasm']) {
    const bytes = readFileSync(new URL(`../build/wasm/${file}`, import.meta.url));
    const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
    const c = instance.exports;
    c._initialize();
    const p = c.pe_malloc(64 * 4);
    const table = new Float32Array(c.memory.buffer, p, 64);
    table.set(randomFloats(64));
    const before = table.slice();
    // 4 rows of 2 at p; out (3 rows) starting inside them, or ending inside them: PE_ERR_OVERLAP (16).
    assert.is(c.pe_wasm_resample_table(p, 4, 2, 3, p + 4 * 4, 6), 16, `${file}: out starts inside the table`);
    assert.is(c.pe_wasm_resample_table(p + 4 * 4, 4, 2, 3, p, 6), 16, `${file}: out ends inside the table`);
    assert.is(c.pe_wasm_resample_table(p, 4, 2, 3, p + 8 * 4, 6), 0, `${file}: out right after the table`);
    assert.is(c.pe_wasm_resample_table(0, 4, 2, 3, p + 32 * 4, 6), 1, `${file}: NULL table`);
    assert.is(c.pe_wasm_resample_table(p, 4, 2, 3, p + 32 * 4, 5), 7, `${file}: out_count short`);
    assert.is(c.pe_wasm_resample_table(p, 0, 2, 3, p + 32 * 4, 6), 10, `${file}: no rows`);
    assert.is(c.pe_wasm_resample_table(p, 4, 0, 3, p + 32 * 4, 0), 3, `${file}: dim 0`);
    assert.is(c.pe_wasm_alibi_slopes(8, 0, 8), 1, `${file}: NULL slopes`);
    assert.is(c.pe_wasm_alibi_slopes(8, p, 7), 7, `${file}: slopes out_count`);
    assert.is(c.pe_wasm_alibi_bias(8, 2, 2, 0, 0, 0, 8, 0, 32), 1, `${file}: NULL bias`);
    assert.is(c.pe_wasm_alibi_bias(8, 2, 2, 0, 0, 7, 2, p, 8), 15, `${file}: head range past the heads`);
    const now = new Float32Array(c.memory.buffer, p, 64);
    sameBits(now.subarray(0, 8), before.subarray(0, 8), `${file}: the table is untouched`);
    sameBits(
      now.subarray(14, 64),
      before.subarray(14, 64),
      `${file}: refusals wrote nothing (the accepted call wrote floats 8 … 13)`,
    );
  }
});

const resampleRefusals = [
  ['dim 0', (i) => wasm.simd.resampleTable(i.table, { dim: 0, newRows: 2, out: i.out }), 'BAD_DIM', ['dim', 'got 0']],
  ['NaN dim', (i) => wasm.simd.resampleTable(i.table, { dim: NaN, newRows: 2 }), 'BAD_DIM', ['got NaN']],
  ['dim too big', (i) => wasm.simd.resampleTable(i.table, { dim: 65537, newRows: 2 }), 'BAD_DIM', ['got 65537']],
  ['missing newRows', (i) => wasm.simd.resampleTable(i.table, { dim: 4 }), 'BAD_LENGTH', ['newRows', 'got undefined']],
  [
    'negative newRows',
    (i) => wasm.simd.resampleTable(i.table, { dim: 4, newRows: -1, out: i.out }),
    'BAD_LENGTH',
    ['newRows', 'got -1'],
  ],
  ['fractional newRows', (i) => wasm.simd.resampleTable(i.table, { dim: 4, newRows: 2.5 }), 'BAD_LENGTH', ['got 2.5']],
  ['newRows a string', (i) => wasm.simd.resampleTable(i.table, { dim: 4, newRows: '6' }), 'BAD_LENGTH', ['got "6"']],
  [
    'table an Array',
    (i) => wasm.simd.resampleTable(Array.from(i.table), { dim: 4, newRows: 6 }),
    'BAD_BUFFER',
    ['table', 'Array'],
  ],
  [
    'table a Float64Array',
    () => wasm.simd.resampleTable(new Float64Array(20), { dim: 4, newRows: 6 }),
    'BAD_BUFFER',
    ['Float64Array'],
  ],
  [
    'table not whole rows',
    (i) => wasm.simd.resampleTable(i.table.subarray(1), { dim: 4, newRows: 6, out: i.out }),
    'BAD_SIZE',
    ['table', 'multiple of dim = 4', 'length 19'],
  ],
  [
    'rows disagreeing with the table',
    (i) => wasm.simd.resampleTable(i.table, { rows: 4, dim: 4, newRows: 6 }),
    'BAD_SIZE',
    ['rows·dim = 4·4 = 16', 'length 20'],
  ],
  [
    'rows not an integer',
    (i) => wasm.simd.resampleTable(i.table, { rows: 4.5, dim: 4, newRows: 6 }),
    'BAD_LENGTH',
    ['rows', 'got 4.5'],
  ],
  [
    'an empty table',
    (i) => wasm.simd.resampleTable(new Float32Array(0), { dim: 4, newRows: 6, out: i.out }),
    'TABLE_TOO_SHORT',
    ['no rows'],
  ],
  [
    'out the wrong size',
    (i) => wasm.simd.resampleTable(i.table, { dim: 4, newRows: 5, out: i.out }),
    'BAD_SIZE',
    ['out', 'newRows·dim = 5·4 = 20', 'length 24'],
  ],
  [
    'out a Float64Array',
    (i) => wasm.simd.resampleTable(i.table, { dim: 4, newRows: 6, out: new Float64Array(24) }),
    'BAD_BUFFER',
    ['out'],
  ],
  [
    'misspelt newRows',
    (i) => wasm.simd.resampleTable(i.table, { dim: 4, newrows: 6 }),
    'UNKNOWN_OPTION',
    ["did you mean 'newRows'"],
  ],
  [
    'out the table itself',
    () => {
      const b = wasm.simd.alloc(8);
      try {
        wasm.simd.resampleTable(b, { dim: 4, newRows: 2, out: b });
      } finally {
        b.free();
      }
    },
    'BAD_BUFFER',
    ['other than table'],
  ],
  [
    'a freed table',
    () => {
      const b = wasm.simd.alloc(8);
      b.free();
      wasm.simd.resampleTable(b, { dim: 4, newRows: 2 });
    },
    'BUFFER_FREED',
    ['table'],
  ],
];

for (const [what, call, code, texts] of resampleRefusals) {
  test(`resampleTable refuses ${what} with ${code}, leaving its inputs untouched`, () => {
    const given = { table: randomFloats(20), out: randomFloats(24) };
    const before = { table: snapshot(given.table), out: snapshot(given.out) };
    refused(() => call(given), code, texts, what);
    unchanged(given.table, before.table, 'table');
    unchanged(given.out, before.out, 'out');
  });
}

test.run();
