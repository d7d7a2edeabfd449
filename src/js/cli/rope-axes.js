// The position axes of `posenc rope`, with the checks, order and messages of
// src/cli/rope_axes_option.c:
//   --mrope-section T,H,W   Qwen2-VL's mrope: pairs per axis (temporal, height,
//                           width), summing to rotary_dim/2; or the config's
//                           rope_scaling.mrope_section, which it must equal
//   --vision                2-D RoPE of vision patches (row, then column)
//   --position-ids IDS      one row of ids per axis: "0,1,2" for plain RoPE,
//                           "t;h;w" rows for mrope, "r;c" for 2-D, or @FILE
//                           with one row per line; ids are whole numbers below
//                           2^31, separated by ',' or blanks, rows by ';' or
//                           new lines (empty rows skipped)
import { readInput, MAX_IDS_BYTES } from './read-input.js';
import { fail, parseCount } from './args.js';

const MAX_ID = 2147483647;

function parseSections(text, half) {
  const parts = text.split(',');
  const bad = () =>
    fail(
      `--mrope-section must be 3 whole numbers of pairs (temporal, height, width), each ≥ 1, summing to rotary_dim/2 = ${half}; got ${text}`,
    );
  if (parts.length !== 3 || parts.some((p) => Buffer.byteLength(p) >= 16)) bad();
  const s = parts.map(parseCount);
  if (s.some((v) => v === undefined || v < 1) || s[0] + s[1] + s[2] !== half) bad();
  return s;
}

/** The id rows of text: `axes` rows of equal length (an Array of Uint32Array). */
function parseIds(text, axes) {
  const rows = [];
  for (const line of text.split(/[;\n]/)) {
    const tokens = line.split(/[, \t\r]/).filter((t) => t !== '');
    if (tokens.length === 0) continue;
    const ids = new Uint32Array(tokens.length);
    for (const [k, token] of tokens.entries()) {
      const id = Buffer.byteLength(token) < 16 ? parseCount(token) : undefined;
      if (id === undefined || id > MAX_ID)
        fail(
          `--position-ids must hold whole numbers from 0 to 2147483647; got ${Buffer.from(token).subarray(0, 40).toString('latin1')}`,
        );
      ids[k] = id;
    }
    rows.push(ids);
    if (rows.length > 1 && ids.length !== rows[0].length)
      fail(
        `--position-ids rows must be equally long; row 1 has ${rows[0].length} ids, row ${rows.length} has ${ids.length}`,
      );
  }
  if (rows.length !== axes) {
    const need =
      axes === 3
        ? 'mrope takes 3: temporal, height, width'
        : axes === 2
          ? "--vision takes 2: the patches' rows, then their columns"
          : "plain RoPE takes 1 (rows are separated by ';' or new lines)";
    fail(`--position-ids has ${rows.length} row${rows.length === 1 ? '' : 's'}; ${need}`);
  }
  return rows;
}

/**
 * The axes options for the package ({ mropeSection, vision, positions }) and
 * the rows ({ offset, length, ids, end }) from --mrope-section (or the
 * config's mrope_section), --vision and --position-ids.
 */
export function ropeAxesOptions(given, rope, { offset, length }) {
  const half = rope.rotaryDim / 2;
  const sectionsText = given.get('--mrope-section');
  const idsText = given.get('--position-ids');
  const vision = given.get('--vision') === 'true';
  let sections = sectionsText === undefined ? null : parseSections(sectionsText, half);
  const fromConfig = rope.scaling?.mrope_section;
  if (fromConfig !== undefined) {
    if (fromConfig.length !== 3)
      fail(`the config's mrope_section has ${fromConfig.length} entries; posenc takes 3 (temporal, height, width)`, 1);
    if (fromConfig[0] + fromConfig[1] + fromConfig[2] !== half)
      fail(`the config's mrope_section (${fromConfig.join(', ')}) must sum to rotary_dim/2 = ${half}`, 1);
    if (sections !== null && sections.some((v, k) => v !== fromConfig[k]))
      fail(`--mrope-section ${sectionsText} differs from the config's mrope_section (${fromConfig.join(', ')})`);
    sections = [...fromConfig];
  }
  if (vision && sections !== null) fail('--vision takes no mrope sections (a rope is mrope or 2-D, not both)');
  if (vision && (half % 2 !== 0 || rope.scaled))
    fail('--vision needs rotary_dim a multiple of 4 and no rope scaling (2-D RoPE turns by the patch grid as it is)');
  if (idsText !== undefined && (given.has('--offset') || given.has('--length')))
    fail('--position-ids replaces --offset and --length; give one or the other');
  if (vision && idsText === undefined)
    fail("--vision needs --position-ids (two rows: the patches' rows, then their columns)");
  const axes = { ...(sections !== null ? { mropeSection: sections } : {}), ...(vision ? { vision: true } : {}) };
  if (idsText === undefined) return { axes, rows: { offset, length, ids: null, end: offset + length } };
  let text = idsText;
  if (idsText.startsWith('@')) {
    text = new TextDecoder().decode(
      readInput('--position-ids', 'a file of position ids', idsText.slice(1), MAX_IDS_BYTES),
    );
    if (text.includes('\0')) fail('--position-ids must hold whole numbers from 0 to 2147483647; got a NUL byte');
  }
  const rows = parseIds(text, sections !== null ? 3 : vision ? 2 : 1);
  const end = rows.reduce((top, row) => row.reduce((a, id) => Math.max(a, id + 1), top), 0);
  return { axes, rows: { offset: 0, length: rows[0].length, ids: rows.length === 1 ? rows[0] : rows, end } };
}
