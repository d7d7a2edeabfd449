// posenc: positional encodings for transformers, computed by a C core in
// WebAssembly. The package's entry: init() and the functions of the default
// instance, instantiate() for more instances, and the pure-JS helpers.
// Layout: runtime/ (plumbing), one folder per family, cli/ (the posenc bin).
export { init, alloc, setRounding, rounding } from './runtime/default-instance.js';
export { instantiate } from './runtime/instance.js';
export { PosencError } from './runtime/errors.js';
export { WasmBuffer } from './runtime/wasm-buffer.js';
export { sinusoidal, sinusoidalAt, addSinusoidal } from './runtime/default-instance.js';
export { recipeTable, roundToBits } from './runtime/default-instance.js';
export { bitsToFloat32 } from './precision/bits.js';
export { sinusoidal2d } from './runtime/default-instance.js';
export { rope, ropeQK, ropeFrequencies, createRope, ropeCosSin } from './runtime/default-instance.js';
export { fromConfig } from './runtime/default-instance.js';
export { alibiSlopes, alibiBias } from './runtime/default-instance.js';
export { addTable, resampleTable } from './runtime/default-instance.js';
export { t5Buckets, t5Bias, shawIndices } from './runtime/default-instance.js';
export { identify } from './runtime/default-instance.js';
export { readTable } from './learned/read.js';
export { readNpy } from './learned/npy.js';
export { readSafetensors } from './learned/safetensors.js';
