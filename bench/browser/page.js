// The browser half of `npm run bench`: the table runners that matter for
// issue 3 (the limits, posenc SIMD resident and into a JS array), measured
// side by side cold and warm by the same measure.js as in Node. The Node
// side (bench/impls/browser.js) calls window.runBench and reads the result.
import { measureSideBySide } from '../measure.js';
import { LIMITS_IMPORTS, limitCases } from '../impls/limit-cases.js';
import { load as loadPosenc } from '../impls/posenc.js';

const WANTED = /^(wasm memory\.fill|wasm SIMD store loop|wasm SIMD float64|posenc wasm SIMD, (resident|into JS array))/;

async function cases() {
  const bytes = await (await fetch(new URL('../../build/bench/limits.wasm', import.meta.url))).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, LIMITS_IMPORTS);
  const all = [...limitCases(instance), ...(await loadPosenc())];
  return all.filter((c) => c.kind === 'table' && WANTED.test(c.name));
}

window.runBench = async (sizes, budgetMs) => {
  const runners = await cases();
  const rows = [];
  for (const size of sizes) {
    const live = runners.map((c) => ({ c, runner: c.prepare(size) }));
    const stats = measureSideBySide(
      live.map((l) => l.runner.run),
      budgetMs,
      { cold: true },
    );
    live.forEach(({ c, runner }, k) => {
      rows.push({ impl: c.name, length: size.length, dim: size.dim, ...stats[k] });
      if (runner.dispose) runner.dispose();
    });
  }
  return { rows, crossOriginIsolated: globalThis.crossOriginIsolated === true };
};
window.benchReady = true;
