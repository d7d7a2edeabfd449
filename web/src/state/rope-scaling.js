// The HF rope_scaling dict the RoPE view's fields describe, with only the keys
// its rope_type reads, so it could be pasted into a model config. The keys a
// model's config adds that have no field (YaRN's mscale, mscale_all_dim,
// attention_factor and truncate; longrope's per-pair factors) come from that
// config when its type is the one shown (modelScaling: the config's dict).

const YARN_EXTRAS = ['attention_factor', 'mscale', 'mscale_all_dim', 'truncate'];

/**
 * The HF rope_scaling dict for the chosen type, or undefined for none (and for
 * longrope without a model's factors: longRopeMissing says so).
 */
export function ropeScalingDict(state, modelScaling = null) {
  const factor = state.rf;
  const original = state.rl0;
  switch (state.rs) {
    case 'linear':
      return { rope_type: 'linear', factor };
    case 'dynamic':
      return { rope_type: 'dynamic', factor, original_max_position_embeddings: original };
    case 'yarn': {
      const dict = {
        rope_type: 'yarn',
        factor,
        original_max_position_embeddings: original,
        beta_fast: state.rbf,
        beta_slow: state.rbs,
      };
      if (modelScaling?.rope_type === 'yarn')
        for (const key of YARN_EXTRAS) if (modelScaling[key] !== undefined) dict[key] = modelScaling[key];
      return dict;
    }
    case 'llama3':
      return {
        rope_type: 'llama3',
        factor,
        original_max_position_embeddings: original,
        low_freq_factor: state.rlo,
        high_freq_factor: state.rhi,
      };
    case 'longrope':
      if (modelScaling?.rope_type !== 'longrope') return undefined;
      return {
        rope_type: 'longrope',
        short_factor: modelScaling.short_factor,
        long_factor: modelScaling.long_factor,
        original_max_position_embeddings: original,
        ...(modelScaling.factor !== undefined ? { factor: modelScaling.factor } : {}),
        ...(modelScaling.attention_factor !== undefined ? { attention_factor: modelScaling.attention_factor } : {}),
      };
    default:
      return undefined;
  }
}

/** True when longrope is chosen but no model's config gives its factors. */
export const longRopeMissing = (state, modelScaling) =>
  state.rs === 'longrope' && modelScaling?.rope_type !== 'longrope';
