// Bit-level comparisons for float32 data in the JS tests.
import * as assert from 'uvu/assert';

const bitsOf = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** Asserts two float32 arrays hold the same bits, naming the first difference. */
export function sameBits(actual, expected, what) {
  assert.is(actual.length, expected.length, `${what}: length`);
  const a = bitsOf(actual);
  const e = bitsOf(expected);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== e[i])
      assert.unreachable(
        `${what}: index ${i}: got ${actual[i]} (0x${a[i].toString(16)}), expected ${expected[i]} (0x${e[i].toString(16)})`,
      );
  }
}

/** A byte copy, to check later that a refused call left its input untouched. */
export const snapshot = (a) =>
  a && ArrayBuffer.isView(a)
    ? new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength))
    : Array.isArray(a)
      ? a.slice()
      : a;

export function unchanged(a, before, what) {
  const now = snapshot(a);
  if (Array.isArray(before)) return assert.equal(now, before, `${what} changed`);
  assert.ok(now.length === before.length && now.every((b, i) => b === before[i]), `${what} changed`);
}

/**
 * Calls call(given) and asserts it throws a PosencError with this code and a
 * message holding every text, and leaves every value of given untouched.
 * errorClass is the package's PosencError (passed in, so this module does not
 * pick a build of the package).
 */
export function expectRefusal(errorClass, call, given, code, texts) {
  const before = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, snapshot(v)]));
  try {
    call(given);
    assert.unreachable('the call did not throw');
  } catch (error) {
    if (!(error instanceof errorClass)) throw error;
    assert.is(error.code, code, error.message);
    for (const text of texts)
      assert.ok(error.message.includes(text), `message ${JSON.stringify(error.message)} lacks ${JSON.stringify(text)}`);
  }
  for (const [name, value] of Object.entries(given)) unchanged(value, before[name], name);
}

/** Float64 values from a child process's stdout (the quad-precision oracle). */
export const float64s = (buffer) =>
  new Float64Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
