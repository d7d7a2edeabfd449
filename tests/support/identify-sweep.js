// Runs identify() on the sweep tests/support/identify-sweep.py makes (every HF scaling x dtype x cos/sin x layout
// and the table peers, at first positions 0 to past 2^24) and prints the confusion table: right, right with
// factors open, nearest (not identified, the nearest reading names the right scaling), missed (not identified,
// nor the scaling named), wrong (identified with a wrong fact, or called not sinusoidal), with per-file CPU times.
//     node tests/support/identify-sweep.js [DIR] [--only REGEX] [--json OUT]
// makes DIR (default build/identify-sweep) with /usr/bin/python3 when it holds no index.json. On the variants
// (identify-sweep.py --variants) it prints the table by variant and by variant and first position too.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { init, identify, readNpy } from '../../src/js/index.js';
import { problems } from './identify-truth.js';

export const CLASSES = ['right', 'open', 'nearest', 'missed', 'wrong'];

/** The sweep's class of verdict r for truth t (CLASSES), and the facts it gets wrong. */
export function sweepClass(t, r) {
  const open = [];
  const wrong = problems(t, r, open);
  if (!r.sinusoidal) return { cls: 'wrong', wrong: ['not sinusoidal'] };
  if (!wrong.length) return { cls: open.length ? 'open' : 'right', wrong };
  if (r.identified) return { cls: 'wrong', wrong };
  const type = t.hf ? t.hf.rope_type : 'none';
  const named = r.ropeScaling ? r.ropeScaling.rope_type : 'none';
  return { cls: named === type ? 'nearest' : 'missed', wrong };
}

/** Makes the sweep's arrays in dir with the peers' code (extra: e.g. ['--sample', '8', '--seed', '1']). */
export function makeSweep(dir, extra = []) {
  const script = fileURLToPath(new URL('./identify-sweep.py', import.meta.url));
  const run = spawnSync('/usr/bin/python3', [script, dir, ...extra], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`identify-sweep.py failed (python3-torch is needed): ${run.stderr}`);
}

/** identify() on one file of the sweep: its verdict, class and CPU milliseconds. */
export function runCase(dir, t) {
  const { table, rows, dim } = readNpy(readFileSync(join(dir, t.file)));
  const before = process.cpuUsage();
  const r = identify(table, { rows, dim });
  const used = process.cpuUsage(before);
  return { file: t.file, ms: (used.user + used.system) / 1000, ...sweepClass(t, r), verdict: r.verdict };
}

// A variant's suffix (identify-sweep.py --variants): transposed, noise1e-2, rows8, ...
const VARIANT = /-(transposed|noise[\de.-]+|rows\d+)\.npy$/;
export const variantOf = (file) => (VARIANT.exec(file) ?? [, 'clean'])[1];
// The table's row: the file name without its layout and first position (hf-yarn-float32-sin, tutorial-f32), and
// a variant's suffix after a space.
const rowOf = (file) => {
  const base = file
    .replace(VARIANT, '.npy')
    .replace(/-(halves|single)?-?\d+\.npy$/, '')
    .replace(/-\d+\.npy$/, '');
  return VARIANT.test(file) ? `${base} ${variantOf(file)}` : base;
};

function printTable(results, keyOf = rowOf) {
  const rows = new Map();
  for (const x of results) {
    const row = rows.get(keyOf(x.file)) ?? Object.fromEntries(CLASSES.map((c) => [c, 0]));
    row[x.cls] += 1;
    rows.set(keyOf(x.file), row);
  }
  const width = Math.max(...[...rows.keys()].map((k) => k.length), 5);
  console.log(`${'truth'.padEnd(width)} | ${CLASSES.join(' | ')}`);
  for (const [key, row] of rows) {
    if (row.right === CLASSES.reduce((n, c) => n + row[c], 0) && !process.env.SWEEP_ALL_ROWS && keyOf === rowOf)
      continue;
    console.log(`${key.padEnd(width)} | ${CLASSES.map((c) => String(row[c] || '').padStart(c.length)).join(' | ')}`);
  }
  const total = Object.fromEntries(CLASSES.map((c) => [c, results.filter((x) => x.cls === c).length]));
  console.log(`all ${results.length}: ${CLASSES.map((c) => `${c} ${total[c]}`).join(', ')} (rows all right left out)`);
}

async function main() {
  const args = process.argv.slice(2);
  const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const dir = args[0] && !args[0].startsWith('--') ? args[0] : 'build/identify-sweep';
  if (!existsSync(join(dir, 'index.json'))) makeSweep(dir);
  const only = new RegExp(flag('--only') ?? '');
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  await init();
  const results = index.files.filter((t) => only.test(t.file)).map((t) => runCase(dir, t));
  printTable(results);
  // the variants side by side, and the first positions (the name's last number before the variant)
  if (results.some((x) => VARIANT.test(x.file))) {
    printTable(results, variantOf);
    printTable(results, (f) => `${variantOf(f)} @${f.replace(VARIANT, '.npy').match(/(\d+)\.npy$/)[1]}`);
  }
  for (const x of results.filter((y) => y.cls !== 'right'))
    console.log(`  ${x.cls.padEnd(7)} ${x.file}: ${x.wrong.join('; ')}${x.cls === 'open' ? '' : ` | ${x.verdict}`}`);
  const times = results.map((x) => x.ms).sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`CPU ms per file: median ${at(0.5)}, quartiles ${at(0.25)} / ${at(0.75)}, max ${at(1)}; slowest:`);
  for (const x of [...results].sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`  ${x.ms.toFixed(1)} ${x.file}`);
  if (flag('--json')) writeFileSync(flag('--json'), JSON.stringify(results, null, 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
