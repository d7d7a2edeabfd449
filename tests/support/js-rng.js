// Seeded random numbers for the JS tests. The seed comes from POSENC_SEED or
// the clock and is printed, so a failure can be replayed.

/** mulberry32: small, fast, good enough to pick test inputs. */
export function rng(name) {
  const seed = Number(process.env.POSENC_SEED ?? (Date.now() % 2 ** 31));
  console.log(`${name}: seed ${seed} (replay with POSENC_SEED=${seed})`);
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
    int: (n) => Math.floor(next() * n),
    /** n floats in [-range, range]. */
    floats: (n, range = 4) => Float32Array.from({ length: n }, () => (next() * 2 - 1) * range),
  };
}
