// The sinusoid plan of one instance: the core's per-encoding constants
// (pe_plan, posenc.h), built once and reused while calls keep the same
// encoding. The sinusoid and precision families compute from it.

/**
 * @param {{wasm: WebAssembly.Exports, check: (status: number) => void}} calls
 * @param {{reserve: (what: string) => (bytes: number) => {at: number, bytes: number}}} memory
 * @returns {(dim: number, base: number, layout: number, frequencies: number) => number} the plan's address
 */
export function planCache(calls, memory) {
  const { wasm, check } = calls;
  const ensurePlan = memory.reserve('plan');
  // The encoding the plan holds, compared field by field: no key string built per call.
  const planFor = { valid: false, dim: 0, base: 0, layout: 0, frequencies: 0, at: 0 };
  return (dim, base, layout, frequencies) => {
    const p = planFor;
    if (p.valid && p.dim === dim && p.base === base && p.layout === layout && p.frequencies === frequencies)
      return p.at;
    const region = ensurePlan(wasm.pe_wasm_scratch_size(dim) >>> 0);
    p.valid = false; // until the core has built it: a refused init leaves no plan
    check(wasm.pe_wasm_plan_init(dim, base, layout, frequencies, region.at, region.bytes));
    Object.assign(p, { valid: true, dim, base, layout, frequencies, at: region.at });
    return p.at;
  };
}
