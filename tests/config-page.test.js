// The page's model features in Debian's Chromium: view 12 reads every config
// of the model table (tests/support/model-configs.js, hand-transcribed from the
// published config.json files) with the package's fromConfig and shows its
// scheme (RoPE wavelengths per layer type, ALiBi slopes, T5 buckets), checked
// against the table's hand-written fields and the published formula for the
// unscaled wavelengths; every bad config shows the PosencError's message on
// the page and nothing breaks; the T5-base preset; and an invalid Llama 3 pair
// in the URL is clamped (as every field is) so the RoPE view draws its plots.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { readQuery } from '../web/src/state/query.js';
import { MODEL_PRESETS } from '../web/src/state/model-presets.js';
import { sig6 } from '../web/src/draw/format.js';
import { MODELS } from './support/model-configs.js';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';

const pe = await instantiate();
const session = browserSession(test);
const { it, noProblems } = session;

test('an invalid Llama 3 pair from the URL is clamped to one the package accepts, with a note', () => {
  for (const [rlo, rhi] of [
    [4, 1],
    [2, 2],
    [1024, 0.01],
    [1024, 1024],
    [0.01, 0.01],
  ]) {
    const { state, notes } = readQuery(`?rs=llama3&rlo=${rlo}&rhi=${rhi}`);
    assert.ok(state.rlo < state.rhi, `${rlo}, ${rhi} → ${state.rlo}, ${state.rhi}`);
    assert.ok(state.rlo >= 0.01 && state.rhi <= 1024, `inside the fields' ranges: ${state.rlo}, ${state.rhi}`);
    assert.ok(
      notes.some((n) => n.includes('low_freq_factor') && n.includes(`using low_freq_factor ${state.rlo}`)),
      notes.join(' | '),
    );
    const scaling = {
      rope_type: 'llama3',
      factor: 8,
      original_max_position_embeddings: 8192,
      low_freq_factor: state.rlo,
      high_freq_factor: state.rhi,
    };
    pe.ropeFrequencies({ headDim: 128, base: 500000, scaling }); // the package accepts the clamped pair
  }
  // A valid pair is left alone, without a note.
  const { state, notes } = readQuery('?rs=llama3&rlo=2&rhi=8');
  assert.equal([state.rlo, state.rhi, notes], [2, 8, []]);
});

it('a Llama 3 pair low ≥ high in the URL: the RoPE view draws its plots, no refusal', async () => {
  const { page, server } = session;
  await open(page, `${server.url}?rs=llama3&rlo=4&rhi=1`);
  await caughtUp(page, '#rope-speed');
  assert.is(await page.textContent('#rope-status'), '', 'no refusal');
  assert.ok((await page.$$('#rope-speed canvas, #rope-bands canvas')).length >= 2, 'plots drawn');
  assert.match(await page.textContent('#notes'), 'using low_freq_factor 4, high_freq_factor 16');
  assert.match(await page.textContent('#rope-config'), '"high_freq_factor": 16');
  noProblems('llama3 clamp');
});

/** Pastes text into view 12 and waits for it to be read. */
async function paste(page, text) {
  await page.fill('#config-paste', text);
  await caughtUp(page, '#config-facts');
  await page.waitForFunction(() => document.getElementById('config-status').textContent !== '');
}

const facts = (page) => page.$$eval('#config-facts li', (items) => items.map((li) => li.textContent));
const TAU = 2 * Math.PI;
/** The published formula, written out: pair i turns once every 2π·θ^(2i/dim) positions. */
const unscaledLongest = (dim, base) => sig6(TAU * base ** ((dim - 2) / dim));

it("view 12 reads every config of the model table and shows that model's scheme", async () => {
  const { page, server } = session;
  await open(page, server.url);
  for (const model of MODELS) {
    await paste(page, JSON.stringify(model.config, null, 2));
    const { hf } = model;
    const kind = await page.getAttribute('#config-facts', 'data-kind');
    assert.is(kind, hf.kind, model.id);
    const lines = (await facts(page)).join('\n');
    const plotShown = !(await page.isHidden('#config-plot'));
    if (hf.kind === 'rope') {
      const layers = hf.layers ? Object.entries(hf.layers) : [['every layer', hf]];
      for (const [name, layer] of layers) {
        assert.match(lines, `${name}: head_dim ${layer.headDim ?? layer.dim}, rotary dims ${layer.dim}`, model.id);
        assert.match(lines, `rope_theta ${sig6(layer.base)}`, model.id);
        assert.match(lines, `(unscaled … ${unscaledLongest(layer.dim, layer.base)})`, model.id);
        if (layer.type && layer.type !== 'default') assert.match(lines, `rope_type = ${layer.type}`, model.id);
      }
      assert.ok(plotShown, `${model.id}: wavelength plot`);
      // Pair 0's readout, from the keyboard, is the package's number at the model's whole context.
      await page.focus('#config-plot');
      await page.keyboard.press('Home');
      const layerType = hf.layers ? layers[0][0] : undefined;
      const { frequencies } = pe.ropeFrequencies({
        config: model.config,
        layerType,
        length: pe.fromConfig(model.config).maxPositions,
      });
      assert.match(await page.textContent('#config-readout'), `wavelength ${sig6(TAU / frequencies[0])}`, model.id);
    } else if (hf.kind === 'alibi') {
      // Press et al.: head 0's slope is 2^(−8/n) for n the largest power of two ≤ the head count.
      const n = 2 ** Math.floor(Math.log2(hf.heads));
      assert.match(lines, `${hf.heads} heads; slopes ${sig6(2 ** (-8 / n))}`, model.id);
      assert.ok(plotShown, `${model.id}: slopes plot`);
    } else if (hf.kind === 'relative') {
      assert.match(
        lines,
        `relative_attention_num_buckets = ${hf.numBuckets}, relative_attention_max_distance = ${hf.maxDistance}`,
      );
      assert.ok(plotShown, `${model.id}: buckets plot`);
      // The readout starts at the leftmost offset drawn.
      await page.focus('#config-plot');
      await page.keyboard.press('Home');
      assert.match(await page.textContent('#config-readout'), `offset ${-Math.ceil(hf.maxDistance * 1.25)}: encoder`);
    } else {
      assert.ok(!plotShown, `${model.id}: nothing to plot for a ${hf.kind} table`);
      assert.match(lines, hf.kind === 'learned' ? `${hf.maxPositions} positions × ${hf.dim}` : `d = ${hf.dim}`);
    }
  }
  noProblems('model table');
});

/** What the package says about text, as the view calls it: fromConfig, then ropeFrequencies or t5Buckets. */
function packageMessage(text) {
  try {
    const d = pe.fromConfig(text);
    if (d.kind === 'rope') {
      const layers = d.layerTypes ? Object.keys(d.layerTypes) : [undefined];
      for (const layerType of layers) pe.ropeFrequencies({ config: text, layerType, length: d.maxPositions });
    }
    if (d.kind === 'relative' && d.scheme === 't5') {
      pe.t5Buckets({ queryLength: 1, numBuckets: d.numBuckets, maxDistance: d.maxDistance });
    }
    return null;
  } catch (error) {
    assert.instance(error, PosencError);
    return error.message;
  }
}

it("every bad config shows the package's message on the page, never a crash", async () => {
  const { page, server } = session;
  await open(page, server.url);
  const llama = MODELS[0].config;
  const bad = [
    '{',
    '[1, 2]',
    '"config"',
    '{}',
    '{"model_type": "llama", "hidden_size": 4096}',
    JSON.stringify({
      ...llama,
      rope_scaling: {
        rope_type: 'llama3',
        factor: 8,
        low_freq_factor: 4,
        high_freq_factor: 1,
        original_max_position_embeddings: 8192,
      },
    }),
    JSON.stringify({ ...llama, rope_scaling: { rope_type: 'warp', factor: 2 } }),
    JSON.stringify({ ...llama, rope_theta: -1 }),
    JSON.stringify({ ...llama, rope_theta: 1e308 }),
    JSON.stringify({ ...MODELS.find((m) => m.id.startsWith('google-t5')).config, relative_attention_num_buckets: 3 }),
    JSON.stringify({ model_type: 'bloom', n_head: 0 }),
  ];
  for (const text of bad) {
    const expected = packageMessage(text);
    assert.ok(expected, `the package refuses ${text.slice(0, 60)}`);
    await paste(page, text);
    assert.is(await page.textContent('#config-status'), expected, text.slice(0, 60));
    assert.is(await page.getAttribute('#config-facts', 'data-kind'), 'refused');
    assert.is(await page.textContent('#config-error'), '', 'the view itself did not fail');
  }
  // A file picked (as a drop does) is read the same way; one far too large is not read at all.
  await page.setInputFiles('#config-file', {
    name: 'config.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(MODELS[0].config)),
  });
  await page.waitForFunction(() => document.getElementById('config-status').textContent.startsWith('Read config.json'));
  assert.is(await page.getAttribute('#config-facts', 'data-kind'), 'rope');
  await page.setInputFiles('#config-file', {
    name: 'huge.json',
    mimeType: 'application/json',
    buffer: Buffer.alloc(5 << 20, 32),
  });
  await page.waitForFunction(() => document.getElementById('config-status').textContent.includes('huge.json'));
  assert.match(await page.textContent('#config-status'), 'nothing was read');
  noProblems('bad configs');
});

it('presets: T5-small shows its buckets in views 10 and 12', async () => {
  const { page, server } = session;
  const ids = MODEL_PRESETS.map((p) => p.id);
  for (const id of ['transformer-base', 'bert-base', 'gpt2', 'llama-2-7b', 'llama-3.1-8b', 'mixtral-8x7b']) {
    assert.ok(ids.includes(id), id);
  }
  for (const id of ['qwen2.5-7b-instruct', 'phi-3-mini-4k', 'phi-3-mini-128k', 'bloom-560m', 't5-small']) {
    assert.ok(ids.includes(id), id);
  }
  await open(page, server.url);
  await page.selectOption('#ctl-preset', 't5-small');
  await page.waitForFunction(() =>
    /View 10 shows its buckets/.test(document.getElementById('preset-note').textContent),
  );
  assert.match(await page.textContent('#preset-note'), 'relative in every layer');
  await caughtUp(page, '#config-facts');
  await page.waitForFunction(() => document.getElementById('config-facts').dataset.kind === 'relative');
  assert.match(await page.textContent('#config-status'), 'T5-small');
  assert.match(
    (await facts(page)).join(' '),
    'relative_attention_num_buckets = 32, relative_attention_max_distance = 128',
  );
  await caughtUp(page, '#t5-buckets-plot');
  await page.waitForSelector('#t5-buckets-plot canvas');
  noProblems('T5 preset');
});

test.run();
