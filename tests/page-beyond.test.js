// The page's sections 6–8 (comparison, RoPE, precision) in Debian's Chromium,
// on the static build, through the same helpers as page-core.test.js. Values the
// page prints are checked against formulas evaluated here (ALiBi's slopes as
// the paper's code defines them, cosines summed in double), not against the
// page's own code.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate } from '../src/js/index.js';
import { npyHeader, float32Bytes } from '../src/js/shared/format.js';
import { toyEmbedding } from '../web/src/compute/toy-embedding.js';
import { downloadBytes } from './support/browser-download.js';
import { browserSession } from './support/browser-session.js';
import {
  allCanvases,
  canvasPrint,
  caughtUp,
  centre,
  checkControlSteps,
  drawEveryView,
  open,
  pressKey,
  query,
  redrawAfter,
  settledBox,
  typeValue,
} from './support/browser-page.js';
import { generator, seedFromEnv } from './support/random.js';

const pe = await instantiate();
const session = browserSession(test);
const { it, noProblems } = session;
let server;
let page;
let files; // temporary directory of generated table files

const seed = seedFromEnv();
console.log(`  page-beyond: seed ${seed} (replay with POSENC_SEED=${seed})`);
const random = generator(seed);

test.before(async () => {
  ({ server, page } = session);
  if (!session.skip) files = await mkdtemp(join(tmpdir(), 'posenc-tables-'));
});

test.after(async () => {
  if (files) await rm(files, { recursive: true, force: true });
});

/** A rows × dim table of seeded normal values (a stand-in for trained weights). */
function randomTable(rows, dim) {
  const table = new Float32Array(rows * dim);
  for (let n = 0; n < table.length; n += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random.next()));
    const angle = 2 * Math.PI * random.next();
    table[n] = radius * Math.cos(angle);
    if (n + 1 < table.length) table[n + 1] = radius * Math.sin(angle);
  }
  return table;
}

const npyBytes = (table, rows, dim) =>
  Buffer.concat([Buffer.from(npyHeader(rows, dim)), Buffer.from(float32Bytes(table))]);

/** A .safetensors file with the table under `name` and a decoy tensor, per the format's README. */
function safetensorsBytes(table, rows, dim, name) {
  const decoy = new Float32Array([1, 2, 3, 4]);
  const header = {
    [name]: { dtype: 'F32', shape: [rows, dim], data_offsets: [0, table.byteLength] },
    'decoy.bias': { dtype: 'F32', shape: [4], data_offsets: [table.byteLength, table.byteLength + 16] },
    __metadata__: { format: 'pt' },
  };
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([
    length,
    Buffer.from(json),
    Buffer.from(table.buffer, table.byteOffset, table.byteLength),
    Buffer.from(decoy.buffer),
  ]);
}

/** Drops bytes as a file on the drop zone, as a drag from the desktop does. */
async function dropFile(bytes, name) {
  await page.evaluate(
    ({ data, fileName }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(data)], fileName));
      const zone = document.getElementById('learned-drop');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    { data: [...bytes], fileName: name },
  );
}

/** Waits until the learned-table status is settled (not "Reading…") and returns [state, text]. */
async function fileStatus() {
  await page.waitForFunction(() => document.getElementById('learned-status').dataset.state !== 'busy');
  return page.$eval('#learned-status', (el) => [el.dataset.state, el.textContent]);
}

/** The similarity cos(PE(i), PE(j)) = Σ cos((j − i)·w_k) / (d/2), summed in double here. */
function sinusoidalCosine(delta, d, base) {
  let sum = 0;
  for (let k = 0; k < d / 2; k++) sum += Math.cos(delta * Math.pow(base, (-2 * k) / d));
  return sum / (d / 2);
}

/** RoPE with q = k: R(i)q · R(j)q / |q|² = Σ_pairs |q_pair|² cos((j − i)·w) / |q|² (adjacent pairs). */
function ropeCosine(delta, d, base, q) {
  let sum = 0;
  let norm = 0;
  for (let k = 0; k < d / 2; k++) {
    const pair = q[2 * k] ** 2 + q[2 * k + 1] ** 2;
    sum += pair * Math.cos(delta * Math.pow(base, (-2 * k) / d));
    norm += pair;
  }
  return sum / norm;
}

/** ALiBi slopes as the paper's get_slopes computes them (github.com/ofirpress/attention_with_linear_biases). */
function paperSlopes(n) {
  const power = (m) => Array.from({ length: m }, (_, h) => 2 ** ((-8 * (h + 1)) / m));
  const p = 2 ** Math.floor(Math.log2(n));
  if (p === n) return power(n);
  return [
    ...power(p),
    ...power(2 * p)
      .filter((_, h) => h % 2 === 0)
      .slice(0, n - p),
  ];
}

it('loads with no console errors; every new canvas and plot draws', async () => {
  await open(page, server.url);
  await drawEveryView(page);
  const canvases = await allCanvases(page);
  for (const id of ['cmp-sin', 'cmp-learned', 'cmp-rope', 'cmp-alibi']) {
    const c = canvases.find((x) => x.name === id);
    assert.ok(c, `${id} exists`);
    assert.ok(c.width > 100 && c.height > 100 && c.colours > 2, `${id}: ${JSON.stringify(c)}`);
  }
  for (const id of [
    'cmp-profile',
    'cmp-alibi-profile',
    'rope-speed',
    'rope-wavelength',
    'rope-bands',
    'precision-plot',
  ]) {
    const print = await canvasPrint(page, `#${id} canvas`);
    assert.ok(print.colours > 2, `${id} is blank`);
  }
  assert.is(await page.textContent('#comparison-error'), '');
  assert.is(await page.textContent('#rope-error'), '');
  assert.is(await page.textContent('#precision-error'), '');
  // The shipped table of the toy transformer replaces the generated stand-in once fetched.
  await page.waitForFunction(() => document.getElementById('learned-status').dataset.state === 'trained');
  assert.match(await page.textContent('#learned-status'), 'a real learned table');
  assert.match(await page.textContent('#learned-status'), 'web/models/train-toy-transformer.js');
  noProblems('first load');
});

it('the comparison readout shows the sinusoidal, RoPE and ALiBi values of the hovered cell', async () => {
  const view = { d: 64, base: 500, heads: 6 };
  await open(page, `${server.url}?d=${view.d}&base=${view.base}&heads=${view.heads}&head=5&cw=40&causal=0`);
  await drawEveryView(page);
  await centre(page, '#cmp-sin');
  const slopes = paperSlopes(view.heads);
  const q = toyEmbedding('rope query', view.d);
  const seen = new Set();
  const readout = page.locator('#cmp-readout');
  for (let n = 0; n < 5; n++) {
    // A random point inside the grid (58 px from the left, 44 from the top, as the view lays it out), placed
    // on the panel where it is now: a loaded page below it may still shift the layout (seen in CI under load).
    const box = await settledBox(page, '#cmp-sin');
    const size = box.width - 58 - 12;
    await page.mouse.move(box.x + 58 + random.next() * size * 0.98, box.y + 44 + random.next() * size * 0.98);
    // 15 s: fresh-clone CI missed 5 s once (the readout came later than the hover while views below loaded).
    await page.waitForFunction(() => /sinusoidal -?\d/.test(document.getElementById('cmp-readout').textContent), null, {
      timeout: 15000,
    });
    const i = Number(await readout.getAttribute('data-i'));
    const j = Number(await readout.getAttribute('data-j'));
    const text = await readout.textContent();
    const value = (label) => Number(text.match(new RegExp(`${label} (-?\\d+\\.\\d{6})`))[1]);
    assert.ok(
      Math.abs(value('sinusoidal') - sinusoidalCosine(j - i, view.d, view.base)) < 2e-6,
      `sinusoidal at ${i}, ${j}: ${text}`,
    );
    assert.ok(Math.abs(value('RoPE') - ropeCosine(j - i, view.d, view.base, q)) < 2e-6, `RoPE at ${i}, ${j}: ${text}`);
    assert.ok(Math.abs(value('ALiBi head 5') + slopes[5] * Math.abs(j - i)) < 1e-6, `ALiBi at ${i}, ${j}: ${text}`);
    seen.add(`${i},${j}`);
  }
  assert.ok(seen.size >= 4, 'the readout follows the pointer');
  // Keyboard: arrows move the read cell; Shift moves 10 at a time and stops at the edges.
  await page.mouse.move(0, 0);
  await page.focus('#cmp-alibi');
  for (let n = 0; n < 5; n++) for (const key of ['Shift+ArrowUp', 'Shift+ArrowLeft']) await page.keyboard.press(key);
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
  const keyed = await page.textContent('#cmp-readout');
  assert.match(keyed, 'query i = 1, key j = 3, offset j − i = 2');
  assert.match(keyed, `ALiBi head 5 ${(-2 * slopes[5]).toFixed(6)}`);
  noProblems('comparison readout');
});

it('a picked .npy and a dropped .safetensors file load and redraw the learned panel', async () => {
  await open(page, server.url);
  await drawEveryView(page);
  const rows = 200;
  const dim = 24;
  const table = randomTable(rows, dim);
  const npyPath = join(files, 'wpe.npy');
  await writeFile(npyPath, npyBytes(table, rows, dim));
  const before = await canvasPrint(page, '#cmp-learned');
  await redrawAfter(page, () => page.setInputFiles('#learned-file', npyPath));
  let [state, text] = await fileStatus();
  assert.is(state, 'loaded', text);
  assert.match(text, `“wpe.npy”: ${rows} × ${dim}, <f4`);
  const fromNpy = await canvasPrint(page, '#cmp-learned');
  assert.not.equal(fromNpy.hash, before.hash, 'the learned panel redrew');
  assert.ok(fromNpy.colours > 2);
  // The window shrinks to the table's rows when asked for more.
  await redrawAfter(page, () => page.fill('#ctl-cw', '300').then(() => page.press('#ctl-cw', 'Enter')));
  // The comparison view draws in steps over several frames; its facts come with the last one.
  await caughtUp(page, '#cmp-facts');
  assert.is(await page.getAttribute('#cmp-facts', 'data-window'), String(rows));
  // The similarity readout of the learned panel is the cosine of the file's rows.
  await centre(page, '#cmp-learned');
  const box = await page.locator('#cmp-learned').boundingBox();
  await page.mouse.move(box.x + 58 + 31.5 * ((box.width - 70) / rows), box.y + 44 + 77.5 * ((box.width - 70) / rows));
  const i = Number(await page.getAttribute('#cmp-readout', 'data-i'));
  const j = Number(await page.getAttribute('#cmp-readout', 'data-j'));
  const learned = Number((await page.textContent('#cmp-readout')).match(/learned (-?\d+\.\d{6})/)[1]);
  assert.ok(Math.abs(learned - cosineRows(table, dim, i, j)) < 2e-6, `learned cos at ${i}, ${j}`);

  // A .safetensors file with two tensors: without a name it says which ones there are.
  const other = randomTable(rows, dim);
  const st = safetensorsBytes(other, rows, dim, 'transformer.wpe.weight');
  await dropFile(st, 'model.safetensors');
  [state, text] = await fileStatus();
  assert.is(state, 'error', text);
  assert.match(text, 'model.safetensors');
  assert.match(text, 'transformer.wpe.weight');
  assert.match(text, 'Still showing “wpe.npy”');
  await redrawAfter(page, async () => {
    await page.fill('#learned-tensor', 'transformer.wpe.weight');
    await page.press('#learned-tensor', 'Enter');
  });
  [state, text] = await fileStatus();
  assert.is(state, 'loaded', text);
  assert.match(text, 'tensor “transformer.wpe.weight”');
  assert.not.equal((await canvasPrint(page, '#cmp-learned')).hash, fromNpy.hash, 'the dropped table redrew the panel');
  noProblems('learned files');
});

function cosineRows(table, dim, i, j) {
  let dot = 0;
  let a = 0;
  let b = 0;
  for (let k = 0; k < dim; k++) {
    dot += table[i * dim + k] * table[j * dim + k];
    a += table[i * dim + k] ** 2;
    b += table[j * dim + k] ** 2;
  }
  return dot / Math.sqrt(a * b);
}

it('malformed and oversized files give a clear message, and the page keeps working', async () => {
  await open(page, server.url);
  await drawEveryView(page);
  const good = npyBytes(randomTable(10, 4), 10, 4);
  const cases = [
    { name: 'notes.npy', bytes: Buffer.from('this is not a table at all'), expect: 'neither with' },
    { name: 'short.npy', bytes: good.subarray(0, good.length - 9), expect: 'truncated' },
    {
      name: 'bad-header.safetensors',
      bytes: Buffer.concat([Buffer.from([9, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('{"a": [1,')]),
      expect: 'not UTF-8 JSON',
    },
    { name: 'one-row.npy', bytes: npyBytes(new Float32Array(4), 1, 4), expect: 'at least 2' },
  ];
  for (const c of cases) {
    await dropFile(c.bytes, c.name);
    const [state, text] = await fileStatus();
    assert.is(state, 'error', `${c.name}: ${text}`);
    assert.match(text, c.name);
    assert.match(text, c.expect);
    assert.ok(await page.isVisible('#learned-status'), 'the message is shown');
  }
  // Bigger than the page reads: refused from its size, before reading it.
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(257 * 2 ** 20)], 'huge.npy'));
    document
      .getElementById('learned-drop')
      .dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  const [state, text] = await fileStatus();
  assert.is(state, 'error');
  assert.match(text, '“huge.npy” is 257 MB; this page reads files up to 256 MB');
  for (const c of await allCanvases(page)) assert.ok(c.colours > 2, `${c.name} is blank after bad files`);
  assert.is(await page.textContent('#comparison-error'), '');
  noProblems('bad files');
});

it('each new control redraws its figure and updates the URL', async () => {
  await open(page, server.url);
  await drawEveryView(page);
  const steps = [
    { what: 'window slider', param: 'cw', target: '#cmp-sin', act: () => pressKey(page, '#ctl-cw-range', 'ArrowLeft') },
    { what: 'window box', param: 'cw', target: '#cmp-sin', act: () => typeValue(page, '#ctl-cw', '64') },
    { what: 'RoPE q, k', param: 'qk', target: '#cmp-rope', act: () => page.selectOption('#ctl-qk', 'independent') },
    {
      what: 'ALiBi heads',
      param: 'heads',
      target: '#cmp-alibi-profile canvas',
      act: () => typeValue(page, '#ctl-heads', '12'),
    },
    { what: 'ALiBi head', param: 'head', target: '#cmp-alibi', act: () => typeValue(page, '#ctl-head', '3') },
    { what: 'causal', param: 'causal', target: '#cmp-alibi', act: () => page.uncheck('#ctl-causal') },
    { what: 'rope_type', param: 'rs', target: '#rope-bands canvas', act: () => page.selectOption('#ctl-rs', 'llama3') },
    { what: 'factor', param: 'rf', target: '#rope-bands canvas', act: () => typeValue(page, '#ctl-rf', '16') },
    {
      what: 'original context',
      param: 'rl0',
      target: '#rope-bands canvas',
      act: () => typeValue(page, '#ctl-rl0', '8192'),
    },
    {
      what: 'low_freq_factor',
      param: 'rlo',
      target: '#rope-bands canvas',
      act: () => typeValue(page, '#ctl-rlo', '2'),
    },
    { what: 'head_dim', param: 'rhd', target: '#rope-speed canvas', act: () => typeValue(page, '#ctl-rhd', '64') },
    {
      what: 'rope_theta',
      param: 'rbase',
      target: '#rope-speed canvas',
      act: () => typeValue(page, '#ctl-rbase', '500000'),
    },
    {
      what: 'context length',
      param: 'rlen',
      target: '#rope-wavelength canvas',
      act: () => typeValue(page, '#ctl-rlen', '131072'),
    },
    {
      what: 'page d (precision)',
      param: 'd',
      target: '#precision-plot canvas',
      act: () => typeValue(page, '#ctl-d', '32'),
    },
  ];
  await checkControlSteps(page, steps);
  const url = await query(page);
  assert.equal(
    ['cw', 'qk', 'heads', 'head', 'causal', 'rs', 'rf', 'rl0', 'rlo', 'rhd', 'rbase', 'rlen'].map((k) => url[k]),
    ['64', 'independent', '12', '3', '0', 'llama3', '16', '8192', '2', '64', '500000', '131072'],
  );
  // The URL restores the same view.
  const shared = page.url();
  const bands = await canvasPrint(page, '#rope-bands canvas');
  await open(page, shared);
  await drawEveryView(page);
  assert.is((await canvasPrint(page, '#rope-bands canvas')).hash, bands.hash, 'the shared URL draws the same bands');
  assert.is(await page.inputValue('#ctl-rs'), 'llama3');
  assert.is(await page.isChecked('#ctl-causal'), false);
  noProblems('controls');
});

it('scaling choices move the RoPE bands as each type defines', async () => {
  const f = 8;
  await open(page, `${server.url}?rs=none&rhd=128&rf=${f}&rl0=4096&rlen=32768`);
  await drawEveryView(page);
  const bands = async () =>
    page.$eval('#rope-facts', (el) => ({
      moved: Number(el.dataset.moved),
      lo: Number(el.dataset.ratioMin),
      hi: Number(el.dataset.ratioMax),
    }));
  const prints = new Set();
  const seen = {};
  for (const type of ['none', 'linear', 'dynamic', 'yarn', 'llama3']) {
    if (type !== 'none') await redrawAfter(page, () => page.selectOption('#ctl-rs', type));
    // A frame may draw other views first (its budget splits the work): wait for the RoPE view itself.
    await caughtUp(page, '#rope-facts');
    seen[type] = await bands();
    prints.add((await canvasPrint(page, '#rope-wavelength canvas')).hash);
    assert.match(
      await page.textContent('#rope-config'),
      type === 'none' ? 'rope_scaling = None' : `"rope_type": "${type}"`,
    );
  }
  assert.is(prints.size, 5, 'each scaling draws different wavelengths');
  assert.equal(seen.none, { moved: 0, lo: 1, hi: 1 }, 'no scaling moves nothing');
  // Linear: every pair slowed by exactly the factor.
  assert.is(seen.linear.moved, 64);
  assert.ok(
    Math.abs(seen.linear.lo - 1 / f) < 1e-15 && Math.abs(seen.linear.hi - 1 / f) < 1e-15,
    JSON.stringify(seen.linear),
  );
  // Dynamic NTK at L = 8·L0: pair 0 keeps w = 1, the others slow down, the slowest by about (f·L/L0 − f + 1).
  assert.is(seen.dynamic.moved, 63);
  assert.is(seen.dynamic.hi, 1);
  assert.ok(seen.dynamic.lo < 1 / f, JSON.stringify(seen.dynamic));
  // YaRN and Llama 3: the fastest pairs unchanged, the slowest divided by the factor.
  for (const type of ['yarn', 'llama3']) {
    assert.is(seen[type].hi, 1, `${type}: fast pairs unchanged`);
    assert.ok(Math.abs(seen[type].lo - 1 / f) < 1e-12, `${type}: slow pairs / factor: ${seen[type].lo}`);
    assert.ok(seen[type].moved > 0 && seen[type].moved < 64, `${type} moves some pairs: ${seen[type].moved}`);
  }
  // A refused parameter set is explained, not drawn.
  await redrawAfter(page, () => typeValue(page, '#ctl-rhi', '0.5'));
  await caughtUp(page, '#rope-status');
  assert.match(await page.textContent('#rope-status'), 'high_freq_factor');
  noProblems('rope scaling');
});

it('the precision view shows posenc below the naive recipes at long positions', async () => {
  await open(page, `${server.url}?d=64`);
  await drawEveryView(page);
  const worst = JSON.parse(await page.getAttribute('#precision-facts', 'data-worst-from65536'));
  assert.ok(worst.posenc32 > 0 && worst.posenc32 < 6e-8, `posenc float32 worst ${worst.posenc32}`);
  const print = await canvasPrint(page, '#precision-plot canvas');
  assert.ok(print.colours > 2);
  const value = (v) => (v === 'Infinity' ? Infinity : v);
  assert.ok(
    worst.posenc32 < value(worst.recipe32) / 100,
    `float32: posenc ${worst.posenc32} vs recipe ${worst.recipe32}`,
  );
  assert.ok(worst.posenc16 < value(worst.recipe16), `float16: posenc ${worst.posenc16} vs recipe ${worst.recipe16}`);
  assert.ok(
    worst.posencBf16 < value(worst.recipeBf16),
    `bfloat16: posenc ${worst.posencBf16} vs recipe ${worst.recipeBf16}`,
  );
  // Correct rounding of a value in [−1, 1]: half a unit in the last place near 1.
  assert.ok(worst.posenc16 <= 2 ** -11 + 6e-8, `posenc float16 worst ${worst.posenc16}`);
  assert.ok(worst.posencBf16 <= 2 ** -8 + 6e-8, `posenc bfloat16 worst ${worst.posencBf16}`);
  noProblems('precision');
});

it('exports: a PNG of each new figure and the plotted numbers as CSV', async () => {
  const d = 16;
  await open(page, `${server.url}?d=${d}&cw=16&heads=3&rhd=${d}&rs=linear`);
  await drawEveryView(page);
  for (const name of ['comparison', 'comparison-profiles', 'rope', 'precision']) {
    const png = await downloadBytes(page, `[data-export="${name}"]`);
    assert.equal([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${name} PNG magic`);
    assert.ok(png.length > 2000, `${name} PNG has content`);
  }
  const csv = async (name) =>
    (await downloadBytes(page, `[data-csv="${name}"]`))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.split(','));

  const profiles = await csv('comparison');
  assert.equal(profiles[0], [
    'offset',
    'sinusoidal',
    'learned_mean',
    'learned_min',
    'learned_max',
    'rope',
    'alibi_head0',
    'alibi_head1',
    'alibi_head2',
  ]);
  assert.is(profiles.length, 1 + 31, 'offsets −15 … 15');
  const slopes = paperSlopes(3);
  for (const row of profiles.slice(1)) {
    const delta = Number(row[0]);
    assert.ok(Math.abs(Number(row[1]) - sinusoidalCosine(delta, d, 10000)) < 2e-6, `sinusoidal profile at ${delta}`);
    // Causal by default: future keys (offset > 0) have no bias to show.
    for (let h = 0; h < 3; h++) {
      if (delta > 0) assert.is(row[6 + h], '', `head ${h} at offset ${delta}`);
      else
        assert.ok(
          Math.abs(Number(row[6 + h]) + slopes[h] * -delta) < 1e-6 * (1 - delta),
          `head ${h} at offset ${delta}: ${row[6 + h]}`,
        );
    }
  }

  const bands = await csv('rope');
  assert.equal(bands[0], ['pair', 'w', 'wavelength', 'w_linear', 'w_dynamic', 'w_yarn', 'w_llama3']);
  assert.is(bands.length, 1 + d / 2);
  for (const [i, w, wavelength, linear] of bands.slice(1).map((r) => r.map(Number))) {
    const exact = 10000 ** ((-2 * i) / d);
    assert.ok(Math.abs(w - exact) <= 1e-15 * exact, `w_${i} = ${w}, 10000^(−2i/d) = ${exact}`);
    assert.ok(Math.abs(wavelength - (2 * Math.PI) / exact) <= 1e-12 * wavelength, `wavelength ${i}`);
    assert.ok(Math.abs(linear - exact / 8) <= 1e-15 * exact, `linear w_${i}`);
  }

  const errors = await csv('precision');
  assert.equal(
    errors[0],
    ['position', 'posenc32', 'posenc16', 'posencBf16', 'recipe32', 'recipe16', 'recipeBf16'].slice(0, errors[0].length),
  );
  assert.is(Number(errors[errors.length - 1][0]), 2 ** 24);
  for (const row of errors.slice(1)) assert.ok(Number(row[1]) < 6e-8, `posenc float32 error at ${row[0]}: ${row[1]}`);
  noProblems('exports');
});

test.run();
