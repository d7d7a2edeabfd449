// Issue 30's "done when": one walk through every view, top to bottom, at the
// default size, at the largest (d = 2048, length = 8192) and on a phone
// (390 × 844). For each view (on a freshly opened page at the default size and
// on the phone; at 2048 × 8192 on the walk's one page, its bar set back):
// - its Contents link (the #hash for the first view) lands on its top, and stays
//   there when the page's pin lets go (tests/support/browser-landing.js; the
//   #hash landings of every section are page-anchors');
// - on a desktop, its own controls sit above or beside each of its figures;
// - every figure in it is an image (role img) with a name, and a description
//   that states a number;
// - each of its controls (its own boxes, menus, checkboxes and buttons, and the
//   bar's fields it says drive it) is set to its range's ends and to seeded
//   values between them (the seed is printed; POSENC_SEED replays it), each
//   change timed from the event to the frame that draws the view, and after
//   each the view's own drawn facts (data-* and texts beside the figure, never
//   pixels) are held to what its caption claims, against the test's own math;
// - the longest main-thread task over all its changes (CPU time, from a
//   Chromium trace), and per change the main thread's CPU and its script's
//   (between console.timeStamp marks in the trace): what an idle machine
//   would spend, which is how NOT_MET's entries were chosen.
// Timing bounds: the issue's median under 33 ms from input to render, asserted
// as it is when a reference loop and the page's trace find the machine idle,
// else twice it times the load they measured (tests/support/machine-load.js);
// the issue's 50 ms CPU task bound for these one-input jumps across a range
// too (page-live drags the bar's sliders); the places that do not meet them
// would be listed in NOT_MET with their figures (none are, 28 Nov). Prints one table per walk. The bar's sliders
// dragged with the mouse are tests/page-live.test.js's; the finer sweeps of
// single views are page-why's and page-captions'.
import { readFile } from 'node:fs/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSession } from './support/browser-session.js';
import { caughtUp, open } from './support/browser-page.js';
import { landing, landingProblems } from './support/browser-landing.js';
import { startTrace, mainThreadTasks, describeTask, cpuBetweenMarks } from './support/browser-trace.js';
import { boundScale, machineStretch } from './support/machine-load.js';
import { generator, seedFromEnv } from './support/random.js';
import { hfDefault, hfLlama3, hfYarn } from './support/rope-reference.js';

const session = browserSession(test);
const { it, noProblems } = session;

const SEED = seedFromEnv();
console.log(`  page-walk seed ${SEED} (POSENC_SEED=${SEED} replays it)`);

// The issue's bounds: median from an input to the frame drawing its view, and the longest task, in ms.
const RENDER_MS = 33;
const LONG_TASK_MS = 50;

// between: seeded values per number control besides its two ends. fresh: each view on a newly opened page (its
// Contents link followed while the views above load); else one page per walk, the bar set back to the walk's
// settings before each view (a page load cost 3–4 s under load in session 39; 0.2–0.7 s in session 40, when the
// landing no longer waited 2.6 s for the pin: the phone walk is fresh again, taking over page-anchors' Contents).
const WALKS_ALL = [
  { name: 'desktop, default size', size: { width: 1440, height: 900 }, query: '', between: 1, fresh: true },
  {
    name: 'desktop, d = 2048 × length 8192',
    size: { width: 1440, height: 900 },
    query: '?d=2048&len=8192',
    between: 0,
    fresh: false,
  },
  { name: 'phone 390 × 844, default size', size: { width: 390, height: 844 }, query: '', between: 0, fresh: true },
];

const WALKS = process.env.WALK_ONLY
  ? WALKS_ALL.slice(Number(process.env.WALK_ONLY), Number(process.env.WALK_ONLY) + 1)
  : WALKS_ALL;

// Where the timings are printed, not held to the bounds, and why: issue 30's timing ask is not met there yet.
// bound: which bound is not met ('median' or 'task'; both when absent). A view leaves this list when the trace finds
// its changes' median script CPU under 18 ms (with the wait for the next frame, 8 ms on average, that is within 7 ms
// of 33 on an idle machine) and its longest task under the bound, in every walk. Session 39 listed t5, config,
// naive, heatmap, long range, why, squiggles, embedding, comparison (medians), rope and precision (both); h4's walks
// of 28 Nov found every one of them at 2–12 ms median script CPU and tasks of 10–29 ms CPU (load 1.3–4.4), after
// precision's errors and identify moved to the compute worker (at d1bf329, before, on the same machine: 2–19 ms, tasks
// up to 41 ms but identify's 236–274 ms).
// Identify left it once its input drew an "identifying…" state at once, the verdict following from the worker.
const NOT_MET = [];
// Whole tasks, their garbage collection included, are held to the task bound. Session 39 saw major collections of
// 65–174 ms CPU after allocation-heavy views (precision's 97 × 6 fresh tables, now in the compute worker); h4's three
// whole walks of 28 Nov at b7b1604 (load 3.3–4.9) found no view's longest task over 27 ms CPU, its GC at most 20.

/** The NOT_MET entries for a view in a walk; each excuses its `bound` ('median', 'task' or both when absent). */
const notMet = (walk, view) => NOT_MET.filter((n) => n.view === view && (!n.walk || n.walk.test(walk.name)));
const excuses = (entries, bound) => entries.some((n) => !n.bound || n.bound === bound);
// A change here sets a control anywhere in its range at once (d from 2 to 2048 in one input), harder than a drag's
// step, and is held to the issue's own 50 ms CPU on an idle machine, times the measured load up to 2 otherwise (a
// load of 3–4 on two cores stretched CPU times by up to 1.6, session 38). Whole walks of 28 Nov found no view's
// longest task over 27 ms CPU (load 3–5), so the drags' bound holds for jumps too.
const JUMP_TASK_MS = LONG_TASK_MS;
// A change's script in the trace: the input's handlers, timers and the frame's callbacks (the scheduler's drawing).
const SCRIPT_EVENTS = ['EventDispatch', 'FireAnimationFrame', 'TimerFire', 'FunctionCall', 'RunMicrotasks'];
// On a loaded machine the median's bound is 33 ms times the measured load, times this margin: the reference loop's
// median stretch misses the load's bursts (medians of 84–88 ms at a measured load of 2–2.5, session 38).
const LOADED_MARGIN = 2;

/** The RoPE view's YaRN or Llama 3 facts against HF's per-pair ratios (rope-reference.js), read off its boxes. */
async function thresholdScalingProblems(page, rs, what) {
  const box = async (id) => Number(await page.inputValue(id));
  const [dim, base, factor, orig] = [
    await box('#ctl-rhd'),
    await box('#ctl-rbase'),
    await box('#ctl-rf'),
    await box('#ctl-rl0'),
  ];
  const [betaFast, betaSlow, low, high] = [
    await box('#ctl-rbf'),
    await box('#ctl-rbs'),
    await box('#ctl-rlo'),
    await box('#ctl-rhi'),
  ];
  const status = (await page.textContent('#rope-status')).trim();
  // Llama 3 needs low_freq_factor < high_freq_factor; the package refuses the rest and the page shows why.
  if (rs === 'llama3' && !(high >= low))
    return /high_freq_factor|low_freq_factor/.test(status)
      ? []
      : [`${what}: low ${low} above high ${high} not explained`];
  if (rs === 'yarn' && betaFast < betaSlow !== /beta_fast .* below beta_slow/.test(status))
    return [`${what}: beta_fast ${betaFast}, beta_slow ${betaSlow}, status "${status}"`];
  const params = { factor, original_max_position_embeddings: orig };
  const want =
    rs === 'yarn'
      ? hfYarn(dim, base, { ...params, beta_fast: betaFast, beta_slow: betaSlow }).w
      : hfLlama3(dim, base, { ...params, low_freq_factor: low, high_freq_factor: high }).w;
  const plain = hfDefault(dim, base);
  const ratios = Array.from(want, (w, i) => w / plain[i]);
  const f = await data(page, '#rope-facts');
  const [moved, lo, hi] = [Number(f.moved), Number(f.ratioMin), Number(f.ratioMax)];
  const problems = [];
  // moved counts |ratio − 1| > 1e-12 on the package's values, which agree with HF's to ~1e-14.
  const surelyMoved = ratios.filter((r) => Math.abs(r - 1) > 1e-10).length;
  const perhapsMoved = ratios.filter((r) => Math.abs(r - 1) > 1e-14).length;
  if (moved < surelyMoved || moved > perhapsMoved) problems.push(`${what}: HF moves ${surelyMoved}–${perhapsMoved}`);
  if (!close(lo, Math.min(...ratios), 1e-9) || !close(hi, Math.max(...ratios), 1e-9))
    problems.push(`${what}: HF's ratios run ${Math.min(...ratios)} … ${Math.max(...ratios)}`);
  // The caption's claim: the slower the pair, the more it is slowed, never past the factor nor sped up.
  const rising = ratios.findIndex((r, i) => i > 0 && r > ratios[i - 1] * (1 + 1e-12));
  const backwards = rs === 'yarn' && betaFast < betaSlow;
  if (!backwards && (rising >= 0 || hi > 1 + 1e-9 || lo < (1 / factor) * (1 - 1e-9)))
    problems.push(`${what}: HF's ratio rises at pair ${rising} or leaves [1/factor, 1]`);
  return problems;
}

// ---- the values a control is set to ------------------------------------------------------------------------------
// A number control: its ends and `between` seeded values (log-spaced where the range spans decades).
const number = (selector, min, max, { step = 1, log = false } = {}) => ({
  selector,
  values: (rng, between) => {
    const inner = Array.from({ length: between }, () => {
      const x = log ? rng.logUniform(Math.max(min, 1), max) : min + rng.next() * (max - min);
      return step === 'any' ? Number(x.toPrecision(4)) : Math.round(x / step) * step;
    });
    return [min, max, ...inner].map(String);
  },
});
const choices = (selector, list) => ({ selector, values: () => list });
const checkbox = (selector) => ({ selector, values: () => [true, false] });
const button = (selector) => ({ selector, values: () => ['click'] });
// then: a button that acts on the text (identify's "run").
const text = (selector, make, then) => ({ selector, then, values: (rng, between) => make(rng, between) });

const BAR = {
  d: number('#ctl-d', 2, 2048, { step: 2 }),
  len: number('#ctl-len', 1, 8192, { log: true }),
  base: number('#ctl-base', 2, 1e7, { step: 'any', log: true }),
  off: number('#ctl-off', 0, 1e6, { log: true }),
  layout: choices('input[name="layout"]', ['interleaved', 'split']),
};

// Sentence B as seeded reorderings of sentence A's words (the caption's claim needs words the two share).
const WORDS = ['The', 'cat', 'chased', 'the', 'mouse'];
function reorderings(rng, count) {
  const out = [];
  while (out.length < count + 1) {
    const words = [...WORDS];
    for (let i = words.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [words[i], words[j]] = [words[j], words[i]];
    }
    const moved = words.filter((w, i) => w.toLowerCase() !== WORDS[i].toLowerCase()).length;
    if (moved >= 2) out.push(words.join(' '));
  }
  return out;
}

// ---- reading the page -------------------------------------------------------------------------------------------
const data = (page, selector) => page.$eval(selector, (el) => ({ ...el.dataset, text: el.textContent }));
const barState = (page) =>
  page.evaluate(() => ({
    d: Number(document.getElementById('ctl-d').value),
    base: Number(document.getElementById('ctl-base').value),
    layout: document.querySelector('input[name="layout"]:checked').value,
  }));

/** Column j's pair and kind in a layout (the test's own reading of the two conventions). */
function column(j, d, layout) {
  if (layout === 'interleaved') return { pair: j >> 1, kind: j % 2 ? 'cos' : 'sin' };
  return { pair: j % (d / 2), kind: j < d / 2 ? 'sin' : 'cos' };
}
const wavelengthOf = (pair, d, base) => 2 * Math.PI * base ** ((2 * pair) / d);
const close = (a, b, rel) => Math.abs(a - b) <= rel * Math.abs(b);

// ---- the views: their controls and their caption's claim --------------------------------------------------------
// claim(page) reads the view's drawn facts and returns [] or the broken claims, each a sentence.
const VIEWS = [
  {
    id: 'why',
    controls: [BAR.d, BAR.base],
    // "the two left matrices: the same numbers … with the encoding, the same word pairs get different weights", on
    // one colour scale (page-why: at least 6% of the scale at every d and T the bar allows).
    async claim(page) {
      const c = await data(page, '#why-canvas');
      const share = Number(c.gapWith) / (Number(c.scaleHi) - Number(c.scaleLo));
      const broken = [];
      if (c.sharedScale !== '1') broken.push('the four panels do not share one colour scale');
      if (!(Number(c.gapWithout) < 1e-9)) broken.push(`without position B differs from A by ${c.gapWithout}`);
      if (!(share >= 0.06)) broken.push(`with position the panels differ by ${(100 * share).toFixed(1)}% of the scale`);
      return broken;
    },
  },
  {
    id: 'squiggles',
    controls: [
      button('[data-dims="first2"]'),
      button('[data-dims="first8"]'),
      button('[data-dims="spread"]'),
      button('[data-dims="auto"]'),
      text('#ctl-dims', () => ['0-3', '1, 5, 64']),
      BAR.d,
      BAR.base,
      BAR.layout,
    ],
    // "pair 0 repeats every 6.3 positions, later pairs more and more slowly": at a position pointed at on the chart,
    // every column listed has its pair's wavelength 2π·T^(2i/d) under the layout (the test's own formula, so pair
    // 0's is 2π and later ones longer) and its value sin or cos of p·T^(−2i/d).
    async claim(page) {
      await caughtUp(page, '#squiggles-plot');
      const over = await page.locator('#squiggles-plot .u-over').boundingBox();
      await page.mouse.move(over.x + over.width * 0.6, over.y + over.height / 2);
      await page.waitForFunction(() => /position p = /.test(document.getElementById('squiggles-readout').textContent));
      const { text } = await data(page, '#squiggles-readout');
      await page.mouse.move(0, 0);
      const { d, base, layout } = await barState(page);
      const p = Number(/position p = (\d+)/.exec(text)[1]);
      const lines = [...text.matchAll(/dimension\s+(\d+) \(pair (\d+), (sin|cos)\).*?wavelength (\S+)\s+value (\S+)/g)];
      const broken = [];
      if (lines.length === 0) broken.push(`no column is described: ${text}`);
      for (const [, j, pair, kind, shown, value] of lines) {
        const want = column(Number(j), d, layout);
        if (want.pair !== Number(pair) || want.kind !== kind)
          broken.push(`dimension ${j} is ${kind} of pair ${pair}, not ${want.kind} of pair ${want.pair} (${layout})`);
        const exact = wavelengthOf(want.pair, d, base);
        if (!close(Number(shown), exact, 1e-5)) broken.push(`pair ${pair}'s wavelength ${shown}, not ${exact}`);
        const angle = p * base ** ((-2 * want.pair) / d);
        const pe = want.kind === 'sin' ? Math.sin(angle) : Math.cos(angle);
        if (Math.abs(Number(value) - pe) > 2e-6) broken.push(`p ${p}, dimension ${j}: value ${value}, PE ${pe}`);
      }
      return broken;
    },
  },
  {
    id: 'heatmap',
    controls: [BAR.d, BAR.len, BAR.base, BAR.off, BAR.layout],
    // "Position across, dimension down": the cell under the pointer reads PE at its position and dimension, the
    // test's sin/cos of p·T^(−2i/d) in double (the page's float32 value to its rounding).
    async claim(page) {
      await caughtUp(page, '#heatmap-canvas');
      const box = await page.locator('#heatmap-canvas').boundingBox();
      await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.45);
      await page.waitForFunction(() => document.getElementById('heatmap-readout').dataset.dim !== undefined);
      const r = await data(page, '#heatmap-readout');
      await page.mouse.move(0, 0);
      const { d, base, layout } = await barState(page);
      const { pair, kind } = column(Number(r.dim), d, layout);
      const angle = Number(r.p) * base ** ((-2 * pair) / d);
      const exact = kind === 'sin' ? Math.sin(angle) : Math.cos(angle);
      const err = Math.abs(Number(r.value) - exact);
      return err <= 2e-6 ? [] : [`cell p ${r.p}, dimension ${r.dim} reads ${r.value}, PE is ${exact.toFixed(7)}`];
    },
  },
  {
    id: 'rotation',
    controls: [number('#ctl-p', 0, 1e6, { log: true }), number('#ctl-k', 0, 8192, { log: true }), BAR.d],
    // "Moving k positions turns every pair by its own angle": R(k)·PE(p) = PE(p + k) to float32's rounding, and
    // the similarity's bands run parallel to the diagonal.
    async claim(page) {
      await caughtUp(page, '#similarity-facts');
      // The similarity comes from the worker: its facts are empty until it answers.
      await page.waitForFunction(() => document.getElementById('similarity-facts').dataset.bandDeviation, null, {
        timeout: 20_000,
      });
      const residual = Number((await data(page, '#rotation-residual')).residual);
      const bands = Number((await data(page, '#similarity-facts')).bandDeviation);
      const broken = [];
      if (!(residual < 1e-6)) broken.push(`|R(k)·PE(p) − PE(p+k)| = ${residual}`);
      if (!(bands < 1e-4)) broken.push(`bands off the diagonal by ${bands}`);
      return broken;
    },
  },
  {
    id: 'embedding',
    controls: [text('#ctl-s2', reorderings), checkbox('#ctl-scale'), BAR.d],
    // "identical before the add, different after it": the rows the two sentences share before the add are fewer
    // after it (B's words reordered, at least two moved).
    async claim(page) {
      const f = await page.evaluate(() => ({
        before: Number(document.getElementById('rows-before')?.textContent),
        after: Number(document.getElementById('rows-after')?.textContent),
      }));
      return f.before > 0 && f.after < f.before ? [] : [`rows shared before the add ${f.before}, after ${f.after}`];
    },
  },
  {
    id: 'naive',
    controls: [BAR.d, BAR.len, BAR.base],
    // "the sinusoids stay bounded with a constant step between neighbours".
    async claim(page) {
      const len = Number(await page.inputValue('#ctl-len'));
      // A table the worker measures says so ("measuring…", no numbers) until its answer arrives.
      await page.waitForFunction((len) => len < 2 || document.getElementById('naive-facts').dataset.stepMax, len, {
        timeout: 20_000,
      });
      const f = await data(page, '#naive-facts');
      if (len < 2) return f.stepMax === '' ? [] : [`one position, yet a step ${f.stepMax}`];
      const [min, max] = [Number(f.stepMin), Number(f.stepMax)];
      return max > 0 && (max - min) / max < 1e-4 ? [] : [`the step between neighbours runs ${min} … ${max}`];
    },
  },
  {
    id: 'comparison',
    controls: [
      number('#ctl-cw', 8, 512),
      choices('#ctl-qk', ['independent', 'ones', 'same']),
      number('#ctl-heads', 1, 64),
      number('#ctl-head', 0, 63),
      checkbox('#ctl-causal'),
      checkbox('#cmp-all-heads'),
    ],
    // "which panels have bands parallel to the diagonal": sinusoidal and RoPE do (for any q, k), learned does not.
    async claim(page) {
      const f = await data(page, '#cmp-facts');
      const broken = [];
      if (!(Number(f.sinSpread) < 1e-4)) broken.push(`sinusoidal diagonals vary by ${f.sinSpread}`);
      if (!(Number(f.ropeSpread) < 1e-4)) broken.push(`RoPE diagonals vary by ${f.ropeSpread}`);
      if (!(Number(f.learnedSpread) > 0.05)) broken.push(`learned diagonals vary by only ${f.learnedSpread}`);
      return broken;
    },
  },
  {
    id: 'rope',
    controls: [
      choices('#ctl-rs', ['none', 'linear', 'dynamic', 'llama3', 'longrope', 'yarn']),
      number('#ctl-rhd', 4, 1024, { step: 2 }),
      number('#ctl-rbase', 2, 1e9, { step: 'any', log: true }),
      number('#ctl-rf', 1, 128, { step: 'any', log: true }),
      number('#ctl-rl0', 16, 1_048_576, { log: true }),
      number('#ctl-rlen', 16, 16_777_216, { log: true }),
      // The menu ends on yarn: its thresholds, then Llama 3's (a low above high is refused, and said).
      number('#ctl-rbf', 0.01, 1024, { step: 'any', log: true }),
      number('#ctl-rbs', 0.01, 1024, { step: 'any', log: true }),
      choices('#ctl-rs', ['llama3']),
      number('#ctl-rlo', 0.01, 1024, { step: 'any', log: true }),
      number('#ctl-rhi', 0.01, 1024, { step: 'any', log: true }),
    ],
    // "which pairs each scaling slows down: linear all of them, YaRN and Llama 3 the slow ones most": scaled over
    // original speed is 1/factor for every pair under linear; under YaRN and Llama 3 each pair's ratio is HF's
    // (the test's own float64 copy of HF's formulas, rope-reference.js), never rising from the fast pairs to the
    // slow ones unless beta_fast < beta_slow, which the page must then say; with no scaling none moves.
    async claim(page) {
      const f = await data(page, '#rope-facts');
      const rs = await page.inputValue('#ctl-rs');
      const factor = Number(await page.inputValue('#ctl-rf'));
      const pairs = Number(await page.inputValue('#ctl-rhd')) / 2;
      const [moved, lo, hi] = [Number(f.moved), Number(f.ratioMin), Number(f.ratioMax)];
      const what = `${rs} factor ${factor}: ${moved} of ${pairs} pairs move, ratios ${lo} … ${hi}`;
      if (rs === 'none') return moved === 0 && lo === 1 && hi === 1 ? [] : [what];
      if (rs === 'linear') {
        const all = factor > 1 ? moved === pairs : moved === 0;
        return all && close(lo, 1 / factor, 1e-6) && close(hi, 1 / factor, 1e-6) ? [] : [what];
      }
      if (rs === 'yarn' || rs === 'llama3') return thresholdScalingProblems(page, rs, what);
      return moved <= pairs && hi <= 1 + 1e-9 ? [] : [what]; // dynamic and longrope slow pairs down, never speed up
    },
  },
  {
    id: 'longrange',
    controls: [checkbox('#longrange-all'), BAR.d],
    // "where each curve stops telling distances apart": the sinusoidal and RoPE (q = k) scores start at 1 (Δ = 0)
    // and far tokens score lower than near ones: the mean |score| beyond 1024 is under the score at Δ = 16.
    async claim(page) {
      const { text } = await data(page, '#longrange-facts');
      const m =
        /cos at Δ = 16 is (-?[\d.]+) \(sinusoidal\) and (-?[\d.]+) \(RoPE\).*?mean \|score\| is ([\d.]+) and ([\d.]+)/.exec(
          text,
        );
      if (!m) return [`the facts do not say the near and far scores: ${text.slice(0, 200)}`];
      const [near, nearRope, far, farRope] = m.slice(1).map(Number);
      const broken = [];
      if (!(far < Math.abs(near))) broken.push(`sinusoidal: near ${near}, far ${far}`);
      if (!(farRope < Math.abs(nearRope))) broken.push(`RoPE: near ${nearRope}, far ${farRope}`);
      // Its heading: "score against distance up to 2^20".
      const farthest = Number(await page.getAttribute('#longrange-plot', 'data-distance-max'));
      if (!(farthest >= 2 ** 20)) broken.push(`the farthest distance drawn is ${farthest}, not 2^20`);
      return broken;
    },
  },
  {
    id: 'precision',
    controls: [checkbox('#precision-all'), BAR.d],
    // "the dashed naive recipes climbing to noise as the position grows while posenc stays at its rounding error".
    async claim(page) {
      const p = JSON.parse((await data(page, '#precision-facts')).worstFrom65536);
      const broken = [];
      if (!(p.posenc32 <= 6e-8)) broken.push(`posenc float32 ${p.posenc32}`);
      for (const key of ['recipe32', 'recipe16', 'recipeBf16']) {
        const worst = p[key] === 'Infinity' ? Infinity : Number(p[key]);
        if (!(worst > 0.5)) broken.push(`the naive ${key} only reaches ${worst}`);
      }
      return broken;
    },
  },
  {
    id: 't5-distance',
    controls: [BAR.d],
    // "RoPE's score changes with the offset too: in waves, or in a smooth fall": the facts say which, as it does.
    async claim(page) {
      const f = await data(page, '#t5-facts');
      const waves = Number(f.ropeRipple) >= 0.02;
      const decays = Number(f.ropeFar) <= 0.9;
      const says = (pattern) => pattern.test(f.text);
      const right =
        says(/falls smoothly/) === !waves &&
        says(/oscillates without decaying/) === (waves && !decays) &&
        says(/oscillates \(rising again by up to [0-9.]+\) and decays/) === (waves && decays);
      return right ? [] : [`ripple ${f.ropeRipple}, far ${f.ropeFar}; facts: ${f.text}`];
    },
  },
  {
    id: 'identify',
    controls: [
      button('#identify-example'),
      text('#identify-paste', () => ['0.5 0.5 0.5 0.5\n'.repeat(16)], '#identify-run'),
    ],
    // Draws on its own, not in a scheduler frame: timed to the frame after its "identifying…" state (data-pending),
    // its verdict (data-identified, from the compute worker) timed apart and printed.
    shown: 'pending',
    done: 'identified',
    waitMs: 30_000,
    // "finds the layout, the frequency rule and base, … the precision recipe": the example table (float32 angles)
    // is identified as such; a constant table is never called a match.
    async claim(page, value) {
      const f = await data(page, '#identify-facts');
      if (value === 'click')
        return f.identified === '1' && /float32 angles/.test(f.text) ? [] : [`the example: ${f.text.slice(0, 200)}`];
      return f.identified === '0' ? [] : [`a constant table was called a match: ${f.text.slice(0, 200)}`];
    },
  },
  {
    id: 'config',
    controls: [
      text('#config-paste', () => [
        readFile(new URL('./fixtures/configs/llama-3.1-8b-instruct.json', import.meta.url), 'utf8'),
      ]),
    ],
    done: 'kind',
    waitMs: 10_000,
    // "which pairs the model's scaling stretches past its context (RoPE, one colour per layer type)": a RoPE
    // config is read as RoPE and its plot drawn.
    async claim(page) {
      const f = await data(page, '#config-facts');
      const plotted = await page.$eval('#config-plot', (el) => !el.hidden && el.querySelector('canvas') !== null);
      return f.kind === 'rope' && plotted ? [] : [`config facts kind "${f.kind}", plot drawn ${plotted}`];
    },
  },
];

// POSENC_VIEWS=rope,identify walks only those views (by id), for a quick loop on one view.
const VIEWS_WALKED = process.env.POSENC_VIEWS
  ? VIEWS.filter((view) => process.env.POSENC_VIEWS.split(',').includes(view.id))
  : VIEWS;

// ---- one change of one control, timed ---------------------------------------------------------------------------
/**
 * Sets the control to value in the page and resolves to the ms from the change's events to the end of the first
 * frame that drew the view (done: 'identified' or 'kind', to the view's own verdict instead; with shown too, to the
 * frame after the facts' data-<shown> appeared, the verdict's ms then as doneMs), or null when nothing was redrawn
 * within 3 s (a value the page clamps to the one it had) or the control held the value already.
 */
function changeTimed(page, { selector, then }, value, { id, done, shown, waitMs = 3000 }) {
  return page.evaluate(
    ([selector, then, value, view, done, shown, waitMs]) =>
      new Promise((resolve) => {
        let shownMs = null;
        let doneMs = null;
        const finish = (ms) => {
          console.timeStamp('page-walk change end'); // the trace's mark: this change's CPU is the tasks between
          watch.disconnect();
          clearTimeout(timer);
          // The frame's script time inside the scheduler (every view it drew), as its clock measured it.
          const scriptMs = ms === null || done ? null : Number(document.body.dataset.renderMs);
          resolve(shown ? { ms: shownMs, doneMs: ms, scriptMs } : { ms, scriptMs });
        };
        const facts = document.getElementById(`${view}-facts`);
        if (done) delete facts.dataset[done];
        if (shown) delete facts.dataset[shown];
        const watch = new MutationObserver(() => {
          if (shown && shownMs === null && facts.dataset[shown] !== undefined) {
            shownMs = -1; // the frame below sets it
            requestAnimationFrame(() => {
              shownMs = performance.now() - t0;
              if (doneMs !== null) finish(doneMs);
            });
          }
          if (done) {
            if (doneMs === null && facts.dataset[done] !== undefined && facts.dataset[done] !== '') {
              doneMs = performance.now() - t0;
              if (!shown || shownMs > 0) finish(doneMs);
            }
            return;
          }
          const steps = (document.body.dataset.renderSteps ?? '').split(', ').map((step) => step.split(' ')[0]);
          if (steps.includes(view)) finish(performance.now() - t0); // the frame's drawing is done (scheduler.js)
        });
        watch.observe(done ? facts : document.body, {
          attributes: true,
          attributeFilter: done ? [`data-${done}`, ...(shown ? [`data-${shown}`] : [])] : ['data-renders'],
        });
        const timer = setTimeout(() => finish(null), waitMs);
        console.timeStamp('page-walk change start');
        const t0 = performance.now();
        const fire = (el, type) => el.dispatchEvent(new Event(type, { bubbles: true }));
        // A value the control already holds changes nothing: no frame to wait 3 s for (session 40: 4 such a walk).
        const el = value === 'click' || selector.startsWith('input[name=') ? null : document.querySelector(selector);
        const held = el && !then && (el.type === 'checkbox' ? el.checked === value : el.value === String(value));
        const radioHeld =
          selector.startsWith('input[name=') && document.querySelector(`${selector}:checked`)?.value === value;
        if (held || radioHeld) {
          finish(null);
          return;
        }
        if (value === 'click') {
          document.querySelector(selector).click();
        } else if (selector.startsWith('input[name=')) {
          const radio = document.querySelector(`${selector}[value="${value}"]`);
          radio.checked = true;
          fire(radio, 'change');
        } else {
          if (el.type === 'checkbox') el.checked = value;
          else el.value = value;
          fire(el, 'input');
          fire(el, 'change');
          if (then) document.querySelector(then).click();
        }
      }),
    [selector, then ?? null, value, id, done ?? null, shown ?? null, waitMs],
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// The bar's fields (in the page): { id: value } and the layout, and setting them back, each one changed firing
// its events as the walk's changes do.
const barFields = () => ({
  fields: Object.fromEntries(
    ['ctl-d', 'ctl-len', 'ctl-base', 'ctl-off'].map((id) => [id, document.getElementById(id).value]),
  ),
  layout: document.querySelector('input[name="layout"]:checked').value,
});
function setBarFields({ fields, layout }) {
  const fire = (el) => ['input', 'change'].forEach((type) => el.dispatchEvent(new Event(type, { bubbles: true })));
  for (const [id, value] of Object.entries(fields)) {
    const el = document.getElementById(id);
    if (el.value !== value) {
      el.value = value;
      fire(el);
    }
  }
  const radio = document.querySelector(`input[name="layout"][value="${layout}"]`);
  if (!radio.checked) {
    radio.checked = true;
    fire(radio);
  }
}

/** Where a section's top lands after its Contents link (or, for the first, its #hash), and where it should. */
async function landOn(page, url, id) {
  const link = await page.$(`nav.toc a[href="#${id}"]`);
  if (link) await link.click();
  else await open(page, `${url}#${id}`);
  const at = await landing(page, id);
  return { ...at, hash: await page.evaluate(() => location.hash) };
}

/** Every figure of the section: [{ name, role, label, described }] for each canvas shown (uPlot's included). */
const figuresOf = (page, id) =>
  page.$$eval(`#${id} canvas`, (canvases) =>
    canvases
      .filter((el) => el.offsetParent !== null && el.width > 0)
      .map((el) => {
        const described = (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .filter(Boolean)
          .map((ref) => document.getElementById(ref)?.textContent ?? '')
          .join(' ');
        return {
          name: el.id || `canvas in #${el.closest('[id]')?.id}`,
          role: el.getAttribute('role'),
          label: el.getAttribute('aria-label') ?? '',
          described,
        };
      }),
  );

/**
 * Where a view's own controls sit against its figures (canvases and charts shown), as broken promises: every figure
 * has a block of the view's controls above it or beside it, and no block lies below all of them (a reader sets a
 * control, then looks down at what it changed). A view with no controls of its own is driven by the sticky bar.
 */
const controlsMisplaced = (page, id) =>
  page.evaluate((id) => {
    const shown = (el) => el.getClientRects().length > 0;
    const section = document.getElementById(id);
    const blocks = [...section.querySelectorAll('.figure-controls')]
      .filter(shown)
      .map((c) => c.getBoundingClientRect());
    const figures = [...section.querySelectorAll('canvas, .plot')]
      .filter((f) => shown(f) && !f.parentElement.closest('.plot'))
      .map((f) => ({ name: f.id || f.className, box: f.getBoundingClientRect() }));
    if (blocks.length === 0 || figures.length === 0) return [];
    const above = (c, f) => c.bottom <= f.top + 1;
    const beside = (c, f) => c.top < f.bottom && c.bottom > f.top && (c.right <= f.left + 1 || c.left >= f.right - 1);
    const broken = figures
      .filter(({ box }) => !blocks.some((c) => above(c, box) || beside(c, box)))
      .map(({ name, box }) => `${id}: no controls above or beside ${name} (its top at ${box.top.toFixed(0)} px)`);
    const lowest = Math.max(...figures.map((f) => f.box.bottom));
    for (const c of blocks.filter((c) => c.top >= lowest - 1))
      broken.push(
        `${id}: controls at ${c.top.toFixed(0)} px, below every figure (the last ends at ${lowest.toFixed(0)})`,
      );
    return broken;
  }, id);

for (const walk of WALKS) {
  it(`every view, top to bottom: ${walk.name}`, async () => {
    const { page, server } = session;
    const rng = generator(SEED);
    await page.setViewportSize(walk.size);
    const url = `${server.url}${walk.query}`;
    const rows = [];
    const broken = [];
    const stretches = [];
    // The reference loop once a walk (0.3 s under load); each view's own trace says how loaded its changes ran.
    const stretch = machineStretch();
    let settings = null; // the bar's fields as the walk's page opened
    for (const view of VIEWS_WALKED) {
      const viewStart = performance.now();
      // A fresh page at the top: the views above load while the link's jump is under way.
      if (walk.fresh || !settings) {
        await open(page, url);
        settings ??= await page.evaluate(barFields);
      } else await page.evaluate(setBarFields, settings);
      const landed = await landOn(page, url, view.id);
      broken.push(...landingProblems(walk.name, view.id, landed));
      if (landed.hash !== `#${view.id}`) broken.push(`${view.id}: the URL's hash is ${landed.hash}`);
      // Accessibility: every figure an image with a name, described by a text that states a number.
      await caughtUp(page, `#${view.id}`);
      for (const f of await figuresOf(page, view.id)) {
        if (f.role !== 'img' || !f.label)
          broken.push(`${view.id}: figure ${f.name} has role ${f.role}, name "${f.label}"`);
        if (!/\d/.test(f.label + f.described)) broken.push(`${view.id}: figure ${f.name} states no number`);
      }
      // On a desktop, the view's own controls above or beside its figures (issue 30's learner's order).
      if (walk.size.width >= 1024) broken.push(...(await controlsMisplaced(page, view.id)));
      // The controls, each over its range, timed, the caption's claim read after each change.
      const stopTrace = await startTrace(page);
      const times = [];
      const perControl = [];
      const scripts = [];
      const doneTimes = []; // a view with `shown`: its verdicts' ms
      let changes = 0;
      let unchanged = 0;
      for (const control of view.controls) {
        for (const raw of control.values(rng, walk.between)) {
          const value = await raw;
          await caughtUp(page, `#${view.id}`); // the view on screen (only views on screen redraw)
          const { ms, doneMs, scriptMs } = await changeTimed(page, control, value, view);
          if (scriptMs !== null) scripts.push(scriptMs);
          if (doneMs != null) doneTimes.push(doneMs);
          changes += 1;
          if (ms === null) unchanged += 1;
          else times.push(ms);
          perControl.push(
            `${control.selector}=${String(value).slice(0, 12).replace(/\n/g, '⏎')} ${ms === null ? '—' : ms.toFixed(0)}`,
          );
          await caughtUp(page, `#${view.id}`);
          const shown = typeof value === 'string' ? value.slice(0, 24).replace(/\n/g, '⏎') : value;
          for (const sentence of await view.claim(page, value))
            broken.push(`${view.id} after ${control.selector} = ${shown}: ${sentence}`);
        }
      }
      const events = await stopTrace();
      const tasks = mainThreadTasks(events);
      const cpus = cpuBetweenMarks(events, 'page-walk change start', 'page-walk change end');
      // The script a change ran (its input handlers, then the frame's callbacks): what an idle machine spends.
      const scriptCpus = cpuBetweenMarks(events, 'page-walk change start', 'page-walk change end', SCRIPT_EVENTS);
      // The load as the page's main thread met it: its tasks' wall over CPU time in the trace (page-live's stretch).
      const sum = (key) => tasks.reduce((total, task) => total + task[key], 0);
      const traced = sum('cpuMs') > 0 ? sum('wallMs') / sum('cpuMs') : 1;
      stretches.push(Math.max(stretch, traced));
      rows.push({
        view: view.id,
        changes,
        unchanged,
        times,
        perControl,
        doneTimes,
        cpus,
        scripts,
        scriptCpus,
        seconds: (performance.now() - viewStart) / 1000,
        longest: tasks[0],
        stretch: stretches.at(-1),
      });
      noProblems(`${walk.name}, ${view.id}`);
    }
    // The table, then the bounds.
    console.log(
      `  ${walk.name} (seed ${SEED}): per view, changes of its controls, input-to-render ms (median, max), per ` +
        `change the median CPU ms of the main thread's tasks and of its script alone (trace) and the frame's drawing ` +
        `(scheduler, wall), the view's seconds, its longest task`,
    );
    console.log(
      `    ${'view'.padEnd(12)}${'changes'.padStart(8)}${'median'.padStart(8)}${'max'.padStart(8)}` +
        `${'CPU'.padStart(6)}${'script'.padStart(7)}${'frame'.padStart(6)}${'s'.padStart(5)}  longest task (CPU)  load`,
    );
    for (const r of rows) {
      console.log(
        `    ${r.view.padEnd(12)}${String(r.changes).padStart(8)}${median(r.times).toFixed(1).padStart(8)}` +
          `${Math.max(...r.times)
            .toFixed(0)
            .padStart(8)}${median(r.cpus).toFixed(0).padStart(6)}${median(r.scriptCpus).toFixed(0).padStart(7)}` +
          `${median(r.scripts).toFixed(0).padStart(6)}` +
          `${r.seconds.toFixed(0).padStart(5)}  ${r.longest ? describeTask(r.longest) : '—'}  ${r.stretch.toFixed(2)}`,
      );
    }
    console.log(`    each change (ms): ${rows.map((r) => `${r.view}: ${r.perControl.join(', ')}`).join('; ')}`);
    assert.equal(broken, [], `${walk.name}: what the views broke`);
    for (const r of rows) {
      const scale = boundScale(r.stretch);
      const bound = scale > 1 ? RENDER_MS * scale * LOADED_MARGIN : RENDER_MS;
      const where = `${walk.name}, ${r.view}`;
      const med = median(r.times);
      const excused = notMet(walk, r.view);
      console.log(
        `    ${where}: ${scale > 1 ? `loaded (×${r.stretch.toFixed(2)}), median bound ${bound.toFixed(0)} ms` : 'idle, the plain 33 ms bound'}` +
          (r.doneTimes.length
            ? `; its verdict (not bounded) median ${median(r.doneTimes).toFixed(0)} ms, max ` +
              `${Math.max(...r.doneTimes).toFixed(0)} ms`
            : '') +
          excused.map((n) => `; NOT MET (${n.bound ?? 'median and task'}), not asserted: ${n.why}`).join(''),
      );
      assert.ok(r.times.length >= r.changes / 2, `${where}: only ${r.times.length} of ${r.changes} changes redrew`);
      if (!excuses(excused, 'median'))
        assert.ok(med <= bound, `${where}: median input-to-render ${med.toFixed(1)} ms (bound ${bound.toFixed(0)})`);
      const taskBound = JUMP_TASK_MS * Math.min(2, scale);
      if (!excuses(excused, 'task'))
        assert.ok(
          (r.longest?.cpuMs ?? 0) <= taskBound,
          `${where}: the longest task (bound ${taskBound} ms CPU): ${describeTask(r.longest)}`,
        );
    }
  });
}

test.run();
