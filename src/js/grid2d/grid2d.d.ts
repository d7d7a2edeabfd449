// Types of the grid2d family (src/js/grid2d): MAE's 2-D sin-cos table for
// vision transformers. Re-exported by
// src/js/index.d.ts: the family's public types as the package exports them
// (package-level functions, instance methods).
import type { Floats } from '../runtime/runtime.js';

/**
 * MAE's 2-D sin-cos table (get_2d_sincos_pos_embed): token y·width + x holds
 * the 1-D split table of dim/2 for the column x, then the one for the row y.
 */
export interface Sinusoidal2dOptions<Out extends Floats = Floats> {
  /** Grid rows: an integer 0 … 2^31. */
  height: number;
  /** Grid columns: an integer 0 … 2^31. */
  width: number;
  /** A multiple of 4, 4 … 65536: each axis gets dim/2 channels. */
  dim: number;
  /** Frequency base: a finite number above 1. Default 10000. */
  base?: number;
  /** true: a leading row of zeros for the class token. Default false. */
  clsToken?: boolean;
  /** Where to write the ((clsToken ? 1 : 0) + height·width, dim) table. Default: a new Float32Array. */
  out?: Out;
}

/** The grid2d family's methods on an instance. */
export interface Grid2dMethods {
  sinusoidal2d<Out extends Floats>(options: Sinusoidal2dOptions<Out> & { out: Out }): Out;
  sinusoidal2d(options: Sinusoidal2dOptions): Float32Array;
}

/** See {@link Grid2dMethods.sinusoidal2d}. */
export const sinusoidal2d: Grid2dMethods['sinusoidal2d'];
