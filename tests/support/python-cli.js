// `python -m posenc` from the source tree, beside the native and Node CLIs
// (tests/support/cli-run.js): Debian's python3 with numpy (build.sh test
// installs it), the package in src/python, and the shared library the Makefile
// builds into build/lib (made here when missing or stale: `make shared`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './cli-run.js';

export const PYTHON = '/usr/bin/python3';
export const PYTHON_ENV = { ...process.env, PYTHONPATH: join(root, 'src/python'), PYTHONDONTWRITEBYTECODE: '1' };
delete PYTHON_ENV.POSENC_LIBRARY; // the tree's build/lib, as src/python/posenc/_lib.py finds it
/** The command line that runs the Python CLI (for spawn and for shell lines with PYTHON_ENV). */
export const PYTHON_CLI = [PYTHON, '-m', 'posenc'];

let made = false;
/** Builds build/lib/libposenc.so with the Makefile (quick when nothing changed). */
export function makeSharedLibrary() {
  if (made) return;
  const jobs = String(Math.max(1, Math.min(4, Number(process.env.POSENC_JOBS) || 2)));
  const r = spawnSync('make', ['-s', '-C', root, `-j${jobs}`, 'shared'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`make shared failed:\n${r.stdout}\n${r.stderr}`);
  made = true;
}

/**
 * Runs the CLI's main on each argument list in one Python process (tests/support/python_cli_batch.py),
 * in directory cwd: a list of { status, stdout, stderr } (Buffers) as spawnSync gives them.
 */
export function pythonBatch(argLists, cwd) {
  makeSharedLibrary();
  const batch = join(root, 'tests/support/python_cli_batch.py');
  const r = spawnSync(PYTHON, [batch, cwd], { env: PYTHON_ENV, input: JSON.stringify(argLists), maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`python_cli_batch.py failed:\n${r.stderr}`);
  return JSON.parse(r.stdout).map((x) => ({
    status: x.status,
    stdout: Buffer.from(x.stdout, 'base64'),
    stderr: Buffer.from(x.stderr),
  }));
}

/** Runs `python -m posenc ...args`: { status, stdout, stderr } (Buffers) as spawnSync gives them. */
export function python(args, options = {}) {
  makeSharedLibrary();
  return spawnSync(PYTHON, ['-m', 'posenc', ...args], { env: PYTHON_ENV, maxBuffer: 1 << 28, ...options });
}
