// The corpus configs the model menu reads, each bundled as a lazy chunk (only a chosen one is fetched). This map of
// loaders grows with the corpus (one entry per file in tests/fixtures/configs), so it is itself loaded when a model
// is first chosen, not with the first view.
import { presetConfigText } from './model-presets.js';

const FILES = import.meta.glob('../../../tests/fixtures/configs/*.json', { query: '?raw', import: 'default' });

/** The config text of a preset (its corpus file, with a model card's patch), fetched once. */
export async function presetText(preset) {
  const load = FILES[`../../../tests/fixtures/configs/${preset.file}`];
  if (!load) throw new Error(`the page has no config file ${preset.file}`);
  return presetConfigText(preset, await load());
}
