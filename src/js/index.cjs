// The CommonJS entry, for require('posenc') on every Node version (Node < 20.19
// cannot require an ES module). It loads the ES module with import(), so both
// entries share one module and one wasm instance: `await init()` (or
// `await instantiate()`) first, then every export is there, synchronous as in
// ESM. Before init, a function throws NOT_INITIALIZED and a class getter throws
// an Error that says to await init().
'use strict';

let esm = null; // the ES module's namespace once import() resolved

function loadEsm() {
  return import('./index.js').then((namespace) => (esm = namespace));
}

exports.init = async function init(options) {
  return (esm ?? (await loadEsm())).init(options);
};

exports.instantiate = async function instantiate(options) {
  return (esm ?? (await loadEsm())).instantiate(options);
};

function beforeInit(name) {
  const error = new Error(
    `posenc: ${name} was used before the package was loaded; in CommonJS, ` +
      "await require('posenc').init() (or instantiate()) first, or use import('posenc')",
  );
  error.code = 'NOT_INITIALIZED';
  return error;
}

// Kept equal to the ES module's exports by tests/package-install.test.js.
const FUNCTIONS = [
  'sinusoidal',
  'sinusoidalAt',
  'addSinusoidal',
  'addTable',
  'alloc',
  'setRounding',
  'rounding',
  'alibiSlopes',
  'alibiBias',
  'resampleTable',
  'recipeTable',
  'roundToBits',
  'sinusoidal2d',
  'bitsToFloat32',
  'rope',
  'ropeQK',
  'ropeFrequencies',
  'readTable',
  'readNpy',
  'readSafetensors',
  't5Buckets',
  't5Bias',
  'shawIndices',
  'identify',
  'fromConfig',
  'createRope',
  'ropeCosSin',
];
const CLASSES = ['PosencError', 'WasmBuffer'];

for (const name of FUNCTIONS) {
  exports[name] = function (...args) {
    if (esm === null) throw beforeInit(`${name}()`);
    return esm[name](...args);
  };
}
for (const name of CLASSES) {
  Object.defineProperty(exports, name, {
    enumerable: true,
    get() {
      if (esm === null) throw beforeInit(name);
      return esm[name];
    },
  });
}
