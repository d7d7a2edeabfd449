// Runs build/test/harness (or harness-asan) in `serve` mode: one process for
// a whole list of requests. See the top of tests/native/harness/main.c.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const HARNESS = fileURLToPath(new URL('../../build/test/harness', import.meta.url));
export const HARNESS_ASAN = fileURLToPath(new URL('../../build/test/harness-asan', import.meta.url));
export const API_ASAN = fileURLToPath(new URL('../../build/test/api-asan', import.meta.url));

// Exact text for a double (round-trips through strtod) and for a float32
// (its exact double value; strtof then rounds to the same float).
const num = (v) => String(v);
const f32 = (v) => String(Math.fround(v));

const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);

// A request and the number of floats it answers with.
function encode(req) {
  switch (req.op) {
    case 'table':
      return [[`table ${req.dim} ${num(req.base)} ${req.layout} ${req.offset} ${req.length}\n`], req.length * req.dim];
    case 'at':
      return [
        [
          `at ${req.dim} ${num(req.base)} ${req.layout} ${req.positions.length}\n`,
          bytes(Uint32Array.from(req.positions)),
        ],
        req.positions.length * req.dim,
      ];
    case 'add':
      return [
        [
          `add ${req.dim} ${num(req.base)} ${req.layout} ${req.offset} ${req.length} ${f32(req.scale)} ${req.x.length}\n`,
          bytes(req.x),
        ],
        req.x.length,
      ];
    case 'addtable':
      if (req.table.length !== req.rows * req.dim) throw new Error('table size is not rows * dim');
      return [
        [
          `addtable ${req.length} ${req.dim} ${req.rows} ${req.offset} ${f32(req.scale)} ${req.x.length}\n`,
          bytes(req.x),
          bytes(req.table),
        ],
        req.x.length,
      ];
    default:
      throw new Error(`unknown harness op ${req.op}`);
  }
}

// Runs the requests; returns one Float32Array per request, or throws with
// the harness's exit code and stderr. stderr must stay empty (a sanitizer
// that recovers still prints there). encodeRequest turns a request into
// [parts, float count] (other suites bring their own for their commands).
export function serve(binary, kernels, requests, encodeRequest = encode) {
  const parts = [];
  const counts = [];
  for (const req of requests) {
    const [p, n] = encodeRequest(req);
    for (const part of p) parts.push(typeof part === 'string' ? Buffer.from(part) : part);
    counts.push(n);
  }
  const run = spawnSync(binary, ['serve', kernels], {
    input: Buffer.concat(parts),
    maxBuffer: 1 << 30,
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0' },
  });
  const stderr = run.stderr ? run.stderr.toString() : '';
  if (run.error) throw run.error;
  if (run.status !== 0 || stderr) {
    throw new Error(`${binary} serve ${kernels} exited ${run.status} (signal ${run.signal}): ${stderr.slice(0, 4000)}`);
  }
  const out = run.stdout;
  const results = [];
  let at = 0;
  for (let k = 0; k < requests.length; k++) {
    const n = out.readUInt32LE(at);
    if (n !== counts[k]) throw new Error(`request ${k} (${requests[k].op}): ${n} floats, expected ${counts[k]}`);
    at += 4;
    // Copy: the response's offset in stdout need not be 4-aligned.
    results.push(new Float32Array(out.buffer.slice(out.byteOffset + at, out.byteOffset + at + 4 * n)));
    at += 4 * n;
  }
  if (at !== out.length) throw new Error(`${out.length - at} unexpected trailing bytes from the harness`);
  return results;
}

// One-shot run of any harness command; returns { status, stdout, stderr }.
export function runHarness(binary, args, input) {
  const run = spawnSync(binary, args, { input, maxBuffer: 1 << 28 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.toString() };
}

/**
 * Requests on the four builds, by name: native scalar and SIMD through
 * serveKernels(kernels), wasm SIMD and scalar through runWasm(instance, request).
 */
export function fourBuilds(requests, wasm, serveKernels, runWasm) {
  return {
    'native scalar': serveKernels('scalar'),
    'native simd': serveKernels('simd'),
    'wasm simd': requests.map((r) => runWasm(wasm.simd, r)),
    'wasm scalar': requests.map((r) => runWasm(wasm.scalar, r)),
  };
}
