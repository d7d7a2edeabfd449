// The data behind a plot as CSV: one header line, then one line per x value.
// Numbers keep full precision (shortest round-trip form); a missing value
// (a gap in the plot) is an empty cell.

/** columns: [{ name, values }], all of the same length. */
export function csvColumns(columns) {
  const cell = (v) => (v === null || v === undefined || Number.isNaN(v) ? '' : String(v));
  const lines = [columns.map((c) => c.name).join(',')];
  const rows = columns[0]?.values.length ?? 0;
  for (let r = 0; r < rows; r++) lines.push(columns.map((c) => cell(c.values[r])).join(','));
  return new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' });
}
