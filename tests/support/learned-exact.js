// Exact oracles for the ALiBi and learned-table tests, in BigInt rational
// arithmetic (no floating-point step can hide an error):
//  - float32Of(num, den): the float32 nearest num/den (ties to even);
//  - pow2NegFloat32(p, q): the float32 nearest 2^(-p/q), decided by comparing
//    integer powers (y^q = 2^-p), so no logarithm or exp is involved;
//  - lerpFloat32(a, b, rem, steps): the float32 nearest a + (rem/steps)(b - a).

const bitLength = (n) => (n === 0n ? 0 : n.toString(2).length);

/** float32 nearest num/den, den > 0n; +0 for 0; ±Infinity past the float32 range. */
export function float32Of(num, den) {
  if (num === 0n) return 0;
  const negative = num < 0n;
  const n = negative ? -num : num;
  // e: 2^e <= n/den < 2^(e+1)
  let e = bitLength(n) - bitLength(den);
  if (e >= 0 ? n < den << BigInt(e) : n << BigInt(-e) < den) e--;
  if (e > 127) return negative ? -Infinity : Infinity;
  const shift = 23 - Math.max(e, -126); // 24 significant bits, fewer for subnormals
  const scaledNum = shift >= 0 ? n << BigInt(shift) : n;
  const scaledDen = shift >= 0 ? den : den << BigInt(-shift);
  let m = scaledNum / scaledDen;
  const twiceRest = 2n * (scaledNum - m * scaledDen);
  if (twiceRest > scaledDen || (twiceRest === scaledDen && (m & 1n) === 1n)) m++;
  const value = Number(m) * 2 ** -shift; // exact: m <= 2^24
  return Math.fround(negative ? -value : value); // fround only maps past-the-top to Infinity
}

const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));

/** The float32 nearest 2^(-p/q), p >= 0, q >= 1 integers. */
export function pow2NegFloat32(p, q) {
  const g = gcd(p, q);
  p /= g;
  q /= g;
  if (q === 1) return Math.fround(2 ** -p);
  const e = -Math.ceil(p / q); // 2^e < y < 2^(e+1): y is not a power of two
  // y * 2^(23-e) = 2^(K/q) lies in [2^23, 2^24); its floor M is the largest M with M^q <= 2^K.
  const K = (23 - e) * q - p;
  const twoK = 1n << BigInt(K);
  const Q = BigInt(q);
  let m = BigInt(Math.floor(2 ** (K / q)));
  while (m ** Q > twoK) m--;
  while ((m + 1n) ** Q <= twoK) m++;
  // Round: y > M + 1/2  <=>  (2M+1)^q < 2^(K+q). No ties: y is irrational.
  if ((2n * m + 1n) ** Q < twoK << Q) m++;
  return Math.fround(Number(m) * 2 ** (e - 23));
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** A finite float32 as integer * 2^-149 (every float32 is one). */
export function float32Scaled(v) {
  f32[0] = v;
  const bits = u32[0];
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = BigInt(bits & 0x7fffff);
  const magnitude = exponent === 0 ? mantissa : (mantissa | 0x800000n) << BigInt(exponent - 1);
  return bits >>> 31 ? -magnitude : magnitude;
}

const TWO_149 = 1n << 149n;

/** The float32 nearest a + (rem/steps)(b - a) = (a(steps - rem) + b rem) / steps, a and b finite float32. */
export function lerpFloat32(a, b, rem, steps) {
  const num = float32Scaled(a) * BigInt(steps - rem) + float32Scaled(b) * BigInt(rem);
  return float32Of(num, BigInt(steps) * TWO_149);
}

/**
 * True when num/den lies within `relative` (e.g. 2^-50) of a point halfway
 * between two float32: the only places where a double computation rounded
 * once more to float32 may legitimately land on the other neighbour.
 */
export function nearFloat32Tie(num, den, relative) {
  const v = float32Of(num, den);
  const up = Math.fround(v + Math.abs(v) * 2 ** -23);
  for (const other of [up, Math.fround(v - Math.abs(v) * 2 ** -23)]) {
    const mid = (float32Scaled(v) + float32Scaled(other)); // 2 * midpoint * 2^149
    const diff = num * 2n * TWO_149 - mid * den; // (value - midpoint) * 2 * 2^149 * den
    const bound = BigInt(Math.ceil(relative * 2 ** 60)) * (num < 0n ? -num : num) * 2n * TWO_149 / (1n << 60n);
    if ((diff < 0n ? -diff : diff) <= bound) return true;
  }
  return false;
}
