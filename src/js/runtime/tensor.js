// Tensors as inference engines hold them: any { data, dims, type } object
// (onnxruntime-web's Tensor, transformers.js's Tensor), read for RoPE's x and
// for position ids, and the { data, dims, type } results `as: 'tensor'` asks
// for (what `new ort.Tensor(type, data, dims)` takes). Checked before anything
// is written: dims that disagree with the data or the options are BAD_SHAPE.
import { PosencError, describe, refuse } from './errors.js';
import { WasmBuffer } from './wasm-buffer.js';
import { plainView } from './validate.js';

const X_TYPES =
  "'float32' (a Float32Array), 'float16' (a Uint16Array of bits or a Float16Array) or 'bfloat16' (a Uint16Array of bits)";
const hasFloat16Array = () => globalThis.Float16Array !== undefined;

/** True for a { data, dims } object that is no typed array or WasmBuffer (a tensor). */
export const isTensor = (v) =>
  v !== null &&
  typeof v === 'object' &&
  !ArrayBuffer.isView(v) &&
  !(v instanceof WasmBuffer) &&
  !Array.isArray(v) &&
  'data' in v &&
  'dims' in v;

/** The tensor's dims as whole numbers, their product equal to data.length; else BAD_SHAPE. */
function checkDims(t, argument) {
  const { dims } = t;
  if (!Array.isArray(dims) && !ArrayBuffer.isView(dims))
    refuse('BAD_SHAPE', `${argument}.dims`, 'an Array of whole numbers', dims);
  const out = [];
  let product = 1;
  for (let k = 0; k < dims.length; k++) {
    const d = typeof dims[k] === 'bigint' ? Number(dims[k]) : dims[k];
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      refuse('BAD_SHAPE', `${argument}.dims[${k}]`, 'a whole number ≥ 0', dims[k]);
    }
    out.push(d);
    product *= d;
  }
  return { dims: out, product };
}

/** The data of a tensor, or BAD_BUFFER when it is not on the CPU (onnxruntime-web's GPU tensors). */
function dataOf(t, argument) {
  if (t.location !== undefined && t.location !== 'cpu' && t.location !== 'cpu-pinned') {
    refuse(
      'BAD_BUFFER',
      argument,
      "a tensor on the CPU (location 'cpu'; download a GPU tensor with getData())",
      t.location,
    );
  }
  let data;
  try {
    data = t.data;
  } catch (error) {
    throw new PosencError('BAD_BUFFER', `${argument}.data cannot be read: ${error.message}`, argument, t);
  }
  return data;
}

/**
 * A tensor x for RoPE: { data, dims, dtype } (dtype 'float32' | 'float16' |
 * 'bfloat16'), refusing a type posenc does not rotate, data of another kind,
 * and dims whose product is not data.length.
 */
export function readXTensor(t, argument = 'x') {
  const data = dataOf(t, argument);
  const type = t.type;
  const kind =
    type === 'float32'
      ? data instanceof Float32Array
      : type === 'float16'
        ? data instanceof Uint16Array || (hasFloat16Array() && data instanceof globalThis.Float16Array)
        : type === 'bfloat16'
          ? data instanceof Uint16Array
          : null;
  if (kind === null) refuse('BAD_DTYPE', `${argument}.type`, X_TYPES, type);
  if (!kind) refuse('BAD_BUFFER', `${argument}.data`, `the typed array of its type '${type}': ${X_TYPES}`, data);
  const { dims, product } = checkDims(t, argument); // dims' getters run before data is looked at
  // A plain view of its memory (refused when detached): a subclass or a Proxy cannot run code later in the call.
  const view = plainView(data, `${argument}.data`);
  if (product !== view.length) {
    throw new PosencError(
      'BAD_SHAPE',
      `${argument}.dims [${dims.join(', ')}] hold ${product} elements but ${argument}.data has ${view.length}`,
      `${argument}.dims`,
      dims,
    );
  }
  return { data: view, dims, dtype: type };
}

/**
 * (batch, length, heads) of a tensor x whose head size is headDim, in `order`
 * (0 'blhd', 1 'bhld'): 4-D in that order, 3-D (batch, length, heads·headDim)
 * as onnxruntime's RotaryEmbedding takes it (blhd only), 2-D (length,
 * heads·headDim) for packed tokens (batch 1). Else BAD_SHAPE naming them.
 */
export function xTensorShape(dims, headDim, order, argument = 'x') {
  const orderName = order === 0 ? 'blhd' : 'bhld';
  const fourD = order === 0 ? '(batch, length, heads, headDim)' : '(batch, heads, length, headDim)';
  const accepted = `4-D ${fourD} (order '${orderName}')${order === 0 ? ', 3-D (batch, length, heads·headDim) or 2-D (length, heads·headDim)' : ''} with headDim ${headDim}`;
  const bad = () =>
    new PosencError(
      'BAD_SHAPE',
      `${argument}.dims must be ${accepted}; got [${dims.join(', ')}]`,
      `${argument}.dims`,
      dims,
    );
  if (dims.length === 4) {
    if (dims[3] !== headDim) throw bad();
    return order === 0
      ? { batch: dims[0], length: dims[1], heads: dims[2] }
      : { batch: dims[0], heads: dims[1], length: dims[2] };
  }
  if (order !== 0 || (dims.length !== 3 && dims.length !== 2)) throw bad();
  const last = dims[dims.length - 1];
  if (last % headDim !== 0 || last === 0) throw bad();
  return dims.length === 3
    ? { batch: dims[0], length: dims[1], heads: last / headDim }
    : { batch: 1, length: dims[0], heads: last / headDim };
}

/**
 * Position ids given as a tensor: { data, dims } with integer data (int32,
 * int64, ...) becomes a nested Array of rows (dims [B, L] → B rows, [3, B, L]
 * → 3 axes of B rows), a flat array for dims [L] — what positions.js reads.
 */
export function idsFromTensor(t, argument) {
  if (!isTensor(t)) return t;
  const data = dataOf(t, argument);
  const { dims, product } = checkDims(t, argument);
  if (!ArrayBuffer.isView(data) && !Array.isArray(data)) refuse('BAD_BUFFER', `${argument}.data`, 'integer ids', data);
  if (product !== data.length) {
    throw new PosencError(
      'BAD_SHAPE',
      `${argument}.dims [${dims.join(', ')}] hold ${product} ids but ${argument}.data has ${data.length}`,
      `${argument}.dims`,
      t.dims,
    );
  }
  if (dims.length <= 1) return data;
  const rowLength = dims[dims.length - 1];
  const rows = [];
  for (let at = 0; at < data.length; at += rowLength)
    rows.push(data.subarray ? data.subarray(at, at + rowLength) : data.slice(at, at + rowLength));
  if (dims.length === 2) return rows;
  if (dims.length === 3) {
    const [axes, batch] = dims;
    return Array.from({ length: axes }, (_, a) => rows.slice(a * batch, (a + 1) * batch));
  }
  refuse('BAD_SHAPE', `${argument}.dims`, '[length], [batch, length] or [axes, batch, length]', t.dims);
}

/** How a float16 result comes back: 'bits' (Uint16Array), 'Float16Array', or 'auto' (Float16Array where the engine has one). */
export function checkFloat16Option(value, fallback) {
  if (value === undefined) return fallback;
  if (value !== 'bits' && value !== 'Float16Array' && value !== 'auto') {
    refuse('BAD_OPTIONS', 'float16', "'bits' (a Uint16Array of bit patterns), 'Float16Array' or 'auto'", value);
  }
  if (value === 'Float16Array' && !hasFloat16Array()) {
    throw new PosencError(
      'BAD_DTYPE',
      "float16: 'Float16Array' needs an engine with Float16Array (this one has none); use 'auto' or 'bits'",
      'float16',
      value,
    );
  }
  return value;
}

/** A Uint16Array of float16 bits as the caller asked (the same memory, no copy). */
export function float16Result(bits, how) {
  if (how === 'bits' || !hasFloat16Array()) return bits;
  return new globalThis.Float16Array(bits.buffer, bits.byteOffset, bits.length);
}

/** `as`: 'array' (the default) or 'tensor'. */
export function checkAs(value) {
  if (value === undefined || value === 'array') return false;
  if (value !== 'tensor')
    refuse('BAD_OPTIONS', 'as', "'array' (the default) or 'tensor' ({ data, dims, type })", value);
  return true;
}

export const describeDims = (dims) => `(${dims.join(', ')})`;
export { describe };
