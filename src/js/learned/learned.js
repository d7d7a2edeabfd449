// The learned family: position tables a model learned, read from its files
// (read.js, npy.js, safetensors.js: pure JS, no wasm) and used through the
// wasm: added to activations (add-table.js) or resampled to a new length
// (resample.js). This gathers the wasm methods, as every family does.
import { addTableMethods } from './add-table.js';
import { resampleMethods } from './resample.js';

/** addTable and resampleTable on one instance's runtime. */
export function learnedMethods(runtime) {
  return { ...addTableMethods(runtime), ...resampleMethods(runtime) };
}
