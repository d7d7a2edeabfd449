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

// One formatter for thousands separators: toLocaleString builds a new one on every call.
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** 1234567 → "1,234,567" (up to 6 decimals kept). */
export function grouped(v) {
  return GROUPED.format(v);
}

/**
 * Short tick labels that stay exact: 12000 → "12k", 3000000 → "3M", but
 * 1000050 → "1,000,050" (never a rounded "1.00005M").
 */
export function tickLabel(v) {
  const a = Math.abs(v);
  if (a >= 1e6 && v % 1e5 === 0) return `${v / 1e6}M`;
  if (a >= 1e4 && v % 1e3 === 0) return `${v / 1e3}k`;
  return a >= 1e4 && Number.isInteger(v) ? grouped(v) : String(v);
}
