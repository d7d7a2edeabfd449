// The timing policy, the same as bench/bench_timing.h so JS and native medians
// compare. Two conditions:
//   cold  the call's output is not in any cache, as for a table computed once
//         and used later: every sample first evicts the caches (evictCaches),
//         then times one call. The tables are judged this way: it is how a
//         wasm memory.fill of 8 MiB takes the ~0.3 ms that issue 3 states.
//   warm  the steady state of repeated calls on the same buffers: one untimed
//         call, then enough calls that a sample lasts MIN_SAMPLE_MS. An 8 MiB
//         output stays in this machine's 32 MiB L3, so warm fills run at cache
//         speed (~0.08 ms).
// At least MIN_RUNS samples, more while the budget lasts; medians per call.

export const MIN_RUNS = 9;
const MAX_RUNS = 51;
const MIN_SAMPLE_MS = 2;
const WARM_MS = 100;
// Three times the L3 of the machines we run on (32 MiB): reading and writing
// one int per cache line of it leaves none of a table's lines cached, and the
// cache full of dirty lines, as after other work.
const EVICT_BYTES = 96 << 20;

let evictBuffer = null;
let evictSink = 0;
export function evictCaches() {
  evictBuffer ??= new Int32Array(EVICT_BYTES / 4).fill(1);
  let s = 0;
  for (let i = 0; i < evictBuffer.length; i += 16) {
    s = (s + evictBuffer[i]) | 0;
    evictBuffer[i] = s;
  }
  evictSink ^= s; // keeps the loop from being optimised away
  return evictSink;
}

function stats(samples, reps) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    reps,
    median_ms: sorted[sorted.length >> 1],
    min_ms: sorted[0],
    max_ms: sorted[sorted.length - 1],
  };
}

function sample(run, reps) {
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) run();
  return (performance.now() - t0) / reps;
}

function coldSample(run) {
  evictCaches();
  return sample(run, 1);
}

// Warm-up: calls for WARM_MS (at least 3), so the JIT has compiled the hot
// path and the output pages are touched; then the time per call, from a batch
// of them, sets the repetitions per warm sample. (Counting from the first
// three calls, before the JIT, gave µs calls a few dozen repetitions, and the
// first bench of a process read 2-3x the steady state: issue 11's decode rows.)
function warmUp(run) {
  const t0 = performance.now();
  let calls = 0;
  while (calls < 3 || performance.now() - t0 < WARM_MS) {
    run();
    calls++;
  }
  const batch = Math.max(1, calls >> 2);
  const per = sample(run, batch);
  return per < MIN_SAMPLE_MS ? Math.ceil(MIN_SAMPLE_MS / Math.max(per, 1e-4)) : 1;
}

// Fast runners measured side by side: each round takes one sample of every
// runner in turn (warm, then cold when asked), so a slow drift of the machine
// (frequency, other load) touches all of them alike and their ratios stay
// fair. Returns [{ warm, cold? }] per runner.
export function measureSideBySide(runs, budgetMs, { cold = false } = {}) {
  const reps = runs.map((r) => warmUp(r));
  const warm = runs.map(() => []);
  const coldSamples = runs.map(() => []);
  const start = performance.now();
  for (let round = 0; round < MAX_RUNS; round++) {
    if (round >= MIN_RUNS && performance.now() - start > budgetMs) break;
    runs.forEach((run, k) => {
      run(); // brings the runner's buffers back after the others evicted them
      warm[k].push(sample(run, reps[k]));
      if (cold) coldSamples[k].push(coldSample(run));
    });
  }
  return runs.map((_, k) => ({ warm: stats(warm[k], reps[k]), ...(cold ? { cold: stats(coldSamples[k], 1) } : {}) }));
}

// One slow runner: at least MIN_RUNS samples when they fit in the budget
// (up to half the budget's worth), otherwise as many as fit, at least one;
// the table says how many were taken. Cold: one call per sample after an
// eviction (a call this slow hardly notices the cache it starts from).
export function measureAlone(run, budgetMs, { cold = false } = {}) {
  const t0 = performance.now();
  run(); // warm-up
  const once = performance.now() - t0;
  const reps = cold ? 1 : once < MIN_SAMPLE_MS ? Math.ceil(MIN_SAMPLE_MS / Math.max(once, 1e-4)) : 1;
  const fit = Math.floor(budgetMs / (once * reps));
  const runs = fit >= MIN_RUNS ? Math.min(MAX_RUNS, Math.max(MIN_RUNS, fit >> 1)) : Math.max(1, fit);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(cold ? coldSample(run) : sample(run, reps));
  return { ...stats(samples, reps), warmup_ms: once };
}
