// The dot product of two rows, in double: the inner loop of every cosine
// matrix on the page. It is a function of its own on purpose: written inline
// in the matrix's nested loops, V8 compiled that inner loop alone (on-stack
// replacement) and left the compiled code at every exit of it, so now and then
// one matrix ran at interpreter speed for 400 ms in the middle of a drag. A
// small function called W² times is compiled whole, like any other.

/** a[ra … ra+dim) · b[rb … rb+dim), summed in order. */
export function rowDot(a, ra, b, rb, dim) {
  let sum = 0;
  for (let j = 0; j < dim; j++) sum += a[ra + j] * b[rb + j];
  return sum;
}
