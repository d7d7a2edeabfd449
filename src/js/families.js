// The one list of posenc's families, from which the package is assembled.
// Each entry: `name`, the family's folder in every layer (src/core/…,
// src/wasm/<name>.c, src/js/<name>/, tests/<name>-*.test.js); `methods`, its
// xxxMethods(runtime) (gathered into every instance, in this order);
// `functions`, the methods the package also offers as functions of the default
// instance (forwarded by default-instance.js); `helpers`, its pure-JS exports
// that need no instance (exported by index.js from the family's folder);
// `commands`, its subcommands in both CLIs. tests/house-registry.test.js checks
// every list kept by hand (index.js, index.cjs, index.d.ts, runtime.d.ts's
// error codes, the two CLIs' command tables) against this one.
import { sinusoidMethods } from './sinusoid/sinusoid.js';
import { precisionMethods } from './precision/precision.js';
import { grid2dMethods } from './grid2d/grid2d.js';
import { ropeMethods } from './rope/rope.js';
import { alibiMethods } from './alibi/alibi.js';
import { learnedMethods } from './learned/learned.js';
import { relativeMethods } from './relative/relative.js';
import { diagnoseMethods } from './diagnose/diagnose.js';
import { configMethods } from './config/config.js';

export const FAMILIES = [
  {
    name: 'sinusoid',
    methods: sinusoidMethods,
    functions: ['sinusoidal', 'sinusoidalAt', 'addSinusoidal'],
    helpers: [],
    commands: ['table'],
  },
  {
    name: 'precision',
    methods: precisionMethods,
    functions: ['recipeTable', 'roundToBits'],
    helpers: ['bitsToFloat32'],
    commands: [],
  },
  { name: 'grid2d', methods: grid2dMethods, functions: ['sinusoidal2d'], helpers: [], commands: ['table2d'] },
  {
    name: 'rope',
    methods: ropeMethods,
    functions: ['rope', 'ropeQK', 'ropeFrequencies', 'createRope', 'ropeCosSin'],
    helpers: [],
    commands: ['rope'],
  },
  { name: 'alibi', methods: alibiMethods, functions: ['alibiSlopes', 'alibiBias'], helpers: [], commands: ['alibi'] },
  {
    name: 'learned',
    methods: learnedMethods,
    functions: ['addTable', 'resampleTable'],
    helpers: ['readTable', 'readNpy', 'readSafetensors'],
    commands: [],
  },
  {
    name: 'relative',
    methods: relativeMethods,
    functions: ['t5Buckets', 't5Bias', 'shawIndices'],
    helpers: [],
    commands: ['t5-buckets'],
  },
  { name: 'diagnose', methods: diagnoseMethods, functions: ['identify'], helpers: [], commands: ['identify'] },
  { name: 'config', methods: configMethods, functions: ['fromConfig'], helpers: [], commands: ['config'] },
];

/** What the runtime adds to every instance and to the package, beside the families. */
export const RUNTIME = {
  functions: ['alloc', 'setRounding', 'rounding'], // instance methods, forwarded as the families' are
  entries: ['init', 'instantiate'],
  classes: ['PosencError', 'WasmBuffer'],
};
