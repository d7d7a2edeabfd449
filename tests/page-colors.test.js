// The first view's colour table, baked when the site is built (web/vite.config.js's 'virtual:cividis-lut', so the
// first view loads no d3 scheme), is the one the page made at run time before: d3-scale-chromatic's cividis read at
// every entry of a LUT_SIZE table, entry for entry.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpolateCividis } from 'd3-scale-chromatic';
import config from '../web/vite.config.js';
import { LUT_SIZE, buildLut } from '../web/src/draw/lut.js';

/** The virtual module's source, as Vite's build gets it from the plugin. */
async function bakedSource() {
  const plugin = config.plugins.find((p) => p.name === 'posenc-baked-cividis');
  assert.ok(plugin, 'the vite config bakes the cividis table');
  const id = plugin.resolveId('virtual:cividis-lut');
  assert.ok(id, 'the plugin resolves virtual:cividis-lut');
  return plugin.load(id);
}

test('the baked cividis table is d3-scale-chromatic’s cividis at every entry', async () => {
  const source = await bakedSource();
  const hex = JSON.parse(/^export default (".*");$/.exec(source)[1]);
  assert.is(hex.length, LUT_SIZE * 6, 'one rrggbb per entry');
  // The run-time table the views made before, through the page's own builder.
  const want = new Uint8Array(buildLut(interpolateCividis).buffer);
  const wrong = [];
  for (let i = 0; i < LUT_SIZE; i++) {
    const got = [0, 1, 2].map((c) => parseInt(hex.slice(i * 6 + c * 2, i * 6 + c * 2 + 2), 16));
    const expected = [...want.subarray(i * 4, i * 4 + 3)];
    if (got.join() !== expected.join()) wrong.push(`entry ${i}: ${got} vs d3 ${expected}`);
  }
  assert.equal(wrong.slice(0, 5), [], `${wrong.length} entries differ`);
});

test.run();
