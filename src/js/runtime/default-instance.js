// The package-level API: one shared instance made by init(), and functions
// that forward to it (or refuse with NOT_INITIALIZED before init finishes).
import { PosencError, describe } from './errors.js';
import { instantiate } from './instance.js';
import { checkOptions } from './validate.js';

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

export const sinusoidal = (options) => ready('sinusoidal').sinusoidal(options);
export const sinusoidalAt = (positions, options) => ready('sinusoidalAt').sinusoidalAt(positions, options);
export const addSinusoidal = (x, options) => ready('addSinusoidal').addSinusoidal(x, options);
export const addTable = (x, table, options) => ready('addTable').addTable(x, table, options);
export const alloc = (n, options) => ready('alloc').alloc(n, options);
export const setRounding = (mode) => ready('setRounding').setRounding(mode);
export const rounding = () => ready('rounding').rounding();

// ALiBi and learned tables (../alibi, ../learned).
export const alibiSlopes = (heads) => ready('alibiSlopes').alibiSlopes(heads);
export const alibiBias = (options) => ready('alibiBias').alibiBias(options);
export const resampleTable = (table, options) => ready('resampleTable').resampleTable(table, options);

// Reduced precision and 2-D tables (../precision, ../grid2d).
export const recipeTable = (options) => ready('recipeTable').recipeTable(options);
export const roundToBits = (values, options) => ready('roundToBits').roundToBits(values, options);
export const sinusoidal2d = (options) => ready('sinusoidal2d').sinusoidal2d(options);

// RoPE (../rope).
export const rope = (x, options) => ready('rope').rope(x, options);
export const ropeQK = (q, k, options) => ready('ropeQK').ropeQK(q, k, options);
export const ropeFrequencies = (options) => ready('ropeFrequencies').ropeFrequencies(options);

// Relative position encodings (relative/relative.js).
export const t5Buckets = (options) => ready('t5Buckets').t5Buckets(options);
export const t5Bias = (options) => ready('t5Bias').t5Bias(options);
export const shawIndices = (options) => ready('shawIndices').shawIndices(options);
// Diagnose (../diagnose).
export const identify = (table, options) => ready('identify').identify(table, options);
// Model configs (config/config-read.js).
export const fromConfig = (config, options) => ready('fromConfig').fromConfig(config, options);
export const createRope = (options) => ready('createRope').createRope(options);
export const ropeCosSin = (options) => ready('ropeCosSin').ropeCosSin(options);
