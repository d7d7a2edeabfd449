// src/js/families.js is the one list of families; every list that cannot be
// derived from it (ES modules and CommonJS name their exports statically, the
// .d.ts and the C CLI are no JavaScript) is checked against it here, so a
// family registered in one place and not another fails.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { FAMILIES, RUNTIME } from '../src/js/families.js';
import { instantiateWith } from '../src/js/runtime/instance.js';
import * as defaultInstance from '../src/js/default-instance.js';
import * as esm from '../src/js/index.js';

const read = (path) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const sorted = (names) => [...names].sort();
const pascal = (name) => name[0].toUpperCase() + name.slice(1);
const functions = FAMILIES.flatMap((family) => family.functions);
const helpers = FAMILIES.flatMap((family) => family.helpers);
const INSTANCE_OWN = ['simd', ...RUNTIME.functions]; // what every instance has beside its families' methods

test("each family's methods are its functions and helpers, no more, no fewer", async () => {
  for (const family of FAMILIES) {
    const instance = await instantiateWith([family.methods], undefined, 'instantiate');
    const methods = Object.keys(instance).filter((key) => !INSTANCE_OWN.includes(key));
    const unlisted = methods.filter((name) => !family.functions.includes(name) && !family.helpers.includes(name));
    assert.equal(unlisted, [], `${family.name}'s methods missing from families.js`);
    const absent = family.functions.filter((name) => !methods.includes(name));
    assert.equal(absent, [], `${family.name}'s functions in families.js that it has no method for`);
  }
});

test('no name is registered twice', () => {
  const all = [...functions, ...helpers, ...RUNTIME.functions, ...RUNTIME.entries, ...RUNTIME.classes];
  assert.equal(
    all.filter((name, k) => all.indexOf(name) !== k),
    [],
  );
  const names = FAMILIES.map((family) => family.name);
  assert.equal(sorted(new Set(names)), sorted(names));
});

test("default-instance.js forwards exactly the registry's functions", () => {
  assert.equal(sorted(Object.keys(defaultInstance)), sorted(['init', ...RUNTIME.functions, ...functions]));
});

test("index.js exports exactly the registry's names", () => {
  const want = [...RUNTIME.entries, ...RUNTIME.classes, ...RUNTIME.functions, ...functions, ...helpers];
  assert.equal(sorted(Object.keys(esm)), sorted(want));
});

test('index.cjs names the same exports (its FUNCTIONS and CLASSES lists)', () => {
  const cjs = createRequire(import.meta.url)('../src/js/index.cjs');
  assert.equal(sorted(Object.keys(cjs)), sorted(Object.keys(esm)));
});

test('index.d.ts re-exports each family and gathers its Methods into Posenc', () => {
  const dts = read('src/js/index.d.ts');
  const reexported = [...dts.matchAll(/^export \* from '\.\/(\w+)\/\1\.js';$/gm)].map((m) => m[1]);
  assert.equal(sorted(reexported), sorted(['runtime', ...FAMILIES.map((family) => family.name)]));
  const extendsList = /interface Posenc\s+extends([^{]+)\{/
    .exec(dts)[1]
    .split(',')
    .map((s) => s.trim());
  assert.equal(sorted(extendsList), sorted(['RuntimeMethods', ...FAMILIES.map((f) => `${pascal(f.name)}Methods`)]));
});

test("runtime.d.ts's PosencErrorCode gathers every family's error codes", () => {
  const declared = FAMILIES.filter((f) =>
    read(`src/js/${f.name}/${f.name}.d.ts`).includes(`export type ${pascal(f.name)}ErrorCode`),
  ).map((f) => `${pascal(f.name)}ErrorCode`);
  const union = /export type PosencErrorCode =([^;]+);/.exec(read('src/js/runtime/runtime.d.ts'))[1];
  const gathered = union
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'RuntimeErrorCode');
  assert.equal(sorted(gathered), sorted(declared));
});

test('the three CLIs have one command table each, the commands the registry lists', () => {
  const want = sorted(FAMILIES.flatMap((family) => family.commands));
  const js = /const COMMANDS = \[([^\]]+)\]/.exec(read('src/js/cli/main.js'))[1];
  assert.equal(sorted([...js.matchAll(/name: '([\w-]+)'/g)].map((m) => m[1])), want, 'src/js/cli/main.js');
  const c = /static const cli_command COMMANDS\[\] = \{([\s\S]+?)\n\};/.exec(read('src/cli/posenc.c'))[1];
  assert.equal(sorted([...c.matchAll(/\{"([\w-]+)",/g)].map((m) => m[1])), want, 'src/cli/posenc.c');
  const py = /^COMMANDS: Dict\[str, ModuleType\] = \{([\s\S]+?)\n\}/m.exec(read('src/python/posenc/cli.py'))[1];
  assert.equal(sorted([...py.matchAll(/^\s+"([\w-]+)":/gm)].map((m) => m[1])), want, 'src/python/posenc/cli.py');
});

test("the C API tests' families (tests/native/api/tests.h) are registered ones", () => {
  // api-asan NAME runs a family's C tests (npm run test:family): a test filed under a name no family has
  // would never run in the family loop. common holds the core's shared parts (statuses, kernels, math).
  const filed = new Set([...read('tests/native/api/tests.h').matchAll(/^\s+X\((\w+), \w+\)/gm)].map((m) => m[1]));
  assert.ok(filed.size >= 5, `only ${[...filed].join(', ')} found in tests.h: the pattern reads too little`);
  const names = ['common', ...FAMILIES.map((family) => family.name)];
  assert.equal(
    [...filed].filter((name) => !names.includes(name)),
    [],
  );
});

test('each family has its folder in every layer, and every family folder is registered', () => {
  const names = FAMILIES.map((family) => family.name);
  for (const name of names) {
    assert.ok(existsSync(new URL(`../src/js/${name}/`, import.meta.url)), `src/js/${name}/`);
    assert.ok(existsSync(new URL(`../src/wasm/${name}.c`, import.meta.url)), `src/wasm/${name}.c`);
    const core = [`src/core/${name}/`, `src/core/sinusoid/${name}/`];
    assert.ok(
      name === 'sinusoid' || core.some((path) => existsSync(new URL(`../${path}`, import.meta.url))),
      `${core.join(' or ')}`,
    );
  }
  const dirs = (path) =>
    readdirSync(new URL(`../${path}`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  const js = dirs('src/js').filter((dir) => !['runtime', 'cli', 'shared'].includes(dir));
  assert.equal(sorted(js), sorted(names), 'src/js/<family>/');
  const wasm = readdirSync(new URL('../src/wasm/', import.meta.url))
    .filter((file) => file.endsWith('.c') && file !== 'common.c')
    .map((file) => file.slice(0, -2));
  assert.equal(sorted(wasm), sorted(names), 'src/wasm/<family>.c (common.c is the runtime’s)');
  const core = [...dirs('src/core'), ...dirs('src/core/sinusoid')].filter((dir) => !['common', 'math'].includes(dir));
  assert.equal(sorted(core), sorted(names), 'src/core/<family>/ and src/core/sinusoid/<family>/');
});

test.run();
