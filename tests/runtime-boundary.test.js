// The C↔JS boundary's one description (src/js/runtime/boundary.js) against
// what it describes: posenc.h's structs (a field added on one side only
// fails), the generated C header build.sh compiles, the pe_wasm_* exports'
// parameters in src/wasm (named and ordered as posenc.h's entry points), and
// the JS calls of those exports.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CROSSINGS, ROTARY, CONFIG, CONFIG_LAYER, EXPORTS } from '../src/js/runtime/boundary.js';
import { HEADER, headerStructs, boundaryHeader, boundaryProblems, crossingProblems } from '../src/wasm/boundary-gen.js';
import { ropeSpec, SCALING_FIELDS } from '../src/js/rope/options.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const header = readFileSync(HEADER, 'utf8');

test('every field of every crossing struct in posenc.h crosses or is left out with a reason', () => {
  assert.equal(boundaryProblems(header), []);
  for (const crossing of Object.values(CROSSINGS)) {
    assert.ok(crossing.length > 0, crossing.struct);
    for (const why of Object.values(crossing.omitted)) assert.ok(why.length > 4, `${crossing.struct}: a reason`);
  }
});

test('a field added to a posenc.h struct and not to the boundary is refused (and the reverse)', () => {
  const added = header.replace(
    /(typedef struct pe_rope_scaling \{[^}]*?double factor;[^\n]*\n)/,
    '$1    double factor_squared;\n',
  );
  assert.is.not(added, header, 'the edit applies');
  assert.equal(boundaryProblems(added), [
    'pe_rotary.scaling.factor_squared neither crosses nor is left out: list it in src/js/runtime/boundary.js',
    'pe_config.rope.scaling.factor_squared neither crosses nor is left out: list it in src/js/runtime/boundary.js',
  ]);
  const configAdded = header.replace(/(\n\s*int encoder_decoder;)/, '$1\n    uint32_t sliding_window;');
  assert.equal(boundaryProblems(configAdded), [
    'pe_config.sliding_window neither crosses nor is left out: list it in src/js/runtime/boundary.js',
  ]);
  // A slot the struct does not have, and a slot dropped from the description.
  const structs = headerStructs(header);
  const extra = { ...ROTARY, fields: [...ROTARY.fields, { path: 'scaling.factor2', kind: 'double', count: 1 }] };
  assert.equal(crossingProblems(extra, structs), ['pe_rotary has no field scaling.factor2, which the boundary lists']);
  const fewer = { ...CONFIG, fields: CONFIG.fields.filter((f) => f.path !== 'kv_heads') };
  assert.equal(crossingProblems(fewer, structs), [
    'pe_config.kv_heads neither crosses nor is left out: list it in src/js/runtime/boundary.js',
  ]);
  const shorter = { ...ROTARY, fields: ROTARY.fields.map((f) => (f.count === 3 ? { ...f, count: 2 } : f)) };
  assert.equal(crossingProblems(shorter, structs), [
    'pe_rotary.axes.mrope_section has 3 elements; the boundary gives it 2 slots',
  ]);
});

test('the C header the wasm was built with is the one the description gives (build.sh regenerates it)', () => {
  const built = readFileSync(join(root, 'build/gen/pe_wasm_boundary.h'), 'utf8');
  assert.fixture(built, boundaryHeader(headerStructs(header)));
  for (const [name, crossing] of Object.entries(CROSSINGS))
    assert.ok(built.includes(`#define PE_WASM_${name}_DOUBLES ${crossing.length}\n`), name);
});

test("the RoPE module's spec writer fills every slot of ROTARY (but the factor addresses the plan writes)", () => {
  // Checked options with every number nonzero and distinct: a slot the writer forgets stays 0.
  let next = 1;
  const scaling = { type: next++ };
  for (const name of SCALING_FIELDS) scaling[name] = next++;
  const c = {
    headDim: next++,
    rotaryDim: next++,
    heads: next++,
    base: next++,
    layout: next++,
    order: next++,
    inverse: true,
    scaling,
    axes: { type: next++, section: [next++, next++, next++] },
    xpos: { scaleBase: next++, gamma: next++, key: 1, center: next++ },
  };
  const spec = ropeSpec(c, next++);
  assert.is(spec.length, ROTARY.length);
  const unwritten = ROTARY.fields.filter(({ at, count }) => spec.subarray(at, at + count).some((v) => v === 0));
  assert.equal(
    unwritten.map((f) => f.path),
    ['scaling.short_factor', 'scaling.long_factor'],
  );
  const values = [...spec].filter((v) => v !== 0 && v !== 1); // inverse and xpos.key are flags
  assert.is(new Set(values).size, values.length, 'no value written twice');
  assert.is(spec[ROTARY.at['scaling.factor']], scaling.factor);
  assert.is(spec[ROTARY.at['xpos.center']], c.xpos.center);
});

test('the config module reads every field CONFIG and CONFIG_LAYER carry, by name', () => {
  const reader = readFileSync(join(root, 'src/js/runtime/config-read.js'), 'utf8');
  // describeFields and scalingDict read CONFIG's as f (scaling('x') for f['rope.scaling.x']); readLayers CONFIG_LAYER's as out.
  for (const [crossing, name] of [
    [CONFIG, 'f'],
    [CONFIG_LAYER, 'out'],
  ]) {
    for (const { path } of crossing.fields) {
      // layer_types crosses but JS asks the layer types by name instead (the keys text of PE_ERR_LAYER_TYPE).
      if (crossing === CONFIG && path === 'layer_types') continue;
      const scaling = path.startsWith('rope.scaling.') ? `scaling('${path.slice('rope.scaling.'.length)}')` : null;
      const yarn = path.startsWith('rope.scaling.') ? `'${path.slice('rope.scaling.'.length)}'` : null; // the YARN key list
      const named =
        reader.includes(`${name}.${path}`) ||
        reader.includes(`${name}['${path}']`) ||
        (scaling && (reader.includes(scaling) || reader.includes(yarn)));
      assert.ok(named, `config-read.js reads ${crossing.struct}.${path}`);
    }
  }
  assert.not.match(reader, /\b(fields|f|out)\[\d+\]/, 'no numbered slot');
});

/** name -> parameter names of a C parameter list ('void' or '': none). */
function parameterNames(list) {
  const text = list.replace(/\s+/g, ' ').trim();
  if (text === '' || text === 'void') return [];
  return text.split(',').map((p) => /(\w+)\s*(?:\[\w*\])?\s*$/.exec(p.trim())[1]);
}

/** The pe_wasm_* exports defined in src/wasm: { name: params }. */
function wasmExports() {
  const exports = {};
  const dir = join(root, 'src/wasm');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.c'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [, name, params] of text.matchAll(/EXPORT\("(\w+)"\)[^(]*?\b\w+\s*\(([^)]*)\)\s*\{/g))
      exports[name] = parameterNames(params);
  }
  return exports;
}

/** posenc.h's entry points: { name: params }. */
function coreFunctions() {
  const functions = {};
  for (const [, name, params] of header.matchAll(/PE_API\s+[\w\s*]*?\b(pe_\w+)\s*\(([^)]*)\)\s*;/g))
    functions[name] = parameterNames(params);
  return functions;
}

test('src/wasm defines exactly the exports the description lists, with its parameters in its order', () => {
  const defined = wasmExports();
  assert.equal(Object.keys(defined).sort(), Object.keys(EXPORTS).sort());
  for (const [name, { params }] of Object.entries(EXPORTS)) assert.equal(defined[name], params, name);
});

test("each export takes the parameters it shares with its posenc.h entry point in posenc.h's order", () => {
  const core = coreFunctions();
  let checked = 0;
  for (const [name, { core: wrapped, params, own }] of Object.entries(EXPORTS)) {
    if (wrapped === null) continue;
    assert.ok(Object.hasOwn(core, wrapped), `${name} wraps ${wrapped}, which posenc.h declares`);
    const shared = core[wrapped].filter((p) => params.includes(p));
    const inExport = params.filter((p) => shared.includes(p));
    if (own) {
      assert.ok(own.length > 20, `${name} says why its order is its own`);
      assert.is.not(inExport.join(), shared.join(), `${name} states an own order it does not have`);
      continue;
    }
    assert.equal(inExport, shared, `${name} vs ${wrapped}`);
    checked++;
  }
  assert.ok(checked >= 32, `${checked} exports checked`);
  // The positions go offset then length wherever both are taken.
  for (const [name, { params, own }] of Object.entries(EXPORTS)) {
    if (!own && params.includes('offset') && params.includes('length'))
      assert.ok(params.indexOf('offset') < params.indexOf('length'), name);
  }
});

/** Each `wasm.pe_*(` call in the JS sources: [file, name, argument count]. */
function jsCalls() {
  const calls = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/\bwasm\.(pe_\w+)\(/g)) {
          let depth = 1;
          let count = 0;
          let any = false;
          for (let i = match.index + match[0].length; depth > 0; i++) {
            const ch = text[i];
            if (ch === '(' || ch === '[' || ch === '{') depth++;
            else if (ch === ')' || ch === ']' || ch === '}') depth--;
            else if (ch === ',' && depth === 1) count++;
            else if (depth === 1 && !/\s/.test(ch)) any = true;
            if (depth === 0 && text.slice(match.index, i).trimEnd().endsWith(',')) count--; // a trailing comma
          }
          calls.push([path.slice(root.length + 1), match[1], any ? count + 1 : 0]);
        }
      }
    }
  };
  walk(join(root, 'src/js'));
  return calls;
}

test('the JS calls every export with as many arguments as the description lists', () => {
  const calls = jsCalls();
  assert.ok(calls.length >= 30, `${calls.length} calls`);
  for (const [file, name, count] of calls) {
    assert.ok(Object.hasOwn(EXPORTS, name), `${file}: ${name} is listed`);
    assert.is(count, EXPORTS[name].params.length, `${file}: ${name}`);
  }
});

test.run();
