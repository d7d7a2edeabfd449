// Seeded random numbers for the tests (mulberry32: small, fast, good enough to
// pick test inputs). The seed comes from POSENC_SEED or chance and is printed,
// so a failing sweep replays with POSENC_SEED=<seed>.

export function seedFromEnv(name = 'POSENC_SEED') {
  const given = process.env[name];
  if (given !== undefined && given !== '') {
    const s = Number(given);
    if (!Number.isInteger(s) || s < 0 || s >= 2 ** 32) throw new Error(`${name} must be an integer 0 ... 2^32-1`);
    return s;
  }
  return Math.floor(Math.random() * 2 ** 32);
}

export function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), // lo ... hi inclusive
    pick: (list) => list[Math.floor(next() * list.length)],
    logUniform: (lo, hi) => Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo))),
  };
}

/** A generator for one test file, its seed printed under `name`. */
export function rng(name) {
  const seed = seedFromEnv();
  console.log(`${name}: seed ${seed} (replay with POSENC_SEED=${seed})`);
  const g = generator(seed);
  return {
    next: g.next,
    int: (n) => Math.floor(g.next() * n), // 0 ... n-1
    /** n floats in [-range, range]. */
    floats: (n, range = 4) => Float32Array.from({ length: n }, () => (g.next() * 2 - 1) * range),
  };
}
