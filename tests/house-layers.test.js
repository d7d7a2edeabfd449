// ARCHITECTURE.md's table "What each folder may touch", checked on the
// imports and includes themselves: the JS runtime imports no family, a family
// imports no other family's internals (but for the edges the table names), the
// page reaches the package only through its entry (and the shared output
// formats), and each C folder includes only what the table allows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES } from '../src/js/families.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FAMILY_NAMES = FAMILIES.map((family) => family.name);

/** Files under a folder of the repository whose name ends with one of `endings`. */
const filesUnder = (folder, endings) =>
  readdirSync(join(ROOT, folder), { recursive: true })
    .filter((path) => endings.some((ending) => path.endsWith(ending)) && !path.includes('node_modules'))
    .map((path) => join(folder, path));

/** [file, target] for each relative import of a JS file (target: a path from the repository's root). */
function jsImports(folder) {
  const edges = [];
  for (const file of filesUnder(folder, ['.js'])) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(
      /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g,
    )) {
      const spec = m[1] ?? m[2];
      edges.push([file, normalize(join(dirname(file), spec.split('?')[0]))]);
    }
  }
  return edges;
}

/** The JS layer of a path under src/js: runtime, shared, cli, a family, or the assembly (files at the top). */
function jsLayer(path) {
  const parts = relative('src/js', path).split('/');
  if (parts[0].startsWith('..')) return 'outside';
  return parts.length === 1 ? 'assembly' : parts[0];
}

// The family → family edges ARCHITECTURE.md names (the table's "may use" column), each with its reason.
const FAMILY_EDGES = {
  'sinusoid -> precision': 'sinusoidal tables in float16/bfloat16 (dtype), as the C recurrence stores them',
  'precision -> sinusoid': "the recipes take sinusoidal()'s encoding options",
};

test('the JS runtime imports nothing above it; a family only runtime/, shared/ and the named edges', () => {
  const wrong = [];
  for (const [file, target] of jsImports('src/js')) {
    const from = jsLayer(file);
    const to = jsLayer(target);
    if (from === to) continue;
    if (from === 'runtime' || from === 'shared') wrong.push(`${file} imports ${target} (${from} is the ground)`);
    else if (FAMILY_NAMES.includes(from)) {
      const allowed = to === 'runtime' || to === 'shared' || FAMILY_EDGES[`${from} -> ${to}`];
      if (!allowed) wrong.push(`${file} imports ${target} (family ${from} may not use ${to})`);
    } else if (from === 'cli' && to === 'outside') wrong.push(`${file} imports ${target} (outside the package)`);
  }
  assert.equal(wrong, []);
});

test('the page reaches the package only through src/js/index.js (and the shared output formats)', () => {
  const wrong = jsImports('web/src')
    .filter(([, target]) => target.startsWith('src/'))
    .filter(([, target]) => target !== 'src/js/index.js' && !target.startsWith('src/js/shared/'))
    .map(([file, target]) => `${file} imports ${target}`);
  assert.equal(wrong, []);
});

// Headers the build writes (build.sh: -Ibuild/gen), by the name they are included by.
const GENERATED = { 'pe_wasm_boundary.h': 'build/gen/pe_wasm_boundary.h' };

/** [file, target] for every quoted include of the C files under folder: the file's folder, a generated header, or src/core. */
function cIncludes(folder) {
  const edges = [];
  for (const file of filesUnder(folder, ['.c', '.h'])) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^#include "([^"]+)"/gm)) {
      const own = normalize(join(dirname(file), m[1]));
      const fromCore = normalize(join('src/core', m[1]));
      const target = isFile(own) ? own : (GENERATED[m[1]] ?? fromCore);
      edges.push([file, target]);
    }
  }
  return edges;
}
const isFile = (path) => {
  try {
    readFileSync(join(ROOT, path));
    return true;
  } catch {
    return false;
  }
};

/** The C folder of a path under src/core: common, math, posenc.h, or a family (nested ones by their own name). */
function cFolder(path) {
  const parts = relative('src/core', path).split('/');
  if (parts.length === 1) return parts[0]; // posenc.h
  if (parts[0] === 'sinusoid' && parts.length > 2) return parts[1];
  return parts[0];
}
const NESTED = ['rope', 'precision', 'grid2d'];
// Headers of the sinusoid plan the nested families build on.
const PLAN_HEADERS = ['src/core/sinusoid/plan.h', 'src/core/sinusoid/settle.h'];
// The one family → family include the table names: the recurrence stores float16/bfloat16 rows.
const C_EDGES = { 'src/core/sinusoid': ['src/core/sinusoid/precision/precision_kernels.h'] };

test('C core includes follow the table', () => {
  const wrong = [];
  for (const [file, target] of cIncludes('src/core')) {
    const from = cFolder(file);
    const to = cFolder(target);
    if (from === to || to === 'posenc.h') continue;
    if (from === 'common' || from === 'math') {
      if (to !== 'common' && to !== 'math') wrong.push(`${file} includes ${target} (${from} uses no family)`);
      continue;
    }
    if (to === 'common' || to === 'math') continue;
    if (NESTED.includes(from) && PLAN_HEADERS.includes(target)) continue;
    if ((C_EDGES[dirname(file)] ?? []).includes(target)) continue;
    wrong.push(`${file} includes ${target} (${from} may not use ${to})`);
  }
  assert.equal(wrong, []);
});

test('the wasm wrappers include posenc.h and export.h only; the native CLI posenc.h and its own files', () => {
  const wrong = [];
  for (const [file, target] of cIncludes('src/wasm'))
    if (!['src/core/posenc.h', 'src/wasm/export.h', GENERATED['pe_wasm_boundary.h']].includes(target))
      wrong.push(`${file} includes ${target}`);
  for (const [file, target] of cIncludes('src/cli'))
    if (target !== 'src/core/posenc.h' && !target.startsWith('src/cli/')) wrong.push(`${file} includes ${target}`);
  assert.equal(wrong, []);
});

test('the checks see the imports and includes they judge', () => {
  // A check that reads nothing passes everything: make sure each reads the edges it is about.
  assert.ok(jsImports('src/js').some(([f, t]) => f === 'src/js/rope/rope.js' && t === 'src/js/runtime/validate.js'));
  assert.ok(jsImports('web/src').some(([, t]) => t === 'src/js/index.js'));
  assert.ok(
    cIncludes('src/core').some(([f, t]) => f === 'src/core/sinusoid/rope/rope.c' && t === 'src/core/sinusoid/plan.h'),
  );
  assert.ok(cIncludes('src/wasm').some(([, t]) => t === 'src/core/posenc.h'));
});

test.run();
