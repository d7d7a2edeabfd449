// `npm run fuzz -- [seconds]` (default 600): the libFuzzer harness over the C
// API (build/test/fuzz-api, built by build.sh) for that long, starting from the
// checked-in seed corpus tests/fuzz/corpus/. New interesting inputs go to
// build/fuzz/corpus/ (not checked in); a finding is written to build/fuzz/ and
// the run exits non-zero; add it to tests/fuzz/corpus/ once fixed. Then the
// JS/CLI fuzzer (tests/fuzz/js/run.js) runs as long.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the harness for at most `seconds` on the seeds; returns spawnSync's result (text output). `runs`: stop
 * after that many inputs (libFuzzer's -runs, the seeds' replay included); `seed`: libFuzzer's random seed (else
 * a new one each run); `fresh`: new inputs go to an emptied build/fuzz/test-corpus, so the run starts from the
 * checked-in seeds alone, not from what earlier runs in this clone kept in build/fuzz/corpus.
 */
export function fuzz(seconds, { stdio = 'pipe', runs, seed, fresh = false } = {}) {
  const corpus = `${root}build/fuzz/${fresh ? 'test-corpus' : 'corpus'}`;
  if (fresh) rmSync(corpus, { recursive: true, force: true });
  mkdirSync(corpus, { recursive: true });
  return spawnSync(
    `${root}build/test/fuzz-api`,
    [
      `-max_total_time=${seconds}`,
      ...(runs === undefined ? [] : [`-runs=${runs}`]),
      ...(seed === undefined ? [] : [`-seed=${seed}`]),
      '-max_len=1024',
      // wall s: the fuzz build runs ~40x native; its exact searches are capped at 200k steps (build.sh), at most
      // about 0.6 s CPU each here, so 30 s leaves room for a loaded machine
      '-timeout=30',
      '-rss_limit_mb=2048',
      '-print_final_stats=1',
      `-artifact_prefix=${root}build/fuzz/`,
      corpus,
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
