// A small ONNX model as bytes, written by hand from the protobuf fields of
// ModelProto that onnxruntime reads (onnx/onnx.proto3; field numbers in the
// comments), so the examples need no .onnx file, no onnx package and no Python.
// It covers what the examples use: nodes with int attributes, typed graph
// inputs and outputs with fixed or named dimensions, and initializers (raw
// little-endian bytes). rotaryStepModel is the graph an exporter writes for a
// decoder layer's rotary step: one com.microsoft RotaryEmbedding node for q and
// one for k (each with its own head count: grouped-query attention), sharing
// position_ids and the cos/sin caches, which are stored in the model.

// TensorProto.DataType
export const FLOAT = 1;
export const INT64 = 7;
export const FLOAT16 = 10;

const utf8 = new TextEncoder();

const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** A varint of an integer in [0, 2^53). */
function varint(value) {
  const out = [];
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return Uint8Array.from(out);
}

// A field: its key (number << 3 | wire type: 0 varint, 2 length-delimited), then its payload.
const int = (field, value) => concat([varint(field * 8), varint(value)]);
const bytes = (field, ...parts) => {
  const payload = concat(parts);
  return concat([varint(field * 8 + 2), varint(payload.length), payload]);
};
const string = (field, text) => bytes(field, utf8.encode(text));

// AttributeProto: name = 1, i = 3, type = 20 (AttributeType.INT = 2).
const intAttribute = (name, value) => concat([string(1, name), int(3, value), int(20, 2)]);

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5, domain = 7.
function node({ op, domain = '', inputs, outputs, name, attributes = {} }) {
  return concat([
    ...inputs.map((input) => string(1, input)),
    ...outputs.map((output) => string(2, output)),
    string(3, name),
    string(4, op),
    ...Object.entries(attributes).map(([key, value]) => bytes(5, intAttribute(key, value))),
    domain ? string(7, domain) : new Uint8Array(0),
  ]);
}

// ValueInfoProto: name = 1, type = 2. TypeProto: tensor_type = 1. TypeProto.Tensor: elem_type = 1,
// shape = 2. TensorShapeProto: dim = 1. Dimension: dim_value = 1, dim_param = 2.
function valueInfo({ name, type, dims }) {
  const shape = dims.map((d) => bytes(1, typeof d === 'number' ? int(1, d) : string(2, d)));
  return concat([string(1, name), bytes(2, bytes(1, int(1, type), bytes(2, ...shape)))]);
}

// TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9 (the elements' little-endian bytes).
function tensor({ name, type, dims, data }) {
  const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength); // little-endian hosts only
  return concat([...dims.map((d) => int(1, d)), int(2, type), string(8, name), bytes(9, raw)]);
}

/**
 * ModelProto bytes: ir_version 8, opsets ai.onnx 17 and com.microsoft 1.
 * nodes: [{ op, domain, name, inputs, outputs, attributes: { key: integer } }];
 * inputs, outputs: [{ name, type, dims: [number | 'symbol'] }];
 * initializers: [{ name, type, dims, data: a typed array of that type }].
 */
export function onnxModel({ name, nodes, inputs, outputs, initializers = [] }) {
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  const graph = [
    ...nodes.map((n) => bytes(1, node(n))),
    string(2, name),
    ...initializers.map((t) => bytes(5, tensor(t))),
    ...inputs.map((v) => bytes(11, valueInfo(v))),
    ...outputs.map((v) => bytes(12, valueInfo(v))),
  ];
  // ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8
  // (OperatorSetIdProto: domain = 1, version = 2).
  return concat([
    int(1, 8),
    string(2, 'posenc examples'),
    bytes(7, ...graph),
    bytes(8, int(2, 17)),
    bytes(8, string(1, 'com.microsoft'), int(2, 1)),
  ]);
}

/**
 * A decoder layer's rotary step: q (batch, seq, qHeads·headDim) and k (batch,
 * seq, kvHeads·headDim) in, both rotated out, by RotaryEmbedding nodes in the
 * 'half' layout (interleaved: 0) at position_ids (batch, seq, int64). cos and
 * sin: the caches (positions, rotaryDim/2), Float32Array or float16 bits
 * (Uint16Array), stored in the model as initializers.
 */
export function rotaryStepModel({ qHeads, kvHeads, headDim, cos, sin, type = FLOAT }) {
  const half = headDim / 2;
  const rotary = (x, heads) => ({
    op: 'RotaryEmbedding',
    domain: 'com.microsoft',
    name: `rotary_${x}`,
    inputs: [x, 'position_ids', 'cos_cache', 'sin_cache'],
    outputs: [`${x}_rotated`],
    attributes: { interleaved: 0, num_heads: heads },
  });
  const activations = (suffix) => [
    { name: `q${suffix}`, type, dims: ['batch', 'seq', qHeads * headDim] },
    { name: `k${suffix}`, type, dims: ['batch', 'seq', kvHeads * headDim] },
  ];
  return onnxModel({
    name: 'rotary_step',
    nodes: [rotary('q', qHeads), rotary('k', kvHeads)],
    inputs: [...activations(''), { name: 'position_ids', type: INT64, dims: ['batch', 'seq'] }],
    outputs: activations('_rotated'),
    initializers: [
      { name: 'cos_cache', type, dims: [cos.length / half, half], data: cos },
      { name: 'sin_cache', type, dims: [sin.length / half, half], data: sin },
    ],
  });
}
