// The long-range view's curve cache (web/src/compute/long-range.js): a change
// recomputes only the curves whose own inputs changed, and the curves taken
// from the cache are the numbers a fresh computation gives, bit for bit, for
// a change of each kind of input (the bar's d and T, RoPE's head_dim, base and
// scaling, ALiBi's heads). In Node, on the package's default instance.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../src/js/index.js';
import { longRangeSteps, sampleDistances } from '../web/src/compute/long-range.js';

await init();
const distances = sampleDistances();
const STATE = {
  d: 256,
  base: 10000,
  rhd: 64,
  rbase: 500000,
  rs: 'llama3',
  rf: 8,
  rl0: 8192,
  rlen: 131072,
  rbf: 32,
  rbs: 1,
  rlo: 1,
  rhi: 4,
  heads: 8,
};

/** Runs every step; returns the result and how many steps there were. */
function run(state, cache) {
  const { steps, result } = longRangeSteps(state, distances, null, cache);
  for (const step of steps) step();
  return { result, steps: steps.length };
}
const numbers = (result) => result.curves.map((c) => [c.key, c.label, Array.from(c.values)]);

const first = run(STATE);

for (const [change, fields, computed] of [
  ['nothing', {}, 0],
  ['d', { d: 512 }, 'sinusoid'],
  ['T', { base: 500 }, 'sinusoid'],
  ['the RoPE factor', { rf: 4 }, 4],
  ['RoPE head_dim', { rhd: 128 }, 6],
  ['rope_theta', { rbase: 10000 }, 6],
  ['ALiBi heads', { heads: 16 }, 1],
]) {
  test(`a change of ${change}: only its curves are computed, and they equal a fresh computation`, () => {
    const state = { ...STATE, ...fields };
    const cached = run(state, first.result.cache);
    const fresh = run(state);
    assert.equal(numbers(cached.result), numbers(fresh.result));
    assert.equal(cached.result.refused, fresh.result.refused);
    // Steps besides the final assembly: the sinusoid's are one per 64 distances.
    const want = computed === 'sinusoid' ? Math.ceil(distances.length / 64) : computed;
    assert.is(cached.steps - 1, want, `${cached.steps - 1} curve steps ran, of ${fresh.steps - 1}`);
  });
}

test.run();
