// The package-level API: one shared instance made by init(), and functions
// that forward to it (or refuse with NOT_INITIALIZED before init finishes).
// The forwarders are made from families.js; the one list of their names is
// the export below (ES modules name their exports statically), checked
// against families.js by tests/house-registry.test.js.
import { PosencError, describe } from './runtime/errors.js';
import { instantiate } from './instance.js';
import { checkOptions } from './runtime/validate.js';
import { FAMILIES, RUNTIME } from './families.js';

let current = null;
let pending = null;
let loadedWith = {}; // the options of the call that is loading or loaded the shared instance

/** The options that pick a build, as init() was given them. */
const describeOptions = (o) => `{ simd: ${describe(o.simd)}, wasm: ${describe(o.wasm)} }`;

/**
 * Loads the wasm once. Concurrent and later calls share the first call's
 * promise; only after a failure does a new call try again. A later call with
 * other options is refused (BAD_OPTIONS): it cannot get another build.
 */
export function init(options) {
  let o;
  try {
    o = checkOptions(options, ['simd', 'wasm'], 'init');
  } catch (error) {
    return Promise.reject(error);
  }
  if (pending && options !== undefined && !(Object.is(o.simd, loadedWith.simd) && Object.is(o.wasm, loadedWith.wasm))) {
    return Promise.reject(
      new PosencError(
        'BAD_OPTIONS',
        `init() was already called with ${describeOptions(loadedWith)}; a second call with ${describeOptions(o)} cannot load ` +
          'another build: call init() with the same options (or none), or use instantiate(options) for an independent instance',
        'options',
        options,
      ),
    );
  }
  if (!pending) {
    loadedWith = { simd: o.simd, wasm: o.wasm };
    pending = instantiate(options, 'init').then(
      (instance) => {
        current = instance;
        return { simd: instance.simd };
      },
      (error) => {
        pending = null;
        throw error;
      },
    );
  }
  return pending;
}

function ready(call) {
  if (current) return current;
  throw new PosencError(
    'NOT_INITIALIZED',
    `${call}() was called before the wasm was loaded; await init() first`,
    undefined,
    undefined,
  );
}

/** name → a function that calls the shared instance's method of that name. */
const forwarders = Object.fromEntries(
  [...RUNTIME.functions, ...FAMILIES.flatMap((family) => family.functions)].map((name) => [
    name,
    // A computed key names the function (forwarder.name === name, as the methods' own).
    { [name]: (...args) => ready(name)[name](...args) }[name],
  ]),
);

export const {
  alloc,
  setRounding,
  rounding,
  sinusoidal,
  sinusoidalAt,
  addSinusoidal,
  recipeTable,
  roundToBits,
  sinusoidal2d,
  rope,
  ropeQK,
  ropeFrequencies,
  createRope,
  ropeCosSin,
  alibiSlopes,
  alibiBias,
  addTable,
  resampleTable,
  t5Buckets,
  t5Bias,
  shawIndices,
  identify,
  fromConfig,
} = forwarders;
