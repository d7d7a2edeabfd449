// Qwen2-VL's two RoPEs written out in float64 from HF transformers' published
// code, independently of posenc (src/transformers/models/qwen2_vl/
// modeling_qwen2_vl.py, the same in qwen2_5_vl, transformers 4.45 to 4.5x):
//
// - text (mrope): Qwen2VLRotaryEmbedding makes cos/sin of shape (3, batch,
//   length, head_dim) from position_ids (3, batch, length), emb = cat(freqs,
//   freqs); apply_multimodal_rotary_pos_emb splits the last dim by
//   mrope_section * 2 and takes chunk i from axis i % 3, then
//   q * cos + rotate_half(q) * sin.
// - vision: VisionRotaryEmbedding(head_dim // 2) gives freqs = outer(seq,
//   inv_freq) with inv_freq = 1 / theta^(arange(0, dim, 2) / dim);
//   rot_pos_emb indexes it with (hpos, wpos) per patch (in the spatial-merge
//   order) and flattens, emb = cat(rotary_pos_emb, rotary_pos_emb), and
//   apply_rotary_pos_emb_vision computes q * cos + rotate_half(q) * sin.
//
// Also get_rope_index's position ids for one image between two runs of text,
// and rot_pos_emb's patch order. Every step here is double; HF runs them in
// float32, so posenc (exact angles) agrees with these to float32 rounding.

/** inv_freq of a rotary embedding of dimension dim: 1 / theta^(2i/dim), i < dim/2. */
function invFreq(dim, theta) {
  return Float64Array.from({ length: dim / 2 }, (_, i) => 1 / theta ** ((2 * i) / dim));
}

/** (cos, sin) rows of head_dim values for each row l: mrope's selection of chunks by axis. */
export function mropeCosSin(positionIds, headDim, theta, mropeSection) {
  const w = invFreq(headDim, theta);
  const length = positionIds[0].length;
  const chunks = [...mropeSection, ...mropeSection]; // mrope_section * 2
  const cos = [];
  const sin = [];
  for (let l = 0; l < length; l++) {
    const c = new Float64Array(headDim);
    const s = new Float64Array(headDim);
    let j = 0;
    chunks.forEach((size, i) => {
      const p = positionIds[i % 3][l];
      for (let k = 0; k < size; k++, j++) {
        const angle = p * w[j % (headDim / 2)]; // emb = cat(freqs, freqs)
        c[j] = Math.cos(angle);
        s[j] = Math.sin(angle);
      }
    });
    cos.push(c);
    sin.push(s);
  }
  return { cos, sin };
}

/** (cos, sin) rows of head_dim values for patches at rows hpos[t], columns wpos[t] (Qwen2-VL's vision tower). */
export function visionCosSin(hpos, wpos, headDim, theta = 10000) {
  const w = invFreq(headDim / 2, theta); // VisionRotaryEmbedding(head_dim // 2)
  const cos = [];
  const sin = [];
  for (let t = 0; t < hpos.length; t++) {
    const rpe = [...w.map((v) => hpos[t] * v), ...w.map((v) => wpos[t] * v)]; // rotary_pos_emb_full[pos_ids].flatten(1)
    const emb = [...rpe, ...rpe];
    cos.push(Float64Array.from(emb, Math.cos));
    sin.push(Float64Array.from(emb, Math.sin));
  }
  return { cos, sin };
}

/** q * cos + rotate_half(q) * sin for one head vector q (float64), rotate_half(q) = cat(-q2, q1). */
export function rotateHalf(q, cos, sin) {
  const half = q.length / 2;
  return Float64Array.from(q, (v, j) => v * cos[j] + (j < half ? -q[j + half] : q[j - half]) * sin[j]);
}

/** rot_pos_emb's (hpos, wpos) of an image grid (t, h, w) in patches, in the spatial-merge order. */
export function visionPatchPositions(t, h, w, merge = 2) {
  const hpos = [];
  const wpos = [];
  for (let frame = 0; frame < t; frame++) {
    for (let bh = 0; bh < h / merge; bh++) {
      for (let bw = 0; bw < w / merge; bw++) {
        for (let i = 0; i < merge; i++) {
          for (let j = 0; j < merge; j++) {
            hpos.push(bh * merge + i);
            wpos.push(bw * merge + j);
          }
        }
      }
    }
  }
  return { hpos, wpos };
}

/**
 * get_rope_index's position_ids (3, length) for `before` text tokens, one
 * image of grid (1, h, w) patches merged by `merge` (its llm grid h/merge by
 * w/merge tokens), and `after` text tokens.
 */
export function qwen2vlPositionIds(before, h, w, after, merge = 2) {
  const axes = [[], [], []];
  for (let l = 0; l < before; l++) for (const a of axes) a.push(l);
  const gh = h / merge;
  const gw = w / merge;
  for (let i = 0; i < gh; i++) {
    for (let j = 0; j < gw; j++) {
      axes[0].push(before); // t_index 0, plus the start index
      axes[1].push(before + i);
      axes[2].push(before + j);
    }
  }
  const next = before + Math.max(gh, gw);
  for (let l = 0; l < after; l++) for (const a of axes) a.push(next + l);
  return axes;
}
