// The chosen model's config, read once by the package's fromConfig, and the
// RoPE the views draw for it (state/model-presets.js says which layer type).
// The corpus configs are fetched by preset-files.js; a dropped config.json sets
// the same slot, so its longrope factors and YaRN mscale reach the RoPE views too.
import { fromConfig } from '../../../src/js/index.js';
import { shownRope } from './model-presets.js';

let current = { key: '', text: '', description: null, rope: null };
let version = 0;

/** Makes text (a config.json read without error) the one the RoPE views use; key names it (a model id or a file). */
export function useModelConfig(key, text) {
  const description = fromConfig(text);
  current = { key, text, description, rope: shownRope(description)?.rope ?? null };
  version++;
  return description;
}

/** Forgets the model's config (the fields were changed by hand, or another model has none). */
export function clearModelConfig() {
  if (!current.key) return;
  current = { key: '', text: '', description: null, rope: null };
  version++;
}

/** The RoPE the model's config describes for the views (null: none), and a number that changes with it. */
export const modelRope = () => current.rope;
export const modelConfigVersion = () => version;
