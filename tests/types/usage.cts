// Compiled (never run) by tests/types.test.js: the CommonJS entry's types.
// After `await init()` the API is the ES module's.
import posenc = require('posenc');

async function main(): Promise<void> {
  const { simd }: { simd: boolean } = await posenc.init();
  const table: Float32Array = posenc.sinusoidal({ length: 10, dim: 4 });
  const buffer = posenc.alloc(8);
  buffer[Symbol.dispose]();
  // @ts-expect-error dim is required
  posenc.sinusoidal({ length: 10 });
  console.log(simd, table.length);
}
void main();
