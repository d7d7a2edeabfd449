// bench/limits.c's wasm module (built by bench/build.js), instantiated afresh
// for a test of the bench's reference rows.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';

import { buildBenchTools } from '../../bench/build.js';
import { LIMITS_IMPORTS } from '../../bench/impls/limit-cases.js';

const { built, failed } = buildBenchTools(() => {}, ['limitsWasm']);

/** A new instance's exports, initialized (its memory fresh). */
export async function limitsExports() {
  assert.is(failed.limitsWasm, undefined, `limits.wasm: ${failed.limitsWasm}`);
  const { instance } = await WebAssembly.instantiate(readFileSync(built.limitsWasm), LIMITS_IMPORTS);
  instance.exports._initialize();
  return instance.exports;
}
