// posenc: sinusoidal positional encodings, computed by a C core in WebAssembly.
export { init, sinusoidal, sinusoidalAt, addSinusoidal, addTable, alloc } from './default-instance.js';
export { alibiSlopes, alibiBias, resampleTable } from './default-instance.js';
export { recipeTable, roundToBits, sinusoidal2d } from './default-instance.js';
export { bitsToFloat32 } from './precision.js';
export { rope, ropeFrequencies, createRope, ropeCosSin } from './default-instance.js';
export { readTable } from './learned-read.js';
export { readNpy } from './learned-npy.js';
export { readSafetensors } from './learned-safetensors.js';
export { instantiate } from './instance.js';
export { PosencError } from './errors.js';
export { WasmBuffer } from './wasm-buffer.js';
