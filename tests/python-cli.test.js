// `python -m posenc` mirrors the CLI (issue 27): every command of the native
// and Node CLIs, each run with the same arguments in the three, must print the
// same bytes on stdout (text, csv, json, npy, f32, raw), the same one-line
// message on stderr and exit with the same status: shared cases per command,
// refusals among them, '-' for standard input, --output, every --help, the
// config corpus as the models ship it, and seeded random shapes.
// Debian's python3 with numpy (build.sh test installs it); the package from
// src/python over build/lib/libposenc.so (tests/support/python-cli.js).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATIVE, NODE_CLI, nodeInProcess, root } from './support/cli-run.js';
import { python, pythonBatch } from './support/python-cli.js';
import { generator, seedFromEnv } from './support/random.js';

const dir = mkdtempSync(join(tmpdir(), 'posenc-python-cli-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const at = (name) => join(dir, name);
const CORPUS = join(root, 'tests/fixtures/configs');

const LLAMA31 = {
  model_type: 'llama',
  hidden_size: 4096,
  num_attention_heads: 32,
  num_hidden_layers: 4,
  rope_theta: 500000,
  rope_scaling: {
    rope_type: 'llama3',
    factor: 8,
    low_freq_factor: 1,
    high_freq_factor: 4,
    original_max_position_embeddings: 8192,
  },
};
writeFileSync(at('llama.json'), JSON.stringify(LLAMA31));
writeFileSync(at('bloom.json'), JSON.stringify({ model_type: 'bloom', n_head: 8, hidden_size: 64, n_layer: 2 }));
// Llama 4: chunked_attention RoPE layers with their attention_chunk, full_attention NoPE ones.
writeFileSync(
  at('llama4.json'),
  JSON.stringify({
    model_type: 'llama4',
    text_config: { model_type: 'llama4_text', hidden_size: 64, num_attention_heads: 4, num_hidden_layers: 5 },
  }),
);
// Gemma 2: the sliding layers print their sliding_window, the global ones none.
writeFileSync(
  at('gemma2.json'),
  JSON.stringify({
    model_type: 'gemma2',
    hidden_size: 64,
    num_attention_heads: 4,
    num_hidden_layers: 4,
    sliding_window: 64,
  }),
);
writeFileSync(
  at('bad.json'),
  JSON.stringify({
    model_type: 'llama',
    hidden_size: 64,
    num_attention_heads: 4,
    num_hidden_layers: 2,
    rope_scaling: { rope_type: 'warp', factor: 2 },
  }),
);
writeFileSync(at('ids.txt'), '0 1 1 5\n0 0 1 2\n');
const run = (cli, args, input) =>
  spawnSync(cli[0], [...cli.slice(1), ...args], { cwd: dir, input, maxBuffer: 1 << 28 });
const table = (format) => run([NATIVE], ['table', '--length', '40', '--dim', '8', '--format', format]).stdout;
writeFileSync(at('t.npy'), table('npy'));
writeFileSync(at('t.csv'), table('csv'));
writeFileSync(at('t.data'), table('json')); // JSON by its content, whatever the name
writeFileSync(at('t.f32'), table('f32'));
writeFileSync(at('bf16.raw'), run([NATIVE], ['table', '--length', '9', '--dim', '8', '--dtype', 'bfloat16']).stdout);

/** Asserts the Node and Python runs of args printed what the native run printed; returns it. */
function same(args, native, node, py) {
  const line = args.join(' ');
  for (const [name, other] of [
    ['node', node],
    ['python', py],
  ]) {
    assert.is(other.status, native.status, `exit status of ${name} ${line}: ${other.stderr}`);
    assert.is(other.stderr.toString(), native.stderr.toString(), `stderr of ${name} ${line}`);
    assert.ok(
      other.stdout.equals(native.stdout),
      `stdout of ${name} ${line}:\nnative ${native.stdout.subarray(0, 200)}\n${name} ${other.stdout.subarray(0, 200)}`,
    );
  }
  return native;
}

/** Runs args (with input on stdin) in the three CLIs as processes and asserts they agree. */
function agree(args, input) {
  const node = run([process.execPath, NODE_CLI], args, input);
  return same(args, run([NATIVE], args, input), node, python(args, { cwd: dir, input }));
}

/**
 * The argument lists in the three CLIs, asserted alike: the native CLI as a process, the Node CLI's
 * main in this process, Python's main on them all in one process (a loaded machine spawns slowly).
 */
async function agreeAll(argLists) {
  const py = pythonBatch(argLists, dir);
  const natives = [];
  for (const [k, args] of argLists.entries()) {
    const native = run([NATIVE], args);
    const cwd = process.cwd();
    process.chdir(dir); // the Node CLI's relative paths, as the processes see them
    let node;
    try {
      node = await nodeInProcess(args);
    } finally {
      process.chdir(cwd);
    }
    natives.push(same(args, native, node, py[k]));
  }
  return natives;
}

const q = (text) => text.split(' ');
const CASES = {
  table: [
    'table --length 3 --dim 4',
    'table --length 70 --dim 6 --offset 2147483578 --format csv',
    'table --length 130 --dim 2 --offset 1000 --format json',
    'table --length 3 --dim 8 --dtype float16 --format npy',
    'table --length 3 --dim 8 --dtype bfloat16 --format raw',
    'table --length 3 --dim 8 --dtype bfloat16 --format json',
    'table --length 5 --dim 10 --preset fairseq --kernels scalar --format f32',
    'table --length 5 --dim 10 --layout split --frequencies tensor2tensor --base 500000 --kernels simd',
    'table --length 0 --dim 4 --format json',
    'table --length 3 --dim 7',
    'table --length 3 --dim 8 --base 1',
    'table --length 3 --dim 8 --layuot split',
    'table --length 3 --dim 8 --format f32 --dtype float16',
    'table --length 3 --dim 8 --dtype bfloat16 --format npy',
    'table --length 3 --dim 8 --preset marian --layout interleaved',
    'table --length 3',
    'table --length 3 --dim 4 --dim 8',
  ],
  alibi: [
    'alibi --heads 5',
    'alibi --heads 12 --format npy',
    'alibi --heads 24 --format csv',
    'alibi --heads 3 --format raw --dtype float32',
    'alibi --config bloom.json --format json',
    'alibi --config llama.json',
    'alibi --heads 3 --config bloom.json',
    'alibi --heads 0',
    'alibi --heads 4 --dtype float16',
  ],
  table2d: [
    'table2d --height 2 --width 2 --dim 8 --cls-token --format csv',
    'table2d --height 3 --width 2 --dim 8 --format npy',
    'table2d --height 1 --width 5 --dim 12 --no-cls-token --base 100 --format json',
    'table2d --height 2 --width 2 --dim 6',
    'table2d --height 2 --width 2 --dim 8 --cls-token true',
    'table2d --height 2 --width 2 --dim 8 --cls-token=yes',
    'table2d --height 2 --dim 8',
  ],
  't5-buckets': [
    't5-buckets --query-length 3 --key-length 5 --format json',
    't5-buckets --query-length 2 --key-length 40 --causal --format csv',
    't5-buckets --query-length 2 --key-length 4 --format npy',
    't5-buckets --query-length 3 --key-length 300 --offset 2000 --num-buckets 64 --max-distance 256 --format raw',
    't5-buckets --query-length 0 --key-length 3 --format json',
    't5-buckets --query-length 4 --key-length 2',
    't5-buckets --query-length 2 --format f32',
    't5-buckets --query-length 2 --num-buckets 3',
    't5-buckets --query-length 2 --max-distance 8',
  ],
  rope: [
    'rope --head-dim 8 --what cos-sin --length 2',
    'rope --head-dim 128 --base 500000 --scaling llama3 --factor 8 --original-max-position-embeddings 8192 --low-freq-factor 1 --high-freq-factor 4 --format csv',
    'rope --head-dim 64 --scaling yarn --factor 4 --original-max-position-embeddings 2048 --what attention-factor',
    'rope --head-dim 64 --scaling yarn --factor 4 --original-max-position-embeddings 2048 --no-truncate --mscale 0.7 --what cos-sin --length 3 --offset 5000 --dtype bfloat16 --format raw',
    'rope --head-dim 64 --scaling dynamic --factor 2 --original-max-position-embeddings 16 --length 40 --format npy',
    'rope --head-dim 80 --rotary-dim 32 --base 1e6 --what cos-sin --length 3 --dtype float16 --format npy',
    'rope --head-dim 64 --scaling linear --factor 2 --beta-fast 3',
    'rope --head-dim 64 --scaling llama3 --factor 2 --original-max-position-embeddings 64',
    'rope --head-dim 7',
    'rope --config llama.json --what cos-sin --length 3 --offset 9000 --format json',
    'rope --config llama.json --dtype float16 --format npy',
    'rope --config llama.json --dtype bfloat16 --format npy',
    'rope --config llama.json --dtype float32 --format f32',
    'rope --config llama.json --head-dim 64',
    'rope --config bloom.json',
    'rope --config bad.json',
    'rope --config missing.json',
    'rope --head-dim 64 --vision --what cos-sin --position-ids 0,0,1;0,1,0 --dtype float16 --format npy',
    'rope --head-dim 64 --vision --position-ids 0,0,1;0,1,0',
    'rope --head-dim 64 --vision',
    'rope --head-dim 32 --mrope-section 4,6,6 --what cos-sin --position-ids 3,4;5,6;7,8',
    'rope --head-dim 32 --mrope-section 4,6,6 --what cos-sin --position-ids @ids.txt',
    'rope --head-dim 32 --mrope-section 4,6,5 --what cos-sin --position-ids 3;5;7',
    'rope --head-dim 32 --what cos-sin --position-ids 3,4,2147483647 --format text',
    'rope --head-dim 32 --what cos-sin --position-ids 3,4 --offset 2',
    'rope --head-dim 32 --what cos-sin --position-ids 3,x',
    'rope --head-dim 32 --what cos-sin --position-ids @missing.txt',
    'rope --head-dim 32 --what heatmap',
    'rope',
  ],
  identify: [
    'identify t.npy',
    'identify t.npy --json',
    'identify t.csv --kind table',
    'identify t.data --json',
    'identify t.f32 --dim 8',
    'identify t.f32',
    'identify t.f32 --rows 3',
    'identify t.f32 --dim 1',
    'identify t.npy --kind inv-freq',
    'identify t.npy --rows 41',
    'identify missing.npy',
    'identify t.npy --name x',
    'identify t.csv --name x',
    'identify t.npy --kind heatmap',
    'identify t.npy t.csv',
    'identify',
  ],
  config: [
    'config llama.json',
    'config llama.json --format json',
    'config bloom.json --format json',
    'config llama4.json',
    'config llama4.json --format json',
    'config gemma2.json',
    'config gemma2.json --format json',
    'config bad.json',
    'config missing.json',
    'config llama.json --format csv',
    'config',
  ],
  general: ['--help', '--version', 'table --version', 'tabel --length 3', ''],
};

test('every command: the same bytes, messages and exit status from the native, Node and Python CLIs', async () => {
  const lists = [];
  for (const [command, lines] of Object.entries(CASES)) {
    for (const line of lines) lists.push(line === '' ? [] : q(line));
    if (command !== 'general') lists.push([command, '--help']);
  }
  const runs = await agreeAll(lists);
  for (const [k, args] of lists.entries())
    if (args[1] === '--help')
      assert.match(runs[k].stdout.toString(), /\nexamples:\n/, `${args[0]} --help lists examples`);
  // Every command of the general help has cases here.
  const listed = runs[lists.findIndex((a) => a.length === 1 && a[0] === '--help')].stdout.toString();
  for (const name of listed.matchAll(/^ {2}([a-z][a-z0-9-]*) {2,}/gm))
    assert.ok(CASES[name[1]], `cases for ${name[1]}`);
  console.log(`python-cli: ${lists.length} argument lists alike in the three CLIs`);
});

test("'-' reads standard input in the three CLIs alike (identify, config, --config, --position-ids @-)", () => {
  const config = readFileSync(at('llama.json'));
  agree(['identify', '-'], readFileSync(at('t.npy')));
  agree(['identify', '-', '--json'], readFileSync(at('t.data')));
  agree(['identify', '-', '--dim', '8'], readFileSync(at('t.f32')));
  agree(['config', '-'], config);
  agree(['rope', '--config', '-', '--what', 'cos-sin', '--length', '2'], config);
  agree(['alibi', '--config', '-'], readFileSync(at('bloom.json')));
  agree(['rope', '--head-dim', '8', '--what', 'cos-sin', '--position-ids', '@-'], '4 5 6\n');
});

test('--output: the file holds what stdout gets; an --output that cannot be opened names it and the reason', () => {
  for (const args of [
    ['table', '--length', '100', '--dim', '16', '--format', 'npy'],
    ['t5-buckets', '--query-length', '3', '--format', 'raw'],
    ['config', at('llama.json'), '--format', 'json'],
  ]) {
    const expected = run([NATIVE], args).stdout;
    const out = at('out.bin');
    const py = python([...args, '--output', out], { cwd: dir });
    assert.is(py.status, 0, py.stderr.toString());
    assert.is(py.stdout.length, 0);
    assert.ok(readFileSync(out).equals(expected), `${args.join(' ')} --output`);
    rmSync(out);
    const refused = agree([...args, '--output', join(dir, 'no-such-dir', 'x')]);
    assert.is(refused.status, 2);
    assert.is(
      refused.stderr.toString(),
      `posenc: --output: cannot write ${join(dir, 'no-such-dir', 'x')}: No such file or directory\n`,
    );
    agree([...args, '--output', dir]); // a directory: EISDIR
  }
});

test('the config corpus as the models ship it: config, rope --config and alibi --config alike in the three CLIs', async () => {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 40, `${files.length} configs`);
  const lists = [];
  for (const file of files) {
    const path = join(CORPUS, file);
    lists.push(['config', path], ['config', path, '--format', 'json'], ['rope', '--config', path, '--format', 'csv']);
    lists.push([
      'rope',
      '--config',
      path,
      '--what',
      'cos-sin',
      '--length',
      '2',
      '--offset',
      '70000',
      '--format',
      'npy',
    ]);
    lists.push(['alibi', '--config', path]);
  }
  const runs = await agreeAll(lists);
  const schemes = new Set(runs.flatMap((r) => [...r.stdout.toString().matchAll(/scheme ([a-z]+)/g)].map((m) => m[1])));
  for (const kind of ['rope', 'alibi', 'relative', 'learned', 'none'])
    assert.ok(schemes.has(kind), `the corpus has ${kind}`);
  assert.ok(runs.filter((r) => r.status === 0).length > files.length * 2, 'most runs print values');
});

test('seeded random shapes: table, table2d, t5-buckets and rope cos-sin alike in the three CLIs', async () => {
  const seed = seedFromEnv();
  console.log(`python-cli: seed ${seed} (replay with POSENC_SEED=${seed})`);
  const rng = generator(seed);
  const formats = ['text', 'csv', 'json', 'npy', 'f32', 'raw'];
  const lists = [];
  const agree = (args) => lists.push(args); // run together below
  for (let k = 0; k < 6; k++) {
    const length = rng.int(0, 200);
    const offset = rng.pick([0, rng.int(0, 2 ** 20), 2 ** 31 - length]);
    const dim = 2 * rng.int(1, 40);
    const dtype = rng.pick(['float32', 'float16', 'bfloat16']);
    const format = rng.pick(
      formats.filter((f) => !(f === 'f32' && dtype !== 'float32') && !(f === 'npy' && dtype === 'bfloat16')),
    );
    agree(q(`table --length ${length} --dim ${dim} --offset ${offset} --dtype ${dtype} --format ${format}`));
    const head = 4 * rng.int(1, 32);
    agree(
      q(
        `rope --head-dim ${head} --base ${rng.pick(['10000', '500000', '1e6'])} --what cos-sin --length ${rng.int(0, 20)} --offset ${rng.int(0, 2 ** 24)} --dtype ${dtype} --format ${format}`,
      ),
    );
    agree(
      q(
        `table2d --height ${rng.int(1, 6)} --width ${rng.int(1, 6)} --dim ${4 * rng.int(1, 12)} --format ${rng.pick(formats)}`,
      ),
    );
    const buckets = rng.int(4, 64);
    agree(
      q(
        `t5-buckets --query-length ${rng.int(0, 20)} --key-length ${rng.int(20, 200)} --num-buckets ${buckets} --max-distance ${buckets + rng.int(0, 500)} --format ${rng.pick(['text', 'csv', 'json', 'npy', 'raw'])}`,
      ),
    );
  }
  await agreeAll(lists);
});

test.run();
