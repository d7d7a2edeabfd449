// A plain JavaScript RoPE rotation in float32 (Math.fround after every
// operation), written from posenc.h's formulas and HF's apply_rotary_pos_emb,
// given the cos and sin values (already times the attention factor) of each
// row: the reference the plans are compared with bit for bit.

const f = Math.fround;

/**
 * x (batch, length, heads, headDim) or (batch, heads, length, headDim) rotated
 * in place; cosOf(l, i) and sinOf(l, i) give row l's float32 values of pair i.
 */
export function rotateReference(
  x,
  { heads, headDim, rotaryDim, layout = 'half', order = 'blhd', inverse = false },
  length,
  cosOf,
  sinOf,
) {
  const r = rotaryDim ?? headDim;
  const half = r / 2;
  const batch = x.length / (length * heads * headDim);
  for (let b = 0; b < batch; b++) {
    for (let l = 0; l < length; l++) {
      for (let h = 0; h < heads; h++) {
        const at =
          order === 'blhd' ? ((b * length + l) * heads + h) * headDim : ((b * heads + h) * length + l) * headDim;
        for (let i = 0; i < half; i++) {
          const j1 = layout === 'half' ? at + i : at + 2 * i;
          const j2 = layout === 'half' ? at + i + half : at + 2 * i + 1;
          const c = cosOf(l, i);
          const s = inverse ? sinOf(l, i) : -sinOf(l, i); // x1' = x1 cos - x2 sin
          const x1 = x[j1];
          const x2 = x[j2];
          x[j1] = f(f(x1 * c) + f(x2 * s));
          x[j2] = f(f(x2 * c) + f(x1 * -s));
        }
      }
    }
  }
  return x;
}
