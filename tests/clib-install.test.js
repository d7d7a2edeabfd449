// The installable C library (the top-level Makefile, README "The C library"):
// the README's `make && make install` into a scratch prefix from a C compiler
// alone, the README's example built with pkg-config and with CMake's
// find_package, the exported symbols (only posenc.h's pe_ entry points), the
// soname and version, and the installed library's bits against the JS
// package's wasm builds on shared cases, with both of its kernel sets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instantiate } from '../src/js/index.js';
import { readmeBlocks, taggedBlock } from './support/docs-blocks.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'posenc-clib-'));
const home = join(scratch, 'home'); // the README's $HOME: the prefix is $HOME/.local
const prefix = join(home, '.local');
const env = { ...process.env, HOME: home, PKG_CONFIG_PATH: '', MAKEFLAGS: '-j2', BUILDDIR: join(scratch, 'build') };
mkdirSync(home);
test.after(() => rmSync(scratch, { recursive: true, force: true }));

const run = (command, args, cwd, extra = {}) =>
  spawnSync(command, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', maxBuffer: 1 << 26 });
const sh = (script, cwd, extra) => run('sh', ['-ec', script], cwd, extra);
const output = (r) => `status ${r.status}\n${r.stdout}\n${r.stderr}`;

const VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const header = readFileSync(join(root, 'src/core/posenc.h'), 'utf8');
// The public entry points: every declaration posenc.h marks PE_API.
const PUBLIC = [...header.matchAll(/^PE_API [^(]*?\b(pe_\w+)\(/gm)].map((m) => m[1]).sort();

let installed = null;
test("the README's make && make install builds from a C compiler alone and installs every file", () => {
  const command = taggedBlock('clib-install').trim();
  const started = Date.now();
  const r = sh(command, root);
  const seconds = (Date.now() - started) / 1000;
  assert.is(r.status, 0, `${command}\n${output(r)}`);
  console.log(`clib-install: '${command}' (fresh, -j2) took ${seconds.toFixed(1)} s`);
  // Every command make ran is the compiler, the binutils or a file copy: no emcc, npm or test tool.
  const tools = new Set(
    r.stdout
      .split('\n')
      .filter((line) => /^\S/.test(line) && !line.startsWith('make'))
      .map((line) => line.split(' ')[0]),
  );
  for (const tool of tools) assert.ok(['cc', 'ld', 'objcopy', 'rm', 'ar', 'ln', 'install', 'sed'].includes(tool), tool);
  assert.ok(tools.has('cc'));
  for (const file of [
    'include/posenc.h',
    'lib/libposenc.a',
    `lib/libposenc.so.${VERSION}`,
    'lib/pkgconfig/posenc.pc',
    'lib/cmake/posenc/posenc-config.cmake',
    'lib/cmake/posenc/posenc-config-version.cmake',
  ])
    assert.ok(existsSync(join(prefix, file)), `${file} is installed`);
  assert.is(readlinkSync(join(prefix, 'lib/libposenc.so')), 'libposenc.so.0');
  assert.is(readlinkSync(join(prefix, 'lib/libposenc.so.0')), `libposenc.so.${VERSION}`);
  assert.is(readFileSync(join(prefix, 'include/posenc.h'), 'utf8'), header);
  installed = prefix;
});

test('the shared library has a soname and exports exactly the pe_ entry points of posenc.h', () => {
  assert.ok(installed, 'installed');
  const so = join(prefix, `lib/libposenc.so.${VERSION}`);
  const soname = run('readelf', ['-d', so], root);
  assert.match(soname.stdout, /Library soname: \[libposenc\.so\.0\]/);
  const dynamic = run('nm', ['-D', '--defined-only', so], root);
  assert.is(dynamic.status, 0, output(dynamic));
  const exported = dynamic.stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' ').pop())
    .sort();
  console.log(`clib-install: ${exported.length} exported symbols, ${PUBLIC.length} PE_API declarations`);
  assert.ok(PUBLIC.length >= 43, `${PUBLIC.length} declarations found`);
  assert.equal(exported, PUBLIC);
  // The static library: its global definitions are the same names (internal ones are local).
  const archive = run('nm', ['-g', '--defined-only', join(prefix, 'lib/libposenc.a')], root);
  const globals = archive.stdout
    .split('\n')
    .filter((line) => /^[0-9a-f]+ [A-Z] /.test(line))
    .map((line) => line.split(' ').pop())
    .sort();
  assert.equal(globals, PUBLIC);
});

/** A directory holding the README's C example as example.c. */
function exampleDir(name) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  const [c] = readmeBlocks().filter((block) => block.lang === 'c');
  writeFileSync(join(dir, 'example.c'), c.code);
  return dir;
}

test("the README's example builds with pkg-config and runs against the installed shared library", () => {
  assert.ok(installed, 'installed');
  const dir = exampleDir('pkg-config');
  const script = taggedBlock('clib-pkg-config');
  const r = sh(script, dir);
  assert.is(r.status, 0, `${script}\n${output(r)}`);
  assert.is(r.stdout, 'row 1: 0.8415 0.5403\n');
  const ldd = run('ldd', [join(dir, 'example')], dir);
  assert.ok(ldd.stdout.includes(join(prefix, 'lib/libposenc.so.0')), ldd.stdout);
});

test("the README's CMakeLists.txt finds the package (shared and static targets) and the example runs", () => {
  assert.ok(installed, 'installed');
  for (const target of ['posenc::posenc', 'posenc::posenc_static']) {
    const dir = exampleDir(`cmake-${target.replace('::', '-')}`);
    const lists = taggedBlock('clib-cmake-lists');
    assert.match(lists, /target_link_libraries\(example PRIVATE posenc::posenc\)/);
    writeFileSync(join(dir, 'CMakeLists.txt'), lists.replace('posenc::posenc)', `${target})`));
    const script = taggedBlock('clib-cmake');
    const r = sh(script, dir);
    assert.is(r.status, 0, `${script}\n${output(r)}`);
    assert.ok(r.stdout.endsWith('row 1: 0.8415 0.5403\n'), r.stdout);
    const ldd = run('ldd', [join(dir, 'out/example')], dir);
    assert.is(ldd.stdout.includes('libposenc.so'), target === 'posenc::posenc', ldd.stdout);
  }
  // A version the package is not compatible with is refused.
  const dir = exampleDir('cmake-version');
  writeFileSync(join(dir, 'CMakeLists.txt'), taggedBlock('clib-cmake-lists').replace('posenc 0.1', 'posenc 1.0'));
  const r = sh(taggedBlock('clib-cmake'), dir);
  assert.is.not(r.status, 0);
  assert.match(r.stderr, /posenc-config-version\.cmake|version/);
});

// Shared cases: the installed library (simd and scalar kernels) against the JS package's two wasm builds.
let bits = null;
test('the installed library reports its version', () => {
  assert.ok(installed, 'installed');
  const dir = join(scratch, 'bits');
  mkdirSync(dir);
  const c = join(root, 'tests/native/clib/bits.c');
  const r = sh(`cc -std=c11 -O2 -o bits ${c} $(pkg-config --cflags --libs posenc) -Wl,-rpath,${prefix}/lib`, dir, {
    PKG_CONFIG_PATH: join(prefix, 'lib/pkgconfig'),
  });
  assert.is(r.status, 0, output(r));
  bits = join(dir, 'bits');
  const v = run(bits, ['version'], dir);
  assert.is(v.stdout, `${VERSION} ${VERSION} ${VERSION}\n`);
});

const x32 = (count) => {
  const x = new Float32Array(count);
  for (let i = 0; i < count; i++) x[i] = (((i * 7919) % 2001) - 1000) / 1024;
  return x;
};
const LLAMA3 = {
  rope_type: 'llama3',
  factor: 8,
  low_freq_factor: 1,
  high_freq_factor: 4,
  original_max_position_embeddings: 8192,
};
const CASES = [
  ['table', [2, 10000, 0, 5, 0], (p) => p.sinusoidal({ dim: 2, length: 5 })],
  ['table', [18, 10000, 2 ** 31 - 33, 33, 0], (p) => p.sinusoidal({ dim: 18, length: 33, offset: 2 ** 31 - 33 })],
  [
    'table',
    [512, 500000, 1000003, 7, 1],
    (p) => p.sinusoidal({ dim: 512, length: 7, offset: 1000003, base: 500000, layout: 'split' }),
  ],
  [
    'table',
    [6, 2.5, 65535, 9, 1],
    (p) => p.sinusoidal({ dim: 6, length: 9, offset: 65535, base: 2.5, layout: 'split' }),
  ],
  [
    'rope',
    [3, 128, 120000, 5],
    (p) =>
      p.rope(x32(5 * 3 * 128), { length: 5, heads: 3, headDim: 128, offset: 120000, base: 500000, scaling: LLAMA3 }),
  ],
  [
    'rope',
    [1, 18, 2 ** 31 - 7, 7],
    (p) =>
      p.rope(x32(7 * 18), { length: 7, heads: 1, headDim: 18, offset: 2 ** 31 - 7, base: 500000, scaling: LLAMA3 }),
  ],
  ['alibi', [12, 5, 9, 4, 1], (p) => p.alibiBias({ heads: 12, queryLength: 5, keyLength: 9, offset: 4, causal: true })],
  ['alibi', [3, 70, 300, 230, 0], (p) => p.alibiBias({ heads: 3, queryLength: 70, keyLength: 300 })],
];

test('the installed library gives the bits of the wasm builds (SIMD and scalar) on shared cases', async () => {
  assert.ok(bits, 'bits built');
  const wasm = [await instantiate({ simd: true }), await instantiate({ simd: false })];
  let compared = 0;
  for (const [call, args, js] of CASES) {
    const expected = wasm.map((p) => Buffer.from(js(p).buffer));
    assert.ok(expected[0].equals(expected[1]), `${call} ${args}: the two wasm builds differ`);
    for (const kernels of ['simd', 'scalar']) {
      const r = spawnSync(bits, [kernels, call, ...args.map(String)], { maxBuffer: 1 << 26 });
      assert.is(r.status, 0, `${kernels} ${call} ${args}: ${r.stderr}`);
      assert.ok(r.stdout.equals(expected[0]), `${kernels} ${call} ${args}: the installed library differs from wasm`);
      compared += expected[0].length / 4;
    }
  }
  console.log(`clib-install: ${CASES.length} cases, ${compared} float32 values equal bit for bit (2 kernels x wasm)`);
});

test('make uninstall removes what make install put there', () => {
  assert.ok(installed, 'installed');
  const r = run('make', ['uninstall', `PREFIX=${prefix}`], root);
  assert.is(r.status, 0, output(r));
  const left = run('find', [prefix, '-type', 'f'], root).stdout.trim();
  assert.is(left, '');
});

test.run();
