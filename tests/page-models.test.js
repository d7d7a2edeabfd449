// The page's model menu against the model corpus (tests/fixtures/configs, as
// shipped). In Node: every preset's fields, as the page derives them from the
// package's fromConfig, match the config read independently (HF's modeling
// code written out in support/hf-layers.js: rotary dims, rope_theta, rope type
// and its numbers, context length; ALiBi heads; learned table size), and the
// RoPE the page then draws (its fields plus the config's factors, through the
// page's own ropeScalingDict) has exactly the frequencies and attention factor
// of ropeFrequencies({ config }). In Chromium: a model chosen after another
// resets what the first one set; the model is in the URL and survives a
// reload; Llama 3.1 8B's RoPE view and view 6 use head_dim 128 and base
// 500000 whatever the bar says; LongRoPE appears in view 8; a dropped
// config.json (the real bloom-560m one) drives the views; NoPE layers are
// named in view 12. View 7 samples distances up to 2^20.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantiate } from '../src/js/index.js';
import {
  MODEL_FIELDS,
  MODEL_GROUPS,
  MODEL_PRESETS,
  layerSummary,
  presetConfigText,
  presetFields,
  shownRope,
} from '../web/src/state/model-presets.js';
import { FIELDS, defaultState } from '../web/src/state/fields.js';
import { ropeScalingDict } from '../web/src/state/rope-scaling.js';
import { MAX_DISTANCE, sampleDistances } from '../web/src/compute/long-range.js';
import { hfLayers, hfRopeLayer, learnedOffset, learnedRows, textModel } from './support/hf-layers.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';

const pe = await instantiate();
const configPath = (file) => fileURLToPath(new URL(`./fixtures/configs/${file}`, import.meta.url));
const INDEX = JSON.parse(readFileSync(new URL('./fixtures/configs-index.json', import.meta.url), 'utf8'));
const presetText = (preset) => presetConfigText(preset, readFileSync(configPath(preset.file), 'utf8'));

test('every preset names a config of the corpus, and the menu covers its families', () => {
  const files = new Set(INDEX.entries.map((e) => e.file));
  for (const preset of MODEL_PRESETS) {
    if (preset.file) assert.ok(files.has(preset.file), `${preset.id}: ${preset.file} is not in the corpus`);
    else assert.ok(preset.set && preset.about, `${preset.id}: no config file, so its fields are given`);
  }
  const kinds = new Set(MODEL_PRESETS.filter((p) => p.file).map((p) => pe.fromConfig(presetText(p)).kind));
  assert.equal([...kinds].sort(), ['alibi', 'learned', 'none', 'relative', 'rope', 'sinusoidal']);
  // The URL's model values (state/model-ids.js, read before the menu loads) are the menu's ids, in its order.
  assert.equal(FIELDS.model.choices, ['', ...MODEL_PRESETS.map((p) => p.id)], 'every preset is a URL value of model');
  // Every family of the corpus (its text model's model_type) has a model in the menu.
  const family = (file) => textModel(JSON.parse(readFileSync(configPath(file), 'utf8'))).type;
  const offered = new Set(MODEL_PRESETS.filter((p) => p.file).map((p) => family(p.file)));
  for (const entry of INDEX.entries)
    assert.ok(offered.has(family(entry.file)), `${entry.model}: no model of its family (${family(entry.file)})`);
  assert.is(new Set(MODEL_PRESETS.map((p) => p.id)).size, MODEL_PRESETS.length, 'ids are unique');
});

// What each menu group (an <optgroup>) and each word of a model's name claim, held to its config as HF's code reads
// it (support/hf-layers.js), so a preset filed or named wrongly fails.
const positioned = (layers) => layers.filter((l) => l.positions !== 'nope' && l.positions !== 'no-attention');
const GROUP_HOLDS = {
  tables: ({ layers }) => layers.every((l) => l.positions === 'learned' || l.positions === 'sinusoidal'),
  rope: ({ layers, rope }) =>
    layers.every((l) => l.positions === 'rope') &&
    new Set(layers.map((l) => `${l.kind} ${l.window}`)).size === 1 &&
    !rope.mrope,
  local: ({ layers }) =>
    layers.every((l) => l.positions === 'rope') && new Set(layers.map((l) => `${l.kind} ${l.window}`)).size > 1,
  mrope: ({ layers, rope }) => layers.every((l) => l.positions === 'rope') && rope.mrope !== null,
  none: ({ layers }) => positioned(layers).length < layers.length,
  bias: ({ layers }) => layers.every((l) => l.positions === 'alibi' || l.positions === 'relative'),
};
const NAME_CLAIMS = [
  [/YaRN/, ({ rope }) => rope.ropeType === 'yarn'],
  [/LongRoPE/, ({ rope }) => rope.ropeType === 'longrope'],
  [/dynamic NTK/, ({ rope }) => rope.ropeType === 'dynamic'],
  [/partial rotary|half of each head/, ({ rope }) => rope.rotaryDim < rope.headDim],
  [/pairs side by side/, ({ rope }) => rope.layout === 'interleaved'],
  [/interleaved mrope/, ({ rope }) => rope.mrope?.interleaved === true],
  [/\(mrope\)/, ({ rope }) => rope.mrope?.interleaved === false],
  [/sliding window/, ({ layers }) => layers.some((l) => l.window > 0)],
  [/local and global/, ({ layers }) => new Set(layers.map((l) => `${l.kind} ${l.window}`)).size > 1],
  [/queries scaled by position/, ({ layers }) => layers.some((l) => l.queryScale)],
  [/NoPE/, ({ layers }) => layers.some((l) => l.positions === 'nope')],
  [/Mamba/, ({ layers }) => layers.some((l) => l.kind === 'mamba')],
  [
    /linear attention in 3 of 4/,
    ({ layers }) => layers.filter((l) => l.kind === 'linear_attention').length * 4 === layers.length * 3,
  ],
  [/no positions at all/, ({ layers }) => positioned(layers).length === 0],
  [/ALiBi/, ({ layers }) => layers.every((l) => l.positions === 'alibi')],
  [/relative buckets/, ({ layers }) => layers.every((l) => l.positions === 'relative')],
  [
    /sinusoidal encoder, learned decoder/,
    ({ layers }) =>
      layers.some((l) => l.kind === 'encoder' && l.positions === 'sinusoidal') &&
      layers.some((l) => l.kind === 'decoder' && l.positions === 'learned'),
  ],
  [/rows from 2/, ({ type }) => learnedOffset(type) === 2],
  [/197 patches/, ({ config }) => learnedRows(config) === 197],
];

test('each model sits in the group its config belongs to, and its name says only what its config does', () => {
  const groups = new Set(MODEL_GROUPS.map((g) => g.id));
  for (const preset of MODEL_PRESETS) {
    assert.ok(groups.has(preset.group), `${preset.id}: group ${preset.group} is one of MODEL_GROUPS`);
    if (!preset.file) continue;
    const config = JSON.parse(presetText(preset));
    const layers = hfLayers(config);
    const ropeLayer = positioned(layers).find((l) => l.positions === 'rope');
    const rope = ropeLayer ? hfRopeLayer(config, ropeLayer.kind) : { mrope: null };
    const facts = { config, layers, rope, type: textModel(config).type };
    assert.ok(GROUP_HOLDS[preset.group](facts), `${preset.id}: its config does not belong to group ${preset.group}`);
    for (const [claim, holds] of NAME_CLAIMS)
      if (claim.test(preset.name)) assert.ok(holds(facts), `${preset.id}: its name says ${claim}, its config not`);
  }
  assert.ok(
    MODEL_GROUPS.every((g) => MODEL_PRESETS.some((p) => p.group === g.id)),
    'no empty group',
  );
});

const HF_TYPE = { default: 'none', mrope: 'none' };

for (const preset of MODEL_PRESETS.filter((p) => p.file)) {
  test(`${preset.name}: the page's fields are its config's, and its RoPE draws as the config's`, () => {
    const text = presetText(preset);
    const config = JSON.parse(text);
    const description = pe.fromConfig(text);
    const fields = presetFields(description);
    for (const [name, value] of Object.entries(fields)) {
      assert.ok(MODEL_FIELDS.includes(name), `${name} is a model field`);
      const field = FIELDS[name];
      if (field.kind === 'number') assert.ok(value >= field.min && value <= field.max, `${name} = ${value} in range`);
      else assert.ok(field.choices.includes(value), `${name} = ${value} is a choice`);
    }
    const { get } = textModel(config);
    const layers = hfLayers(config);
    if (layers.some((l) => l.positions === 'rope')) {
      // The layer type the views show: the global one where layers differ.
      const kinds = [...new Set(layers.filter((l) => l.positions === 'rope').map((l) => l.kind))];
      const kind = kinds.includes('full_attention') ? 'full_attention' : kinds[0];
      const h = hfRopeLayer(config, kind);
      const p = h.at(0);
      assert.is(fields.rhd, h.rotaryDim, 'head_dim field: the rotated dims');
      assert.is(fields.rbase, h.base, 'rope_theta');
      assert.is(fields.rs, HF_TYPE[h.ropeType] ?? h.ropeType, 'rope type');
      assert.is(fields.rlen, get('max_position_embeddings'), 'context length');
      if (!['none'].includes(fields.rs) && fields.rs !== 'linear') assert.is(fields.rl0, h.original, 'L0');
      assert.ok(p.w.length === h.rotaryDim / 2);
      // What view 8 computes from the fields (and the config's factors) is what the config says, at every length.
      const state = { ...defaultState(), ...fields };
      const model = shownRope(description).rope;
      const scaling = ropeScalingDict(state, model.scaling);
      for (const length of [0, state.rl0, state.rlen]) {
        const page = pe.ropeFrequencies({ headDim: state.rhd, base: state.rbase, scaling, length });
        const exact = pe.ropeFrequencies({
          config: text,
          ...(shownRope(description).layerType ? { layerType: shownRope(description).layerType } : {}),
          length,
        });
        assert.equal(Array.from(page.frequencies), Array.from(exact.frequencies), `frequencies at length ${length}`);
        assert.is(page.attentionFactor, exact.attentionFactor, `attention factor at length ${length}`);
      }
    } else if (description.kind === 'alibi') {
      assert.is(fields.heads, get('n_head') ?? get('num_attention_heads') ?? get('n_heads'), 'ALiBi heads');
    } else if (description.kind === 'learned') {
      assert.is(fields.d, get('hidden_size') ?? get('n_embd') ?? get('d_model'), 'table width');
      assert.is(fields.len, learnedRows(config), 'table rows');
    } else if (description.kind === 'sinusoidal') {
      assert.equal(fields, { d: get('d_model') }, "the sinusoidal table's width");
    } else {
      assert.equal(fields, {}, 'a model without a table or RoPE sets nothing');
    }
  });
}

const session = browserSession(test);
const { it, noProblems } = session;
const value = (page, id) => page.$eval(`#${id}`, (el) => el.value);

/** Chooses a model in the menu and waits until its note says it was read. */
async function choose(page, id) {
  await page.selectOption('#ctl-preset', id);
  await page.waitForFunction(() => !/reading its config/.test(document.getElementById('preset-note').textContent));
}

it('a model chosen after another resets what the first set, and survives a reload', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await choose(page, 'qwen2.5-7b-instruct-yarn');
  assert.equal(
    [await value(page, 'ctl-rs'), await value(page, 'ctl-rf'), await value(page, 'ctl-rl0')],
    ['yarn', '4', '32768'],
  );
  await choose(page, 'phi-3-mini-4k');
  // Phi-3-mini-4k has no scaling: nothing of Qwen's YaRN stays.
  assert.equal(
    [
      await value(page, 'ctl-rs'),
      await value(page, 'ctl-rhd'),
      await value(page, 'ctl-rbase'),
      await value(page, 'ctl-rlen'),
    ],
    ['none', '96', '10000', '4096'],
  );
  assert.equal(
    [await value(page, 'ctl-rf'), await value(page, 'ctl-rl0')],
    [String(FIELDS.rf.initial), String(FIELDS.rl0.initial)],
  );
  await choose(page, 'phi-3-mini-128k');
  assert.match(page.url(), 'model=phi-3-mini-128k');
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => /layers/.test(document.getElementById('preset-note').textContent));
  assert.is(await value(page, 'ctl-preset'), 'phi-3-mini-128k');
  assert.equal(
    [await value(page, 'ctl-rs'), await value(page, 'ctl-rl0'), await value(page, 'ctl-rlen')],
    ['longrope', '4096', '131072'],
  );
  await caughtUp(page, '#rope-facts');
  assert.is(await page.textContent('#rope-status'), '', 'longrope drawn, not refused');
  // Issue 30: longrope in the bands view, beside the other scalings.
  const bands = (await page.getAttribute('#rope-bands', 'data-series')).split(' | ');
  const named = (name) => bands.some((label) => label.startsWith(name));
  assert.ok(named('LongRoPE') && named('linear (PI)'), `the bands chart's curves: ${bands}`);
  // A shared URL naming only the model: the model's config sets every field, a field the URL gives stays.
  await open(page, `${server.url}?model=phi-3-mini-128k&rlen=8192`);
  await page.waitForFunction(() => document.getElementById('ctl-rhd').value === '96');
  assert.equal([await value(page, 'ctl-rs'), await value(page, 'ctl-rlen')], ['longrope', '8192']);
  await caughtUp(page, '#rope-facts');
  assert.is(await page.textContent('#rope-status'), '', 'longrope drawn from a URL naming only the model');
  assert.match(await page.textContent('#rope-config'), '"rope_type": "longrope"');
  assert.match(await page.textContent('#rope-config'), '"long_factor": "[48 values]"');
  noProblems('presets');
});

it("Llama 3.1 8B after BERT: the RoPE views use its head_dim 128 and base 500000, not the bar's", async () => {
  const { page, server } = session;
  await open(page, server.url);
  await choose(page, 'bert-base');
  assert.is(await value(page, 'ctl-d'), '768');
  await choose(page, 'llama-3.1-8b');
  assert.is(await value(page, 'ctl-d'), String(FIELDS.d.initial), "BERT's d is reset");
  await page.fill('#ctl-d', '768'); // the bar's d, set by hand, does not reach the model's RoPE
  await page.dispatchEvent('#ctl-d', 'change');
  await caughtUp(page, '#rope-config');
  assert.match(await page.textContent('#rope-config'), 'rope_theta = 500000, head_dim = 128');
  assert.match(await page.textContent('#rope-config'), '"rope_type": "llama3"');
  // View 6's RoPE panel and view 7's scaled curves take the model's RoPE too.
  await caughtUp(page, '#cmp-rope');
  await page.waitForFunction(() => document.getElementById('cmp-rope').dataset.headDim === '128');
  assert.equal(await page.$eval('#cmp-rope', (c) => [c.dataset.headDim, c.dataset.base]), ['128', '500000']);
  await caughtUp(page, '#longrange-facts');
  assert.match(await page.textContent('#longrange-facts'), 'factor 8, L0 = 8192');
  noProblems('llama');
});

it('a dropped config.json drives the views: the real bloom-560m sets the ALiBi heads; SmolLM3 names its NoPE layers', async () => {
  const { page, server } = session;
  await open(page, server.url);
  await caughtUp(page, '#config-drop');
  await page.setInputFiles('#config-file', configPath('bloom-560m.json'));
  await page.waitForFunction(() => /ALiBi/.test(document.getElementById('config-status').textContent));
  await page.waitForFunction(() => document.getElementById('ctl-heads').value === '16');
  assert.match(await page.textContent('#preset-note'), 'alibi in every layer');
  await page.setInputFiles('#config-file', configPath('smollm3-3b-base.json'));
  await page.waitForFunction(() => /NoPE/.test(document.getElementById('config-facts').textContent));
  assert.match(await page.textContent('#config-facts'), 'no position at all (NoPE attention) in 9 layers (3, 7, 11');
  assert.is(await value(page, 'ctl-rbase'), '5000000');
  noProblems('drop');
});

test("the preset note names the sliding layers' window, as fromConfig reads it", () => {
  const summary = (file) => layerSummary(pe.fromConfig(readFileSync(configPath(file), 'utf8')).layers);
  assert.match(
    summary('gemma-3-1b-it.json'),
    'RoPE (sliding_attention, base 10000), each query seeing the last 512 positions in 22 layers',
  );
  assert.match(summary('gemma-3-1b-it.json'), 'RoPE (full_attention, base 1000000) in 4 layers');
  assert.match(
    summary('phi-3-mini-4k-instruct.json'),
    'RoPE, each query seeing the last 2047 positions in every layer',
  );
  assert.not.match(summary('meta-llama-3-8b.json'), 'seeing');
  // Devstral Small 2 (Ministral 3): every layer's queries grow with position, as its layers' queryScale says.
  assert.match(
    summary('devstral-small-2-24b-instruct.json'),
    'RoPE, queries × (1 + 0.1 ln(1 + ⌊p / 8192⌋)) at position p in every layer',
  );
  assert.not.match(summary('meta-llama-3-8b.json'), 'queries');
  // ModernBERT, an encoder: its local layers' window reaches both ways.
  assert.match(
    summary('modernbert-large-zeroshot-v2.0.json'),
    'RoPE (sliding_attention, base 10000), each query seeing 64 positions on either side in 18 layers',
  );
});

test("view 7 samples distances up to 2^20, past every preset's context", () => {
  const distances = sampleDistances();
  assert.is(distances.at(-1), 2 ** 20);
  assert.is(MAX_DISTANCE, 2 ** 20);
});

test.run();
