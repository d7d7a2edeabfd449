// identify() names the recipe a table was computed with, on tables made by the
// peers' own code (tests/support/table-peers.py, torch and numpy): numpy's
// float64 recipe (np.exp(np.arange(0, d, 2) * (-np.log(base) / d)), float64
// angles and sin/cos, then cast) and the PyTorch tutorial's float32 recipe,
// whose sin and cos are not correctly rounded (an ulp off at some cells). Where
// the rows cannot tell numpy's recipe from exact values, both are said.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, identify } from '../src/js/index.js';
import { peerTables } from './support/table-peers.js';

const CASES = [
  { name: 'tutorial 2048 x 256', maker: 'tutorial', args: [2048, 256] },
  { name: 'tutorial base 7, dim 66', maker: 'tutorial', args: [1024, 66, 7] },
  { name: 'tutorial base 1e9', maker: 'tutorial', args: [1024, 128, 1e9] },
  { name: 'numpy 2048 x 256', maker: 'numpy64', args: [2048, 256] },
  { name: 'numpy at 1e6', maker: 'numpy64', args: [2048, 256, 10000, 1000000] },
  { name: 'numpy base 1e9 at 1e8', maker: 'numpy64', args: [512, 64, 1e9, 100000000] },
];

let tables;
test.before(async () => {
  await init();
  tables = peerTables(CASES);
});

const id = (name) => {
  const { rows, dim, table } = tables[name];
  return identify(table, { rows, dim });
};

test("PyTorch's float32 sin/cos: named, every cell within an ulp, some not bit for bit", () => {
  for (const name of ['tutorial 2048 x 256', 'tutorial base 7, dim 66', 'tutorial base 1e9']) {
    const r = id(name);
    assert.ok(r.identified, `${name}: ${r.verdict}`);
    assert.ok(r.recipe.startsWith('float32-angle'), `${name}: ${r.recipe}`);
    assert.is(r.sinCorrectlyRounded, false, `${name}: ${r.verdict}`);
    assert.ok(r.recipeExactShare < r.recipeMatch && r.recipeExactShare > 0.8, `${name}: ${r.recipeExactShare}`);
    assert.match(r.verdict, /not correctly rounded \(PyTorch's\)/);
  }
});

test("numpy's float64 recipe: named, alone where the rows tell it, beside exact where they do not", () => {
  const far = id('numpy base 1e9 at 1e8');
  assert.ok(far.identified, far.verdict);
  assert.is(far.recipe, 'float64-numpy', far.verdict);
  assert.is(far.offset, 100000000);
  for (const name of ['numpy 2048 x 256', 'numpy at 1e6']) {
    const r = id(name);
    assert.ok(r.identified, `${name}: ${r.verdict}`);
    const both = [r.recipe, r.recipeTied].sort().join(' ');
    assert.is(both, 'exact float64-numpy', `${name}: ${r.verdict}`);
    assert.match(r.verdict, /or .*numpy.*: these rows do not tell|or exact values.*: these rows do not tell/);
  }
});

test.run();
