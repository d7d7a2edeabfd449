// identify() on LongRoPE caches far out (1.3e7, 2^24 + 3), where the cells cannot separate the first position from
// per-column factors: read at the lists shipped models' configs carry (src/core/diagnose/diag_longrope_lists.c).
// The caches are made here from the config files in tests/fixtures/configs with HF's recipe, so a list in the core
// that drifts from its config fails too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { init, identify } from '../src/js/index.js';
import * as peers from './support/diagnose-peers.js';

const config = (name) => JSON.parse(readFileSync(new URL(`./fixtures/configs/${name}.json`, import.meta.url), 'utf8'));
// the shipped models the core lists, with the model name its verdict gives
const MODELS = [
  ['phi-3-mini-128k-instruct', 'Phi-3-mini-128k-instruct'],
  ['phi-4-mini-instruct', 'Phi-4-mini-instruct'],
];
const ATTENTION = Math.sqrt(1 + Math.log(32) / Math.log(4096)); // max_position_embeddings 131072, original 4096

/** A cache of rows x 96 (rotary dim 96 in both models) of the config's list (short: a cache built up to 4096). */
function cache(cfg, which, { start, dtype, fn }, edit = (x) => x) {
  const rs = cfg.rope_scaling;
  const scaling = {
    type: 'longrope',
    original: cfg.original_max_position_embeddings,
    max: cfg.max_position_embeddings,
    short: edit(rs.short_factor),
    long: edit(rs.long_factor),
    seqLen: which === 'short_factor' ? 4096 : 131072,
  };
  return peers.llamaCache(32, 96, { base: cfg.rope_theta, scaling, start, dtype, fn });
}

test.before(async () => {
  await init();
});

test("a shipped model's LongRoPE cache far out: identified at its list, first position, HF's parameters", () => {
  for (const [file, model] of MODELS)
    for (const which of ['short_factor', 'long_factor'])
      for (const [start, dtype, fn] of [
        [13e6, 'float32', 'cos'],
        [2 ** 24 + 3, 'bfloat16', 'sin'],
      ]) {
        const cfg = config(file);
        const r = identify(cache(cfg, which, { start, dtype, fn }), { rows: 32, dim: 96 });
        const what = `${model} ${which} ${dtype} ${fn} @${start}: ${r.verdict}`;
        assert.ok(r.identified && r.offset === start && r.offsetKnown && r.cache === fn, what);
        assert.is(r.factorList, `${model} ${which}`, what);
        assert.ok(r.verdict.includes(`the factors of ${model}'s ${which}`), what);
        const rs = r.ropeScaling;
        assert.is(rs.rope_type, 'longrope', what);
        assert.ok(rs.factor === 32 && rs.original_max_position_embeddings === 4096 && rs.rope_theta === 10000, what);
        assert.ok(Math.abs(rs.attention_factor - ATTENTION) < 1e-12, what);
        // past original_max_position_embeddings HF takes long_factor: the values a config needs there
        const want = cfg.rope_scaling[which];
        const got = rs.long_factor;
        assert.ok(got.length === 48 && got.every((x, k) => Math.abs(x - Math.fround(want[k])) <= 1e-6 * want[k]), what);
      }
});

test('a list one factor off a shipped one is not read far out, and the verdict says why', () => {
  // every column is checked, not only column 0: factor 30 of Phi-3-mini-128k's long_factor 1% off
  const cfg = config('phi-3-mini-128k-instruct');
  const edit = (list) => list.map((x, k) => (k === 30 ? x * 1.01 : x));
  for (const start of [13e6, 2 ** 24 + 3]) {
    const r = identify(cache(cfg, 'long_factor', { start, dtype: 'float32', fn: 'cos' }, edit), { rows: 32, dim: 96 });
    const what = `@${start}: ${r.verdict}`;
    assert.is(r.identified, false, what);
    assert.is(r.factorList, undefined, what);
    assert.match(
      r.verdict,
      /per-column factors, as LongRoPE's short_factor or long_factor, are not read without a shipped list/,
    );
    assert.ok(r.scaling === 'unread' && r.ropeScaling === null && r.factor === 0, what);
  }
});

test.run();
