// Named conventions of other libraries: each fixes the row layout and the
// frequency rule (see posenc.h, pe_frequencies). Positions are not part of a
// preset: fairseq numbers them from padding_idx + 1 = 2, so pass offset: 2 to
// get its rows.
import { refuse } from '../runtime/errors.js';
import { LAYOUTS } from '../runtime/validate.js';

const FREQUENCIES = { paper: 0, tensor2tensor: 1 };

export const PRESETS = {
  // Vaswani et al.; the PyTorch tutorials: sin and cos of each pair side by side.
  vaswani: { layout: 'interleaved', frequencies: 'paper' },
  // tensor2tensor's get_timing_signal_1d: all sines, then all cosines; the last pair at exactly 1/T.
  tensor2tensor: { layout: 'split', frequencies: 'tensor2tensor' },
  // fairseq's SinusoidalPositionalEmbedding: the tensor2tensor rule.
  fairseq: { layout: 'split', frequencies: 'tensor2tensor' },
  // HF MarianSinusoidalPositionalEmbedding: the paper's frequencies, sines then cosines.
  marian: { layout: 'split', frequencies: 'paper' },
};

/**
 * { layout, frequencies } names from the options: a preset's, or the ones
 * given, or the defaults. A preset and an explicit option that disagree are
 * refused rather than silently letting one win.
 */
export function resolveConvention(o) {
  let { layout, frequencies } = o;
  if (o.preset !== undefined) {
    if (typeof o.preset !== 'string' || !Object.hasOwn(PRESETS, o.preset)) {
      refuse(
        'BAD_PRESET',
        'preset',
        `one of ${Object.keys(PRESETS)
          .map((p) => `'${p}'`)
          .join(', ')}`,
        o.preset,
      );
    }
    const preset = PRESETS[o.preset];
    for (const [name, value] of [
      ['layout', layout],
      ['frequencies', frequencies],
    ]) {
      const same =
        name === 'layout' && Object.hasOwn(LAYOUTS, value)
          ? LAYOUTS[value] === LAYOUTS[preset.layout]
          : value === preset[name];
      if (value !== undefined && !same) {
        refuse('BAD_PRESET', name, `'${preset[name]}' with preset '${o.preset}' (or leave ${name} out)`, value);
      }
    }
    ({ layout, frequencies } = preset);
  }
  if (frequencies !== undefined && (typeof frequencies !== 'string' || !Object.hasOwn(FREQUENCIES, frequencies))) {
    refuse('BAD_FREQUENCIES', 'frequencies', "'paper' (T^(-2i/d)) or 'tensor2tensor' (T^(-i/(d/2-1)))", frequencies);
  }
  return { layout, frequencies: FREQUENCIES[frequencies ?? 'paper'] };
}
