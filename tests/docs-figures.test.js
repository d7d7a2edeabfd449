// One number for one thing: every benchmark figure the README quotes (the
// intro and the Benchmarks section) is the stored run's, bench/results.json,
// rounded to the digits printed. Each figure is claimed by a check below
// (the table cell by cell, the sentences by pattern); a figure in the section
// that no check claims fails too, so a new one needs its source here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './support/cli-run.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const results = JSON.parse(readFileSync(join(root, 'bench/results.json'), 'utf8'));
const section = readme.slice(
  readme.indexOf('\n## Benchmarks'),
  readme.indexOf('\n## ', readme.indexOf('\n## Benchmarks') + 4),
);
const intro = readme.slice(0, readme.indexOf('\n## '));

const row = (impl, size, rows = results.rows) => {
  const found = rows.find((r) => r.impl === impl && r.size === size);
  assert.ok(found, `bench/results.json has ${impl} at ${size}`);
  return found;
};
const node = (impl, size = '2048×1024') => row(impl, size);
const chromium = (impl, size) => row(impl, size, results.browser.rows);

/** printed ("0.55", "3.0e-8", "69") is value rounded to the significant digits printed. */
function same(printed, value, what) {
  // An integer's trailing zeros are not significant ("3800": two digits).
  const whole = printed.replace(/e.*$/, '');
  const mantissa = (whole.includes('.') ? whole.replace('.', '') : whole.replace(/0+$/, '')).replace(/^0+/, '');
  const digits = Math.max(1, mantissa.length);
  assert.is(Number(printed), Number(value.toPrecision(digits)), `${what}: README ${printed}, stored ${value}`);
}

/** "a" (every value rounds to it) or "a–b" (the lowest and the highest value). */
function sameRange(printed, values, what) {
  const parts = printed.split('–');
  const sorted = [...values].sort((a, b) => a - b);
  if (parts.length === 1) for (const v of sorted) same(printed, v, what);
  else {
    assert.is(parts.length, 2, `${what}: ${printed}`);
    same(parts[0], sorted[0], what);
    same(parts[1], sorted.at(-1), what);
  }
}

// The table's rows: the README's label and the implementations it stands for.
const TABLE = {
  'wasm `memory.fill` (the limit)': ['wasm memory.fill (limit)'],
  'wasm SIMD store loop, nothing computed': ['wasm SIMD store loop (reference)'],
  'wasm SIMD float64→float32 arithmetic alone': ['wasm SIMD float64→float32 floor (reference)'],
  '**posenc wasm SIMD**, wasm-resident': ['posenc wasm SIMD, resident'],
  '**posenc wasm SIMD**, into a JS Float32Array': ['posenc wasm SIMD, into JS array'],
  'posenc wasm scalar': ['posenc wasm scalar, resident'],
  'glibc `sinf`/`cosf`, `-ffast-math`, native': ['glibc sinf/cosf -ffast-math (native)'],
  'plain JS with precomputed frequencies': ['plain JS, precomputed frequencies'],
  'tutorial double loop (`Math.pow`)': ['tutorial double loop (Math.pow)'],
  'tfjs, cpu and wasm backends': ['tfjs wasm backend', 'tfjs cpu backend'],
};
const COLUMNS = [
  (r) => r.median_ms,
  (r) => r.ratio_to_limit,
  (r) => r.warm?.median_ms,
  (r) => r.warm?.ratio_to_limit,
  (r) => r.max_abs_error,
];

test('the 2048 × 1024 table: every cell is the stored median, ratio or error of its implementation', () => {
  const lines = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| implementation'));
  assert.equal(
    lines.map((l) => l.split('|')[1].trim()),
    Object.keys(TABLE),
  );
  for (const line of lines) {
    const [label, ...cells] = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const rows = TABLE[label].map((impl) => node(impl));
    cells.forEach((cell, k) => {
      const printed = cell.replace(/\*\*/g, '').replace(/ ms$|×$/, '');
      const values = rows.map(COLUMNS[k]);
      if (printed === '' || printed === '—') {
        assert.ok(
          values.every((v) => v === undefined || v === null),
          `${label}, column ${k + 2}: nothing stored`,
        );
        return;
      }
      sameRange(printed, values, `${label}, column ${k + 2}`);
    });
  }
});

// The sentences: a pattern with one figure (or range) per group, and the stored values each stands for.
const posencJs = node('posenc wasm SIMD, into JS array').median_ms;
const over = (impl) => node(impl).median_ms / posencJs;
const posencError = node('posenc wasm SIMD, resident').max_abs_error;
const float32Errors = ['glibc sinf/cosf -ffast-math (native)', 'tfjs wasm backend', 'tfjs cpu backend'].map(
  (impl) => node(impl).max_abs_error,
);
const SENTENCES = [
  [/(\S+)× faster than plain JavaScript/g, () => [[over('plain JS, precomputed frequencies')]]],
  [/(\S+)× faster than tfjs/g, () => [[over('tfjs wasm backend'), over('tfjs cpu backend')]]],
  [
    /costs (\S+)× a\s+bare streaming|takes (\S+)× a bare streaming/g,
    () => [[node('posenc wasm SIMD, resident x', 'add 8×2048×1024').ratio_to_limit]],
  ],
  [/off by (\S+) already/g, () => [float32Errors]],
  [/, (\S+) times posenc's error/g, () => [float32Errors.map((e) => e / posencError)]],
  [/8 MiB takes (\S+) ms here/g, () => [[node('wasm memory.fill (limit)').median_ms]]],
  [/writes 8 MiB in (\S+) ms/g, () => [[node('wasm memory.fill (limit)').warm.median_ms]]],
  [/wasm stores \((\S+)×\)/g, () => [[node('wasm SIMD store loop (reference)').warm.ratio_to_limit]]],
  [/at least (\d+) runs; (\S+) s\s/g, () => [[results.policy.min_runs], [results.total_seconds]]],
  [
    /512 × 512 (\S+)×,\s+2048 × 1024 (\S+)× \(into a JS array (\S+)×\), 8192 × 4096 (\S+)×\./g,
    () => [
      [chromium('posenc wasm SIMD, resident', '512×512').ratio_to_limit],
      [chromium('posenc wasm SIMD, resident', '2048×1024').ratio_to_limit],
      [chromium('posenc wasm SIMD, into JS array', '2048×1024').ratio_to_limit],
      [chromium('posenc wasm SIMD, resident', '8192×4096').ratio_to_limit],
    ],
  ],
  [
    /\(8192 × 4096\) takes (\S+)× `memory.fill` \((\S+)× in Chromium\)/g,
    () => [
      [node('posenc wasm SIMD, resident', '8192×4096').ratio_to_limit],
      [chromium('posenc wasm SIMD, resident', '8192×4096').ratio_to_limit],
    ],
  ],
  [
    /computes nothing already takes (\S+)×/g,
    () => [[node('wasm SIMD store loop (reference)', '8192×4096').ratio_to_limit]],
  ],
  [
    /value to value\) (\S+)×/g,
    () => [[node('wasm SIMD float64→float32 floor (reference)', '8192×4096').ratio_to_limit]],
  ],
];

test('every figure in the sentences of the intro and the Benchmarks section is the stored one', () => {
  const claimed = [];
  for (const [pattern, values] of SENTENCES) {
    const want = values();
    let found = 0;
    for (const part of [intro, section]) {
      for (const match of part.matchAll(pattern)) {
        found++;
        const groups = match.slice(1).filter((g) => g !== undefined);
        assert.is(groups.length, want.length, `${pattern}: one value per figure`);
        groups.forEach((g, k) => sameRange(g.replace(/[,;]$/, ''), want[k], `${pattern} in "${match[0]}"`));
        if (part === section) claimed.push([match.index, match.index + match[0].length]);
      }
    }
    assert.ok(found > 0, `the README quotes ${pattern}`);
  }
  // Every "N×" and "N ms" of the section's prose is claimed by a pattern above (the table by the test before).
  const prose = section
    .split('\n')
    .map((l) => (l.startsWith('|') ? ' '.repeat(l.length) : l))
    .join('\n');
  for (const figure of prose.matchAll(/\d[\d.]*(?:–[\d.]+)?(?:×| ms| s\b| times)/g)) {
    const at = figure.index;
    assert.ok(
      claimed.some(([from, to]) => at >= from && at < to),
      `"${figure[0]}" in the Benchmarks section comes from no check (…${section.slice(at - 40, at + 20)}…)`,
    );
  }
});

test.run();
