// The examples (examples/*.js) run as a user runs them: each in its own Node
// process from examples/, importing posenc (examples/node_modules/posenc links
// to this repository) and onnxruntime-web from examples/' own packages, which
// build.sh's test step installs. Each checks its own result and exits non-zero
// on a mismatch. The README shows each one verbatim (below its opening comment),
// in a block tagged with the file's name, and quotes the float16 example's
// measured figures, which are checked here against what the example prints.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { taggedBlock, README } from './support/docs-blocks.js';
import { root } from './support/package-packed.js';

const dir = join(root, 'examples');
// Modules the examples import, not programs.
const HELPERS = ['onnx-graph.js'];
// Each example and its README block (the tag is the file's name).
const EXAMPLES = {
  'llama-decode-onnxruntime.js': () => taggedBlock('llama-decode-onnxruntime.js'),
  'llama-decode-onnxruntime-float16.js': () => taggedBlock('llama-decode-onnxruntime-float16.js'),
  'from-config.js': () => taggedBlock('from-config.js'),
  'alibi-scores.js': () => taggedBlock('alibi-scores.js'),
  'learned-table.js': () => taggedBlock('learned-table.js'),
  't5-bias.js': () => taggedBlock('t5-bias.js'),
  'mrope-qwen2vl.js': () => taggedBlock('mrope-qwen2vl.js'),
};

/** The file as the README shows it: without its opening comment paragraph. */
const body = (name) => readFileSync(join(dir, name), 'utf8').replace(/^(\/\/.*\n)+\n?/, '');

/** Runs an example in its own process; returns { status, out }. */
function runExample(name) {
  const result = spawnSync(process.execPath, [name], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, out: `${result.stdout}${result.stderr}${result.error ?? ''}` };
}

test('examples/ has its own packages, installed, and posenc linked to this repository', () => {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  assert.ok(manifest.dependencies['onnxruntime-web'], 'onnxruntime-web is a dependency of examples/');
  assert.equal(lock.packages[''].dependencies, manifest.dependencies, "examples/' lock is its package.json's");
  const locked = lock.packages['node_modules/onnxruntime-web'].version;
  assert.is(locked, manifest.dependencies['onnxruntime-web'], 'onnxruntime-web is locked at one version');
  const installed = join(dir, 'node_modules', 'onnxruntime-web', 'package.json');
  assert.ok(existsSync(installed), 'examples/node_modules/onnxruntime-web: run `bash build.sh test`');
  const linked = join(dir, 'node_modules', 'posenc', 'package.json');
  assert.is(JSON.parse(readFileSync(linked, 'utf8')).name, 'posenc', 'examples/node_modules/posenc');
  // The root's packages (npm start) never include it.
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.not.ok({ ...rootManifest.dependencies, ...rootManifest.devDependencies }['onnxruntime-web']);
});

test('every example is listed here and shown in the README as it is written', () => {
  const programs = readdirSync(dir).filter((name) => name.endsWith('.js') && !HELPERS.includes(name));
  assert.equal(programs.sort(), Object.keys(EXAMPLES).sort());
  for (const [name, block] of Object.entries(EXAMPLES)) assert.fixture(block(), body(name), name);
});

const outputs = {};
for (const name of Object.keys(EXAMPLES)) {
  test(`examples/${name} runs and its own checks pass`, () => {
    const { status, out } = runExample(name);
    outputs[name] = out;
    console.log(`  ${name}: ${out.trim().split('\n').at(-1)}`);
    assert.is(status, 0, `examples/${name} exited ${status}:\n${out}`);
  });
}

test("the README quotes the float16 example's measured figures", () => {
  const out = outputs['llama-decode-onnxruntime-float16.js'];
  assert.ok(out, 'the float16 example ran');
  const pattern =
    /float16: (\d+) elements, \d+ \(([\d.]+%)\) differ .*?, ([\d.]+%) of them by one float16 ulp; .* all but (\d+) of them; at most (\d+) ulp/;
  const [, elements, share, oneUlp, notNearer, apart] = pattern.exec(out);
  const readme = readFileSync(README, 'utf8').replace(/\s+/g, ' '); // one line
  const count = Number(elements).toLocaleString('en-US'); // 1,351,680
  for (const figure of [count, share, oneUlp, `all but ${notNearer}`, `never more than ${apart} ulp`])
    assert.ok(readme.includes(figure), `README.md quotes ${figure} (of ${elements} elements)`);
});

test.run();
