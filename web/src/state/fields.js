// Every field of the page's state in one table: its kind, range, default and
// the label its notes use. The URL parameter is the field's name. Contract:
// numeric fields hold finite numbers inside [min, max] (integers when
// `integer`, even when `even`); choice fields hold one of `choices`.
import { MODEL_IDS } from './model-ids.js';

export const DEFAULT_SENTENCES = ['The cat chased the mouse', 'The mouse chased the cat'];
export const MAX_SQUIGGLE_DIMS = 16;
export const MAX_SENTENCE_CHARS = 200;
// longrope's per-pair factors come from a model's config (the chosen model or a dropped config.json).
export const SCALINGS = ['none', 'linear', 'dynamic', 'yarn', 'llama3', 'longrope'];
export const QK_CHOICES = ['same', 'independent', 'ones'];

const int = (min, max, initial, label, extra = {}) => ({
  kind: 'number',
  integer: true,
  min,
  max,
  initial,
  label,
  ...extra,
});
const real = (min, max, initial, label) => ({ kind: 'number', integer: false, min, max, initial, label });

export const FIELDS = {
  // The encoding table (views 1–5 and the page-wide d and T of views 6 and 8).
  d: int(2, 2048, 128, 'd', { even: 'each frequency fills a sine and a cosine column, so d must be even' }),
  len: int(1, 8192, 256, 'len'),
  base: real(2, 1e7, 10000, 'base'),
  off: int(0, 1_000_000, 0, 'off'),
  // split by default: all sines, then all cosines, the picture most write-ups show.
  layout: { kind: 'choice', choices: ['interleaved', 'split'], initial: 'split', label: 'layout' },
  // 'auto': the sine and cosine of four pairs chosen for d, T and the length (state/dims.js).
  dims: { kind: 'dims', initial: 'auto', label: 'dims' },
  // The rotation view.
  p: int(0, 1_000_000, 10, 'p'),
  k: int(0, 8192, 5, 'k'),
  // The embedding view.
  s1: { kind: 'text', initial: DEFAULT_SENTENCES[0], label: 'sentence A' },
  s2: { kind: 'text', initial: DEFAULT_SENTENCES[1], label: 'sentence B' },
  // On by default, as the Transformer scales its embeddings by √d before the add.
  scale: { kind: 'flag', initial: true, label: 'scale' },
  // The comparison view.
  cw: int(8, 512, 128, 'comparison window'),
  heads: int(1, 64, 8, 'ALiBi heads'),
  head: int(0, 63, 0, 'ALiBi head'),
  causal: { kind: 'flag', initial: true, label: 'causal' },
  qk: { kind: 'choice', choices: QK_CHOICES, initial: 'same', label: 'qk' },
  // The RoPE view (HF config names in the labels).
  rhd: int(4, 1024, 128, 'head_dim', { even: 'elements rotate in pairs, so head_dim must be even' }),
  rbase: real(2, 1e9, 10000, 'rope_theta'),
  rs: { kind: 'choice', choices: SCALINGS, initial: 'yarn', label: 'RoPE scaling' },
  rf: real(1, 128, 8, 'factor'),
  rl0: int(16, 1_048_576, 4096, 'original_max_position_embeddings'),
  rlen: int(16, 16_777_216, 32768, 'context length'),
  rbf: real(0.01, 1024, 32, 'beta_fast'),
  rbs: real(0.01, 1024, 1, 'beta_slow'),
  rlo: real(0.01, 1024, 1, 'low_freq_factor'),
  rhi: real(0.01, 1024, 4, 'high_freq_factor'),
  // The chosen model ('' for none): its config sets the fields above (state/model-presets.js; ids: model-ids.js).
  model: { kind: 'choice', choices: ['', ...MODEL_IDS], initial: '', label: 'model' },
  // The page.
  theme: { kind: 'choice', choices: ['auto', 'light', 'dark'], initial: 'auto', label: 'theme' },
};

/** A fresh state holding every field's default. */
export function defaultState() {
  return Object.fromEntries(
    Object.entries(FIELDS).map(([name, field]) => [
      name,
      Array.isArray(field.initial) ? [...field.initial] : field.initial,
    ]),
  );
}
