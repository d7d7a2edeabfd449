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
  // The floors' 32 float64 inputs (limits.c), read from L1.
  const floorInputs = () => {
    const src = alloc(32 * 8);
    new Float64Array(memory.buffer, src, 32).fill(0.375);
    return src;
  };

  // A table-sized runner: makeRun(ptr, n, job) gets n floats of output (the
  // job's length × dim) and returns { run, release? }; the output is freed with it.
  const tableCase = (name, makeRun, extra = {}) => ({
    name,
    kind: 'table',
    speed: 'fast',
    ...extra,
    prepare({ length, dim }) {
      const n = length * dim;
      const ptr = alloc(n * 4);
      const { run, release } = makeRun(ptr, n, { length, dim });
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
      const src = floorInputs();
      return { run: () => lib.limits_f64_floor(ptr, n, src), release: () => lib.limits_free(src) };
    }),
    // Not a limit: the same arithmetic as a recurrence stored in posenc's order (blocks of 64 rows, bands of 512
    // columns, eight rows at a time, 16 bytes of each a step), without the recurrence's state, seeds and plan:
    // this row's ratio to the floor above is what the store order costs.
    tableCase(
      "wasm SIMD float64→float32 floor in the recurrence's store order (reference)",
      (ptr, n, { length, dim }) => {
        const src = floorInputs();
        return {
          run: () => lib.limits_f64_floor_recur_order(ptr, length, dim, src),
          release: () => lib.limits_free(src),
        };
      },
    ),
    // Not a limit: a float64 recurrence in that order whose state goes through memory (six loads and four
    // stores per four columns and eight rows, as at d = 4096 it must), with no seeds, plan or checks: what
    // posenc's table costs beyond it is its seeds, plan and calls (limits.c says why this bounds it).
    tableCase('wasm SIMD float64 recurrence floor, state through memory (reference)', (ptr, n, { length, dim }) => {
      const state = alloc(lib.limits_recur_state_bytes(dim));
      lib.limits_recur_state_init(state, dim);
      return {
        run: () => lib.limits_f64_recur_floor(ptr, length, dim, state),
        release: () => lib.limits_free(state),
      };
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
