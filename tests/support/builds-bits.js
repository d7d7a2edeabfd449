// Bit-for-bit comparison of float32 arrays, with a report that says where.

const hex = (u) => '0x' + u.toString(16).padStart(8, '0');

// Counts every value compared, so a sweep can prove it compared something.
export const compared = { values: 0 };

// Throws unless got and want hold the same bits. dim names rows and columns.
export function sameBits(got, want, what, dim = 0) {
  if (!(got instanceof Float32Array) || !(want instanceof Float32Array)) {
    throw new Error(`${what}: expected two Float32Arrays`);
  }
  if (got.length !== want.length) throw new Error(`${what}: length ${got.length}, expected ${want.length}`);
  const a = new Uint32Array(got.buffer, got.byteOffset, got.length);
  const b = new Uint32Array(want.buffer, want.byteOffset, want.length);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      const where = dim ? ` (row ${Math.floor(i / dim)}, column ${i % dim})` : '';
      throw new Error(
        `${what}: first mismatch at index ${i}${where}: got ${got[i]} (${hex(a[i])}), ` +
          `expected ${want[i]} (${hex(b[i])})`,
      );
    }
  }
  compared.values += a.length;
}

// A float32 value's bits as hex, for messages.
export function bitsOf(v) {
  const f = new Float32Array([v]);
  return hex(new Uint32Array(f.buffer)[0]);
}
