// float16 bits widened to float32 bits, exactly: used by precision's
// bitsToFloat32 and by learned's readers of float16 tensors.

/** float16 bits -> the float32 with the same value (every half is one), as float32 bits. */
export function halfToFloatBits(h) {
  const sign = (h & 0x8000) << 16;
  const exponent = (h >> 10) & 0x1f;
  let mantissa = h & 0x3ff;
  if (exponent === 0x1f) return (sign | 0x7f800000 | (mantissa << 13)) >>> 0; // inf, NaN
  if (exponent !== 0) return (sign | ((exponent + 112) << 23) | (mantissa << 13)) >>> 0;
  if (mantissa === 0) return sign >>> 0;
  let shift = 0; // subnormal half: normalise, 1.f * 2^(-14 - shift)
  while ((mantissa & 0x400) === 0) {
    mantissa <<= 1;
    shift++;
  }
  return (sign | ((113 - shift) << 23) | ((mantissa & 0x3ff) << 13)) >>> 0;
}
