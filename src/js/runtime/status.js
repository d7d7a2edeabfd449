// From the core's pe_status to a PosencError code, by the enumerator's NAME
// (posenc.h): the JS checks run first, so the core's status is the backstop,
// and this is the one place a C status becomes a JS code. The numbers are
// asked of the wasm at init (pe_wasm_status_name), so a status added in C
// shifts nothing here; one it does not know yet becomes CORE_STATUS.

/** C enumerator -> JS code. Several C statuses may share a code; a code means one thing. */
export const CODE_OF_STATUS = Object.freeze({
  PE_OK: 'OK',
  PE_ERR_NULL: 'BAD_BUFFER', // a buffer argument is missing
  PE_ERR_DIM_ODD: 'BAD_DIM',
  PE_ERR_DIM_RANGE: 'BAD_DIM',
  PE_ERR_BASE: 'BAD_BASE',
  PE_ERR_LAYOUT: 'BAD_LAYOUT',
  PE_ERR_POSITION: 'BAD_POSITION',
  PE_ERR_OUT_SIZE: 'BAD_SIZE',
  PE_ERR_X_SIZE: 'BAD_SIZE',
  PE_ERR_SCRATCH: 'TOO_LARGE', // the runtime sizes scratch itself: only a size the wasm cannot hold gets here
  PE_ERR_TABLE_ROWS: 'TABLE_TOO_SHORT',
  PE_ERR_SCALE: 'BAD_SCALE',
  PE_ERR_TOO_LARGE: 'TOO_LARGE',
  PE_ERR_KERNELS: 'LOAD_FAILED', // this module lacks the kernels asked for
  PE_ERR_PLAN: 'BAD_BUFFER', // the plan buffer was overwritten
  PE_ERR_HEADS: 'BAD_HEADS',
  PE_ERR_OVERLAP: 'BAD_BUFFER', // out overlaps an input
  PE_ERR_FREQUENCIES: 'BAD_FREQUENCIES',
  PE_ERR_ROTARY_DIM: 'BAD_ROTARY_DIM',
  PE_ERR_SCALING: 'BAD_SCALING',
  PE_ERR_ORDER: 'BAD_ORDER',
  PE_ERR_DTYPE: 'BAD_DTYPE',
  PE_ERR_RECIPE: 'BAD_RECIPE',
  PE_ERR_DIM_2D: 'BAD_DIM',
  PE_ERR_FREQUENCY_VALUE: 'BAD_FREQUENCIES', // a given w outside what the call allows
  PE_ERR_BUCKETS: 'BAD_BUCKETS', // T5: numBuckets or maxDistance
  PE_ERR_MAX_RELATIVE: 'BAD_MAX_RELATIVE', // Shaw's k
  PE_ERR_NOT_FINITE: 'BAD_TABLE', // identify: a NaN or infinite cell
  PE_ERR_KIND: 'BAD_KIND',
  PE_ERR_SHAPE: 'BAD_SHAPE',
  PE_ERR_CONFIG: 'BAD_CONFIG', // config.js names the key before this backstop
  PE_ERR_LAYER_TYPE: 'BAD_LAYER_TYPE',
  PE_ERR_AXES: 'BAD_AXES', // RoPE: mrope sections or 2-D settings
  PE_ERR_XPOS: 'BAD_XPOS', // xpos.js names the field before this backstop
  PE_ERR_XPOS_RANGE: 'XPOS_RANGE', // a position outside xPos's window
  PE_ERR_ROUNDING: 'BAD_ROUNDING', // setRounding checks first
});

/** The code of a status the map does not name: a wasm newer than this package. */
export const UNKNOWN_STATUS_CODE = 'CORE_STATUS';

const MAX_STATUSES = 1024; // far above any pe_status; stops a module that names every number

/**
 * { names, codes }: the core's status names by number and their JS codes,
 * asked of the wasm once. Numbering stops at the first number without an
 * enumerator name (a null pointer, a name not shaped PE_..., or a repeat).
 * @param {(status: number) => string | null} nameOf  the enumerator's name, or null
 */
export function statusTable(nameOf) {
  const names = [];
  const codes = [];
  const seen = new Set();
  for (let status = 0; status < MAX_STATUSES; status++) {
    const name = nameOf(status);
    if (name === null || !/^PE_(OK|ERR_[A-Z0-9_]+)$/.test(name) || seen.has(name)) break;
    seen.add(name);
    names.push(name);
    codes.push(Object.hasOwn(CODE_OF_STATUS, name) ? CODE_OF_STATUS[name] : UNKNOWN_STATUS_CODE);
  }
  return { names, codes };
}
