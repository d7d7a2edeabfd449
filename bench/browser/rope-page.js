// The browser half of the RoPE bench (bench/rope-run.js): the fast runners of
// bench/impls/rope-cases.js (the limits, posenc SIMD, plain JS) measured side
// by side, warm, by the same measure.js as in Node.
import { measureSideBySide } from '../measure.js';
import { LIMITS_IMPORTS } from '../impls/limit-cases.js';
import { jobBudget, jobRow, limitRopeCases, plainCases, posencCases } from '../impls/rope-cases.js';
import { instantiate } from '../../src/js/index.js';

window.runRopeBench = async (jobs, budgetMs) => {
  const bytes = await (await fetch(new URL('../../build/bench/limits.wasm', import.meta.url))).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, LIMITS_IMPORTS);
  const pe = await instantiate({ simd: true });
  const all = [...limitRopeCases(instance), ...posencCases(pe), ...plainCases()].filter((c) => c.speed === 'fast');
  const rows = [];
  for (const job of jobs) {
    const live = all.filter((c) => c.kind === job.kind).map((c) => ({ c, runner: c.prepare(job) }));
    const stats = measureSideBySide(
      live.map((l) => l.runner.run),
      jobBudget(job, budgetMs),
    );
    live.forEach(({ c, runner }, k) => {
      rows.push(jobRow(c.name, job, stats[k].warm));
      if (runner.dispose) runner.dispose();
    });
  }
  return { rows, crossOriginIsolated: globalThis.crossOriginIsolated === true };
};
window.ropeBenchReady = true;
