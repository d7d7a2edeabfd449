// Qwen2-VL-7B's multimodal RoPE (mrope) on a prompt of text, an image and text:
// each token gets three position ids (temporal, height, width) as HF's
// get_rope_index gives them, transcribed here; posenc rotates q (28 heads) and k
// (4 key heads) from the model's config.json (mrope_section [16, 24, 24]). The
// result is checked bit for bit against HF's apply_multimodal_rotary_pos_emb,
// transcribed here on posenc's per-axis cos/sin caches. Exits 1 on a mismatch.
import { readFileSync } from 'node:fs';
import { init, fromConfig, rope, ropeCosSin } from 'posenc';

await init();
const config = JSON.parse(readFileSync(new URL('./configs/Qwen2-VL-7B-Instruct.json', import.meta.url), 'utf8'));
const { heads, rope: settings } = fromConfig(config);
const { headDim, base } = settings;
const section = settings.scaling.mrope_section; // [16, 24, 24]: pairs per axis
const kvHeads = config.num_key_value_heads;

/** HF's get_rope_index for one sequence: text runs and images ({ t, h, w } merged patches), ids (3, length). */
function ropeIndex(segments) {
  const ids = [[], [], []];
  let next = 0;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      for (let n = 0; n < segment; n++, next++) for (const axis of ids) axis.push(next);
      continue;
    }
    const { t, h, w } = segment;
    for (let a = 0; a < t; a++)
      for (let b = 0; b < h; b++)
        for (let c = 0; c < w; c++) (ids[0].push(next + a), ids[1].push(next + b), ids[2].push(next + c));
    next += Math.max(t, h, w);
  }
  return ids;
}
// "<|im_start|>user\n<|vision_start|>", a 112 × 168 image (8 × 12 patches of 14, merged 2 × 2), then 5 text tokens.
const ids = ropeIndex([4, { t: 1, h: 4, w: 6 }, 5]);
const length = ids[0].length; // 33 tokens; the last text token sits at position 4 + 6 + 4 = 14

let seed = 7;
const random = (n) =>
  Float32Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 4 - 2);
const q = random(length * heads * headDim),
  k = random(length * kvHeads * headDim);
const positionIds = ids.map((axis) => [axis]); // (3, batch 1, length), HF's shape
const qRotated = rope(q.slice(), { config, positionIds });
const kRotated = rope(k.slice(), { config, positionIds }); // 4 heads: the config's num_key_value_heads

// HF: cos and sin (3, length, headDim) per axis, split by mrope_section * 2, chunk i taken from axis i % 3,
// then x·cos + rotate_half(x)·sin in float32.
const perAxis = ids.map((axis) => ropeCosSin({ headDim, base, positions: axis, expand: true }));
const chunks = [...section, ...section];
const axisOf = new Int32Array(headDim);
for (let i = 0, at = 0; i < chunks.length; at += chunks[i], i++) axisOf.fill(i % 3, at, at + chunks[i]);
function hfRotate(x, h) {
  const out = new Float32Array(x.length),
    half = headDim / 2,
    f = Math.fround;
  for (let at = 0; at < x.length; at += headDim) {
    const l = Math.floor(at / (h * headDim));
    for (let e = 0; e < headDim; e++) {
      const { cos, sin } = perAxis[axisOf[e]];
      const rotated = e < half ? -x[at + e + half] : x[at + e - half];
      out[at + e] = f(f(x[at + e] * cos[l * headDim + e]) + f(rotated * sin[l * headDim + e]));
    }
  }
  return out;
}
const failures = [];
for (const [name, mine, hf] of [
  ['q', qRotated, hfRotate(q, heads)],
  ['k', kRotated, hfRotate(k, kvHeads)],
]) {
  const at = mine.findIndex((v, i) => !Object.is(v, hf[i]));
  if (at >= 0) failures.push(`${name}[${at}] = ${mine[at]}, HF's formula gives ${hf[at]}`);
}

console.log(
  `mrope: ${length} tokens (text, a 4 × 6 image, text), q ${heads} heads and k ${kvHeads}, as HF rotates them`,
);
for (const failure of failures) console.error(failure);
if (failures.length > 0) process.exit(1);
