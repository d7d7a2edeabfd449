// The native programs, run as child processes (bench/native_bench.c with both
// posenc kernel sets, bench/glibc_sinf_bench.c): they time themselves with the
// same policy as measure.js and print JSON; their ":dump" tables come back as
// files for the oracle comparison.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

function jobArgs(sizes, errorSize, withAdd) {
  const jobs = sizes.tables.map(
    ({ length, dim }) => `table:${length}:${dim}${length === errorSize.length && dim === errorSize.dim ? ':dump' : ''}`,
  );
  if (withAdd) jobs.push(`add:${sizes.add.batch}:${sizes.add.length}:${sizes.add.dim}`);
  return jobs;
}

// Which dumped file holds which implementation's table.
const DUMPS = {
  'native SIMD': 'native-simd',
  'native scalar': 'native-scalar',
  'glibc sinf/cosf -ffast-math (native)': 'glibc-sinf',
};

function runTool(exe, args) {
  const stdout = execFileSync(exe, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(stdout);
}

// Returns { rows, maxrssKb: { tool: kB }, outputs: { impl: () => Float32Array }, failed: { tool: reason } }.
export function runNative(tools, { sizes, errorSize, dumpDir, budgetMs }) {
  const rows = [];
  const maxrssKb = {};
  const outputs = {};
  const failed = {};
  const dumpFile = (file) => path.join(dumpDir, `${file}-${errorSize.length}x${errorSize.dim}.f32`);
  // A table left from an earlier run must never be mistaken for this run's.
  for (const file of Object.values(DUMPS)) rmSync(dumpFile(file), { force: true });
  const programs = [
    ['native_bench', tools.nativeBench, true],
    ['glibc_sinf_bench', tools.glibcBench, false],
  ];
  for (const [tool, exe, withAdd] of programs) {
    if (!exe) continue;
    try {
      const report = runTool(exe, [
        '--budget-ms',
        String(budgetMs),
        '--dump-dir',
        dumpDir,
        ...jobArgs(sizes, errorSize, withAdd),
      ]);
      rows.push(...report.results.map((r) => ({ ...r, speed: 'native', limit: false })));
      maxrssKb[tool] = report.maxrss_kb;
    } catch (err) {
      failed[tool] = err.message.split('\n')[0];
    }
  }
  for (const [impl, file] of Object.entries(DUMPS)) {
    const f = dumpFile(file);
    if (existsSync(f)) {
      outputs[impl] = () => {
        const b = readFileSync(f);
        return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
      };
    }
  }
  return { rows, maxrssKb, outputs, failed };
}
