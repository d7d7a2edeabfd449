// The precision view's numbers, computed in the compute worker (compute-worker.js)
// by its own package instance: at positions spread evenly on a log scale up to
// 2^24, the worst error over ROWS rows and all d columns of posenc's float32,
// float16 and bfloat16 outputs and of the naive recipes (recipeTable).
//
// References: the 16-bit outputs and the recipes are measured against
// posenc's float32 table (within 6e-8 of exact, far below their errors);
// posenc's float32 output itself against sin and cos of p·wᵢ evaluated in
// float64 here (within about 5e-9 below 2^24), the one thing finer than it.
// The float32 and 16-bit tables are written into buffers reused across
// positions: 97 positions × fresh tables made the main thread's garbage
// collector stop it for 65-174 ms when this ran there.
import { frequency } from './encoding.js';

/** Rows per sampled position: p … p + ROWS − 1. */
const ROWS = 4;
const STEPS_PER_OCTAVE = 4;
const LAST_OCTAVE = 24;
const RECIPES = { recipe32: 'float32-angle', recipe16: 'float16', recipeBf16: 'bfloat16' };

/** Sample positions: round(2^(k/4)) for k = 0 … 96, without repeats (1 … 2^24). */
export function samplePositions() {
  const out = [];
  for (let k = 0; k <= LAST_OCTAVE * STEPS_PER_OCTAVE; k++) {
    const p = Math.round(2 ** (k / STEPS_PER_OCTAVE));
    if (out[out.length - 1] !== p) out.push(p);
  }
  return out;
}

/** max |values − reference| over a block; Infinity when a value is NaN or infinite. */
function worstError(values, reference) {
  let worst = 0;
  for (let n = 0; n < reference.length; n++) {
    const v = values[n];
    if (!Number.isFinite(v)) return Infinity;
    const e = Math.abs(v - reference[n]);
    if (e > worst) worst = e;
  }
  return worst;
}

/** Writes the float64 reference for posenc's float32 rows from p (interleaved: sin, cos per pair) into out. */
function float64Rows(p, d, base, out) {
  for (let r = 0; r < ROWS; r++) {
    for (let i = 0; i < d / 2; i++) {
      const angle = (p + r) * frequency(i, d, base);
      out[r * d + 2 * i] = Math.sin(angle);
      out[r * d + 2 * i + 1] = Math.cos(angle);
    }
  }
  return out;
}

/**
 * pe: a package instance. Returns { rows: ROWS, positions, errors }: errors[key] (posenc32, posenc16, posencBf16, recipe32,
 * recipe16, recipeBf16) a Float64Array of the worst error at each position (Infinity: a NaN or infinite output).
 */
export function precisionErrors(pe, d, base) {
  const positions = samplePositions();
  const keys = ['posenc32', 'posenc16', 'posencBf16', ...Object.keys(RECIPES)];
  const errors = Object.fromEntries(keys.map((key) => [key, new Float64Array(positions.length)]));
  const f32 = new Float32Array(ROWS * d);
  const bits = new Uint16Array(ROWS * d);
  const reference = new Float64Array(ROWS * d);
  // A 16-bit output (bit patterns) read as numbers by the package.
  const posenc16 = (p, dtype) =>
    pe.bitsToFloat32(pe.sinusoidal({ length: ROWS, dim: d, base, offset: p, dtype, out: bits }), { dtype });
  positions.forEach((p, n) => {
    pe.sinusoidal({ length: ROWS, dim: d, base, offset: p, out: f32 });
    errors.posenc32[n] = worstError(f32, float64Rows(p, d, base, reference));
    errors.posenc16[n] = worstError(posenc16(p, 'float16'), f32);
    errors.posencBf16[n] = worstError(posenc16(p, 'bfloat16'), f32);
    for (const [key, recipe] of Object.entries(RECIPES)) {
      errors[key][n] = worstError(pe.recipeTable({ recipe, length: ROWS, dim: d, base, offset: p }), f32);
    }
  });
  return { rows: ROWS, positions, errors };
}
