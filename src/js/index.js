// posenc: positional encodings for transformers, computed by a C core in
// WebAssembly. The package's entry: init() and the functions of the default
// instance, instantiate() for more instances, and the pure-JS helpers.
// Layout: runtime/ (plumbing), one folder per family, families.js (the list
// the package is assembled from), cli/ (the posenc bin).
export * from './default-instance.js'; // init() and every family's package-level functions
export { instantiate } from './instance.js';
export { PosencError } from './runtime/errors.js';
export { WasmBuffer } from './runtime/wasm-buffer.js';
// The families' pure-JS helpers (families.js `helpers`).
export { bitsToFloat32 } from './precision/bits.js';
export { readTable } from './learned/read.js';
export { readNpy } from './learned/npy.js';
export { readSafetensors } from './learned/safetensors.js';
