// The dot product of two rows, in double: the inner loop of every cosine
// matrix on the page. It is a function of its own on purpose: written inline
// in the matrix's nested loops, V8 compiled that inner loop alone (on-stack
// replacement) and left the compiled code at every exit of it, so now and then
// one matrix ran at interpreter speed for 400 ms in the middle of a drag. A
// small function called W² times is compiled whole, like any other.
//
// Four partial sums, not one: a single running sum waits for each add to finish
// before the next (the adds form one chain), four chains run side by side, about
// twice as fast at d = 2048, where a comparison panel's matrix is 8 million of
// these multiply-adds. The sum is still in double, so its order changes the
// result only in the last bits of a double, far below the float32 rows' own.

/** a[ra … ra+dim) · b[rb … rb+dim), in double: four interleaved partial sums, then the tail. */
export function rowDot(a, ra, b, rb, dim) {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = dim - (dim & 3);
  for (let j = 0; j < end; j += 4) {
    s0 += a[ra + j] * b[rb + j];
    s1 += a[ra + j + 1] * b[rb + j + 1];
    s2 += a[ra + j + 2] * b[rb + j + 2];
    s3 += a[ra + j + 3] * b[rb + j + 3];
  }
  for (let j = end; j < dim; j++) s0 += a[ra + j] * b[rb + j];
  return s0 + s1 + (s2 + s3);
}

/**
 * The dot products of row a[ra …) with the four rows b[rb …), b[rb + dim …), b[rb + 2·dim …), b[rb + 3·dim …),
 * written to out[at … at+3]: each value of a is read once for four rows, and the four sums are four chains side by
 * side. Each sum is in order, so it equals rowDot's of the same two rows to the last bits of a double.
 */
export function rowDots4(a, ra, b, rb, dim, out, at) {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const r1 = rb + dim;
  const r2 = r1 + dim;
  const r3 = r2 + dim;
  for (let j = 0; j < dim; j++) {
    const x = a[ra + j];
    s0 += x * b[rb + j];
    s1 += x * b[r1 + j];
    s2 += x * b[r2 + j];
    s3 += x * b[r3 + j];
  }
  out[at] = s0;
  out[at + 1] = s1;
  out[at + 2] = s2;
  out[at + 3] = s3;
}
