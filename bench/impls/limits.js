// The limits: a wasm memory.fill of the table's bytes, and a wasm SIMD
// streaming x += table over the add's bytes (bench/limits.c). Ratios in the
// table are to these.
import { readFileSync } from 'node:fs';

export async function load({ limitsWasm }) {
  let memory;
  const { instance } = await WebAssembly.instantiate(readFileSync(limitsWasm), {
    env: { emscripten_notify_memory_growth() {} },
  });
  const lib = instance.exports;
  memory = lib.memory;
  lib._initialize();
  const alloc = (bytes) => {
    const ptr = lib.limits_alloc(bytes) >>> 0;
    if (!ptr) throw new Error(`limits.wasm: cannot allocate ${bytes} bytes`);
    return ptr;
  };
  const floats = (ptr, n) => new Float32Array(memory.buffer, ptr, n);

  return [
    {
      name: 'wasm memory.fill (limit)',
      kind: 'table',
      speed: 'fast',
      limit: true,
      prepare({ length, dim }) {
        const bytes = length * dim * 4;
        const ptr = alloc(bytes);
        return { run: () => lib.limits_fill(ptr, bytes, 0x3f), dispose: () => lib.limits_free(ptr) };
      },
    },
    {
      // Not a limit: what v128.store alone costs, the floor under any wasm kernel.
      name: 'wasm SIMD store loop (reference)',
      kind: 'table',
      speed: 'fast',
      prepare({ length, dim }) {
        const n = length * dim;
        const ptr = alloc(n * 4);
        return { run: () => lib.limits_store_loop(ptr, n), dispose: () => lib.limits_free(ptr) };
      },
    },
    {
      // Not a limit: the least arithmetic per value of any float64 kernel with
      // float32 output (limits.c), the floor under posenc's recurrence.
      name: 'wasm SIMD float64→float32 floor (reference)',
      kind: 'table',
      speed: 'fast',
      prepare({ length, dim }) {
        const n = length * dim;
        const ptr = alloc(n * 4);
        const src = alloc(32 * 8);
        new Float64Array(memory.buffer, src, 32).fill(0.375);
        return {
          run: () => lib.limits_f64_floor(ptr, n, src),
          dispose: () => {
            lib.limits_free(ptr);
            lib.limits_free(src);
          },
        };
      },
    },
    {
      name: 'wasm SIMD x += table (limit)',
      kind: 'add',
      speed: 'fast',
      limit: true,
      prepare({ batch, length, dim }) {
        const n = length * dim;
        const x = alloc(batch * n * 4);
        const table = alloc(n * 4);
        floats(x, batch * n).fill(0.5);
        floats(table, n).fill(0.25);
        return {
          run: () => lib.limits_stream_add(x, table, n, batch),
          dispose: () => {
            lib.limits_free(x);
            lib.limits_free(table);
          },
        };
      },
    },
  ].map((c) => ({ ...c, wasmMemoryBytes: () => memory.buffer.byteLength }));
}
