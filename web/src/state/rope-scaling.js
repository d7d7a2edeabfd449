// The HF rope_scaling dict the RoPE view's fields describe, with only the keys
// its rope_type reads, so it could be pasted into a model config.

/**
 * The HF rope_scaling dict for the chosen type, with only the keys that type
 * reads (so it could be pasted into a model config), or undefined for none.
 */
export function ropeScalingDict(state) {
  const factor = state.rf;
  const original = state.rl0;
  switch (state.rs) {
    case 'linear':
      return { rope_type: 'linear', factor };
    case 'dynamic':
      return { rope_type: 'dynamic', factor, original_max_position_embeddings: original };
    case 'yarn':
      return {
        rope_type: 'yarn',
        factor,
        original_max_position_embeddings: original,
        beta_fast: state.rbf,
        beta_slow: state.rbs,
      };
    case 'llama3':
      return {
        rope_type: 'llama3',
        factor,
        original_max_position_embeddings: original,
        low_freq_factor: state.rlo,
        high_freq_factor: state.rhi,
      };
    default:
      return undefined;
  }
}
