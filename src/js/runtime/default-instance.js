// The package-level API: one shared instance made by init(), and functions
// that forward to it (or refuse with NOT_INITIALIZED before init finishes).
import { PosencError } from './errors.js';
import { instantiate } from './instance.js';

let current = null;
let pending = null;

/**
 * Loads the wasm once. Concurrent and later calls share the first call's
 * promise; only after a failure does a new call try again.
 */
export function init(options) {
  if (!pending) {
    pending = instantiate(options).then(
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
export const ropeFrequencies = (options) => ready('ropeFrequencies').ropeFrequencies(options);
export const createRope = (options) => ready('createRope').createRope(options);
export const ropeCosSin = (options) => ready('ropeCosSin').ropeCosSin(options);
