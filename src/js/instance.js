// instantiate(): an independent posenc instance with every family's methods.
// The runtime (runtime/instance.js) builds the instance; this file hands it the
// families, so the runtime never imports one (the families are listed once, in
// families.js).
import { instantiateWith } from './runtime/instance.js';
import { FAMILIES } from './families.js';

const METHODS = FAMILIES.map((family) => family.methods);

/**
 * @param {{simd?: boolean, wasm?: unknown}} [options]
 * @param {string} [call] the public function the options were given to, for messages
 */
export function instantiate(options, call = 'instantiate') {
  return instantiateWith(METHODS, options, call);
}
