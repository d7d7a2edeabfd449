// T5's relative position bucket, transcribed from its own code (HF
// transformers T5Attention._relative_position_bucket; mesh-tensorflow's
// _relative_position_bucket is the same computation) element by element,
// with torch's float32 operations spelled out by Math.fround. The one step JS
// cannot do exactly is the float32 log: Math.log (double, under 1 ulp) rounded
// to float32 is the correctly rounded float32 log unless the double lies
// within 2^-45 of a midpoint between two floats; those arguments are sent to
// quad precision (build/test/log_scan at). Independent of src/core/relative.
import { spawnSync } from 'node:child_process';
import { LOG_SCAN } from './relative-harness.js';

const f = Math.fround;
const quadLogs = new Map(); // float32 argument -> float32 log decided in quad precision

/** Distance from d to the nearest midpoint between float32 r and a neighbour, relative to |d|. */
function midpointDistance(d, r) {
  const bits = new Float32Array([r]);
  const u = new Uint32Array(bits.buffer);
  const at = (k) => {
    u[0] = k;
    return bits[0];
  };
  const base = u[0];
  const up = (r + at(base + 1)) / 2,
    down = r > 0 ? (r + at(base - 1)) / 2 : up;
  return Math.min(Math.abs(d - up), Math.abs(d - down)) / Math.abs(d);
}

/** Decides the arguments double precision cannot, in one quad-precision run (before logF32 meets them). */
export function prepareLogs(args) {
  const hard = Float32Array.from(
    args.filter((x) => {
      const d = Math.log(x);
      return d !== 0 && !quadLogs.has(x) && midpointDistance(d, f(d)) < 2 ** -45;
    }),
  );
  if (hard.length === 0) return 0;
  const run = spawnSync(LOG_SCAN, ['at'], { input: Buffer.from(hard.buffer) });
  if (run.status !== 0) throw new Error(`log_scan at exited ${run.status}: ${run.stderr}`);
  const logs = new Float32Array(
    run.stdout.buffer.slice(run.stdout.byteOffset, run.stdout.byteOffset + run.stdout.length),
  );
  hard.forEach((x, k) => quadLogs.set(x, logs[k]));
  return hard.length;
}

/** torch.log on a float32 x >= 1, correctly rounded (which torch's agrees with where buckets can tell, README). */
function logF32(x) {
  const d = Math.log(x);
  if (d !== 0 && midpointDistance(d, f(d)) < 2 ** -45) {
    if (!quadLogs.has(x)) throw new Error(`log(${x}) needs quad precision: call prepareLogs first`);
    return quadLogs.get(x);
  }
  return f(d);
}

/** The float32 arguments of the log for these distances (for prepareLogs). */
export function logArguments(distances, numBuckets, bidirectional) {
  const maxExact = Math.floor(Math.floor(numBuckets / (bidirectional ? 2 : 1)) / 2);
  return distances.filter((n) => n >= maxExact).map((n) => f(f(n) / maxExact));
}

/**
 * _relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance)
 * for one relative position (key - query), line by line.
 */
export function t5Bucket(relativePosition, bidirectional, numBuckets, maxDistance) {
  let relativeBuckets = 0;
  let n = relativePosition;
  if (bidirectional) {
    numBuckets = Math.floor(numBuckets / 2);
    relativeBuckets += (n > 0 ? 1 : 0) * numBuckets;
    n = Math.abs(n);
  } else {
    n = -Math.min(n, 0);
  }
  const maxExact = Math.floor(numBuckets / 2);
  const isSmall = n < maxExact;
  // torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
  const logRatio = f(Math.log(maxDistance / maxExact)); // a Python float, cast to the tensor's float32
  const scaled = f(f(logF32(f(f(n) / maxExact)) / logRatio) * (numBuckets - maxExact));
  const ifLarge = Math.min(maxExact + Math.trunc(scaled), numBuckets - 1); // .to(torch.long) truncates
  return relativeBuckets + (isSmall ? n : ifLarge);
}

/** compute_bias's grid: row i at key position offset + i, key j; relative position j - (offset + i). */
export function t5Grid({ queryLength, keyLength, offset, numBuckets, maxDistance, bidirectional }) {
  const distances = new Set();
  for (let i = 0; i < queryLength; i++) for (let j = 0; j < keyLength; j++) distances.add(Math.abs(j - offset - i));
  prepareLogs(logArguments([...distances], numBuckets, bidirectional));
  const out = new Int32Array(queryLength * keyLength);
  for (let i = 0; i < queryLength; i++) {
    for (let j = 0; j < keyLength; j++)
      out[i * keyLength + j] = t5Bucket(j - offset - i, bidirectional, numBuckets, maxDistance);
  }
  return out;
}
