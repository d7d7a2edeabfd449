// posenc itself: the SIMD and the scalar wasm build side by side, each writing
// into a wasm-resident buffer from alloc() (nothing copied) and into a plain
// JS Float32Array reused across calls (one copy out of wasm memory).

const BUILDS = [
  { simd: true, label: 'SIMD' },
  { simd: false, label: 'scalar' },
];

export async function load() {
  const { instantiate } = await import('../../src/js/index.js');
  const cases = [];
  for (const { simd, label } of BUILDS) {
    const pe = await instantiate({ simd });
    // A tiny buffer kept alive to read the instance's memory size through its view.
    const probe = pe.alloc(4);
    const wasmMemoryBytes = () => probe.array.buffer.byteLength;
    const common = { speed: 'fast', build: label, wasmMemoryBytes };
    cases.push(
      {
        ...common,
        name: `posenc wasm ${label}, resident`,
        kind: 'table',
        target: simd ? 'resident' : undefined,
        prepare({ length, dim }) {
          const buf = pe.alloc(length * dim);
          return {
            run: () => pe.sinusoidal({ length, dim, out: buf }),
            output: () => buf.array,
            dispose: () => buf.free(),
          };
        },
      },
      {
        ...common,
        name: `posenc wasm ${label}, into JS array`,
        kind: 'table',
        target: simd ? 'js' : undefined,
        prepare({ length, dim }) {
          const out = new Float32Array(length * dim);
          return { run: () => pe.sinusoidal({ length, dim, out }), output: () => out };
        },
      },
      {
        ...common,
        name: `posenc wasm ${label}, resident x`,
        kind: 'add',
        target: simd ? 'add' : undefined,
        prepare({ batch, length, dim }) {
          const x = pe.alloc(batch * length * dim);
          x.array.fill(0.5);
          return { run: () => pe.addSinusoidal(x, { length, dim }), dispose: () => x.free() };
        },
      },
      {
        ...common,
        name: `posenc wasm ${label}, JS array x`,
        kind: 'add',
        prepare({ batch, length, dim }) {
          const x = new Float32Array(batch * length * dim).fill(0.5);
          return { run: () => pe.addSinusoidal(x, { length, dim }) };
        },
      },
    );
  }
  return cases;
}

// How much wasm memory one call allocates beyond its output: a fresh SIMD
// instance, its memory size after each step. A resident table or add should
// add only small scratch; into a JS array, whatever staging the copy needs.
export async function probeMemory(table, add) {
  const { instantiate } = await import('../../src/js/index.js');
  const pe = await instantiate({ simd: true });
  const probe = pe.alloc(4);
  const size = () => probe.array.buffer.byteLength;
  const n = table.length * table.dim;
  const steps = { table: `${table.length}x${table.dim}`, output_bytes: n * 4, before: size() };
  const out = pe.alloc(n);
  steps.after_alloc = size();
  pe.sinusoidal({ length: table.length, dim: table.dim, out });
  steps.after_resident_table = size();
  pe.sinusoidal({ length: table.length, dim: table.dim, out: new Float32Array(n) });
  steps.after_js_array_table = size();
  out.free();
  // The add on a fresh instance too, so the table's memory does not hide its needs.
  const pa = await instantiate({ simd: true });
  const probeA = pa.alloc(4);
  const x = pa.alloc(add.batch * add.length * add.dim);
  steps.add = `${add.batch}x${add.length}x${add.dim}`;
  steps.x_bytes = x.length * 4;
  steps.after_alloc_x = probeA.array.buffer.byteLength;
  pa.addSinusoidal(x, { length: add.length, dim: add.dim });
  steps.after_resident_add = probeA.array.buffer.byteLength;
  return steps;
}
