// The README runs as written: every JavaScript block (ESM blocks as .mjs,
// CommonJS ones as .cjs on a Node without require(esm)) against the packed
// tarball installed in a scratch project (onnxruntime-web, for blocks that use
// it, from examples/' packages); the blocks only a bundler can run, and the
// examples (run from examples/), are tagged and checked by the test file their
// tag names; `text` blocks hold signatures and output, never code that could
// run instead; the C block compiles and links with the README's own command
// line and prints what its comment says.
// The headline benchmark figures are the ones bench/results.json holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeBlocks, taggedBlock, README } from './support/docs-blocks.js';
import { packAndInstall, run, output, root } from './support/package-packed.js';

const blocks = readmeBlocks();
const text = readFileSync(README, 'utf8');
let packed;
test.before(() => {
  packed = packAndInstall();
  // A block may drive onnxruntime-web as an engine would: the copy examples/ installs (build.sh test).
  const ort = join(root, 'examples', 'node_modules', 'onnxruntime-web');
  if (jsBlocks.some((block) => block.code.includes("'onnxruntime-web'")))
    symlinkSync(ort, join(packed.project, 'node_modules', 'onnxruntime-web'), 'dir');
});
test.after(() => packed?.remove());

const jsBlocks = blocks.filter((block) => block.lang === 'js' && block.tag === undefined);

test('the README has JavaScript blocks to run, and no block in an unknown language', () => {
  assert.ok(jsBlocks.length >= 3, `${jsBlocks.length} runnable blocks`);
  for (const block of blocks)
    assert.ok(['js', 'c', 'sh', 'text', 'cmake', 'python'].includes(block.lang), `line ${block.line}: ${block.lang}`);
});

test('no text block is code that could run: a program is a js block, and runs here', () => {
  for (const block of blocks.filter((b) => b.lang === 'text'))
    assert.not.match(block.code, /^\s*(import|export|const|let|var|await|for|if)\b/m, `README line ${block.line}`);
});

for (const block of jsBlocks) {
  const commonjs = /\brequire\(/.test(block.code);
  test(`README line ${block.line}: the ${commonjs ? 'CommonJS' : 'ESM'} block runs as written`, () => {
    const file = join(packed.project, `readme-${block.line}.${commonjs ? 'cjs' : 'mjs'}`);
    writeFileSync(file, block.code);
    const flags = commonjs ? ['--no-experimental-require-module'] : [];
    const result = run(process.execPath, [...flags, file], packed.project);
    assert.is(result.status, 0, `README line ${block.line}:\n${block.code}\n${output(result)}`);
  });
}

test('each tagged block is checked by the test file its comment names', () => {
  const tagged = blocks.filter((block) => block.tag !== undefined);
  assert.ok(tagged.length >= 4);
  for (const block of tagged) {
    const file = /<!-- checked by ([\w./-]+):/.exec(text.split('\n')[block.line - 2])[1];
    assert.ok(
      readFileSync(join(root, file), 'utf8').includes(`taggedBlock('${block.tag}')`),
      `${file} checks ${block.tag}`,
    );
  }
});

test("the C block compiles and links with the README's command and prints the row its comment gives", () => {
  const [c] = blocks.filter((block) => block.lang === 'c');
  const dir = join(packed.dir, 'c-example');
  mkdirSync(dir);
  for (const name of ['src', 'build']) symlinkSync(join(root, name), join(dir, name), 'dir');
  writeFileSync(join(dir, 'example.c'), c.code);
  const command = taggedBlock('c-build').trim();
  const compile = run('sh', ['-c', command], dir);
  assert.is(compile.status, 0, `${command}\n${output(compile)}`);
  const example = run(join(dir, 'example'), [], dir);
  assert.is(example.status, 0, output(example));
  assert.is(example.stdout, 'row 1: 0.8415 0.5403\n');
  assert.match(c.code, /row 1: 0\.8415 0\.5403/);
});

// The README's benchmark figures are checked against bench/results.json in docs-figures.test.js.

test.run();
