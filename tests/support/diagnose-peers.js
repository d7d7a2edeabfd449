// Positional tables as the peers compute them, transcribed from each peer's
// published code with its own precision, for the diagnose tests: float32
// steps are Math.fround after every operation the peer's tensor library
// rounds, float64 steps (numpy) plain JS numbers, float16 and bfloat16 casts
// round-to-nearest-even from float32 as torch's .half() / .to(bfloat16) do.
// Nothing here calls posenc. Each generator names its source.

const f = Math.fround;

// ---- dtype casts (from a float32 value, as torch's casts) ----
const scratch = new Float32Array(1);
const bits = new Uint32Array(scratch.buffer);

/** float32 -> bfloat16 value, nearest even. */
export function bf16(x) {
  scratch[0] = x;
  const u = bits[0];
  const rounded = (u + 0x7fff + ((u >>> 16) & 1)) & 0xffff0000;
  bits[0] = rounded >>> 0;
  return scratch[0];
}

/** x (float32) moved by steps (-1, 0, 1) ulps toward +-infinity: PyTorch's CPU float32 cos and sin (SLEEF's
 *  u10 functions) are within 1 ulp, not correctly rounded. */
export function nudge(x, steps) {
  if (steps === 0 || x === 0) return x;
  scratch[0] = x;
  bits[0] += x > 0 === steps > 0 ? 1 : -1; // magnitude up when the sign and the step agree
  return scratch[0];
}

/** The float32 ulp of x's binade (x a float32, not 0). */
function ulp32(x) {
  return 2 ** (Math.floor(Math.log2(Math.abs(x))) - 23);
}

/** float32 -> float16 value, nearest even (normal range and subnormals; |x| < 65520). */
export function f16(x) {
  x = f(x);
  if (x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  const exponent = Math.max(Math.floor(Math.log2(a)), -14);
  const ulp = 2 ** (exponent - 10);
  let q = a / ulp; // exact: a power-of-two scaling
  const floor = Math.floor(q);
  const rest = q - floor;
  q = rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  return Math.sign(x) * q * ulp;
}

const map = (t, g) => t.map(g);
const table = (rows, dim, cell) => {
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) for (let j = 0; j < dim; j++) out[r * dim + j] = cell(r, j);
  return out;
};

// ---- sinusoidal tables ----

/** PyTorch tutorial (pytorch/tutorials, transformer_tutorial.py PositionalEncoding), float32:
 *  div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
 *  pe[:, 0::2] = torch.sin(position * div_term); pe[:, 1::2] = torch.cos(position * div_term) */
export function tutorial(rows, dim, base = 10000, start = 0) {
  const c = f(-Math.log(base) / dim);
  const div = Array.from({ length: dim / 2 }, (_, i) => f(Math.exp(f(f(2 * i) * c))));
  return table(rows, dim, (r, j) => {
    const angle = f(f(r + start) * div[j >> 1]); // pe[start:start + rows]: the float32 position times div_term
    return f(j % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
  });
}

/** HF Marian (MarianSinusoidalPositionalEmbedding._init_weight), numpy float64, then float32:
 *  position_enc = [[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] ...]
 *  out[:, 0:dim//2] = sin(position_enc[:, 0::2]); out[:, dim//2:] = cos(position_enc[:, 1::2]) */
export function marian(rows, dim, start = 0) {
  const half = dim / 2;
  return table(rows, dim, (r, j) => {
    const p = r + start;
    const i = j < half ? j : j - half;
    const angle = p / Math.pow(10000, (2 * i) / dim);
    return f(j < half ? Math.sin(angle) : Math.cos(angle));
  });
}

/** fairseq SinusoidalPositionalEmbedding.get_embedding(num_embeddings, dim, padding_idx), float32:
 *  emb = math.log(10000) / (half_dim - 1); emb = torch.exp(torch.arange(half_dim, dtype=torch.float) * -emb)
 *  emb = torch.arange(num_embeddings, dtype=torch.float).unsqueeze(1) * emb.unsqueeze(0)
 *  emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1); emb[padding_idx, :] = 0 */
export function fairseqWeights(rows, dim, paddingIdx = 1) {
  const half = dim / 2;
  const c = f(-(Math.log(10000) / (half - 1)));
  const inv = Array.from({ length: half }, (_, i) => f(Math.exp(f(f(i) * c))));
  return table(rows, dim, (p, j) => {
    if (p === paddingIdx) return 0;
    const angle = f(f(p) * inv[j % half]);
    return f(j < half ? Math.sin(angle) : Math.cos(angle));
  });
}

/** fairseq's forward: the rows of positions padding_idx + 1 ... (make_positions), i.e. from 2. */
export function fairseqForward(rows, dim) {
  const weights = fairseqWeights(rows + 2, dim);
  return weights.slice(2 * dim);
}

/** tensor2tensor common_attention.get_timing_signal_1d(length, channels, start_index), TF float32:
 *  log_timescale_increment = math.log(1e4 / 1.0) / tf.maximum(tf.cast(num_timescales, tf.float32) - 1, 1)
 *  inv_timescales = 1.0 * tf.exp(tf.cast(tf.range(num_timescales), tf.float32) * -log_timescale_increment)
 *  signal = tf.concat([tf.sin(scaled_time), tf.cos(scaled_time)], axis=1) */
export function tensor2tensor(rows, dim, startIndex = 0) {
  const half = dim / 2;
  const increment = f(f(Math.log(1e4)) / f(Math.max(half - 1, 1)));
  const inv = Array.from({ length: half }, (_, i) => f(1 * f(Math.exp(f(f(i) * -increment)))));
  return table(rows, dim, (r, j) => {
    const angle = f(f(r + startIndex) * inv[j % half]);
    return f(j < half ? Math.sin(angle) : Math.cos(angle));
  });
}

/** Keras Hub SinePositionEncoding (max_wavelength 10000), compute dtype float32 or bfloat16:
 *  min_freq = ops.cast(1 / max_wavelength, dtype); timescales = ops.power(min_freq,
 *    ops.cast(2 * (ops.arange(hidden_size) // 2), dtype) / ops.cast(hidden_size, dtype))
 *  angles = positions[:, None] * timescales[None, :]; sin(angles) * sin_mask + cos(angles) * cos_mask */
export function keras(rows, dim, dtype = 'float32', start = 0) {
  const r = dtype === 'bfloat16' ? (x) => bf16(f(x)) : f;
  const minFreq = r(1 / 10000);
  const scale = Array.from({ length: dim }, (_, j) => r(Math.pow(minFreq, r(r(2 * (j >> 1)) / r(dim)))));
  return table(rows, dim, (row, j) => {
    const angle = r(r(row + start) * scale[j]); // positions = ops.arange(start, start + rows) in the compute dtype
    const sinMask = r(1 - (j % 2));
    const cosMask = r(j % 2);
    return r(r(r(Math.sin(angle)) * sinMask) + r(r(Math.cos(angle)) * cosMask));
  });
}

/** MAE util/pos_embed.py get_2d_sincos_pos_embed(embed_dim, grid_size, cls_token), numpy float64:
 *  omega = 1 / 10000 ** (arange(D/4) / (D/4)); emb_h = [sin(x omega), cos(x omega)] for grid[0] (the column),
 *  emb_w for grid[1] (the row); concatenate; a leading row of zeros with cls_token. */
export function mae(gridSize, dim, clsToken = true) {
  const quarter = dim / 4;
  const omega = Array.from({ length: quarter }, (_, i) => 1 / Math.pow(10000, i / quarter));
  const rows = gridSize * gridSize + (clsToken ? 1 : 0);
  return table(rows, dim, (r, j) => {
    if (clsToken && r === 0) return 0;
    const t = r - (clsToken ? 1 : 0);
    const x = t % gridSize;
    const y = Math.floor(t / gridSize);
    const coordinate = j < dim / 2 ? x : y;
    const k = j % (dim / 2);
    const angle = coordinate * omega[k % quarter];
    return f(k < quarter ? Math.sin(angle) : Math.cos(angle));
  });
}

// ---- RoPE caches (HF transformers modeling_rope_utils.py, LlamaRotaryEmbedding) ----

/** Default inv_freq: 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim)), float32. */
export function hfInvFreq(dim, base) {
  return Array.from({ length: dim / 2 }, (_, i) => f(1 / f(Math.pow(base, f(f(2 * i) / dim)))));
}

/** The rope_type's inv_freq and attention factor, as HF computes them in float32. */
export function hfRopeInvFreq(dim, base, scaling) {
  const type = scaling?.type ?? 'default';
  if (type === 'default') return { inv: hfInvFreq(dim, base), attention: 1 };
  if (type === 'linear') return { inv: hfInvFreq(dim, base).map((w) => f(w / scaling.factor)), attention: 1 };
  if (type === 'dynamic') {
    const { factor, original: L0, seqLen } = scaling;
    const scaledBase = base * Math.pow((factor * seqLen) / L0 - (factor - 1), dim / (dim - 2));
    return { inv: hfInvFreq(dim, scaledBase), attention: 1 };
  }
  if (type === 'yarn') {
    const { factor, original: L0, betaFast = 32, betaSlow = 1 } = scaling;
    const posFreqs = Array.from({ length: dim / 2 }, (_, i) => f(Math.pow(base, f(f(2 * i) / dim))));
    const correction = (rotations) => (dim * Math.log(L0 / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
    const low = Math.max(Math.floor(correction(betaFast)), 0);
    let high = Math.min(Math.ceil(correction(betaSlow)), dim - 1);
    if (low === high) high += 0.001;
    const inv = posFreqs.map((pf, i) => {
      const extrapolation = f(1 / pf);
      const interpolation = f(1 / f(factor * pf));
      const ramp = Math.min(Math.max(f(f(i - low) / f(high - low)), 0), 1);
      const e = f(1 - ramp);
      return f(f(interpolation * f(1 - e)) + f(extrapolation * e));
    });
    // attention_factor given (DeepSeek-V3's mscale == mscale_all_dim gives 1), else 0.1 ln(factor) + 1
    return { inv, attention: scaling.attention ?? 0.1 * Math.log(factor) + 1 };
  }
  if (type === 'llama3') {
    const { factor, original: L0, low = 1, high = 4 } = scaling;
    const lowWavelen = L0 / low;
    const highWavelen = L0 / high;
    const inv = hfInvFreq(dim, base).map((w) => {
      const wavelen = f(f(1 / w) * f(2 * Math.PI)); // 2 * math.pi / inv_freq: reciprocal, then multiply
      const llama = wavelen > lowWavelen ? f(w / factor) : w;
      const smooth = f(f(f(f(1 / wavelen) * f(L0)) - f(low)) / f(high - low));
      const smoothed = f(f(f(f(1 - smooth) * llama) / f(factor)) + f(smooth * llama));
      const medium = !(wavelen < highWavelen) && !(wavelen > lowWavelen);
      return medium ? smoothed : llama;
    });
    return { inv, attention: 1 };
  }
  if (type === 'longrope') {
    // _compute_longrope_parameters: ext_factors = tensor(long_factor if seq_len > original else short_factor,
    // float32); inv_freq_shape = arange(0, dim, 2).float() / dim; inv_freq = 1.0 / (ext_factors * base**inv_freq_shape);
    // attention_factor = sqrt(1 + log(factor) / log(original)), factor = max_position_embeddings / original
    const { short, long, original, max, seqLen } = scaling;
    const ext = seqLen > original ? long : short;
    const factor = max / original;
    const inv = ext.map((e, i) => f(1 / f(f(e) * f(Math.pow(base, f(f(2 * i) / dim))))));
    return { inv, attention: factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(original)) };
  }
  throw new Error(`unknown rope type ${type}`);
}

/** LlamaRotaryEmbedding.forward's cos (or sin): emb = cat(freqs, freqs); cos = emb.cos() * attention_scaling,
 *  then .to(dtype). freqs = inv_freq @ position_ids in float32. */
export function llamaCache(rows, dim, { base = 10000, scaling, fn = 'cos', dtype = 'float32', sleef, start = 0 } = {}) {
  const { inv, attention } = hfRopeInvFreq(dim, base, scaling);
  const cast = dtype === 'bfloat16' ? bf16 : dtype === 'float16' ? f16 : f;
  const att = f(attention);
  return table(rows, dim, (r, j) => {
    const angle = f(f(r + start) * inv[j % (dim / 2)]); // position_ids from start (a cache sliced at decode time)
    const exact = fn === 'cos' ? Math.cos(angle) : Math.sin(angle);
    let value = f(exact);
    // sleef: where the exact value is within 0.05 ulp of a midpoint, half the cells take the other float32
    // neighbour (within 1 ulp, as SLEEF's u10): about 5% of cells, as real PyTorch 1.13 differs from correctly
    // rounded in 5.3% of a 4096 x 128 Llama cos cache (measured while writing this)
    if (sleef && Math.abs(exact - value) > 0.45 * ulp32(value) && sleef.next() < 0.5)
      value = nudge(value, exact > value ? 1 : -1);
    return cast(attention === 1 ? value : f(value * att));
  });
}

/** HF GPT-J create_sinusoidal_positions: cat(sin, cos) of einsum(arange(num_pos).float(), inv_freq), float32. */
export function gptjPositions(rows, dim, start = 0) {
  const inv = hfInvFreq(dim, 10000).map((w) => w); // 1.0 / (10000 ** (arange(0, dim, 2) / dim))
  const half = dim / 2;
  return table(rows, dim, (r, j) => {
    const angle = f(f(r + start) * inv[j % half]);
    return f(j < half ? Math.sin(angle) : Math.cos(angle));
  });
}

/** GPT-J's apply_rotary_pos_emb input: cos = torch.repeat_interleave(cos, 2, -1) (neighbours duplicated). */
export function gptjCosCache(rows, dim, start = 0) {
  const positions = gptjPositions(rows, dim, start); // embed_positions[position_ids]: rows from start
  const half = dim / 2;
  return table(rows, dim, (p, j) => positions[p * dim + half + (j >> 1)]);
}

/** Phi-3-mini-128k-instruct's rope_scaling (type "su", later "longrope"; head_dim 96, rope_theta 10000,
 *  original_max_position_embeddings 4096, max_position_embeddings 131072), as pytorch/torchtune's
 *  torchtune/models/phi3/_model_builders.py carries the config's lists (SHORT_FACTORS, LONG_FACTORS). */
export const PHI3_MINI_128K = Object.freeze({
  type: 'longrope',
  original: 4096,
  max: 131072,
  short: [
    1.05, 1.05, 1.05, 1.1, 1.1, 1.1500000000000001, 1.2000000000000002, 1.2500000000000002, 1.3000000000000003,
    1.3500000000000003, 1.5000000000000004, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.0500000000000007,
    2.0500000000000007, 2.0500000000000007, 2.1000000000000005, 2.1000000000000005, 2.1000000000000005,
    2.1500000000000004, 2.1500000000000004, 2.3499999999999996, 2.549999999999999, 2.5999999999999988,
    2.5999999999999988, 2.7499999999999982, 2.849999999999998, 2.849999999999998, 2.9499999999999975,
  ],
  long: [
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
    1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
    1.8999998569488525, 2.859999895095825, 3.68999981880188, 5.419999599456787, 5.489999771118164, 5.489999771118164,
    9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355, 15.789999961853027, 18.360000610351562,
    21.989999771118164, 23.079999923706055, 30.009998321533203, 32.35000228881836, 32.590003967285156,
    35.56000518798828, 39.95000457763672, 53.840003967285156, 56.20000457763672, 57.95000457763672, 59.29000473022461,
    59.77000427246094, 59.920005798339844, 61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793,
    63.48000717163086, 63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625,
    64.80001068115234, 64.81001281738281, 64.81001281738281,
  ],
});

// ---- negatives ----

export function randomTable(rows, dim, random) {
  return table(rows, dim, () => f(random.next() * 2 - 1));
}

/** Learned-like: smooth random walks per column, scaled as a trained nn.Embedding (std about 0.02 ... 0.5). */
export function learnedLike(rows, dim, random) {
  const out = new Float32Array(rows * dim);
  for (let j = 0; j < dim; j++) {
    let v = random.next() - 0.5;
    for (let r = 0; r < rows; r++) {
      v = 0.98 * v + 0.1 * (random.next() - 0.5);
      out[r * dim + j] = f(v);
    }
  }
  return out;
}

/** An exact-valued table (float64 angles) plus uniform noise of the given amplitude. */
export function noisy(rows, dim, amplitude, random) {
  return table(rows, dim, (p, j) => {
    const angle = p / Math.pow(10000, (2 * (j >> 1)) / dim);
    return f((j % 2 ? Math.cos(angle) : Math.sin(angle)) + amplitude * (random.next() * 2 - 1));
  });
}

export function transpose(t, rows, dim) {
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) for (let j = 0; j < dim; j++) out[j * rows + r] = t[r * dim + j];
  return out;
}

export const castTable = (t, dtype) => map(t, dtype === 'bfloat16' ? bf16 : f16);
