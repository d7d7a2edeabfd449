// posenc: sinusoidal positional encodings, computed by a C core in WebAssembly.
export { init, sinusoidal, sinusoidalAt, addSinusoidal, addTable, alloc } from './default-instance.js';
export { instantiate } from './instance.js';
export { PosencError } from './errors.js';
export { WasmBuffer } from './wasm-buffer.js';
