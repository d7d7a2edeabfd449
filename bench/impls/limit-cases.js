// The limits: a wasm memory.fill of the table's bytes, and a wasm SIMD
// streaming x += table over the add's bytes (bench/limits.c). Ratios in the
// table are to these. Plain ESM: the browser bench builds them too.

/** What build/bench/limits.wasm imports. */
export const LIMITS_IMPORTS = { env: { emscripten_notify_memory_growth() {} } };

/** The runners, from an instantiated build/bench/limits.wasm. */
export function limitCases(instance) {
  const lib = instance.exports;
  const memory = lib.memory;
  lib._initialize();
  const alloc = (bytes) => {
    const ptr = lib.limits_alloc(bytes) >>> 0;
    if (!ptr) throw new Error(`limits.wasm: cannot allocate ${bytes} bytes`);
    return ptr;
  };
  const floats = (ptr, n) => new Float32Array(memory.buffer, ptr, n);

  // A table-sized runner: makeRun(ptr, n) gets n floats of output and returns
  // { run, release? }; the output is freed with it.
  const tableCase = (name, makeRun, extra = {}) => ({
    name,
    kind: 'table',
    speed: 'fast',
    ...extra,
    prepare({ length, dim }) {
      const n = length * dim;
      const ptr = alloc(n * 4);
      const { run, release } = makeRun(ptr, n);
      return {
        run,
        dispose: () => {
          lib.limits_free(ptr);
          if (release) release();
        },
      };
    },
  });

  return [
    tableCase('wasm memory.fill (limit)', (ptr, n) => ({ run: () => lib.limits_fill(ptr, n * 4, 0x3f) }), {
      limit: true,
    }),
    // Not a limit: what v128.store alone costs, the floor under any wasm kernel.
    tableCase('wasm SIMD store loop (reference)', (ptr, n) => ({ run: () => lib.limits_store_loop(ptr, n) })),
    // Not a limit: the least arithmetic per value of any float64 kernel with
    // float32 output (limits.c), the floor under posenc's recurrence.
    tableCase('wasm SIMD float64→float32 floor (reference)', (ptr, n) => {
      const src = alloc(32 * 8);
      new Float64Array(memory.buffer, src, 32).fill(0.375);
      return { run: () => lib.limits_f64_floor(ptr, n, src), release: () => lib.limits_free(src) };
    }),
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
