// The timing policy, the same as bench/bench_timing.h so JS and native medians
// compare: warm up, repeat a call enough times that one sample lasts at least
// MIN_SAMPLE_MS (timer noise stays small next to it), take at least MIN_RUNS
// samples and more while the budget lasts, report the median per call.

export const MIN_RUNS = 9;
const MAX_RUNS = 51;
const MIN_SAMPLE_MS = 2;

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

// Warm-up: a few calls so the JIT has compiled the hot loop and the output
// pages are touched; returns the repetitions per sample.
function warmUp(run) {
  let once = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    once = Math.min(once, performance.now() - t0);
    if (once > 50) break; // slow enough that the JIT has long kicked in
  }
  return once < MIN_SAMPLE_MS ? Math.ceil(MIN_SAMPLE_MS / Math.max(once, 1e-4)) : 1;
}

// Fast runners measured side by side: each round takes one sample of every
// runner in turn, so a slow drift of the machine (frequency, other load)
// touches all of them alike and their ratios stay fair. One untimed call
// before each sample brings the runner's buffers back into cache after the
// others evicted them: every sample is the steady state of repeated calls,
// for fast and slow runners alike.
export function measureSideBySide(runs, budgetMs) {
  const reps = runs.map((r) => warmUp(r));
  const samples = runs.map(() => []);
  const start = performance.now();
  for (let round = 0; round < MAX_RUNS; round++) {
    if (round >= MIN_RUNS && performance.now() - start > budgetMs) break;
    runs.forEach((run, k) => {
      run();
      samples[k].push(sample(run, reps[k]));
    });
  }
  return samples.map((s, k) => stats(s, reps[k]));
}

// One slow runner: at least MIN_RUNS samples when they fit in the budget
// (up to half the budget's worth), otherwise as many as fit, at least one;
// the table says how many were taken.
export function measureAlone(run, budgetMs) {
  const t0 = performance.now();
  run(); // warm-up
  const once = performance.now() - t0;
  const reps = once < MIN_SAMPLE_MS ? Math.ceil(MIN_SAMPLE_MS / Math.max(once, 1e-4)) : 1;
  const fit = Math.floor(budgetMs / (once * reps));
  const runs = fit >= MIN_RUNS ? Math.min(MAX_RUNS, Math.max(MIN_RUNS, fit >> 1)) : Math.max(1, fit);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(sample(run, reps));
  return { ...stats(samples, reps), warmup_ms: once };
}
