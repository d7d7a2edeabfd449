// Error of float32 outputs against oracle values, with where the worst one is.

// Max |got - want| over a table whose row r holds position positionOf(r).
// Returns { err, index, p, column, got, want }.
export function maxAbsError(got, want, dim, positionOf) {
  if (got.length !== want.length) throw new Error(`length ${got.length} vs oracle ${want.length}`);
  let err = -1;
  let index = -1;
  for (let k = 0; k < got.length; k++) {
    const e = Math.abs(got[k] - want[k]);
    if (!(e <= err)) {
      // also catches NaN
      err = Number.isNaN(e) ? Infinity : e;
      index = k;
      if (err === Infinity) break;
    }
  }
  if (index < 0) return { err: 0, index: -1 };
  const row = Math.floor(index / dim);
  return { err, index, p: positionOf(row), column: index % dim, got: got[index], want: want[index] };
}

// Max | ||row|| - sqrt(d/2) | over the rows, norms in double from the float32 values.
export function maxNormError(table, dim) {
  const target = Math.sqrt(dim / 2);
  let worst = { err: 0, row: -1 };
  for (let r = 0; r * dim < table.length; r++) {
    let sum = 0;
    for (let j = r * dim; j < (r + 1) * dim; j++) sum += table[j] * table[j];
    const err = Math.abs(Math.sqrt(sum) - target);
    if (!(err <= worst.err)) worst = { err: Number.isNaN(err) ? Infinity : err, row: r };
  }
  return worst;
}

// Runs async tasks with at most `limit` in flight; resolves in order.
export async function inParallel(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  async function worker() {
    while (next < tasks.length) {
      const k = next++;
      results[k] = await tasks[k]();
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
