// Runs tests/support/xpos-oracle.py (mpmath, 50 digits): xPos's exact scales.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./xpos-oracle.py', import.meta.url));

/** entries [r, gamma, scaleBase, d] -> per entry r/2 exact scales zeta_i^(d/scaleBase), as decimal strings. */
export function xposScalesExact(entries) {
  const run = spawnSync('python3', [SCRIPT], { input: JSON.stringify(entries), maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`xpos-oracle.py failed (python3 with mpmath is needed): ${run.stderr}`);
  return JSON.parse(run.stdout);
}
