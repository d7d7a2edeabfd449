// A good, honest plain JavaScript implementation: frequencies computed once
// per call in double, then one Math.sin and one Math.cos per pair, written into
// a Float32Array reused across calls.

function frequencies(dim, base) {
  const w = new Float64Array(dim / 2);
  for (let i = 0; i < w.length; i++) w[i] = Math.pow(base, (-2 * i) / dim);
  return w;
}

function fillTable(out, length, dim, w) {
  for (let p = 0, k = 0; p < length; p++) {
    for (let i = 0; i < w.length; i++, k += 2) {
      const angle = p * w[i];
      out[k] = Math.sin(angle);
      out[k + 1] = Math.cos(angle);
    }
  }
}

export async function load() {
  return [
    {
      name: 'plain JS, precomputed frequencies',
      kind: 'table',
      speed: 'slow',
      prepare({ length, dim }) {
        const out = new Float32Array(length * dim);
        return { run: () => fillTable(out, length, dim, frequencies(dim, 10000)), output: () => out };
      },
    },
    {
      // The table once per call, then added to every sequence of the batch.
      name: 'plain JS, table then x += table',
      kind: 'add',
      speed: 'slow',
      prepare({ batch, length, dim }) {
        const n = length * dim;
        const x = new Float32Array(batch * n).fill(0.5);
        const table = new Float32Array(n);
        return {
          run() {
            fillTable(table, length, dim, frequencies(dim, 10000));
            for (let b = 0; b < batch; b++) {
              for (let k = 0, o = b * n; k < n; k++) x[o + k] += table[k];
            }
          },
        };
      },
    },
  ];
}
