// The printed report: one aligned text table of every measurement, then the
// targets of issue 3, posenc against plain JS, and memory.

const fmtMs = (ms) =>
  ms == null || Number.isNaN(ms)
    ? '—'
    : ms >= 100
      ? ms.toFixed(0)
      : ms >= 10
        ? ms.toFixed(1)
        : ms >= 1
          ? ms.toFixed(2)
          : ms.toFixed(3);
const fmtRatio = (r) =>
  r == null ? '—' : r >= 100 ? `${r.toFixed(0)}×` : r >= 10 ? `${r.toFixed(1)}×` : `${r.toFixed(2)}×`;
const fmtErr = (e) => (e == null ? '—' : Number.isNaN(e) ? 'NaN' : e === 0 ? '0' : e.toExponential(1));
export const fmtMiB = (bytes) => (bytes == null ? '—' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

function aligned(header, lines, rightAligned) {
  const width = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const fmt = (cells) =>
    cells
      .map((s, c) => (rightAligned[c] ? s.padStart(width[c]) : s.padEnd(width[c])))
      .join('  ')
      .trimEnd();
  return [fmt(header), width.map((w) => '─'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

// The floor rows of bench/impls/limit-cases.js, as a target's cell names them.
const floorLabel = (impl) =>
  /store order/.test(impl)
    ? 'its store-order floor'
    : /state through memory/.test(impl)
      ? 'its recurrence floor'
      : 'the floor';

function targetCell(row) {
  if (!row.target) return '';
  const { max, holds, floors = [] } = row.target;
  const beside = floors.map((f) => `${f.ratio.toFixed(2)}× ${floorLabel(f.impl)}`);
  return `≤ ${max}× ${holds ? '✓' : '✗'}${beside.length ? ` (${beside.join(', ')})` : ''}`;
}

export function formatResults(rows) {
  const header = [
    'implementation',
    'size',
    'runs',
    'median ms',
    'Gelem/s',
    '× limit',
    'warm ms',
    'warm × limit',
    'max abs err',
    'target',
  ];
  const right = [false, false, true, true, true, true, true, true, true, false];
  const lines = rows.map((r) =>
    r.skipped
      ? [r.impl, r.size, '', 'skipped', '', '', '', '', '', r.skipped]
      : [
          r.impl,
          r.size,
          String(r.runs),
          fmtMs(r.median_ms),
          r.gelem_per_s.toFixed(3),
          fmtRatio(r.ratio_to_limit),
          r.warm ? fmtMs(r.warm.median_ms) : '',
          r.warm ? fmtRatio(r.warm.ratio_to_limit) : '',
          fmtErr(r.max_abs_error),
          targetCell(r),
        ],
  );
  return aligned(header, lines, right);
}

export function formatSpeedups(speedups) {
  const lines = speedups.map((s) => [
    s.size,
    s.plain_ms == null ? '—' : fmtMs(s.plain_ms),
    fmtMs(s.posenc_ms),
    s.speedup == null ? '—' : `${s.speedup.toFixed(1)}×`,
    s.target ? `≥ ${s.target.min}× ${s.target.holds ? '✓' : '✗'}` : '',
  ]);
  return aligned(['size', 'plain JS ms', 'posenc SIMD → JS array ms', 'posenc faster by', 'target'], lines, [
    false,
    true,
    true,
    true,
    false,
  ]);
}

export function formatBreakdown(parts, fillMs) {
  const lines = parts.map((p) => [
    p.size,
    fmtMs(p.resident_ms),
    p.per_call_us.toFixed(1),
    p.seeds_per_block_us.toFixed(2),
    String(p.blocks),
    `${(100 * p.seeds_share).toFixed(0)}%`,
    fmtMs(p.into_js_ms),
    fillMs[p.size]
      ? `${fmtMs(p.copy_to_js_ms)} (${fmtRatio(p.copy_to_js_ms / fillMs[p.size])} fill)`
      : fmtMs(p.copy_to_js_ms),
    fmtMs(p.js_extra_ms),
  ]);
  return aligned(
    [
      'size',
      'resident ms',
      'per call µs',
      'seeds/block µs',
      'blocks',
      'seeds share',
      'into JS ms',
      'copy to JS ms',
      'JS-array extra ms',
    ],
    lines,
    [false, true, true, true, true, true, true, true, true],
  );
}
