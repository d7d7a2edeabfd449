// An independent reference for rounding float64 to narrow binary formats:
// exact rational arithmetic with BigInt (a = M * 2^E, divided by the format's
// ulp with the remainder compared to half), not the core's bit tricks.
// Checked against Math.fround on float32 in tests/precision-tables.test.js.

export const FORMATS = {
  float16: { t: 10, bias: 15, signBit: 2 ** 15 }, // IEEE binary16
  bfloat16: { t: 7, bias: 127, signBit: 2 ** 15 }, // the top half of a float32
  float32: { t: 23, bias: 127, signBit: 2 ** 31 }, // only to check this reference against Math.fround
};

const scratch = new DataView(new ArrayBuffer(8));

/** { M: BigInt, E } with |x| = M * 2^E exactly, for finite nonzero x. */
function decompose(x) {
  scratch.setFloat64(0, Math.abs(x));
  const hi = scratch.getUint32(0),
    lo = scratch.getUint32(4);
  const field = hi >>> 20;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return field === 0 ? { M: fraction, E: -1074 } : { M: fraction | (1n << 52n), E: field - 1075 };
}

const bitLength = (n) => n.toString(2).length;

/**
 * The bit pattern of the value nearest x in the format, ties to even;
 * NaN for NaN (callers compare "is NaN").
 */
export function referenceRound(x, { t, bias, signBit }) {
  const inf = (2 * bias + 1) * 2 ** t;
  if (Number.isNaN(x)) return NaN;
  const sign = x < 0 || Object.is(x, -0) ? signBit : 0;
  if (x === 0) return sign;
  if (!Number.isFinite(x)) return sign + inf;
  const { M, E } = decompose(x);
  let k = Math.max(bitLength(M) - 1 + E, 1 - bias); // the binade's exponent, subnormals share 1 - bias
  const s = E - k + t; // x / 2^(k - t) = M * 2^s
  let q;
  if (s >= 0) {
    q = M << BigInt(s);
  } else {
    const d = BigInt(-s);
    q = M >> d;
    const rest = M - (q << d),
      half = 1n << (d - 1n);
    if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  }
  const one = 1n << BigInt(t);
  if (q === one << 1n) {
    q = one;
    k += 1;
  }
  if (k > bias) return sign + inf;
  if (q < one) return sign + Number(q); // subnormal (k = 1 - bias)
  return sign + (k + bias) * 2 ** t + Number(q - one);
}

/** The exact value of a bit pattern of the format (NaN patterns give NaN). */
export function decode(bits, { t, bias, signBit }) {
  const sign = bits >= signBit ? -1 : 1;
  const magnitude = bits % signBit;
  const field = Math.floor(magnitude / 2 ** t),
    fraction = magnitude % 2 ** t;
  if (field === 2 * bias + 1) return fraction ? NaN : sign * Infinity;
  if (field === 0) return sign * fraction * 2 ** (1 - bias - t);
  return sign * (2 ** t + fraction) * 2 ** (field - bias - t);
}

export const isNaNBits = (bits, { t, bias }) => (bits & 0x7fff) > (2 * bias + 1) << t;

/** The doubles just above and below x (x finite). */
export function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  scratch.setFloat64(0, x);
  const big = scratch.getBigUint64(0);
  scratch.setBigUint64(0, x > 0 ? big + 1n : big - 1n);
  return scratch.getFloat64(0);
}
export const nextDown = (x) => -nextUp(-x);

/** The pattern of the next value of the format above (dir = 1) or below (dir = -1) bits. */
function step(bits, dir) {
  const negative = (bits & 0x8000) !== 0,
    magnitude = bits & 0x7fff;
  if (magnitude === 0) return dir > 0 ? 0x0001 : 0x8001; // from either zero
  return dir > 0 !== negative ? bits + 1 : bits - 1;
}

/**
 * How far the exact value (a finite double) lies from the midpoint between
 * its two neighbouring values in the format; Infinity when it is one of them.
 * The midpoint of two values of at most 24 significant bits is exact in double.
 */
export function midpointDistance(exact, format) {
  const nearest = referenceRound(exact, format);
  const v = decode(nearest, format);
  if (v === exact) return Infinity;
  const other = step(nearest, exact > v ? 1 : -1);
  let w = decode(other, format);
  if (!Number.isFinite(w)) w = v + (v - decode(step(nearest, exact > v ? -1 : 1), format)); // past the largest value
  return Math.abs(exact - (v + w) / 2);
}

/** The two neighbouring patterns of a finite double in the format (equal when it is a value of the format). */
export function neighbours(exact, format) {
  const nearest = referenceRound(exact, format);
  const v = decode(nearest, format);
  return v === exact ? [nearest, nearest] : [nearest, step(nearest, exact > v ? 1 : -1)];
}
