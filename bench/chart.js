// bench/chart.svg: one panel per size, one horizontal bar per implementation,
// its time as a multiple of the limit on a log scale (bars grow right of the
// 1× line when slower than the limit, left when faster). Hand-written SVG: a
// static file the README shows, no library needed.

const W = 980;
const LABEL_W = 300; // implementation names
const PLOT_X0 = LABEL_W + 10;
const PLOT_X1 = W - 110; // room for the value labels right of the longest bar
const BAR_H = 16;
const BAR_GAP = 5;
const PANEL_HEAD = 30;
const AXIS_H = 26;

const COLORS = [
  [/^posenc wasm SIMD/, '#1f5fbf'],
  [/^posenc wasm scalar/, '#7fa8e6'],
  [/^native SIMD/, '#0f8a78'],
  [/^native scalar/, '#6cc5b5'],
  [/^native .*reference/, '#9a9a9a'],
  [/^wasm SIMD store loop/, '#b0b0b0'],
  [/^wasm SIMD float64/, '#8f8f8f'],
  [/^glibc/, '#8c5a2b'],
  [/^plain JS/, '#e08a1e'],
  [/^tutorial/, '#c8382e'],
  [/^tfjs/, '#7b4fb0'],
];
const colorOf = (impl) => (COLORS.find(([re]) => re.test(impl)) || [null, '#555'])[1];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmtRatio = (r) => (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)) + '×';
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3)) + ' ms';

// The largest 1, 2 or 5 × 10^k not above v.
function niceFloor(v) {
  const e = Math.floor(Math.log10(v));
  const m = v / 10 ** e;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * 10 ** e;
}

function ticks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

// panels: [{ title, limitLabel, rows: [{ impl, ratio_to_limit, median_ms, runs, skipped, target }] }]
export function drawChart(panels, { title, subtitle }) {
  const ratios = [
    1,
    ...panels.flatMap((p) => p.rows.filter((r) => !r.skipped && r.ratio_to_limit > 0).map((r) => r.ratio_to_limit)),
  ];
  const lo = Math.min(0.5, niceFloor(Math.min(...ratios) * 0.8)); // room left of 1× for faster-than-limit bars
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...ratios, 2) * 1.1));
  const x = (v) =>
    PLOT_X0 + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (PLOT_X1 - PLOT_X0);
  const parts = [];
  let y = 58;
  for (const panel of panels) {
    const plotTop = y + PANEL_HEAD;
    const plotH = panel.rows.length * (BAR_H + BAR_GAP);
    parts.push(`<text x="8" y="${y + 18}" class="panel">${esc(panel.title)}</text>`);
    parts.push(`<text x="${W - 8}" y="${y + 18}" class="note" text-anchor="end">${esc(panel.limitLabel)}</text>`);
    for (const v of ticks(lo, hi)) {
      const major = Math.log10(v) % 1 === 0;
      parts.push(
        `<line x1="${x(v)}" x2="${x(v)}" y1="${plotTop - 4}" y2="${plotTop + plotH}" class="${v === 1 ? 'one' : major ? 'grid' : 'grid minor'}"/>`,
      );
      // Every power of ten is labelled; 2× and 5× steps only near 1×, where the targets are.
      if (major || (v > 0.1 && v < 10))
        parts.push(`<text x="${x(v)}" y="${plotTop + plotH + 14}" class="tick" text-anchor="middle">${v}×</text>`);
    }
    panel.rows.forEach((r, k) => {
      const by = plotTop + k * (BAR_H + BAR_GAP);
      const label =
        r.runs != null && r.runs < 9 && !r.skipped ? `${r.impl} (${r.runs} run${r.runs > 1 ? 's' : ''})` : r.impl;
      parts.push(`<text x="${LABEL_W}" y="${by + BAR_H - 4}" class="label" text-anchor="end">${esc(label)}</text>`);
      if (r.skipped) {
        parts.push(`<text x="${x(1) + 4}" y="${by + BAR_H - 4}" class="note">skipped: ${esc(r.skipped)}</text>`);
        return;
      }
      const a = x(1);
      const b = x(Math.max(lo, r.ratio_to_limit));
      parts.push(
        `<rect x="${Math.min(a, b)}" y="${by}" width="${Math.max(1, Math.abs(b - a))}" height="${BAR_H}" fill="${colorOf(r.impl)}"><title>${esc(`${r.impl}: ${fmtMs(r.median_ms)}, ${fmtRatio(r.ratio_to_limit)} the limit`)}</title></rect>`,
      );
      let textX = Math.max(a, b) + 4;
      if (r.target) {
        const tx = x(r.target.max);
        parts.push(`<line x1="${tx}" x2="${tx}" y1="${by - 2}" y2="${by + BAR_H + 2}" class="target"/>`);
        textX = Math.max(textX, tx + 4);
      }
      const target = r.target
        ? `<tspan class="target-label"> · target ≤ ${r.target.max}× ${r.target.holds ? '✓' : '✗'}</tspan>`
        : '';
      parts.push(
        `<text x="${textX}" y="${by + BAR_H - 4}" class="value">${fmtRatio(r.ratio_to_limit)} · ${fmtMs(r.median_ms)}${target}</text>`,
      );
    });
    y = plotTop + plotH + AXIS_H;
  }
  const H = y + 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">
<style>
  .title { font-size: 17px; font-weight: 600; fill: #222; }
  .subtitle, .note { font-size: 12px; fill: #666; }
  .panel { font-size: 14px; font-weight: 600; fill: #222; }
  .label { font-size: 12px; fill: #333; }
  .value { font-size: 11px; fill: #333; }
  .tick { font-size: 10px; fill: #777; }
  .grid { stroke: #ddd; stroke-width: 1; }
  .minor { stroke-dasharray: 2 3; }
  .one { stroke: #222; stroke-width: 1.5; }
  .target { stroke: #d62728; stroke-width: 2; }
  .target-label { fill: #d62728; }
</style>
<rect width="${W}" height="${H}" fill="#fff"/>
<text x="8" y="22" class="title">${esc(title)}</text>
<text x="8" y="42" class="subtitle">${esc(subtitle)}</text>
${parts.join('\n')}
</svg>
`;
}
