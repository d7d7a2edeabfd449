// A seeded mutation fuzz of the .npy and .safetensors readers: valid files of
// every supported version, dtype and byte order are mutated (bytes flipped,
// inserted, deleted, truncated, header digits and keys rewritten) and read
// with readTable, readNpy and readSafetensors. Every failure must be a
// documented PosencError code; every success a table of rows x dim floats;
// the input bytes never change. The seed is printed: POSENC_SEED=<seed>
// replays a run; POSENC_READER_CASES sets the number of cases (default 100000).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readTable, readNpy, readSafetensors, PosencError } from '../src/js/index.js';
import { generator, seedFromEnv } from './support/random.js';
import { npyFile, safetensorsFile, safetensorsRaw, concat } from './support/learned-files.js';

const DOCUMENTED = new Set(['BAD_FILE', 'BAD_FILE_DTYPE', 'BAD_FILE_ORDER', 'BAD_NAME', 'BAD_SHAPE']); // LearnedErrorCode's reader codes
const seed = seedFromEnv();
const cases = Number(process.env.POSENC_READER_CASES ?? 100000);
console.log(`  reader fuzz: seed ${seed} (POSENC_SEED=${seed} replays), ${cases} cases`);
const random = generator(seed);

const bytesOf = (n) => Uint8Array.from({ length: n }, () => random.int(0, 255));

/** Valid files to start from: .npy v1-3 in f2/f4/f8 of both byte orders, .safetensors with one to three tensors. */
function validFile() {
  const rows = random.int(0, 6),
    dim = random.int(1, 5);
  if (random.next() < 0.5) {
    const descr = random.pick(['<f4', '>f4', '<f2', '>f8', '<f8', '|u1', '<i4']);
    const size = Number(descr.slice(2)) || 1;
    const shape = random.pick([[rows, dim], [1, rows, dim], [1, 1, rows, dim], [rows * dim], [rows, dim, 1]]);
    return npyFile({
      descr,
      shape,
      version: random.int(1, 3),
      fortran: random.next() < 0.1,
      data: bytesOf(rows * dim * size),
    });
  }
  const tensors = {};
  for (let k = random.int(1, 3); k > 0; k--) {
    const dtype = random.pick(['F32', 'F16', 'BF16', 'F64', 'I8']);
    const size = { F32: 4, F16: 2, BF16: 2, F64: 8, I8: 1 }[dtype];
    tensors[`t${k}.weight`] = { dtype, shape: [rows, dim], data: bytesOf(rows * dim * size) };
  }
  return safetensorsFile(tensors, random.next() < 0.3 ? { format: 'pt' } : undefined);
}

const DIGITS = ['0', '1', '9', '65536', '-1', '1e309', '9007199254740993', '200000', ''];
const TOKENS = [
  '"data_offsets"',
  '"shape"',
  '"dtype"',
  '"__metadata__"',
  "'shape'",
  "'descr'",
  '(',
  ')',
  '[',
  ']',
  ',',
  '{',
  '}',
  ':',
  '"',
];

function mutate(file) {
  let bytes = file.slice();
  for (let n = random.int(1, 4); n > 0; n--) {
    const at = random.int(0, Math.max(0, bytes.length - 1));
    switch (random.int(0, 6)) {
      case 0:
        if (bytes.length) bytes[at] ^= 1 << random.int(0, 7);
        break;
      case 1:
        if (bytes.length) bytes[at] = random.pick([0, 0xff, 0x7f, 0x80, 0x20, 0x22, 0x27, 0x30]);
        break;
      case 2:
        bytes = concat(bytes.subarray(0, at), bytesOf(random.int(1, 8)), bytes.subarray(at));
        break;
      case 3:
        bytes = concat(bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + random.int(1, 8))));
        break;
      case 4:
        bytes = bytes.slice(0, random.int(0, bytes.length));
        break;
      case 5:
        bytes = concat(bytes.subarray(0, at), new TextEncoder().encode(random.pick(DIGITS)), bytes.subarray(at));
        break;
      default:
        bytes = concat(bytes.subarray(0, at), new TextEncoder().encode(random.pick(TOKENS)), bytes.subarray(at));
        break;
    }
  }
  return bytes;
}

/** where() names the case, built only when something fails. */
function readOnce(read, bytes, where) {
  const copy = bytes.slice();
  let result;
  try {
    result = read(bytes);
  } catch (error) {
    if (!(error instanceof PosencError) || !DOCUMENTED.has(error.code)) {
      throw new Error(`${where()}: an undocumented failure ${error?.name} ${error?.code}: ${error?.message}`);
    }
  }
  if (Buffer.compare(bytes, copy) !== 0) assert.unreachable(`${where()}: the input bytes changed`);
  if (result && !(result.table instanceof Float32Array && result.table.length === result.rows * result.dim)) {
    assert.unreachable(`${where()}: the result is not a rows x dim Float32Array`);
  }
}

test(`${cases} mutated .npy and .safetensors files: every failure a documented PosencError, inputs untouched`, () => {
  const started = performance.now();
  for (let k = 0; k < cases; k++) {
    const bytes = mutate(validFile());
    const where = () =>
      `case ${k} (POSENC_SEED=${seed}), bytes ${Buffer.from(bytes.subarray(0, 200)).toString('base64')}`;
    readOnce((b) => readTable(b, {}), bytes, where);
    readOnce((b) => (b[0] === 0x93 ? readNpy(b, {}) : readSafetensors(b, {})), bytes, where);
  }
  console.log(`  reader fuzz: ${cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`);
});

test('a raw safetensors header of a huge declared length is BAD_FILE, promptly', () => {
  const started = performance.now();
  assert.throws(
    () => readSafetensors(safetensorsRaw('{}', new Uint8Array(0), 2 ** 53), {}),
    (e) => e.code === 'BAD_FILE',
  );
  assert.ok(performance.now() - started < 100);
});

test.run();
