// Splits a run of positions into chunks for the staging region. The core
// reseeds its sin/cos recurrence every 64 absolute positions, so chunks end on
// multiples of 64 whenever they hold at least 64 rows, and never straddle a
// 64-position block when they hold fewer.

export const BLOCK = 64;

/**
 * Calls visit(start, rows) for consecutive chunks covering [first, first + length).
 * @param {number} first     absolute position of the first row
 * @param {number} length    number of rows
 * @param {number} maxRows   most rows one chunk may hold (>= 1)
 * @param {(start: number, rows: number) => void} visit
 */
export function forEachChunk(first, length, maxRows, visit) {
  const end = first + length;
  for (let start = first; start < end;) {
    let next =
      maxRows >= BLOCK
        ? Math.floor((start + maxRows) / BLOCK) * BLOCK
        : Math.min(start + maxRows, (Math.floor(start / BLOCK) + 1) * BLOCK);
    if (next > end) next = end;
    visit(start, next - start);
    start = next;
  }
}
