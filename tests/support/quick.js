// The fast family loop's switch: `npm run test:family -- NAME` sets
// POSENC_QUICK=1 (tests/run-family.js), and the long exhaustive sweeps a file
// marks with sweep(test) are then left out, each named on the output; `npm
// test` (and run-family --all) runs them. A sweep is a whole test, never a
// smaller version of one: every test that runs asserts exactly what it
// asserts in the full suite.

/** Whether this run leaves the long sweeps out (only the fast family loop does). */
export const QUICK = process.env.POSENC_QUICK === '1';

/**
 * test, or in quick mode a test registrar that names the sweep and registers
 * it skipped (uvu counts it under Skipped). Mark a test a sweep only when it
 * takes seconds and a quicker test of the same file or family still exercises
 * the same code.
 */
export function sweep(test) {
  if (!QUICK) return test;
  return (name, handler) => {
    console.log(`  quick: left out the sweep "${name}" (npm test runs it)`);
    test.skip(name, handler);
  };
}
