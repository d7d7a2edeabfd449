// Types of the diagnose family (src/js/diagnose): identify(), which convention
// a table or RoPE cache follows. Re-exported by src/js/index.d.ts.

/** identify's own refusals: a NaN or infinite cell, an unknown kind. */
export type DiagnoseErrorCode = 'BAD_TABLE' | 'BAD_KIND' | 'BAD_FREQUENCIES';

export interface IdentifyOptions {
  /** Rows (positions) of the row-major table; may be left out when dim is given. */
  rows?: number;
  /** Columns; may be left out when rows is given. A (dim, rows) table is detected and read transposed. */
  dim?: number;
  /** 'table' (sine-cosine pairs), 'cos-sin' (a RoPE cos or sin cache) or 'auto' (the default). */
  kind?: 'auto' | 'table' | 'cos-sin';
}

export type IdentifyRecipe =
  | 'unknown'
  | 'exact'
  | 'float32-angle'
  | 'float32-angle-hf'
  | 'float32-angle-keras'
  | 'float32-angle-exp'
  | 'float32-angle-fitted'
  | 'float16'
  | 'bfloat16'
  | 'float64-numpy';

/** rope_scaling as HF's config.json spells it (keys present for the rope_type that uses them). */
export interface IdentifyRopeScaling {
  rope_type: 'linear' | 'dynamic' | 'yarn' | 'llama3' | 'longrope' | 'yarn or llama3';
  factor?: number;
  rope_theta?: number;
  original_max_position_embeddings?: number;
  beta_fast?: number;
  beta_slow?: number;
  truncate?: boolean;
  mscale?: number;
  attention_factor?: number;
  low_freq_factor?: number;
  high_freq_factor?: number;
  /** dynamic: the sequence length the cache was built at (not a config key). */
  seq_len?: number;
  /** longrope: null for a factor the cells leave open (its range is in pairFactorRanges). */
  short_factor?: (number | null)[];
  long_factor?: (number | null)[];
  /** longrope when short or long cannot be told (rows within the first original_max_position_embeddings). */
  factors?: (number | null)[];
}

/** What identify() found: every fact the verdict states, and the verdict itself. */
export interface Identification {
  rows: number;
  cols: number;
  transposed: boolean;
  leadingZeroRows: number;
  zeroRows: number;
  /** Trailing zero columns read past (fairseq pads an odd embedding_dim with one). */
  zeroLastColumns: number;
  /** The first row of zeros after a nonzero one (fairseq's padding_idx row), -1 when none. */
  firstInnerZeroRow: number;
  /** Rows repeating in runs as HF's position_ids.float() makes them past 2^24: the float32 grid's step 2^k the
   *  runs show (the first position then in [2^(23+k), 2^(24+k))), 0 when rows do not repeat so. */
  positionGrid: number;
  /** positionGrid: rows that differ from the row before (grid points seen). */
  distinctRows: number;
  /** positionGrid: true when read from two whole runs or more, false when a lower bound. */
  positionGridWhole: boolean;
  /** positionGridWhole: the first nonzero row's position modulo 2 positionGrid, from where the runs break; -1
   *  unknown. */
  positionGridPhase: number;
  storage: 'float32' | 'float16' | 'bfloat16';
  sinusoidal: boolean;
  identified: boolean;
  kind: 'table' | 'cos-sin';
  cache?: 'cos' | 'sin';
  /** Tables: 'interleaved' or 'split'; caches: 'halves', 'neighbours' (duplicated) or 'single'. */
  layout: 'interleaved' | 'split' | 'halves' | 'neighbours' | 'single';
  cosFirst: boolean;
  pairs: number;
  frequencies: 'paper' | 'tensor2tensor' | 'other' | 'undetermined';
  base: number;
  baseDigits: number;
  baseRound: boolean;
  offset: number;
  offsetKnown: boolean;
  /** The sd of the fitted first position before rounding (float32 angles carry it to about 7 digits). */
  offsetSd: number;
  /** First positions searched: [0, offsetSearched). */
  offsetSearched: number;
  scale: number;
  /** 'unread': a cache far out whose scaling the verdict says is not read (rows in runs past 2^24, or only the slow columns sinusoidal): ropeScaling null, factor and bands 0. A verdict that names a scaling but says its parameters are not read gives factor, bandLow, bandHigh and attentionFactor 0 and ropeScaling its rope_type alone. */
  scaling: 'none' | 'linear' | 'yarn' | 'llama3' | 'banded' | 'per-pair' | 'dynamic' | 'unread';
  /** linear, yarn, llama3, dynamic: the factor; per-pair: HF's factor when the attention factor tells it, else 0. */
  factor: number;
  /** yarn: the ramp's first and last pair; llama3: the wavelengths original/low_freq_factor and original/high_freq_factor; per-pair: the smallest and largest factor. */
  bandLow: number;
  bandHigh: number;
  attentionFactor: number;
  /** A cache at a base that is not round: (base / rope_theta)^((d-2)/d), HF's dynamic NTK factor·(seq_len/original - 1) + 1; else 0. */
  dynamicAlpha: number;
  /** true: several rope_scaling sets give these frequencies; ropeScaling is the canonical one (the text says what is fixed). */
  scalingCanonical: boolean;
  /** yarn, llama3: another factor whose HF parameter set (the rest as in ropeScaling) reproduces the cells as well, bit for bit (the cells leave the factor open between the two); 0 when they fix it. */
  factorTied: number;
  /** llama3 read from a cache: the least original wavelength from which on every pair's cells are what frequency 0 gives in every row (a float16 or bfloat16 cos cache from position 0), when at most one ramp pair is read below it: the low band and the factor are then not read (ropeScaling is the canonical set); 0 when the cells read the ramp. */
  unreadWavelength: number;
  /** YaRN: the original_max_position_embeddings giving these frequencies with ropeScaling's beta_fast and beta_slow. */
  originalRange: [number, number];
  /** The RoPE scaling in HF's rope_scaling names, or null when the frequencies are not scaled. */
  ropeScaling: IdentifyRopeScaling | null;
  /** per-pair read far out at a shipped model's list: '<model> short_factor' or '<model> long_factor'. */
  factorList?: string;
  /** per-pair (LongRoPE): how many factors the cells leave open (null in ropeScaling's list). */
  pairFactorsOpen?: number;
  /** per-pair: each factor's range [lo, hi] whose regenerated column reproduces every cell checked; hi null: no upper bound. */
  pairFactorRanges?: [number, number | null][];
  recipe: IdentifyRecipe;
  /** Another recipe these rows cannot tell apart, or ''. */
  recipeTied: IdentifyRecipe | '';
  recipeMatch: number;
  /** Share of sampled cells the recipe gives bit for bit (recipeMatch: within 1 ulp). */
  recipeExactShare: number;
  /** false: a float32-angle recipe whose sin/cos are not correctly rounded (PyTorch's float32 sin and cos). */
  sinCorrectlyRounded: boolean;
  invFormula: IdentifyRecipe | '';
  invFormulaShare: number;
  maxError: number;
  rmsError: number;
  firstAbove1e6: number;
  firstAbove1e3: number;
  /** Max error per band of positions [0, 64), [64, 256), ... ×4; -1 for bands without rows. */
  bandError: number[];
  nearest: {
    layout: 'interleaved' | 'split';
    cosFirst: boolean;
    frequencies: 'paper' | 'tensor2tensor';
    distance: number;
  }[];
  /** What the readings searched (the verdict lists it when no convention reproduces the cells). */
  searched: {
    /** First positions searched by the widest reading that ran: [0, positions). */
    positions: number;
    /** A step budget ended a search before its range's end (it read what it reached). */
    budgetSpent: boolean;
    /** HF parameter sets (dynamic NTK, YaRN, Llama 3) read cell by cell. */
    candidates: number;
    readings: (
      'phase-lines' | 'exact-table' | 'exact-cache' | 'dynamic' | 'scaled' | 'from-0' | 'grid' | 'longrope' | 'far'
    )[];
    /** 'any' (fitted), then the rope_theta values HF's scalings were tried at. */
    bases: ('any' | number)[];
    layouts: string[];
    recipes: string[];
    /** The RoPE scalings tried (caches only; empty for a table). */
    scalings: ('none' | 'linear' | 'dynamic' | 'yarn' | 'llama3' | 'longrope')[];
  };
  /** These facts as the core's JSON text, as `posenc identify --json` prints it. */
  json: string;
  /** The whole report, as `posenc identify` prints it. */
  text: string;
  /** Its first line: the verdict in plain words. */
  verdict: string;
}

/** identify(vector, { kind: 'inv-freq' }): a bare frequency vector, one value per rotated pair. */
export interface IdentifyInvFreqOptions {
  kind: 'inv-freq';
}

/** What identify() found in an inv_freq vector (posenc.h, pe_inv_freq_diagnosis). */
export interface InvFreqIdentification {
  kind: 'inv-freq';
  /** Values read (pairs). */
  count: number;
  /** 2·count, or 2·count − 1 when the exponents are 2k/(2·count − 1); head_dim is not in the vector. */
  rotaryDim: number;
  /** The narrowest dtype holding every value exactly. */
  storage: 'float64' | 'float32' | 'float16' | 'bfloat16';
  /** A recipe at the parameters found gives every value within 2 ulps. */
  identified: boolean;
  /** 'paper': w_k = base^(-2k/d) (RoPE); 'tensor2tensor': base^(-k/(count-1)). */
  frequencies: 'paper' | 'tensor2tensor' | 'undetermined';
  /** rope_theta (dynamic: the rescaled base the vector holds); 0 when undetermined. */
  base: number;
  baseDigits: number;
  baseRound: boolean;
  scaling: 'none' | 'linear' | 'yarn' | 'llama3' | 'longrope' | 'dynamic';
  factor: number;
  ropeTheta: number;
  /** HF's rope_scaling that regenerates the vector (canonical values where only quotients are fixed), or null. */
  ropeScaling: {
    rope_type: 'linear' | 'dynamic' | 'yarn' | 'llama3' | 'longrope';
    factor?: number;
    low_freq_factor?: number;
    high_freq_factor?: number;
    original_max_position_embeddings?: number;
    beta_fast?: number;
    beta_slow?: number;
    truncate?: boolean;
    factors?: number[];
  } | null;
  /** YaRN: the ramp's ends in pairs; Llama 3: the wavelengths original/low and original/high. */
  rampLow: number;
  rampHigh: number;
  /** Pairs inside the ramp fix its ends (else they are one choice among several). */
  rampFixed: boolean;
  /** YaRN: original_max_position_embeddings giving the same ramp with the betas given. */
  originalRange: [number, number];
  /** Dynamic NTK: (base / ropeTheta)^((d − 2)/d). */
  dynamicAlpha: number;
  /** 'exact' (correctly rounded), 'hf' (HF's float32 steps), 'exp' (the tutorial's), 'keras'. */
  recipe: 'exact' | 'hf' | 'exp' | 'keras' | 'unknown';
  /** Another recipe giving as many values bit for bit, or ''. */
  recipeTied: 'exact' | 'hf' | 'exp' | 'keras' | '';
  recipeExact: number;
  recipeNear: number;
  /** Largest distance from the exact frequencies of these parameters, in ulps of the storage dtype. */
  maxUlps: number;
  worstPair: number;
  fitRms: number;
  json: string;
  text: string;
  verdict: string;
}

export interface DiagnoseMethods {
  /** Which positional-encoding convention a table or RoPE cache follows, and its error against exact. */
  identify(table: Float32Array | Float64Array | number[], options: IdentifyOptions): Identification;
  /** Base, rotary dim, RoPE scaling and recipe of a model's inv_freq buffer (values read exactly). */
  identify(vector: Float32Array | Float64Array | number[], options: IdentifyInvFreqOptions): InvFreqIdentification;
}

/** See {@link DiagnoseMethods.identify}. */
export const identify: DiagnoseMethods['identify'];
