// A small seeded generator (mulberry32), so a failing random sweep replays
// with POSENC_SEED=<seed>.

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
