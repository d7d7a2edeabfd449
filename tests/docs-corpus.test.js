// The README's corpus table is the one tests/support/corpus-table.js generates
// from the corpus now: it fails when a config, the index or posenc's answer
// changed and the table was not regenerated (node tests/support/corpus-table.js --write).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { instantiate } from '../src/js/index.js';
import { corpusTable, withTable } from './support/corpus-table.js';

const posenc = await instantiate({ simd: true });

test("the README's corpus table is up to date", () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const fresh = withTable(readme, corpusTable(posenc));
  assert.ok(fresh === readme, 'README.md: the corpus table is stale; run node tests/support/corpus-table.js --write');
});

test.run();
