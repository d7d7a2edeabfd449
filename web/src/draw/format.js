// Number formatting for readouts and exports.

/** A readout value to 6 decimals, as printf("%.6f") shows it (-0 keeps its sign). */
export function fixed6(v) {
  return (Object.is(v, -0) ? '-' : '') + v.toFixed(6);
}

/** Frequencies and wavelengths span many decades: 6 significant digits. */
export function sig6(v) {
  if (v === 0 || !Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 1e-4 && a < 1e9 ? String(Number(v.toPrecision(6))) : v.toExponential(5);
}

/** Short tick labels: 1000 → "1000", 12000 → "12k". */
export function tickLabel(v) {
  const a = Math.abs(v);
  if (a >= 1e6) return `${v / 1e6}M`;
  if (a >= 1e4) return `${v / 1e3}k`;
  return String(v);
}
