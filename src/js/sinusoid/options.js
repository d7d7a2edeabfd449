// The encoding options of the sinusoidal calls (sinusoidal, sinusoidalAt,
// addSinusoidal, and the precision family's tables), checked in one order so
// the first fault is the one reported: preset and frequencies, dim, length and
// offset, base, layout.
import { checkDim, checkSpan, checkBase, checkLayout, LAYOUTS } from '../runtime/validate.js';
import { resolveConvention } from './presets.js';

/** The layout's default for sinusoids: the paper's interleaved rows. */
const DEFAULT_LAYOUT = LAYOUTS.interleaved;
const LAYOUT_NAMES = "'interleaved' or 'split' ('half' is another name of 'split')";

/**
 * { dim, length, offset, base, layout, frequencies } as the core takes them;
 * length and offset only when withSpan (sinusoidalAt has positions instead).
 */
export function checkEncoding(o, withSpan) {
  const convention = resolveConvention(o);
  const dim = checkDim(o.dim);
  const [length, offset] = withSpan ? checkSpan(o.length, o.offset) : [undefined, undefined];
  const base = checkBase(o.base);
  const layout = checkLayout(convention.layout, DEFAULT_LAYOUT, LAYOUT_NAMES);
  return { dim, length, offset, base, layout, frequencies: convention.frequencies };
}
