// The four builds (native scalar, native SIMD, wasm SIMD, wasm scalar) give
// the same bits, and within a build a value depends only on (p, i, d, T,
// layout): a table, a table at another offset, a position list and the add
// on zeros agree. The adds are checked against x·scale + PE done in float32.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate } from '../src/js/index.js';
import { sameBits, compared } from './support/builds-bits.js';
import { runBuilds, assertBuildsAgree, describe } from './support/builds-run.js';
import { generator, seedFromEnv } from './support/random.js';
import { sweep } from './support/quick.js';

const slow = sweep(test); // a long sweep: left out of the fast family loop (support/quick.js)

const seed = seedFromEnv();
console.log(`sinusoid-builds.test.js: seed ${seed} (replay with POSENC_SEED=${seed})`);
const rng = generator(seed);

const wasm = { simd: await instantiate({ simd: true }), scalar: await instantiate({ simd: false }) };

const DIMS = Array.from({ length: 17 }, (_, k) => 2 * (k + 1)); // 2 ... 34
const LENGTHS = [...Array.from({ length: 18 }, (_, k) => k), 63, 64, 65, 127, 128, 129];
const MAX = 2 ** 31;
const offsetsFor = (length) => [0, 1, 63, 64, 65, 1000, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, MAX - length];
const BASES = [2, 1e4, 1e7];
const LAYOUTS = ['interleaved', 'split'];

// Random x with the awkward values an add meets: signed zeros, infinities,
// subnormals, huge and tiny magnitudes (no NaN: its bits are not portable).
function randomX(count) {
  const x = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const u = rng.next();
    if (u < 0.03) x[k] = rng.pick([0, -0, Infinity, -Infinity, 1e-45, -1e-45, 1.1754942e-38, 3.4e38, -3.4e38]);
    else if (u < 0.15) x[k] = (rng.next() - 0.5) * 2 ** rng.int(-150, 127);
    else x[k] = rng.next() * 8 - 4;
  }
  return x;
}

function shuffled(list) {
  const a = list.slice();
  for (let k = a.length - 1; k > 0; k--) {
    const j = rng.int(0, k);
    [a[k], a[j]] = [a[j], a[k]];
  }
  return a;
}

const range = (offset, length) => Array.from({ length }, (_, r) => offset + r);
const rows = (table, dim, first, count) => table.subarray(first * dim, (first + count) * dim);

// float(float(x * scale) + pe[k mod pe.length]), in JS float32 arithmetic.
function addExpected(x, pe, scale) {
  const s = Math.fround(scale);
  const out = new Float32Array(x.length);
  for (let k = 0; k < x.length; k++) out[k] = Math.fround(Math.fround(x[k] * s) + pe[k % pe.length]);
  return out;
}

test('the package gives a SIMD and a scalar wasm instance', () => {
  assert.is(wasm.simd.simd, true, 'instantiate({simd: true}) is not running the SIMD module');
  assert.is(wasm.scalar.simd, false, 'instantiate({simd: false}) is running the SIMD module');
});

slow('tables: every even d 2..34, lengths 0..17 and 63..129, ten offsets, both layouts, three bases', () => {
  const before = compared.values;
  let requests = 0;
  for (const base of BASES) {
    const reqs = [];
    for (const layout of LAYOUTS)
      for (const dim of DIMS)
        for (const length of LENGTHS)
          for (const offset of offsetsFor(length)) reqs.push({ op: 'table', dim, base, layout, offset, length });
    assertBuildsAgree(reqs, runBuilds(reqs, wasm));
    requests += reqs.length;
  }
  const n = compared.values - before;
  console.log(`tables: ${requests} shapes on 4 builds, ${n} values compared`);
  assert.ok(requests === 3 * 2 * 17 * 24 * 10 && n > 3e7, `only ${requests} shapes, ${n} values`);
});

// For one table shape: the same rows as a shuffled position list, as an add
// onto -0 (x = -0 gives PE's bits exactly, even for a -0 PE), and inside a
// longer table that starts earlier.
function consistencyRequests(t) {
  const { dim, base, layout, offset, length } = t;
  const before = Math.min(offset, 3);
  const after = Math.min(MAX - offset - length, 2);
  const positions = shuffled(range(offset, length));
  return [
    t,
    { op: 'at', dim, base, layout, positions },
    { op: 'add', dim, base, layout, offset, length, scale: 1, x: new Float32Array(2 * length * dim).fill(-0) },
    { op: 'table', dim, base, layout, offset: offset - before, length: before + length + after, before },
  ];
}

function assertConsistent(group, out, build) {
  const [t, at, add, wide] = group;
  const [table, atOut, addOut, wideOut] = out;
  const d = t.dim;
  const what = `${build} ${describe(t)}`;
  at.positions.forEach((p, k) =>
    sameBits(rows(atOut, d, k, 1), rows(table, d, p - t.offset, 1), `${what}: at position ${p}`, d),
  );
  sameBits(addOut.subarray(0, table.length), table, `${what}: add on -0, batch 0`, d);
  sameBits(addOut.subarray(table.length), table, `${what}: add on -0, batch 1`, d);
  sameBits(rows(wideOut, d, wide.before, t.length), table, `${what}: inside the table at offset ${wide.offset}`, d);
}

slow('within every build, table = position list = add on zeros = a table at a shifted offset', () => {
  const before = compared.values;
  let shapes = 0;
  for (const base of BASES) {
    const groups = [];
    for (const layout of LAYOUTS)
      for (const dim of DIMS)
        for (const length of LENGTHS)
          for (const offset of [0, 65, 2 ** 24 - 1, MAX - length])
            groups.push(consistencyRequests({ op: 'table', dim, base, layout, offset, length }));
    const reqs = groups.flat();
    const results = runBuilds(reqs, wasm);
    assertBuildsAgree(reqs, results);
    for (const [build, out] of Object.entries(results))
      groups.forEach((g, k) => assertConsistent(g, out.slice(4 * k, 4 * k + 4), build));
    shapes += groups.length;
  }
  const n = compared.values - before;
  console.log(`consistency: ${shapes} shapes x 4 ways on 4 builds, ${n} values compared`);
  assert.ok(shapes === 3 * 2 * 17 * 24 * 4 && n > 3e7, `only ${shapes} shapes, ${n} values`);
});

slow('add in place, scale 1 and sqrt(d): all builds, and x·scale + PE in float32', () => {
  const before = compared.values;
  const reqs = [];
  for (const layout of LAYOUTS)
    for (const dim of DIMS)
      for (const length of [0, 1, 3, 4, 5, 17, 63, 64, 65, 129])
        for (const offset of [0, 1000, 2 ** 24, MAX - length])
          for (const scale of [1, Math.sqrt(dim)]) {
            const base = rng.pick(BASES);
            const x = randomX(rng.int(1, 3) * length * dim);
            reqs.push({ op: 'table', dim, base, layout, offset, length });
            reqs.push({ op: 'add', dim, base, layout, offset, length, scale, x, viaAlloc: rng.next() < 0.25 });
          }
  const results = runBuilds(reqs, wasm);
  assertBuildsAgree(reqs, results);
  const ref = results['native scalar'];
  for (let k = 0; k < reqs.length; k += 2) {
    const r = reqs[k + 1];
    sameBits(ref[k + 1], addExpected(r.x, ref[k], r.scale), `add vs float32 formula, ${describe(r)}`, r.dim);
  }
  const n = compared.values - before;
  console.log(`add: ${reqs.length / 2} shapes on 4 builds, ${n} values compared`);
  assert.ok(n > 5e6, `only ${n} values compared`);
});

// The SIMD recurrence takes 512 columns at a time through a block
// (PE_COLUMN_BAND, sinusoid/plan.h): widths of one band and a bit, several
// bands, and a last band of four columns with the two scalar ones after it,
// rows short of a group and offsets inside a block, in both roundings (the
// correct one settles values inside a band's groups).
test('tables wider than a column band: all builds agree, fast and correct rounding', () => {
  const before = compared.values;
  const reqs = [];
  for (const dim of [514, 1030, 1536, 2052])
    for (const layout of LAYOUTS)
      for (const [offset, length] of [
        [0, 1],
        [5, 71],
        [2 ** 24 - 3, 130],
      ])
        reqs.push({ op: 'table', dim, base: 1e4, layout, offset, length });
  try {
    for (const mode of ['fast', 'correct']) {
      for (const inst of Object.values(wasm)) inst.setRounding(mode);
      if (mode === 'correct') process.env.PE_ROUNDING = 'correct';
      assertBuildsAgree(reqs, runBuilds(reqs, wasm));
    }
  } finally {
    for (const inst of Object.values(wasm)) inst.setRounding('fast');
    delete process.env.PE_ROUNDING;
  }
  const n = compared.values - before;
  console.log(`column bands: ${reqs.length} shapes in two roundings on 4 builds, ${n} values compared`);
  assert.ok(n > 1e6, `only ${n} values compared`);
});

test('addTable, every d 1..34: all builds, and x·scale + table in float32', () => {
  const before = compared.values;
  const reqs = [];
  for (let dim = 1; dim <= 34; dim++)
    // a learned table may have an odd dim
    for (const length of [0, 1, 2, 5, 16, 17, 64, 65])
      for (const offset of [0, 1, 7])
        for (const scale of [1, Math.sqrt(dim), 0.37]) {
          const rowCount = offset + length + rng.int(0, 3);
          const table = Float32Array.from({ length: rowCount * dim }, () => rng.next() * 2 - 1);
          const x = randomX(rng.int(1, 3) * length * dim);
          reqs.push({
            op: 'addtable',
            length,
            dim,
            rows: rowCount,
            offset,
            scale,
            x,
            table,
            viaAlloc: rng.next() < 0.25,
          });
        }
  const results = runBuilds(reqs, wasm);
  assertBuildsAgree(reqs, results);
  for (const [k, r] of reqs.entries()) {
    const used = rows(r.table, r.dim, r.offset, r.length);
    sameBits(
      results['native scalar'][k],
      addExpected(r.x, used, r.scale),
      `addTable vs float32 formula, ${describe(r)}`,
      r.dim,
    );
  }
  const n = compared.values - before;
  console.log(`addTable: ${reqs.length} shapes on 4 builds, ${n} values compared`);
  assert.ok(n > 1e6, `only ${n} values compared`);
});

// A random shape: any even d up to 8192, offsets anywhere below 2^31 with a
// bias to the awkward places, bases from just above 1 to 1e9.
function randomShape() {
  const kind = rng.next();
  const dim = 2 * (kind < 0.5 ? rng.int(1, 40) : kind < 0.9 ? rng.int(41, 512) : rng.int(513, 4096));
  const length = dim > 1024 ? rng.int(0, 20) : rng.int(0, 300);
  const where = rng.next();
  let offset;
  if (where < 0.3) offset = rng.int(0, MAX - length);
  else if (where < 0.5) offset = Math.max(0, Math.min(MAX - length, 2 ** 24 + rng.int(-300, 300)));
  else if (where < 0.7) offset = Math.max(0, Math.min(MAX - length, 64 * rng.int(0, 2 ** 25) + rng.int(-2, 2)));
  else if (where < 0.85) offset = rng.int(0, 5000);
  else offset = MAX - length - rng.int(0, Math.min(100, MAX - length));
  const base = rng.next() < 0.5 ? rng.pick([2, 10, 1e4, 1e5, 1e7]) : rng.logUniform(1.001, 1e9);
  return { op: 'table', dim, base, layout: rng.pick(LAYOUTS), offset, length, viaAlloc: rng.next() < 0.3 };
}

slow('seeded random shapes: all builds and all four ways agree', () => {
  const before = compared.values;
  const groups = [];
  const extra = [];
  for (let k = 0; k < 150; k++) {
    const t = randomShape();
    const g = consistencyRequests(t);
    g.forEach((r) => {
      r.viaAlloc = t.viaAlloc;
    });
    groups.push(g);
    // Positions anywhere below 2^31, repeated ones included, and a scaled add.
    const positions = Array.from({ length: rng.int(0, 200) }, () =>
      rng.pick([0, MAX - 1, rng.int(0, MAX - 1), rng.int(0, 2 ** 24)]),
    );
    extra.push({
      op: 'at',
      dim: t.dim,
      base: t.base,
      layout: t.layout,
      positions: [...positions, ...positions.slice(0, 5)],
    });
    const scale = rng.pick([1, Math.sqrt(t.dim), rng.next() * 10 - 5]);
    const x = randomX(rng.int(0, 2) * t.length * t.dim);
    extra.push({
      op: 'add',
      dim: t.dim,
      base: t.base,
      layout: t.layout,
      offset: t.offset,
      length: t.length,
      scale,
      x,
      viaAlloc: rng.next() < 0.3,
    });
  }
  const reqs = [...groups.flat(), ...extra];
  const results = runBuilds(reqs, wasm);
  assertBuildsAgree(reqs, results);
  for (const [build, out] of Object.entries(results)) {
    groups.forEach((g, k) => assertConsistent(g, out.slice(4 * k, 4 * k + 4), build));
  }
  const ref = results['native scalar'];
  groups.forEach((g, k) => {
    const add = extra[2 * k + 1];
    sameBits(
      ref[groups.length * 4 + 2 * k + 1],
      addExpected(add.x, ref[4 * k], add.scale),
      `random add, ${describe(add)}`,
      add.dim,
    );
  });
  const n = compared.values - before;
  console.log(
    `random (seed ${seed}): ${groups.length} shapes, ${reqs.length} requests on 4 builds, ${n} values compared`,
  );
  assert.ok(n > 1e6, `only ${n} values compared`);
});

test.run();
