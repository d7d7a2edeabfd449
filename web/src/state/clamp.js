// The one clamping style of the page: every field read from the URL or a
// control goes through clampField, which never throws and returns
// { value, note }: the value to use, and a sentence when it differs from what
// was asked (not a number, not whole, odd, outside the range, not a choice).
import { FIELDS, MAX_SENTENCE_CHARS } from './fields.js';

// Llama 3 scaling needs low_freq_factor < high_freq_factor (HF divides by their difference);
// a pair that is not is fixed by keeping low_freq_factor and putting high_freq_factor at
// LLAMA3_RATIO times it, the ratio of Llama 3.1's own pair (1, 4).
const LLAMA3_RATIO = 4;

/** Clamps raw (a string from the URL or a box, or a number) for the field called name. */
export function clampField(name, raw) {
  const field = FIELDS[name];
  switch (field.kind) {
    case 'number':
      return clampNumber(field, raw);
    case 'choice':
      return field.choices.includes(raw)
        ? { value: raw, note: '' }
        : {
            value: field.initial,
            note: `${field.label} “${raw}” is not one of ${field.choices.join(', ')}; using ${field.initial}`,
          };
    case 'flag':
      return { value: raw === true || (raw !== false && String(raw) !== '0'), note: '' };
    case 'text':
      return cleanSentence(raw, field.initial);
    default:
      throw new Error(`clampField: ${name} is a ${field.kind} field; use dims.js parseDims`);
  }
}

function clampNumber(field, raw) {
  const { min, max, integer, even, label, initial } = field;
  const text = String(raw).trim();
  const n = typeof raw === 'number' ? raw : Number(text);
  if (text === '' || !Number.isFinite(n))
    return { value: initial, note: `${label} “${raw}” is not a number; using ${initial}` };
  let value = integer ? Math.round(n) : n;
  let note = value !== n ? `${label} must be a whole number; using ${value}` : '';
  if (value < min) return { value: min, note: `${label} ${n} is below ${min}; clamped to ${min}` };
  if (value > max) return { value: max, note: `${label} ${n} is above ${max}; clamped to ${max}` };
  if (even && value % 2 !== 0) {
    const next = Math.min(value + 1, max);
    note = `${label} = ${value} is odd: ${even}; showing ${label} = ${next}`;
    value = next;
  }
  return { value, note };
}

function cleanSentence(raw, fallback) {
  const text = String(raw ?? '').slice(0, MAX_SENTENCE_CHARS);
  return /[\p{L}\p{N}]/u.test(text) ? { value: text, note: '' } : { value: fallback, note: '' };
}

/**
 * Clamps the Llama 3 pair (state.rlo, state.rhi), each already inside its field's range, to a pair the
 * package accepts (low < high), in place. Returns the note ('' when the pair was valid).
 */
export function clampLlama3Pair(state) {
  const { rlo: low, rhi: high } = state;
  if (low < high) return '';
  const top = FIELDS.rhi.max;
  // At the top of the range there is no room above low: low moves down instead.
  state.rlo = low * LLAMA3_RATIO <= top ? low : top / LLAMA3_RATIO;
  state.rhi = state.rlo * LLAMA3_RATIO;
  return (
    `low_freq_factor ${low} ≥ high_freq_factor ${high}: Llama 3 scaling needs low < high; ` +
    `using low_freq_factor ${state.rlo}, high_freq_factor ${state.rhi}`
  );
}
