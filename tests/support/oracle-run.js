// Runs build/test/oracle (quad precision, see tests/oracle/oracle.c).
// Async, so independent oracle runs share the machine's cores.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ORACLE = fileURLToPath(new URL('../../build/test/oracle', import.meta.url));

function run(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(ORACLE, args);
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`oracle ${args.join(' ')} exited ${code}: ${Buffer.concat(err)}`));
      const buf = Buffer.concat(out);
      resolve(new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)));
    });
    child.stdin.on('error', () => {}); // an early exit is reported by 'close'
    child.stdin.end(input);
  });
}

// length x dim exact values (rounded to double) of rows offset ... offset+length-1.
// frequencies: 'paper' (default) or 'tensor2tensor'.
export function oracleTable({ dim, base, layout = 'interleaved', offset = 0, length, frequencies = 'paper' }) {
  return run(['table', String(dim), String(base), layout, String(offset), String(length), frequencies]);
}

// The rows of the given positions.
export function oracleAt(positions, { dim, base, layout = 'interleaved', frequencies = 'paper' }) {
  const p = Uint32Array.from(positions);
  return run(['at', String(dim), String(base), layout, frequencies], Buffer.from(p.buffer, p.byteOffset, p.byteLength));
}

/** Oracle rows [sin | cos] (float64) at positions for given float64 frequencies w (oracle freqs HALF). */
export function oracleGiven(w, positions) {
  const input = Buffer.concat([
    Buffer.from(Float64Array.from(w).buffer),
    Buffer.from(Uint32Array.from(positions).buffer),
  ]);
  const run = spawnSync(ORACLE, ['freqs', String(w.length)], { input, maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`oracle freqs: ${run.stderr}`);
  return new Float64Array(run.stdout.buffer.slice(run.stdout.byteOffset, run.stdout.byteOffset + run.stdout.length));
}
