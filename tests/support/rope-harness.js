// Runs RoPE requests through build/test/harness (or harness-asan) in serve
// mode: one process for a whole sweep. See "RoPE" at the top of
// tests/native/harness.c for the request format.
import { spawnSync } from 'node:child_process';
import { checkScaling } from '../../src/js/rope-scaling.js';

const bytes = (typed) => Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
const TYPES = ['none', 'linear', 'dynamic', 'yarn', 'llama3'];

// GEOMETRY and SCALING words for a rope case { headDim, rotaryDim, heads, base,
// layout, order, inverse, offset, length, scaling, sequenceLength }.
function words(c) {
    const r = c.rotaryDim ?? c.headDim;
    const layout = (c.layout ?? 'half') === 'half' ? 'split' : 'interleaved';
    const geometry = [c.headDim, r, c.heads ?? 1, c.base ?? 10000, layout, c.order ?? 'blhd', c.inverse ? 1 : 0,
        c.offset ?? 0, c.length].join(',');
    const s = checkScaling(c.scaling, r);
    if (s.type === 0 && !c.sequenceLength) return [geometry, 'none'];
    const scaling = [TYPES[s.type], s.factor, s.original, s.betaFast, s.betaSlow, s.attentionFactor, s.mscale,
        s.mscaleAllDim, s.noTruncate, s.low, s.high, c.sequenceLength ?? 0].map(String).join(',');
    return [geometry, scaling];
}

// cases: { ...rope case, x: Float32Array, positions?: number[] } -> the rotated x of each.
// { frequencies: true } instead of x asks for the frequencies: Float64Array (w..., attention factor).
export function serveRope(binary, kernels, cases) {
    const parts = [];
    for (const c of cases) {
        const [geometry, scaling] = words(c);
        if (c.frequencies) {
            parts.push(Buffer.from(`ropefreq ${geometry} ${scaling}\n`));
            continue;
        }
        const positions = c.positions ? Uint32Array.from(c.positions) : new Uint32Array(0);
        parts.push(Buffer.from(`rope ${geometry} ${scaling} ${c.x.length} ${positions.length}\n`), bytes(c.x), bytes(positions));
    }
    const run = spawnSync(binary, ['serve', kernels], {
        input: Buffer.concat(parts),
        maxBuffer: 1 << 30,
        env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0' },
    });
    const stderr = run.stderr ? run.stderr.toString() : '';
    if (run.error) throw run.error;
    if (run.status !== 0 || stderr) throw new Error(`${binary} serve ${kernels} exited ${run.status}: ${stderr.slice(0, 4000)}`);
    const out = run.stdout;
    const results = [];
    let at = 0;
    for (const c of cases) {
        const n = out.readUInt32LE(at);
        at += 4;
        const copy = out.buffer.slice(out.byteOffset + at, out.byteOffset + at + 4 * n);
        results.push(c.frequencies ? new Float64Array(copy) : new Float32Array(copy));
        if (!c.frequencies && n !== c.x.length) throw new Error(`rope request: ${n} floats back, expected ${c.x.length}`);
        at += 4 * n;
    }
    if (at !== out.length) throw new Error(`${out.length - at} unexpected trailing bytes from the harness`);
    return results;
}

// The options object rope() takes for a case.
export function ropeOptions(c) {
    const o = { heads: c.heads ?? 1, headDim: c.headDim, layout: c.layout ?? 'half', order: c.order ?? 'blhd' };
    if (c.rotaryDim !== undefined) o.rotaryDim = c.rotaryDim;
    if (c.base !== undefined) o.base = c.base;
    if (c.inverse) o.inverse = true;
    if (c.scaling) o.scaling = c.scaling;
    if (c.positions) o.positions = c.positions;
    else { o.length = c.length; o.offset = c.offset ?? 0; }
    return o;
}
