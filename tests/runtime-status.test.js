// The layers agree on errors: the C status names the wasm reports are exactly
// posenc.h's pe_status enumerators, the JS map (src/js/runtime/status.js) turns
// each into a code by that name, and the codes the runtime can throw, the
// .d.ts union and the README's list are one set, each code meaning one thing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instantiate, PosencError } from '../src/js/index.js';
import { loadExports } from '../src/js/runtime/loader.js';
import { CODE_OF_STATUS, UNKNOWN_STATUS_CODE, statusTable } from '../src/js/runtime/status.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(join(root, path), 'utf8');

/** posenc.h's pe_status enumerators by value, read from the header's text (not from the wasm). */
function headerStatuses() {
  const body = /typedef enum pe_status \{([\s\S]*?)\} pe_status;/.exec(read('src/core/posenc.h'))[1];
  const names = [];
  for (const [, name, value] of body.matchAll(/\b(PE_[A-Z0-9_]+)\s*=\s*(\d+)/g)) names[Number(value)] = name;
  return names;
}

const cString = (wasm, pointer) => {
  const bytes = new Uint8Array(wasm.memory.buffer, pointer);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
};

test('pe_wasm_status_name names every status of posenc.h, on both builds, and nothing past them', async () => {
  const header = headerStatuses();
  assert.ok(header.length >= 24 && !header.includes(undefined), `posenc.h lists ${header.length} statuses in order`);
  for (const simd of [true, false]) {
    const wasm = await loadExports({ simd }, () => {});
    header.forEach((name, status) =>
      assert.is(cString(wasm, wasm.pe_wasm_status_name(status) >>> 0), name, `status ${status}`),
    );
    const past = wasm.pe_wasm_status_name(header.length) >>> 0;
    const pastName = past === 0 ? '' : cString(wasm, past);
    assert.ok(!header.includes(pastName), `no enumerator name past the last status (got ${pastName})`);
  }
});

test('every status has a JS code by name, and each instance builds the same table', async () => {
  const header = headerStatuses();
  for (const name of header)
    assert.ok(Object.hasOwn(CODE_OF_STATUS, name), `${name} has a JS code in runtime/status.js`);
  assert.equal(Object.keys(CODE_OF_STATUS).sort(), header.slice().sort(), 'the map names no status posenc.h lacks');
  const wasm = await loadExports({ simd: true }, () => {});
  const table = statusTable((n) => {
    const pointer = wasm.pe_wasm_status_name(n) >>> 0;
    return pointer === 0 ? null : cString(wasm, pointer);
  });
  assert.equal(table.names, header);
  assert.equal(
    table.codes,
    header.map((name) => CODE_OF_STATUS[name]),
  );
  assert.not.ok(table.codes.includes(UNKNOWN_STATUS_CODE));
});

test('statusTable: by name whatever the numbering, CORE_STATUS for a name it does not know, stops at the end', () => {
  const shuffled = ['PE_OK', 'PE_ERR_SCALING', 'PE_ERR_DIM_ODD', 'PE_ERR_SOMETHING_NEW'];
  const table = statusTable((n) => shuffled[n] ?? null);
  assert.equal(table.codes, ['OK', 'BAD_SCALING', 'BAD_DIM', UNKNOWN_STATUS_CODE]);
  assert.is(statusTable((n) => (n < 3 ? 'PE_OK' : null)).names.length, 1, 'a repeated name ends the table');
  assert.is(
    statusTable((n) => (n < 2 ? ['PE_OK', 'unknown pe_status'][n] : null)).names.length,
    1,
    'so does a non-name',
  );
});

test('a refusal only the core can see arrives with the code of its status name', async () => {
  const pe = await instantiate();
  const x = Float32Array.from({ length: 16 }, (_, k) => k + 0.5);
  const scaling = {
    rope_type: 'yarn',
    factor: 10,
    original_max_position_embeddings: 64,
    mscale: -100,
    mscale_all_dim: 1,
  };
  try {
    pe.rope(x, { length: 2, heads: 1, headDim: 8, scaling });
    assert.unreachable('a negative derived attention factor was accepted');
  } catch (error) {
    assert.instance(error, PosencError);
    assert.is(error.code, 'BAD_SCALING');
    assert.match(error.message, /PE_ERR_SCALING/);
  }
  x.forEach((v, k) => assert.is(v, k + 0.5, `x[${k}] untouched`));
});

/** Every file under dir (recursively) whose name ends with suffix. */
function filesUnder(dir, suffix) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name));
}

test('the codes the runtime throws, the .d.ts union and the README list are one set', () => {
  const thrown = new Set(Object.values(CODE_OF_STATUS).filter((code) => code !== 'OK'));
  thrown.add(UNKNOWN_STATUS_CODE);
  for (const file of filesUnder('src/js', '.js')) {
    for (const [, code] of read(file).matchAll(/(?:refuse|PosencError|bad)\(\s*'([A-Z_]+)'/g)) thrown.add(code);
  }
  thrown.add('BAD_SCALING'); // rope/scaling.js's bad() builds it
  thrown.add('BAD_FILE'); // learned/decode.js's badFile() builds it
  const typed = new Set();
  for (const file of filesUnder('src/js', '.d.ts')) {
    for (const [, union] of read(file).matchAll(/export type \w*ErrorCode =([^;]*);/g)) {
      for (const [, code] of union.matchAll(/'([A-Z_]+)'/g)) typed.add(code);
    }
  }
  const readme = /The codes: ([\s\S]*?)\n\n/.exec(read('README.md'))[1];
  const listed = new Set(
    [...readme.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]).filter((code) => !code.startsWith('PE_')),
  );
  const sorted = (set) => [...set].sort();
  assert.equal(sorted(typed), sorted(thrown), '.d.ts ErrorCode unions vs the codes src/js throws');
  assert.equal(sorted(listed), sorted(thrown), "README's code list vs the codes src/js throws");
});

test.run();
