// Parts of the posenc package that a build may not have yet (RoPE, reduced
// precision): the views ask here and show a "not available in this build"
// note instead of failing. Names are looked up at run time, so a bundler does
// not warn about exports that are missing from an older package.
import * as posenc from '../../src/js/index.js';

/** The package function called name, or null when this build has none. */
export function optionalFunction(name) {
  const candidate = Reflect.get(posenc, name);
  return typeof candidate === 'function' ? candidate : null;
}

let dtypeSupport = null;

/** True when sinusoidalAt accepts dtype 'float16' and 'bfloat16' (returning Uint16Array bits). */
export function hasReducedPrecision() {
  if (dtypeSupport === null) {
    try {
      dtypeSupport = ['float16', 'bfloat16'].every(
        (dtype) => posenc.sinusoidalAt([1], { dim: 2, dtype }) instanceof Uint16Array,
      );
    } catch {
      dtypeSupport = false;
    }
  }
  return dtypeSupport;
}

/** The sentence a view shows in place of a figure whose API is missing. */
export function unavailableNote(what, names) {
  return `${what} is not available in this build of posenc: the package does not export ${names.join(' / ')} yet.`;
}
