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

const TWO_1074 = 1n << 1074n;

/** The float32 just above and just below a finite float32. */
function neighbours(v) {
  f32[0] = v;
  const bits = u32[0];
  if ((bits & 0x7fffffff) === 0) return [2 ** -149, -(2 ** -149)];
  const away = new Float32Array(new Uint32Array([bits + 1]).buffer)[0];
  const toward = new Float32Array(new Uint32Array([bits - 1]).buffer)[0];
  return [away, toward];
}

/** A finite double as integer * 2^-1074 (every double is one). */
function doubleScaled(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = bits & 0xfffffffffffffn;
  const magnitude = exponent === 0 ? mantissa : (mantissa | (1n << 52n)) << BigInt(exponent - 1);
  return bits >> 63n ? -magnitude : magnitude;
}

/**
 * True when num/den (den > 0) lies within `slack` (a double) of a point
 * halfway between the float32 nearest it and a neighbour: the only places
 * where a double computation, rounded once more to float32, may land on the
 * other neighbour.
 */
export function nearFloat32Tie(num, den, slack) {
  const v = float32Of(num, den);
  const slackScaled = doubleScaled(slack);
  for (const other of neighbours(v)) {
    // value - midpoint = (num * 2^150 - (V + O) * den) / (den * 2^150), V, O the float32s times 2^149
    const diff = num * 2n * TWO_149 - (float32Scaled(v) + float32Scaled(other)) * den;
    const magnitude = diff < 0n ? -diff : diff;
    if (magnitude * TWO_1074 <= slackScaled * den * 2n * TWO_149) return true;
  }
  return false;
}
