// Runs tests/support/table-peers.py (Debian's python3 with torch and numpy) and
// returns each case's table as { rows, dim, table: Float32Array }.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./table-peers.py', import.meta.url));

/** cases: [{ name, maker: 'tutorial' | 'numpy64' | 'fairseq_odd', args }] */
export function peerTables(cases) {
  const run = spawnSync('/usr/bin/python3', [SCRIPT], { input: JSON.stringify(cases), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`table-peers.py failed (python3-torch and numpy are needed): ${run.stderr}`);
  const out = {};
  for (const [name, { rows, dim, data }] of Object.entries(JSON.parse(run.stdout))) {
    const bytes = Buffer.from(data, 'base64');
    const table = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    out[name] = { rows, dim, table };
  }
  return out;
}
