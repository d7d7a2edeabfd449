// RoPE on several position axes (posenc.h, pe_rope_axes): Qwen2-VL's and
// Qwen2.5-VL's mrope (`mropeSection`, or `mrope_section` in the scaling dict as
// their config.json ships it), Qwen3-VL's interleaved mrope (`mropeInterleaved`,
// or `mrope_interleaved` in the dict) and 2-D axial RoPE of vision patches as Qwen2-VL's
// vision tower (`vision: true`). checkAxes checks the settings; checkAxisRows
// checks position ids of shape (axes, length) or (axes, batch, length), as HF
// holds them, and lays them out row by row, as the core takes them. Everything
// is checked before anything is written.
import { refuse } from '../runtime/errors.js';
import { checkFlag } from '../runtime/validate.js';
import { copyIds, flatten, isIdArray, ID_ARRAYS } from './positions.js';

const MROPE = 1;
const VISION = 2;
const MROPE_INTERLEAVED = 3; // posenc.h's PE_ROPE_AXES_MROPE_INTERLEAVED
const AXIS_NAMES = { [MROPE]: '(temporal, height, width)', [VISION]: '(row, column)' };
/** Plain RoPE: one position per row. */
export const NO_AXES = Object.freeze({ type: 0, section: Object.freeze([0, 0, 0]), axes: 0 });

function checkSection(value, argument, rotaryDim) {
  const what = `3 whole numbers of pairs (temporal, height, width), each ≥ 1, summing to rotaryDim/2 = ${rotaryDim / 2}`;
  if (!(Array.isArray(value) || ArrayBuffer.isView(value)) || value.length !== 3)
    refuse('BAD_AXES', argument, what, value);
  let sum = 0;
  for (const v of value) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) refuse('BAD_AXES', argument, what, value);
    sum += v;
  }
  if (sum !== rotaryDim / 2) refuse('BAD_AXES', argument, what, value);
  return Object.freeze([value[0], value[1], value[2]]);
}

/**
 * The axes of options o (mropeSection, vision) and of the checked scaling
 * (its mropeSection, from mrope_section): { type, section, axes }.
 */
export function checkAxes(o, scaling, rotaryDim) {
  const vision = checkFlag(o.vision, 'vision');
  let section = null;
  if (o.mropeSection !== undefined) section = checkSection(o.mropeSection, 'mropeSection', rotaryDim);
  if (scaling.mropeSection !== undefined) {
    const fromScaling = checkSection(scaling.mropeSection, 'scaling.mrope_section', rotaryDim);
    if (section !== null && section.some((v, k) => v !== fromScaling[k])) {
      refuse(
        'BAD_AXES',
        'mropeSection',
        `scaling.mrope_section (${fromScaling.join(', ')}) or left out`,
        o.mropeSection,
      );
    }
    section = fromScaling;
  }
  const interleaved = checkFlag(o.mropeInterleaved, 'mropeInterleaved');
  const fromDict = scaling.mropeInterleaved;
  if (fromDict !== undefined && typeof fromDict !== 'boolean')
    refuse('BAD_SCALING', 'scaling.mrope_interleaved', 'true or false', fromDict);
  if (fromDict !== undefined && o.mropeInterleaved !== undefined && fromDict !== interleaved)
    refuse('BAD_AXES', 'mropeInterleaved', `scaling.mrope_interleaved (${fromDict}) or left out`, o.mropeInterleaved);
  if ((interleaved || fromDict === true) && section !== null) {
    // HF's apply_interleaved_mrope: pairs a, a + 3, ... below 3·section[a] for a = 1, 2 (each then owns section[a] pairs).
    for (const a of [1, 2]) {
      if (3 * section[a] + a - 3 >= rotaryDim / 2) {
        refuse(
          'BAD_AXES',
          o.mropeSection !== undefined ? 'mropeSection' : 'scaling.mrope_section',
          `sections whose interleaved pairs fit: 3·section[${a}] + ${a} - 3 < rotaryDim/2 = ${rotaryDim / 2}`,
          section,
        );
      }
    }
    return Object.freeze({ type: MROPE_INTERLEAVED, section, axes: 3 });
  }
  if (interleaved || fromDict === true) {
    refuse(
      'BAD_AXES',
      o.mropeInterleaved !== undefined ? 'mropeInterleaved' : 'scaling.mrope_interleaved',
      'used with mrope sections (mropeSection or scaling.mrope_section)',
      true,
    );
  }
  if (vision && section !== null) {
    refuse('BAD_AXES', 'vision', 'left out with mrope sections (a rope is mrope or 2-D, not both)', o.vision);
  }
  if (vision) {
    if (rotaryDim % 4 !== 0) {
      refuse(
        'BAD_AXES',
        'vision',
        `used with rotaryDim a multiple of 4 (rows and columns take rotaryDim/4 pairs each); rotaryDim is ${rotaryDim}, so`,
        o.vision,
      );
    }
    if (scaling.type !== 0) {
      refuse('BAD_AXES', 'vision', 'used without scaling (2-D RoPE rotates by the patch grid as it is), so', o.vision);
    }
    return Object.freeze({ type: VISION, section: NO_AXES.section, axes: 2 });
  }
  return section === null ? NO_AXES : Object.freeze({ type: MROPE, section, axes: 3 });
}

/** One flat id array per axis: an Array of `axes` id arrays (each flat or of rows), or one flat array of all. */
function perAxis(value, argument, axes) {
  // Each axis's list read once (a getter may answer anew).
  const lists = Array.isArray(value) && value.length === axes ? Array.from({ length: axes }, (_, a) => value[a]) : null;
  if (lists !== null && lists.every((v) => isIdArray(v))) {
    return lists.map((v, a) => flatten(v, `${argument}[${a}]`));
  }
  const { flat, rowLength } = flatten(lists !== null ? lists : value, argument); // the copy: not read twice
  if (rowLength !== undefined || flat.length % axes !== 0) {
    refuse(
      'BAD_POSITION',
      argument,
      `${axes} position lists ${AXIS_NAMES[axes === 3 ? MROPE : VISION]}: an Array of ${axes} (${ID_ARRAYS}), or one flat array of ${axes}·n ids, axis by axis`,
      value,
    );
  }
  const n = flat.length / axes;
  return Array.from({ length: axes }, (_, a) => ({ flat: flat.slice(a * n, (a + 1) * n), rowLength: undefined }));
}

/**
 * The rows of a call on a rope with axes c.axes (checkRowSources' result, plus
 * axes): `positions` of shape (axes, length), shared by every batch item, or
 * `positionIds` of shape (axes, batch, length); ids hold (batch, length, axes).
 * mrope without either is plain RoPE (offset and length); 2-D RoPE needs one.
 */
export function checkAxisRows(o, axesOf, rowsOfX, checkSpanOf, checkRowSources) {
  const { axes, type } = axesOf;
  if (o.cuSeqlens !== undefined) {
    refuse(
      'BAD_OPTIONS',
      'cuSeqlens',
      `left out with ${axes} position axes: give positionIds of shape (${axes}, batch, length)`,
      o.cuSeqlens,
    );
  }
  const source = o.positions !== undefined ? 'positions' : o.positionIds !== undefined ? 'positionIds' : undefined;
  if (source === undefined) {
    if (type === VISION) {
      refuse(
        'BAD_POSITION',
        'positions',
        `given for 2-D RoPE: (2, length) ids, the patches' rows then their columns`,
        o.positions,
      );
    }
    return { ...checkRowSources(o, rowsOfX, checkSpanOf), axes: 0 };
  }
  if (o.positions !== undefined && o.positionIds !== undefined) {
    refuse(
      'BAD_OPTIONS',
      'positionIds',
      'left out when positions is given (one source of positions per call)',
      o.positionIds,
    );
  }
  if (o.offset !== undefined && o.offset !== 0) {
    refuse(
      'BAD_OFFSET',
      'offset',
      `left out (or 0) when ${source} is given: each row sits at its listed position`,
      o.offset,
    );
  }
  const lists = perAxis(o[source], source, axes);
  const n = lists[0].flat.length;
  for (let a = 1; a < axes; a++) {
    if (lists[a].flat.length !== n) {
      refuse(
        'BAD_POSITION',
        `${source}[${a}]`,
        `as many ids as ${source}[0] (${n}): every axis has one per row`,
        o[source][a],
      );
    }
  }
  let length;
  if (source === 'positions') {
    length = n;
    if (o.length !== undefined && o.length !== length) {
      refuse(
        'BAD_LENGTH',
        'length',
        `${source}[0].length = ${length} (one position per row and axis), or left out`,
        o.length,
      );
    }
  } else {
    const rowLength = lists[0].rowLength;
    length = o.length !== undefined ? checkSpanOf(o.length, 0)[0] : (rowLength ?? rowsOfX);
    if (rowLength !== undefined && rowLength !== length) {
      refuse('BAD_LENGTH', 'length', `the rows of positionIds[0] (${rowLength} each), or left out`, o.length);
    }
    if (length === 0 ? n !== 0 : n % length !== 0) {
      refuse(
        'BAD_SIZE',
        'positionIds',
        `(${axes}, batch, length) ids with length ${length}: a multiple of ${length} per axis`,
        o.positionIds,
      );
    }
  }
  const ids = new Uint32Array(n * axes);
  const axis = new Uint32Array(n);
  let end = 0;
  for (let a = 0; a < axes; a++) {
    end = Math.max(end, copyIds(lists[a].flat, `${source}[${a}]`, axis, 0));
    for (let k = 0; k < n; k++) ids[k * axes + a] = axis[k];
  }
  return { length, offset: 0, ids, perItem: source === 'positionIds', end, axes };
}
