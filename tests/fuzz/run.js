// `npm run fuzz -- [seconds]` (default 600): the libFuzzer harness over the C
// API (build/test/fuzz-api, built by build.sh) for that long, starting from the
// checked-in seed corpus tests/fuzz/corpus/. New interesting inputs go to
// build/fuzz/corpus/ (not checked in); a finding is written to build/fuzz/ and
// the run exits non-zero; add it to tests/fuzz/corpus/ once fixed. Then the
// JS/CLI fuzzer (tests/fuzz/js/run.js) runs as long.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the harness for `seconds` on the seeds; returns spawnSync's result (text output). */
export function fuzz(seconds, { stdio = 'pipe' } = {}) {
  mkdirSync(`${root}build/fuzz/corpus`, { recursive: true });
  return spawnSync(
    `${root}build/test/fuzz-api`,
    [
      `-max_total_time=${seconds}`,
      '-max_len=1024',
      '-timeout=30', // wall s: the fuzz build runs ~40x native (a 4M-step exact search: 0.19 s native, 7.5 s CPU here)
      '-rss_limit_mb=2048',
      '-print_final_stats=1',
      `-artifact_prefix=${root}build/fuzz/`,
      `${root}build/fuzz/corpus`,
      `${root}tests/fuzz/corpus`,
    ],
    { encoding: 'utf8', stdio },
  );
}

/** Replays every seed once (no mutation); returns spawnSync's result. */
export function replay(files) {
  return spawnSync(`${root}build/test/fuzz-api`, files, { encoding: 'utf8' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seconds = Number(process.argv[2] ?? 600);
  if (!(Number.isInteger(seconds) && seconds > 0)) {
    console.error(`fuzz: the time must be a whole number of seconds; got ${process.argv[2]}`);
    process.exit(2);
  }
  const core = fuzz(seconds, { stdio: 'inherit' }).status ?? 1;
  // Then as long over the layers above the core (tests/fuzz/js/: the JS API and both CLIs).
  const js = spawnSync(process.execPath, [`${root}tests/fuzz/js/run.js`, String(seconds)], { stdio: 'inherit' });
  process.exit(core !== 0 ? core : (js.status ?? 1));
}
