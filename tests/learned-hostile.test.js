// Hostile tensor files of issue 10, each a documented PosencError: a
// .safetensors header that breaks the format's rules (overlapping or gapped
// data_offsets, duplicate names, a non-object __metadata__), a shape with an
// empty axis beside a huge one, and files with 200,000 leading axes of size 1,
// refused promptly (the axes used to be dropped one shift() at a time).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readTable, readSafetensors, PosencError } from '../src/js/index.js';
import { npyFile, safetensorsRaw } from './support/learned-files.js';
import { expectRefusal } from './support/js-bits.js';

/** call() throws code with a message that says `text`. */
const refused = (call, code, text) => expectRefusal(PosencError, call, {}, code, [text]);

const f32 = (n) => new Uint8Array(4 * n);
const tensor = (offsets, shape = [1, 2]) => ({ dtype: 'F32', shape, data_offsets: offsets });

test('.safetensors: data_offsets must tile the data in order, without gaps or overlap, to its end', () => {
  const cases = {
    overlap: [{ a: tensor([0, 8]), b: tensor([4, 12]) }, 12, 'without overlap'],
    gap: [{ a: tensor([0, 8]), b: tensor([12, 20]) }, 20, 'without gaps'],
    'late start': [{ a: tensor([8, 16]) }, 16, 'without gaps'],
    'trailing bytes': [{ a: tensor([0, 8]) }, 12, 'cover the data exactly'],
    'same span twice': [{ a: tensor([0, 8]), b: tensor([0, 8]) }, 8, 'without overlap'],
  };
  for (const [name, [header, bytes, pattern]] of Object.entries(cases)) {
    refused(
      () => readSafetensors(safetensorsRaw(JSON.stringify(header), f32(bytes / 4)), { name: 'a' }),
      'BAD_FILE',
      pattern,
      name,
    );
  }
  const good = { a: tensor([8, 16]), b: tensor([0, 8]) }; // order in the header does not matter, only in the data
  assert.is(readSafetensors(safetensorsRaw(JSON.stringify(good), f32(4)), { name: 'a' }).dim, 2);
});

test('.safetensors: a name given twice, or __metadata__ that is not an object of strings, is BAD_FILE', () => {
  const twice =
    '{"a": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}, "a": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}}';
  refused(() => readSafetensors(safetensorsRaw(twice, f32(2))), 'BAD_FILE', 'names "a" twice', 'duplicate key');
  for (const metadata of ['[]', '"text"', '{"n": 1}', 'null']) {
    const header = `{"__metadata__": ${metadata}, "a": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}}`;
    refused(
      () => readSafetensors(safetensorsRaw(header, f32(2))),
      'BAD_FILE',
      '__metadata__ must be an object of strings',
      metadata,
    );
  }
  const nested =
    '{"__metadata__": {"a": "{\\"a\\": 1}"}, "a": {"dtype": "F32", "shape": [1, 2], "data_offsets": [0, 8]}}';
  assert.is(
    readSafetensors(safetensorsRaw(nested, f32(2))).name,
    'a',
    'keys inside strings and nested objects are not top-level keys',
  );
});

test('a shape with an empty axis beside one above 2^31 is BAD_SHAPE, in both formats', () => {
  const header = JSON.stringify({ a: { dtype: 'F32', shape: [0, 2 ** 53 - 1], data_offsets: [0, 0] } });
  refused(() => readSafetensors(safetensorsRaw(header, f32(0))), 'BAD_SHAPE', 'at most 2^31', 'safetensors');
  refused(() => readTable(npyFile({ shape: [0, 2 ** 40], data: f32(0) })), 'BAD_SHAPE', 'at most 2^31', 'npy');
});

/** The files of `ones` leading axes of size 1, and the fastest of three refusals, in ms. */
function leadingAxes(format, ones) {
  const shape = [...new Array(ones).fill(1), 1, 2];
  const bytes =
    format === 'npy'
      ? npyFile({ shape, version: 2, data: f32(2) })
      : safetensorsRaw(JSON.stringify({ a: { dtype: 'F32', shape, data_offsets: [0, 8] } }), f32(2));
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const started = performance.now();
    refused(() => readTable(bytes), 'BAD_SHAPE', `${ones + 2} axes; a position table has at most 64`, format);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

// Linear, not quadratic: 4x the axes may cost about 4x (quadratic: 16x), plus slack for a loaded machine.
test('200,000 leading axes of size 1 are BAD_SHAPE, in time linear in the file (.npy and .safetensors)', () => {
  for (const format of ['npy', 'safetensors']) {
    const small = leadingAxes(format, 50000),
      large = leadingAxes(format, 200000);
    console.log(`  ${format}: 50,000 axes ${small.toFixed(0)} ms, 200,000 axes ${large.toFixed(0)} ms`);
    assert.ok(large < 8 * small + 20, `${format}: ${small.toFixed(0)} ms then ${large.toFixed(0)} ms`);
  }
});

test.run();
