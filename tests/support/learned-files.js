// Writers of .npy and .safetensors files for the tests, byte by byte from the
// two specifications (so the readers are checked against the formats, not
// against themselves):
// - NPY: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
//   "\x93NUMPY", major, minor, header length (uint16 LE for 1.0, uint32 LE for
//   2.0/3.0), the header dict padded with spaces and ended by "\n" so that
//   magic + length + header is a multiple of 64, then the data.
// - safetensors: https://github.com/huggingface/safetensors#format
//   uint64 LE header size N, N bytes of UTF-8 JSON, then the byte buffer.

const latin1 = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const utf8 = (text) => new TextEncoder().encode(text);

export const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The header dict numpy writes, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } */
export function npyDict(descr, shape, fortran = false) {
  const tuple = `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
  return `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': ${tuple}, }`;
}

/**
 * An .npy file. header: the dict text (npyDict's by default); version 1, 2
 * or 3; data: the element bytes.
 */
export function npyFile({ descr = '<f4', shape, fortran = false, header, version = 1, data }) {
  const dict = header ?? npyDict(descr, shape, fortran);
  const prefix = version === 1 ? 10 : 12;
  const encode = version === 3 ? utf8 : latin1;
  let body = encode(dict);
  const pad = (64 - ((prefix + body.length + 1) % 64)) % 64;
  body = concat(body, encode(' '.repeat(pad) + '\n'));
  const head = new Uint8Array(prefix);
  head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(head.buffer);
  if (version === 1) view.setUint16(8, body.length, true);
  else view.setUint32(8, body.length, true);
  return concat(head, body, data);
}

/**
 * A .safetensors file from { name: { dtype, shape, data: Uint8Array } }, laid
 * out back to back in the given order; metadata becomes "__metadata__".
 */
export function safetensorsFile(tensors, metadata) {
  const header = {};
  if (metadata) header.__metadata__ = metadata;
  let at = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [at, at + t.data.length] };
    at += t.data.length;
  }
  return safetensorsRaw(JSON.stringify(header), concat(...Object.values(tensors).map((t) => t.data)));
}

/** A .safetensors file from header text and data, the header padded with spaces to 8 bytes as the reference writer does. */
export function safetensorsRaw(headerText, data, headerLength) {
  let json = utf8(headerText);
  json = concat(json, utf8(' '.repeat((8 - (json.length % 8)) % 8)));
  const size = new Uint8Array(8);
  new DataView(size.buffer).setBigUint64(0, BigInt(headerLength ?? json.length), true);
  return concat(size, json, data);
}

/** Element bytes of values, through DataView (the writer's own path, not the reader's). */
export function elementBytes(values, kind, littleEndian = true) {
  const size = { f2: 2, bf16: 2, f4: 4, f8: 8 }[kind];
  const out = new Uint8Array(values.length * size);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => {
    if (kind === 'f4') view.setFloat32(i * size, v, littleEndian);
    else if (kind === 'f8') view.setFloat64(i * size, v, littleEndian);
    else view.setUint16(i * size, v, littleEndian); // f2, bf16: values are the 16-bit patterns
  });
  return out;
}

/** The value of float16 bits from the IEEE 754 binary16 definition. */
export function halfValue(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** The value of bfloat16 bits: sign, 8 exponent bits, 7 fraction bits. */
export function bfloat16Value(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 7) & 0xff;
  const fraction = h & 0x7f;
  if (exponent === 0xff) return fraction ? NaN : sign * Infinity;
  if (exponent === 0) return sign * fraction * 2 ** -133;
  return sign * (1 + fraction / 128) * 2 ** (exponent - 127);
}
