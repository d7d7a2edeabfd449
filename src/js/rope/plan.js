// RoPE plans (createRope): the core's pe_rope_plan in this instance's wasm
// memory, and the calls that use it — apply() (x in place: float32, or
// float16/bfloat16 bit patterns; wasm-resident or a JS array staged through
// wasm in chunks) and cosSin() (the caches engines hold). rope() and
// ropeCosSin() run on plans too (rope.js), so all of them give the same bits.
// Every argument is checked before anything is written.
import { PosencError, refuse } from '../runtime/errors.js';
import {
  checkOptions,
  checkSpan,
  checkHeads,
  plainView,
  isDetached,
  checkNotDetached,
  MAX_RESULT,
  MAX_LIST,
  LAYOUTS,
} from '../runtime/validate.js';
import { MAX_WASM_BYTES } from '../runtime/wasm-calls.js';
import { WasmBuffer, isWasmBuffer } from '../runtime/wasm-buffer.js';
import { forEachChunk } from '../runtime/chunks.js';
import { checkRowSources } from './positions.js';
import { checkAxisRows } from './axes.js';
import { ropeSpec, SPEC_LENGTH } from './options.js';
import { ROTARY } from '../runtime/boundary.js';
import { checkXposRows } from './xpos.js';
import {
  isTensor,
  readXTensor,
  xTensorShape,
  idsFromTensor,
  checkAs,
  checkFloat16Option,
  float16Result,
} from '../runtime/tensor.js';

const AT = ROTARY.at;
const X_DTYPES = { float32: 0, float16: 1, bfloat16: 2 };
const CACHE_DTYPES = { float32: 0, float16: 1, bfloat16: 2, float64: 3 };
const ELEMENT_BYTES = [4, 2, 2, 8];
export const APPLY_OPTIONS = ['length', 'offset', 'positions', 'positionIds', 'cuSeqlens', 'dtype', 'heads', 'as'];
export const COS_SIN_OPTIONS = ['length', 'offset', 'positions', 'expand', 'dtype', 'as', 'float16'];
// The cos/sin cache a plan keeps when maxPosition asks for one: at most this
// many bytes (rotaryDim floats a row for halves, 2 · rotaryDim for adjacent
// pairs), so r = 128 in halves caches 65536 positions, and at most the rows
// the core caches (PE_ROPE_MAX_CACHE_ROWS).
const CACHE_BYTES = 32 * 2 ** 20;
const MAX_CACHE_ROWS = 2 ** 20;
// Position ids up to this many travel in the block each instance keeps for them.
const KEPT_IDS = 64;
const X_KINDS =
  'a Float32Array, a Uint16Array of float16/bfloat16 bits (with dtype), a Float16Array, a WasmBuffer from alloc(), ' +
  'or a tensor { data, dims, type }';
const DTYPE_NAMES = ['float32', 'float16', 'bfloat16', 'float64'];

/** x's element type code (0 float32, 1 float16, 2 bfloat16) from its type and the dtype option. */
function xDtype(x, dtype) {
  let code;
  if (x instanceof Float32Array) code = 0;
  else if (globalThis.Float16Array !== undefined && x instanceof globalThis.Float16Array) code = 1;
  else if (x instanceof WasmBuffer) code = X_DTYPES[x.dtype];
  else if (x instanceof Uint16Array) {
    if (dtype !== 'float16' && dtype !== 'bfloat16') {
      refuse(
        'BAD_DTYPE',
        'dtype',
        "'float16' or 'bfloat16' for a Uint16Array x (its elements are bit patterns)",
        dtype,
      );
    }
    return X_DTYPES[dtype];
  } else refuse('BAD_BUFFER', 'x', X_KINDS, x);
  if (dtype !== undefined && X_DTYPES[dtype] !== code) {
    const name = Object.keys(X_DTYPES)[code];
    refuse('BAD_DTYPE', 'dtype', `'${name}' or left out (x holds ${name} values)`, dtype);
  }
  return code;
}

/** The 16-bit patterns of a Float16Array (the core rotates bits). */
const bitsView = (x) =>
  x instanceof Uint16Array || x instanceof Float32Array ? x : new Uint16Array(x.buffer, x.byteOffset, x.length);

export function ropePlans(runtime) {
  const { wasm, check } = runtime;

  /**
   * use(specAt) with the spec of checked options c for sequence length L in a
   * temporary block (SPEC_LENGTH doubles, then one more for an attention
   * factor or a plan's address), LongRoPE's factors in another, which the
   * spec points at; both freed afterwards (a plan keeps its own copy).
   */
  function withSpec(c, sequenceLength, use) {
    const values = ropeSpec(c, sequenceLength);
    const s = c.scaling;
    const n = s.short_factor ? s.short_factor.length : 0;
    const blocks = [[(SPEC_LENGTH + 1) * 8, 'rope spec'], n ? [2 * n * 8, 'longrope factors'] : null];
    return runtime.withTemporary(blocks, (spec, factors) => {
      if (n) {
        runtime.doubles(factors, n).set(s.short_factor);
        runtime.doubles(factors + n * 8, n).set(s.long_factor);
        values[AT['scaling.short_factor']] = factors;
        values[AT['scaling.long_factor']] = factors + n * 8;
      }
      runtime.doubles(spec, SPEC_LENGTH).set(values);
      return use(spec);
    });
  }

  // Short id lists (a decoding step's) go to a block the instance keeps, not
  // a malloc and free per call: a tenth of such a call's time (issue 11).
  const keptIds = runtime.reserve('positions');

  /** use(idsAt) with uint32 ids (or null: idsAt 0) in wasm memory. */
  function withIds(ids, use) {
    if (ids === null || ids.length === 0) return use(0);
    const placed = (at) => {
      runtime.words(at, ids.length).set(ids);
      return use(at);
    };
    if (ids.length <= KEPT_IDS) return placed(keptIds(KEPT_IDS * 4).at);
    return runtime.withTemporary([[ids.length * 4, 'positions']], placed);
  }

  /** The frequencies and attention factor of checked options c (dynamic NTK: L ≤ L0, unscaled). */
  function frequenciesOf(c, length) {
    const half = c.rotaryDim / 2;
    const geometry = { ...c, heads: 1, layout: 0, order: 0, inverse: false };
    return withSpec(geometry, length, (at) =>
      runtime.withTemporary([[half * 8, 'frequencies']], (w) => {
        check(wasm.pe_wasm_rope_frequencies(at, w, half, at + SPEC_LENGTH * 8));
        return {
          frequencies: runtime.doubles(w, half).slice(),
          attentionFactor: runtime.doubles(at + SPEC_LENGTH * 8, 1)[0],
        };
      }),
    );
  }

  /** xPos: refuses rows outside the core's window for checked options c (its reach asked once per c). */
  function checkXposWindow(c, rows) {
    if (c.xpos === null) return;
    c.xpos.reach ??= withSpec(c, 0, (spec) => wasm.pe_wasm_rope_xpos_reach(spec));
    checkXposRows(c.xpos, c.xpos.reach, rows);
  }

  /** A core plan for checked options c, with cacheRows rows of cos/sin cached. */
  function newPlan(c, cacheRows) {
    return withSpec(c, 0, (spec) => {
      const bytes = wasm.pe_wasm_rope_plan_size(spec, cacheRows) >>> 0;
      if (bytes === 0) throw new PosencError('BAD_OPTIONS', 'posenc core refused the RoPE options', 'options', c.o);
      const memory = runtime.malloc(bytes, 'RoPE plan');
      try {
        const slot = spec + SPEC_LENGTH * 8;
        check(wasm.pe_wasm_rope_plan_init(spec, cacheRows, memory, bytes, slot));
        return { memory, pointer: runtime.words(slot, 1)[0] };
      } catch (error) {
        runtime.free(memory);
        throw error;
      }
    });
  }

  /** x's rows staged through wasm: items [b0, b0 + count) sharing the positions at idsAt (or offset). */
  function stagedApply(plan, c, code, view, rows, seqLen, b0, count, idsAt) {
    const E = ELEMENT_BYTES[code];
    const { length, offset } = rows;
    const row = c.heads * c.headDim; // c: { headDim, heads (x's), order }
    const { at: staging, bytes } = runtime.staging(row * E + 16);
    const capacity = Math.floor(bytes / E);
    let chunkRows = Math.floor(capacity / (count * row));
    let group = count;
    if (chunkRows < 1) {
      chunkRows = 1;
      group = Math.floor(capacity / row);
    }
    chunkRows = Math.min(chunkRows, length);
    const heap = code === 0 ? runtime.floats(staging, capacity) : runtime.halves(staging, capacity);
    const idsPerRow = 4 * (rows.axes || 1); // bytes of ids a row: one per axis
    const slab = { c, view, heap, base: 0, length, b0 };
    forEachChunk(idsAt ? 0 : offset, length, chunkRows, (start, n) => {
      const r0 = idsAt ? start : start - offset;
      for (let g0 = 0; g0 < count; g0 += group) {
        const g = Math.min(group, count - g0);
        moveSlab(slab, true, g0, g, r0, n);
        check(
          wasm.pe_wasm_rope_plan_apply(
            plan,
            code,
            c.heads,
            seqLen,
            idsAt ? 0 : start,
            n,
            idsAt ? idsAt + r0 * idsPerRow : 0,
            staging,
            g * n * row,
          ),
        );
        moveSlab(slab, false, g0, g, r0, n);
      }
    });
  }

  /**
   * The decoding step's call, x a WasmBuffer and options { offset } or
   * { length, offset } (and heads): the checks of the general path, without
   * its objects and staging (issue 11: ≤ 2 µs a token). Returns true when done, else the
   * options the general path is to read (the values read here, never the
   * getters again): it runs when the call is not of that form, and tells heads
   * apart on a plan with two head counts.
   */
  function applySpanResident(planAt, c, x, options) {
    if (c.xpos !== null) return options; // xPos's window is checked (and named) on the general path
    // Inherited keys too go to the general path, which names them; no array of keys is made per call.
    for (const key in options) {
      if ((key !== 'offset' && key !== 'length' && key !== 'heads') || !Object.hasOwn(options, key)) return options;
    }
    // Each option read once (a getter runs once), and the general path given these values, not the getters.
    const given = { offset: options.offset, length: options.length, heads: options.heads };
    const heads = given.heads !== undefined ? given.heads : c.heads === c.kvHeads ? c.heads : 0;
    if (typeof heads !== 'number' || !Number.isInteger(heads) || heads < 1 || heads > 65536) return given;
    const row = heads * c.headDim;
    const [length, offset] = checkSpan(given.length === undefined ? x.length / row : given.length, given.offset);
    const slab = length * row;
    if (slab === 0 || x.length % slab !== 0) return given; // the general path refuses (or returns) with its message
    const at = runtime.pointerOfAnyDtype(x, 'x');
    check(
      wasm.pe_wasm_rope_plan_apply(
        planAt(),
        X_DTYPES[x.dtype],
        heads,
        offset + length,
        offset,
        length,
        0,
        at,
        x.length,
      ),
    );
    return true;
  }

  /**
   * The rows of x (N elements) read with h heads: { heads, rows, batch }, or
   * null when N does not fit; position options that are wrong whatever h is throw.
   */
  function readingWith(c, h, o, N) {
    const row = h * c.headDim;
    if (row === 0 || N % row !== 0) return null;
    const rowsOfX = N / row;
    const rows = c.axes.axes
      ? checkAxisRows(o, c.axes, rowsOfX, checkSpan, checkRowSources)
      : checkRowSources(o, rowsOfX, checkSpan);
    const slab = rows.length * row;
    if (slab === 0 ? N !== 0 : N % slab !== 0) return null;
    const batch = slab === 0 ? 0 : N / slab;
    if (rows.perItem && rows.ids.length !== batch * rows.length * (rows.axes || 1)) return null;
    return { heads: h, rows, batch };
  }

  /** A shape for messages: (batch, length, heads, headDim) in the plan's order. */
  const shapeText = (c, batch, length, heads) =>
    c.order === 0 ? `(${batch}, ${length}, ${heads}, ${c.headDim})` : `(${batch}, ${heads}, ${length}, ${c.headDim})`;

  /**
   * x's head count on a plan with two (GQA/MQA) when the call does not say it:
   * the one reading of x's element count among heads and kvHeads, or several
   * that rotate every element alike (positions shared by the batch, the same
   * length, and one row or order 'bhld'); else AMBIGUOUS_HEADS or BAD_SIZE
   * naming the shapes. Never a guess.
   */
  function inferHeads(c, o, N, x) {
    const readings = [];
    let thrown = null;
    for (const h of [c.heads, c.kvHeads]) {
      try {
        const r = readingWith(c, h, o, N);
        if (r !== null) readings.push(r);
      } catch (error) {
        thrown ??= error;
      }
    }
    const counts = `heads ${c.heads}, kvHeads ${c.kvHeads}`;
    if (readings.length === 0) {
      if (thrown !== null && thrown.code !== 'BAD_SIZE' && thrown.code !== 'BAD_POSITION') throw thrown;
      const fixed = o.length !== undefined ? o.length : 'length';
      throw new PosencError(
        'BAD_SIZE',
        `x of ${N} elements fits neither ${shapeText(c, 'batch', fixed, c.heads)} nor ` +
          `${shapeText(c, 'batch', fixed, c.kvHeads)} (this plan: ${counts}, headDim ${c.headDim})`,
        'x',
        x,
      );
    }
    if (readings.length === 1) return readings[0];
    const [a, b] = readings;
    const alike = !a.rows.perItem && a.rows.length === b.rows.length && (a.rows.length === 1 || c.order === 1);
    if (alike) return a;
    throw new PosencError(
      'AMBIGUOUS_HEADS',
      `x of ${N} elements reads as ${shapeText(c, a.batch, a.rows.length, a.heads)} or ` +
        `${shapeText(c, b.batch, b.rows.length, b.heads)} on this plan (${counts}), which rotate different rows: ` +
        "give heads (x's head count), x as a tensor with dims, or positionIds of shape (batch, length)",
      'x',
      x,
    );
  }

  /** BAD_SHAPE: a tensor's dims against what an option says. */
  function shapeDisagrees(dims, what) {
    throw new PosencError('BAD_SHAPE', `x.dims [${dims.join(', ')}] ${what}`, 'x.dims', dims);
  }

  /**
   * Everything apply() checks, for x and options with checked options c;
   * forcedHeads: x's head count when the caller knows it (applyQK). Runs all
   * of the caller's code (option getters, id arrays, a tensor's fields) and
   * returns ready(): it checks that x is still attached and takes the pointers
   * (x's, and the plan's by planAt(), which throws PLAN_FREED), then returns
   * write(), which rotates x in place and returns the result. Nothing is
   * written before write() runs.
   */
  function prepareApply(planAt, c, original, options, forcedHeads) {
    const tensor = isTensor(original) ? original : null;
    // x's own memory, read without the caller's code (a tensor's data too); refused when detached.
    const t = tensor !== null ? readXTensor(tensor) : null;
    const data = t !== null ? t.data : plainView(original, 'x');
    const o = idTensorsRead(checkOptions(options, APPLY_OPTIONS, 'apply'));
    const asTensor = checkAs(o.as);
    let heads = o.heads === undefined ? undefined : checkHeads(o.heads);
    const code = xDtype(data, t !== null ? (t.dtype === 'float32' ? undefined : t.dtype) : o.dtype);
    const resident = data instanceof WasmBuffer;
    if (!resident) checkNotDetached(data, tensor !== null ? 'x.data' : 'x'); // a getter may have detached it
    const xLength = data.length; // once: an id getter below may detach x, which checkStillAttached then names
    let reading = null;
    if (t !== null) {
      if (o.dtype !== undefined && o.dtype !== t.dtype) {
        refuse('BAD_DTYPE', 'dtype', `'${t.dtype}' or left out (x.type is '${t.dtype}')`, o.dtype);
      }
      const shape = xTensorShape(t.dims, c.headDim, c.order);
      if (heads !== undefined && heads !== shape.heads)
        shapeDisagrees(t.dims, `hold ${shape.heads} heads; heads is ${heads}`);
      if (forcedHeads !== undefined && forcedHeads !== shape.heads) {
        shapeDisagrees(t.dims, `hold ${shape.heads} heads; this tensor's role has ${forcedHeads}`);
      }
      if (o.length !== undefined && o.length !== shape.length) {
        shapeDisagrees(t.dims, `hold ${shape.length} rows a batch item; length is ${o.length}`);
      }
      heads = shape.heads;
      const sized = o.positions === undefined && o.cuSeqlens === undefined && o.length === undefined;
      reading = readingWith(c, heads, sized ? { ...o, length: shape.length } : o, xLength);
      if (reading === null || reading.rows.length !== shape.length || reading.batch !== shape.batch) {
        shapeDisagrees(
          t.dims,
          `hold ${shape.batch} × ${shape.length} rows; the position options give ` +
            (reading === null ? 'a count that does not fit them' : `${reading.batch} × ${reading.rows.length}`),
        );
      }
    } else {
      heads ??= forcedHeads;
      if (heads === undefined && c.heads === 0) {
        refuse('BAD_HEADS', 'heads', 'given (the heads x holds), or x a tensor with dims', heads);
      }
      // Each head count reads the id lists: copied first, so a getter runs once and both readings see its value.
      if (heads === undefined && c.heads !== c.kvHeads) reading = inferHeads(c, idListsCopied(o), xLength, data);
      else heads ??= c.heads;
    }
    if (reading === null) {
      // One head count: the checks and messages of a single-count plan.
      const row = heads * c.headDim;
      const rowsOfX = row === 0 ? 0 : xLength / row;
      const rows = c.axes.axes
        ? checkAxisRows(o, c.axes, rowsOfX, checkSpan, checkRowSources)
        : checkRowSources(o, rowsOfX, checkSpan);
      const { length } = rows;
      const slab = length * row;
      if (slab === 0 ? xLength !== 0 : xLength % slab !== 0) {
        const shape = c.order === 0 ? '(batch, length, heads, headDim)' : '(batch, heads, length, headDim)';
        refuse(
          'BAD_SIZE',
          'x',
          `${shape} elements: a multiple of length·heads·headDim = ${length}·${heads}·${c.headDim} = ${slab}`,
          data,
        );
      }
      const batch = slab === 0 ? 0 : xLength / slab;
      checkXposWindow(c, rows); // before the ids' count: a position outside xPos's window is named first
      if (rows.perItem && rows.ids.length !== batch * length * (rows.axes || 1)) {
        const shape = rows.axes
          ? `(${rows.axes}, batch, length) = (${rows.axes}, ${batch}, ${length})`
          : `(batch, length) = (${batch}, ${length})`;
        refuse('BAD_SIZE', 'positionIds', `${shape} ids, one per row of each batch item`, o.positionIds);
      }
      reading = { heads, rows, batch };
    }
    const { rows, batch } = reading;
    if (heads === undefined || t !== null) checkXposWindow(c, rows); // the single-count path checked it
    heads = reading.heads;
    const shapeOfX = { headDim: c.headDim, heads, order: c.order };
    const result = () => {
      if (tensor !== null) return tensor;
      if (!asTensor) return original;
      const dims = c.order === 0 ? [batch, rows.length, heads, c.headDim] : [batch, heads, rows.length, c.headDim];
      return { data: resident ? data.array : original, dims, type: DTYPE_NAMES[code] };
    };
    // The caller's code has run (options, id arrays, the tensor): from here on nothing but ours until the core returns.
    return () => {
      if (!resident) checkStillAttached(data, xLength);
      const at = resident ? runtime.pointerOfAnyDtype(data, 'x') : 0;
      const plan = planAt();
      return () => {
        if (xLength === 0) return result();
        // The ids' block may grow memory: views come after.
        withIds(rows.ids, (idsAt) => applyRows(plan, shapeOfX, data, xLength, code, rows, batch, at, idsAt));
        return result();
      };
    };
  }

  /** Options o with position ids given as tensors read (once) into the arrays positions.js takes. */
  function idTensorsRead(o) {
    if (!isTensor(o.positions) && !isTensor(o.positionIds)) return o;
    const read = { ...o };
    if (o.positions !== undefined) read.positions = idsFromTensor(o.positions, 'positions');
    if (o.positionIds !== undefined) read.positionIds = idsFromTensor(o.positionIds, 'positionIds');
    return read;
  }

  /** Options o with the id Arrays (nested ones too) copied by index, each element read once. */
  function idListsCopied(o) {
    const copy = (v) =>
      Array.isArray(v) && v.length <= MAX_LIST ? Array.from({ length: v.length }, (_, i) => copy(v[i])) : v;
    const read = { ...o };
    for (const key of ['positions', 'positionIds', 'cuSeqlens']) if (o[key] !== undefined) read[key] = copy(o[key]);
    return read;
  }

  /**
   * apply(): x rotated in place for checked options c. planAt() gives the plan's
   * address (or throws PLAN_FREED); it is asked after the last of the caller's
   * code (getters, iterators, a tensor's fields) has run, right before the core is called.
   */
  function applyPlan(planAt, c, original, options) {
    let given = options;
    if (isWasmBuffer(original) && typeof options === 'object' && options !== null && !Array.isArray(options)) {
      given = applySpanResident(planAt, c, original, options);
      if (given === true) return original;
    }
    return prepareApply(planAt, c, original, given)()();
  }

  /**
   * applyQK(): q (c.heads heads) and k (c.kvHeads heads) rotated at the same
   * positions; both are checked (the caller's code for both run, then both
   * checked still attached, then the plan's address taken) before either is written.
   */
  function applyPairPlan(planAt, c, q, k, options) {
    if (c.xpos !== null) {
      refuse(
        'BAD_XPOS',
        'xpos',
        'left out for applyQK: a query and a key scale differently (one plan per role)',
        c.o.xpos,
      );
    }
    // Read once, for q and k: id tensors and the elements of id Arrays (q's and k's checks would read them twice).
    const o = idListsCopied(idTensorsRead(checkOptions(options, APPLY_OPTIONS, 'applyQK')));
    if (o.heads !== undefined) {
      refuse('BAD_OPTIONS', 'heads', "left out for applyQK: q has the plan's heads and k its kvHeads", o.heads);
    }
    if (c.heads === 0) refuse('BAD_HEADS', 'heads', 'given: the query heads (and kvHeads, the key heads)', undefined);
    const readyQ = prepareApply(planAt, c, q, o, c.heads);
    const readyK = prepareApply(planAt, c, k, o, c.kvHeads);
    const writeQ = readyQ();
    const writeK = readyK();
    return { q: writeQ(), k: writeK() };
  }

  /** x (a plain view) must not have been detached or shrunk since its length was taken. */
  function checkStillAttached(x, xLength) {
    if (isDetached(x.buffer)) {
      throw new PosencError(
        'BAD_BUFFER',
        'x was detached (its ArrayBuffer transferred) during the call; pass a live array',
        'x',
        x,
      );
    }
    if (x.length !== xLength) {
      throw new PosencError(
        'BAD_BUFFER',
        'x is a detached view: wasm memory grew, which detaches views such as ' +
          'WasmBuffer.array; pass the WasmBuffer itself',
        'x',
        x,
      );
    }
  }

  /** x's rows rotated, in place (resident: x's address) or staged through wasm. */
  function applyRows(plan, c, x, xLength, code, rows, batch, resident, idsAt) {
    const { length } = rows;
    const row = c.heads * c.headDim;
    const slab = length * row;
    const seqLen = rows.end;
    const itemIds = length * 4 * (rows.axes || 1); // bytes of one batch item's ids
    if (resident !== 0) {
      const E = ELEMENT_BYTES[code];
      if (!rows.perItem) {
        check(wasm.pe_wasm_rope_plan_apply(plan, code, c.heads, seqLen, rows.offset, length, idsAt, resident, xLength));
      } else {
        for (let b = 0; b < batch; b++) {
          check(
            wasm.pe_wasm_rope_plan_apply(
              plan,
              code,
              c.heads,
              seqLen,
              0,
              length,
              idsAt + b * itemIds,
              resident + b * slab * E,
              slab,
            ),
          );
        }
      }
      return;
    }
    runtime.staging(row * ELEMENT_BYTES[code] + 16); // grow first, then check x is still attached
    checkStillAttached(x, xLength);
    const view = bitsView(x);
    if (!rows.perItem) stagedApply(plan, c, code, view, rows, seqLen, 0, batch, idsAt);
    else for (let b = 0; b < batch; b++) stagedApply(plan, c, code, view, rows, seqLen, b, 1, idsAt + b * itemIds);
  }

  /** cosSin(): { cos, sin } for rows at offset ... or at positions (posenc.h, pe_rope_plan_cos_sin). */
  function cosSinPlan(planAt, c, options) {
    const asTensor = checkAs(options.as);
    const half = checkFloat16Option(options.float16, asTensor ? 'auto' : 'bits');
    const o = isTensor(options.positions)
      ? { ...options, positions: idsFromTensor(options.positions, 'positions') }
      : options;
    const code = o.dtype === undefined ? 0 : CACHE_DTYPES[o.dtype];
    if (code === undefined)
      refuse('BAD_DTYPE', 'dtype', "'float32' (the default), 'float16', 'bfloat16' or 'float64'", o.dtype);
    if (o.expand !== undefined && typeof o.expand !== 'boolean')
      refuse('BAD_OPTIONS', 'expand', 'true, false or undefined', o.expand);
    let length;
    let offset = 0;
    let positions = null;
    if (c.axes.axes && (o.positions !== undefined || c.axes.type === 2)) {
      ({ length, ids: positions } = checkAxisRows(
        { positions: o.positions, length: o.length, offset: o.offset },
        c.axes,
        0,
        checkSpan,
        checkRowSources,
      ));
    } else if (o.positions !== undefined) {
      if (o.offset !== undefined && o.offset !== 0) {
        refuse(
          'BAD_OFFSET',
          'offset',
          'left out (or 0) when positions is given: each row sits at its listed position',
          o.offset,
        );
      }
      ({ length, ids: positions } = checkRowSources({ positions: o.positions, length: o.length }, 0, checkSpan));
    } else [length, offset] = checkSpan(o.length, o.offset);
    checkXposWindow(c, { length, offset, ids: positions });
    const perRow = o.expand ? c.rotaryDim : c.rotaryDim / 2;
    const count = length * perRow;
    if (count > MAX_RESULT) {
      throw new PosencError(
        'TOO_LARGE',
        `cos and sin of ${length} rows need ${count} values each; posenc allocates at most ${MAX_RESULT} (2^28) ` +
          'for a result: ask for fewer rows',
        'length',
        length,
      );
    }
    const E = ELEMENT_BYTES[code];
    const view = [runtime.floats, runtime.halves, runtime.halves, runtime.doubles][code];
    const plan = planAt(); // after the caller's code (getters, id arrays, a positions tensor) has run
    return withIds(positions, (idsAt) =>
      runtime.withTemporary([[2 * count * E, 'cos and sin']], (out) => {
        check(
          wasm.pe_wasm_rope_plan_cos_sin(
            plan,
            code,
            o.expand ? 1 : 0,
            offset,
            length,
            idsAt,
            out,
            out + count * E,
            count,
          ),
        );
        let cos = view(out, count).slice();
        let sin = view(out + count * E, count).slice();
        if (code === 1) [cos, sin] = [float16Result(cos, half), float16Result(sin, half)];
        if (!asTensor) return { cos, sin };
        const dims = [length, perRow];
        const type = DTYPE_NAMES[code];
        return { cos: { data: cos, dims, type }, sin: { data: sin, dims: [length, perRow], type } };
      }),
    );
  }

  /** A plan object for checked options c (createRope). */
  function makePlan(c, maxPosition, cache) {
    // The core's laid-out rows (rope_kernels.h): halves keep C and S once a pair, adjacent pairs on every element.
    const bytesPerRow = (c.layout === LAYOUTS.half ? 1 : 2) * c.rotaryDim * 4;
    const wanted =
      cache === undefined ? maxPosition * bytesPerRow <= CACHE_BYTES && maxPosition <= MAX_CACHE_ROWS : cache;
    // Dynamic NTK and LongRoPE: frequencies follow each call's L, so no cache.
    let cacheRows = wanted && c.scaling.type !== 2 && c.scaling.type !== 5 && c.axes.type !== 2 ? maxPosition : 0;
    if (c.xpos !== null && cacheRows > 0) {
      // The core caches only rows inside xPos's window (rows 0 ... center + reach).
      checkXposWindow(c, { length: 0 });
      const { center, reach } = c.xpos;
      cacheRows = center > reach ? 0 : Math.min(cacheRows, center + reach + 1);
    }
    if (cacheRows * bytesPerRow > MAX_WASM_BYTES) {
      throw new PosencError(
        'TOO_LARGE',
        `a cos/sin cache of maxPosition = ${maxPosition} rows needs ${cacheRows * bytesPerRow} bytes; wasm32 ` +
          'memory holds at most 4 GiB: lower maxPosition or pass cache: false',
        'maxPosition',
        maxPosition,
      );
    }
    if (cacheRows > MAX_CACHE_ROWS) {
      throw new PosencError(
        'TOO_LARGE',
        `a cos/sin cache of maxPosition = ${maxPosition} rows: a plan caches at most 2^20 rows; lower ` +
          'maxPosition or pass cache: false',
        'maxPosition',
        maxPosition,
      );
    }
    let core = newPlan(c, cacheRows);
    let described = null;
    const live = (call) => {
      if (core === null)
        throw new PosencError(
          'PLAN_FREED',
          `${call}() was called on a RoPE plan that was already freed`,
          'plan',
          undefined,
        );
      return core.pointer;
    };
    const describe = () => (described ??= frequenciesOf(c, 0));
    return Object.freeze({
      headDim: c.headDim,
      rotaryDim: c.rotaryDim,
      heads: c.heads,
      kvHeads: c.kvHeads,
      cachedPositions: cacheRows,
      /** The scaled frequencies (a fresh copy), as ropeFrequencies() gives them. */
      get frequencies() {
        return describe().frequencies.slice();
      },
      get attentionFactor() {
        return describe().attentionFactor;
      },
      apply: (x, options) => applyPlan(() => live('apply'), c, x, options),
      applyQK: (q, k, options) => applyPairPlan(() => live('applyQK'), c, q, k, options),
      cosSin: (options) => cosSinPlan(() => live('cosSin'), c, checkOptions(options, COS_SIN_OPTIONS, 'cosSin')),
      free() {
        if (core === null) return;
        runtime.free(core.memory);
        core = null;
      },
      [Symbol.dispose]() {
        this.free();
      },
    });
  }

  return { makePlan, newPlan, applyPlan, applyPairPlan, cosSinPlan, frequenciesOf };
}

/**
 * Rows r0 ... r0 + n - 1 of batch items b0 + g0 ... (g of them) between x's
 * view and the staging slab, which holds them as a (g, n, heads, headDim) or
 * (g, heads, n, headDim) tensor of their own. into: JS -> wasm.
 */
function moveSlab({ c, view, heap, base, length, b0 }, into, g0, g, r0, n) {
  const dim = c.headDim;
  const row = c.heads * dim;
  for (let b = 0; b < g; b++) {
    const item = b0 + g0 + b;
    if (c.order === 0) copy(into, view, (item * length + r0) * row, heap, base + b * n * row, n * row);
    else {
      for (let h = 0; h < c.heads; h++) {
        copy(into, view, ((item * c.heads + h) * length + r0) * dim, heap, base + (b * c.heads + h) * n * dim, n * dim);
      }
    }
  }
}

/** Moves n elements between a JS view (at from) and the wasm heap (at to); into = JS -> wasm. */
function copy(into, view, from, heap, to, n) {
  if (into) heap.set(n === view.length ? view : view.subarray(from, from + n), to);
  else view.set(heap.subarray(to, to + n), from);
}
