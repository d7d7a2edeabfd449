// Runs identify() over RoPE caches of a few rows (2 ... 24) with YaRN and
// Llama 3 scaling, in a process of its own so that a call that never returns
// is a killed child the test can name (it prints each case before calling).
// Prints two lines per case: "case <name>" then "ok <ropeScaling JSON>".
// argv[2], if given, is JSON { dims, rows: [first, last] } narrowing the sweep
// (tests/diagnose-api.test.js's quick test: the shapes that once hung).
import { init, identify } from '../../src/js/index.js';
import { llamaCache } from './diagnose-peers.js';

const SCALINGS = [
  { type: 'yarn', factor: 4, original: 2048 },
  { type: 'yarn', factor: 1.5, original: 64, betaFast: 1, betaSlow: 1 },
  { type: 'llama3', factor: 8, original: 8192 },
  { type: 'llama3', factor: 32, original: 64, low: 2, high: 8 },
];

const SWEEP = { dims: [8, 16, 56, 72, 128], rows: [2, 24] };
const {
  dims,
  rows: [first, last],
} = process.argv[2] ? JSON.parse(process.argv[2]) : SWEEP;
await init();
for (const scaling of SCALINGS)
  for (const dim of dims)
    for (let rows = first; rows <= last; rows++)
      for (const base of [10000, 500000]) {
        console.log(`case ${rows} x ${dim} ${JSON.stringify(scaling)} base ${base}`);
        const r = identify(llamaCache(rows, dim, { base, scaling }), { rows, dim, kind: 'cos-sin' });
        console.log(`ok ${JSON.stringify(r.ropeScaling)}`);
      }
