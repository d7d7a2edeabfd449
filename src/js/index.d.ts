// Type declarations of the posenc package (src/js/index.js): one file per
// family beside its code, gathered here. An instance (instantiate(), or the
// package-level functions after init()) has every family's methods.
import type { RuntimeMethods } from './runtime/runtime.js';
import type { SinusoidMethods } from './sinusoid/sinusoid.js';
import type { PrecisionMethods } from './precision/precision.js';
import type { Grid2dMethods } from './grid2d/grid2d.js';
import type { RopeMethods } from './rope/rope.js';
import type { AlibiMethods } from './alibi/alibi.js';
import type { LearnedMethods } from './learned/learned.js';

export * from './runtime/runtime.js';
export * from './sinusoid/sinusoid.js';
export * from './precision/precision.js';
export * from './grid2d/grid2d.js';
export * from './rope/rope.js';
export * from './alibi/alibi.js';
export * from './learned/learned.js';

/** An independent posenc instance (its own wasm memory), with the methods of every family. */
export interface Posenc
  extends RuntimeMethods, SinusoidMethods, PrecisionMethods, Grid2dMethods, RopeMethods, AlibiMethods, LearnedMethods {}
