// Where a bench run writes its results: build/bench/ (untracked) by default,
// so trying the bench never changes the stored run the README quotes (and
// tests/docs-figures.test.js holds the README to); bench/ itself with
// --update, when a new stored run is meant (then update the README's figures).
import path from 'node:path';

/** { dir, stored }: the folder for results.json and chart.svg, and whether it is the tracked bench/. */
export function outputDir(root, argv) {
  const stored = argv.includes('--update');
  return { dir: path.join(root, stored ? 'bench' : 'build/bench'), stored };
}
