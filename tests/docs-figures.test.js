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

// Every other figure of the README with a unit (kB, MiB, ms, s, minutes) outside code blocks: each names its
// source here, and where the source is a constant of the code, the figure is checked against it. A measured
// figure is checked by the test that measures it (named); a figure of the project's history says so.
const code = (path) => readFileSync(join(root, path), 'utf8');
const constant = (path, pattern) => {
  const m = pattern.exec(code(path));
  assert.ok(m, `${path} still defines ${pattern}`);
  return m[1];
};
const MiB = 2 ** 20;
const FIGURES = [
  [/tfjs, ~(\d+) MB/, 'bench/node_modules as installed (a size, stated loosely)', null],
  [
    /stops after (\d+) ms of drawing/,
    'web/src/views/scheduler.js FRAME_BUDGET_MS',
    () => constant('web/src/views/scheduler.js', /FRAME_BUDGET_MS = (\d+);/),
  ],
  [
    /first view weighs about (\d+) kB gzip/,
    'tests/page-live.test.js measures it and checks this figure',
    () => {
      assert.match(code('tests/page-live.test.js'), 'README_FIRST_VIEW', 'page-live checks the README figure');
      return null;
    },
  ],
  [
    /2\^28 elements \((\d+) GiB of float32/,
    'src/js/runtime/validate.js MAX_RESULT',
    () => (2 ** constant('src/js/runtime/validate.js', /MAX_RESULT = 2 \*\* (\d+);/) * 4) / 2 ** 30,
  ],
  [
    /when it fits in (\d+) MiB/,
    'src/js/rope/plan.js CACHE_BYTES',
    () => constant('src/js/rope/plan.js', /CACHE_BYTES = (\d+) \* 2 \*\* 20;/),
  ],
  [
    /about ([\d.]+) s in Node and ([\d.]+) s in Chromium/,
    'printed by tests/diagnose-api.test.js and tests/diagnose-browser.test.js (timings, reported never asserted)',
    null,
  ],
  [
    /at most (\d+) MiB \(`PE_CONFIG_MAX_BYTES`/,
    'src/js/runtime/config-read.js MAX_CONFIG_BYTES',
    () => constant('src/js/runtime/config-read.js', /MAX_CONFIG_BYTES = (\d+) \* 2 \*\* 20;/),
  ],
  [
    /a config (\d+) MiB/,
    'src/js/runtime/config-read.js MAX_CONFIG_BYTES',
    () => constant('src/js/runtime/config-read.js', /MAX_CONFIG_BYTES = (\d+) \* 2 \*\* 20;/),
  ],
  [
    /a `--position-ids` file (\d+) MiB/,
    'src/js/cli/read-input.js',
    () => constant('src/js/cli/read-input.js', /MAX_IDS_BYTES = (\d+) \* MiB/),
  ],
  [
    /an `identify` table (\d+) MiB/,
    'src/js/cli/read-input.js MAX_TABLE_BYTES',
    () => constant('src/js/cli/read-input.js', /MAX_TABLE_BYTES = (\d+) \* MiB/),
  ],
  [
    /larger than (\d+) MiB, posenc's limit/,
    'src/js/runtime/config-read.js MAX_CONFIG_BYTES',
    () => constant('src/js/runtime/config-read.js', /MAX_CONFIG_BYTES = (\d+) \* 2 \*\* 20;/),
  ],
  [/at most 2\^24 \((\d+) MiB a row\)/, '2^24 float32 (arithmetic)', () => (2 ** 24 * 4) / MiB],
  [
    /the cold time of an (\d+) MiB table from ([\d.]+) to\s+([\d.]+) ms/,
    'history: the bench run that landed the block walk',
    null,
  ],
  [
    /a tile of rows \(up to (\d+) MiB\)/,
    'src/core/sinusoid/plan.h PE_TILE_FLOATS',
    () => (constant('src/core/sinusoid/plan.h', /PE_TILE_FLOATS +(\d+)u/) * 4) / MiB,
  ],
  [
    /The whole suite takes about (\d+) minutes[^;]*? took ([\d,]+) s in all, ([\d,]+) s of them/,
    'bench/test-times.json suite, held to it by tests/docs-test-times.test.js',
    null,
  ],
  [
    /Timed with `npm run test:family -- --record NAME`[^;]*;/,
    'bench/test-times.json, each group and its load held to it by tests/docs-test-times.test.js',
    null,
  ],
];

test('every figure with a unit elsewhere in the README names its source, and constants match the code', () => {
  const sectionStart = readme.indexOf('\n## Benchmarks');
  const sectionEnd = sectionStart + section.length;
  // The Benchmarks section is the tests above'; code blocks hold commands and output, not claims.
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  let text = readme.slice(0, sectionStart) + blank(readme.slice(sectionStart, sectionEnd)) + readme.slice(sectionEnd);
  text = text.replace(/```[\s\S]*?```/g, blank);
  text = text.replace(/\n/g, ' '); // a figure's words may wrap
  const claimed = [];
  for (const [pattern, source, check] of FIGURES) {
    const matches = [...text.matchAll(new RegExp(pattern.source.replace(/ /g, '\\s+'), 'g'))];
    assert.ok(matches.length > 0, `the README no longer says ${pattern} (${source}): update FIGURES`);
    const want = check?.();
    for (const match of matches) {
      claimed.push([match.index, match.index + match[0].length]);
      if (want !== null && want !== undefined) assert.is(Number(match[1]), Number(want), `${match[0]}: ${source}`);
    }
  }
  const unclaimed = [...text.matchAll(/\d[\d.,]*(?:–[\d.]+)? ?(?:kB|KB|MB|MiB|GiB|ms|s|seconds|minutes)\b/g)]
    .filter((figure) => !claimed.some(([from, to]) => figure.index >= from && figure.index < to))
    .map((figure) => `"${figure[0]}" (…${text.slice(figure.index - 40, figure.index + 20).replace(/\s+/g, ' ')}…)`);
  assert.equal(unclaimed, [], 'figures with no source in FIGURES');
});

test("npm run bench writes build/bench/ unless --update names the stored run's bench/", async () => {
  const { outputDir } = await import('../bench/output.js');
  assert.equal(outputDir(root, []), { dir: join(root, 'build/bench'), stored: false });
  assert.equal(outputDir(root, ['--quick']), { dir: join(root, 'build/bench'), stored: false });
  assert.equal(outputDir(root, ['--update']), { dir: join(root, 'bench'), stored: true });
  assert.match(code('.gitignore'), /^build\/$/m, 'build/ is untracked');
  const run = code('bench/run.js');
  assert.not.match(run, /'bench\/results\.json'|'bench\/chart\.svg'/, 'bench/run.js writes only through outputDir');
});

test.run();
