// Writes the C side of the C↔JS boundary from its one description
// (src/js/runtime/boundary.js): for each crossing, the function that reads a
// posenc.h struct from its doubles (in) or writes them (out). Run by build.sh:
//   node src/wasm/boundary-gen.js build/gen/pe_wasm_boundary.h
// It refuses (exit 1, nothing written) when a crossing and its posenc.h struct
// disagree: a struct field neither crossing nor listed as left out, or a slot
// naming no field, fails the build. tests/runtime-boundary.test.js runs the
// same checks.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CROSSINGS } from '../js/runtime/boundary.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const HEADER = join(root, 'src/core/posenc.h');

const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');

/**
 * posenc.h's structs: { name: [{ name, type, pointer, count }] } (type without
 * the stars; pointer: the stars; count: an array's length, #define names
 * resolved, else 1).
 */
export function headerStructs(header) {
  const text = withoutComments(header);
  const defines = {};
  for (const [, name, value] of text.matchAll(/#define\s+(\w+)\s+\(?(\d+)\)?\s*$/gm)) defines[name] = Number(value);
  const structs = {};
  for (const [, name, body, alias] of text.matchAll(/typedef\s+struct\s+(\w+)\s*\{([^}]*)\}\s*(\w+)\s*;/g)) {
    if (name !== alias) continue;
    const fields = [];
    for (const declaration of body.split(';').map((d) => d.trim().replace(/\s+/g, ' '))) {
      if (declaration === '') continue;
      const [first, ...more] = declaration.split(',');
      const head = /^(.*?)([\s*]+)(\w+)\s*(?:\[\s*(\w+)\s*\])?$/.exec(first.trim());
      if (!head) throw new Error(`posenc.h: cannot read the field '${declaration}' of ${name}`);
      const type = head[1].trim();
      const declarators = [`${head[2].replace(/\s/g, '')}${head[3]}${head[4] ? `[${head[4]}]` : ''}`, ...more];
      for (const d of declarators) {
        const m = /^\s*(\**)\s*(\w+)\s*(?:\[\s*(\w+)\s*\])?\s*$/.exec(d);
        if (!m) throw new Error(`posenc.h: cannot read the declarator '${d}' of ${name}`);
        let count = 1;
        if (m[3] !== undefined) count = /^\d+$/.test(m[3]) ? Number(m[3]) : defines[m[3]];
        if (count === undefined) throw new Error(`posenc.h: ${name}.${m[2]}: unknown array length ${m[3]}`);
        fields.push({ name: m[2], type, pointer: m[1], count });
      }
    }
    structs[name] = fields;
  }
  return structs;
}

/** Every leaf field of struct `name` (nested structs walked): [{ path, type, pointer, count }]. */
export function leafFields(structs, name, prefix = '') {
  const leaves = [];
  for (const field of structs[name]) {
    const path = prefix + field.name;
    if (field.pointer === '' && field.count === 1 && Object.hasOwn(structs, field.type))
      leaves.push(...leafFields(structs, field.type, `${path}.`));
    else leaves.push({ ...field, path });
  }
  return leaves;
}

/** What is wrong between a crossing and posenc.h's struct: a list of sentences, empty when they agree. */
export function crossingProblems(crossing, structs) {
  if (!Object.hasOwn(structs, crossing.struct)) return [`posenc.h has no struct ${crossing.struct}`];
  const leaves = new Map(leafFields(structs, crossing.struct).map((f) => [f.path, f]));
  const problems = [];
  const listed = new Set();
  for (const { path, count } of crossing.fields) {
    listed.add(path);
    const leaf = leaves.get(path);
    if (!leaf) problems.push(`${crossing.struct} has no field ${path}, which the boundary lists`);
    else if (leaf.count !== count)
      problems.push(`${crossing.struct}.${path} has ${leaf.count} elements; the boundary gives it ${count} slots`);
  }
  for (const path of Object.keys(crossing.omitted)) {
    listed.add(path);
    if (!leaves.has(path)) problems.push(`${crossing.struct} has no field ${path}, which the boundary leaves out`);
  }
  for (const path of leaves.keys()) {
    if (!listed.has(path))
      problems.push(
        `${crossing.struct}.${path} neither crosses nor is left out: list it in src/js/runtime/boundary.js`,
      );
  }
  return problems;
}

/** The C statements of one crossing: reading the struct from the doubles s (in) or writing them (out). */
function statements(crossing, leaves) {
  const lines = [];
  for (const { path, kind, count, at } of crossing.fields) {
    const { type, pointer } = leaves.get(path);
    for (let k = 0; k < count; k++) {
      const field = `v->${path}${count > 1 ? `[${k}]` : ''}`;
      const slot = `s[${at + k}]`;
      if (crossing.direction === 'out') {
        lines.push(`    ${slot} = (double)${field};`);
        continue;
      }
      let value;
      if (kind === 'double') value = slot;
      else if (kind === 'flag') value = `${slot} != 0.0`;
      else if (kind === 'address') value = `(${type} ${pointer})(uintptr_t)pe_wasm_whole(${slot})`;
      else value = `(${type})pe_wasm_whole(${slot})`;
      lines.push(`    ${field} = ${value};`);
    }
  }
  return lines;
}

/** The generated header's text. */
export function boundaryHeader(structs) {
  const out = [
    '/* Generated by src/wasm/boundary-gen.js from src/js/runtime/boundary.js (build.sh): do not edit.',
    ' * The structs that cross wasm memory as doubles, slot by slot as boundary.js names them. */',
    '#ifndef PE_WASM_BOUNDARY_H',
    '#define PE_WASM_BOUNDARY_H',
    '',
    '#include <stdint.h>',
    '',
    '#include "posenc.h"',
    '',
    '/* A whole number in uint32 range, else UINT32_MAX (which the core refuses',
    ' * wherever it matters): a double outside the range must not reach a cast. */',
    'static inline uint32_t pe_wasm_whole(double v) {',
    '    return v >= 0.0 && v <= 4294967295.0 ? (uint32_t)v : UINT32_MAX;',
    '}',
  ];
  for (const [name, crossing] of Object.entries(CROSSINGS)) {
    const leaves = new Map(leafFields(structs, crossing.struct).map((f) => [f.path, f]));
    const fn = `pe_wasm_${name.toLowerCase()}_${crossing.direction}`;
    out.push('', `#define PE_WASM_${name}_DOUBLES ${crossing.length}`);
    if (crossing.direction === 'in') {
      out.push(`/* A ${crossing.struct} from ${name}'s ${crossing.length} doubles. */`);
      out.push(`static inline void ${fn}(const double *s, ${crossing.struct} *v) {`);
    } else {
      out.push(`/* A ${crossing.struct} as ${name}'s ${crossing.length} doubles. */`);
      out.push(`static inline void ${fn}(const ${crossing.struct} *v, double *s) {`);
    }
    out.push(...statements(crossing, leaves), '}');
  }
  out.push('', '#endif', '');
  return out.join('\n');
}

/** Every problem of every crossing against the header text. */
export function boundaryProblems(header) {
  const structs = headerStructs(header);
  return Object.values(CROSSINGS).flatMap((c) => crossingProblems(c, structs));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node src/wasm/boundary-gen.js OUT.h');
    process.exit(2);
  }
  const header = readFileSync(HEADER, 'utf8');
  const problems = boundaryProblems(header);
  if (problems.length) {
    console.error(`boundary-gen: src/js/runtime/boundary.js and posenc.h disagree:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  // Written only when it changes, so a change to EXPORTS alone does not rebuild the wasm.
  const text = boundaryHeader(headerStructs(header));
  mkdirSync(dirname(target), { recursive: true });
  if (!existsSync(target) || readFileSync(target, 'utf8') !== text) writeFileSync(target, text);
}
