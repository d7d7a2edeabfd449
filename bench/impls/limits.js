// The limits for Node: build/bench/limits.wasm from disk (limit-cases.js has
// the runners).
import { readFileSync } from 'node:fs';

import { LIMITS_IMPORTS, limitCases } from './limit-cases.js';

export async function load({ limitsWasm }) {
  const { instance } = await WebAssembly.instantiate(readFileSync(limitsWasm), LIMITS_IMPORTS);
  return limitCases(instance);
}
