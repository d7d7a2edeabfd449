// Runs identify() over RoPE caches of a few rows (2 ... 24) with YaRN and
// Llama 3 scaling, in a process of its own so that a call that never returns
// is a killed child the test can name (it prints each case before calling).
// Prints one line per case: "case <name>" then "ok <ropeScaling JSON>".
import { init, identify } from '../../src/js/index.js';
import { llamaCache } from './diagnose-peers.js';

const SCALINGS = [
  { type: 'yarn', factor: 4, original: 2048 },
  { type: 'yarn', factor: 1.5, original: 64, betaFast: 1, betaSlow: 1 },
  { type: 'llama3', factor: 8, original: 8192 },
  { type: 'llama3', factor: 32, original: 64, low: 2, high: 8 },
];

await init();
for (const scaling of SCALINGS)
  for (const dim of [8, 16, 56, 72, 128])
    for (let rows = 2; rows <= 24; rows++)
      for (const base of [10000, 500000]) {
        console.log(`case ${rows} x ${dim} ${JSON.stringify(scaling)} base ${base}`);
        const r = identify(llamaCache(rows, dim, { base, scaling }), { rows, dim, kind: 'cos-sin' });
        console.log(`ok ${JSON.stringify(r.ropeScaling)}`);
      }
