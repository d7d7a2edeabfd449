// Types of the learned family (src/js/learned): position tables read from
// .npy and .safetensors files, added to activations, and resampled.
// Re-exported by
// src/js/index.d.ts: the family's public types as the package exports them
// (package-level functions, instance methods).
import type { Floats } from '../runtime/runtime.js';

/**
 * Error codes of the learned family: TABLE_TOO_SHORT (fewer rows than offset +
 * length, or none to resample), BAD_FILE (a malformed or truncated file),
 * BAD_FILE_DTYPE (a file element type other than float16/bfloat16/float32/float64),
 * BAD_FILE_ORDER (a Fortran-order .npy), BAD_NAME (no such tensor; the message
 * lists the file's tensors), BAD_SHAPE (not a 2-D table, or not the rows/dim expected).
 */
export type LearnedErrorCode =
  'TABLE_TOO_SHORT' | 'BAD_FILE' | 'BAD_FILE_DTYPE' | 'BAD_FILE_ORDER' | 'BAD_NAME' | 'BAD_SHAPE';

export interface AddTableOptions {
  /** Rows (positions) of each batch item: x is (batch, length, dim). An integer 0 … 2^31. */
  length: number;
  /** Row size of x and table: an integer 1 … 65536 (learned tables may be odd). */
  dim: number;
  /** Row of the table added to x's first row: an integer ≥ 0, offset + length ≤ table rows. Default 0. */
  offset?: number;
  /** x is multiplied by scale (rounded to float32) before the add: finite as float32. Default 1. */
  scale?: number;
}

export interface ResampleOptions<Out extends Floats = Floats> {
  /** Row size of table and result: an integer 1 … 65536. */
  dim: number;
  /** Rows of the result: an integer 0 … 2^31. */
  newRows: number;
  /** Rows of table (an integer ≥ 0), checked against table.length / dim when given. */
  rows?: number;
  /** Where to write the (newRows, dim) result; must not be table. Default: a new Float32Array. */
  out?: Out;
}

/** The shape a table read from a file must have; either may be left out. */
export interface ReadTableOptions {
  /** Rows (positions) the table must have: an integer ≥ 0. */
  rows?: number;
  /** Row size the table must have: an integer ≥ 1. */
  dim?: number;
}

export interface ReadSafetensorsOptions extends ReadTableOptions {
  /** The tensor, e.g. 'model.embed_positions.weight'. Optional when the file holds one tensor. */
  name?: string;
}

/** A position table read from a file. */
export interface LearnedTable {
  /** (rows, dim) row-major, converted to float32 (float64 rounds to nearest; the others are exact). */
  table: Float32Array;
  rows: number;
  dim: number;
  /** The element type as the file spells it: '<f4', '>f2', … (.npy) or 'F32', 'BF16', … (.safetensors). */
  dtype: string;
  /** The tensor's shape in the file; leading axes of size 1 are dropped for rows and dim ((1, 197, 768) → 197 × 768). */
  shape: number[];
  /** The tensor's name (.safetensors only). */
  name?: string;
}

/** The contents of a file: posenc never touches the file system (read it with fs.readFileSync or File.arrayBuffer()). */
export type FileBytes = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/** The learned family's methods on an instance (the file readers need no instance). */
export interface LearnedMethods {
  /**
   * In place with a learned (rows, dim) table:
   * x[b, r, j] = float32(float32(x[b, r, j] · scale) + table[offset + r, j]).
   * x and table must not overlap. @returns x
   */
  addTable<X extends Floats>(x: X, table: Floats, options: AddTableOptions): X;
  /**
   * A learned (rows, dim) table resampled to newRows rows by linear
   * interpolation, align_corners=True: new row r reads old position
   * r·(rows − 1)/(newRows − 1), so first and last rows stay (as
   * torch.nn.functional.interpolate(mode='linear', align_corners=True) and
   * numpy.interp do). Computed in double, rounded once to float32.
   */
  resampleTable<Out extends Floats>(table: Floats, options: ResampleOptions<Out> & { out: Out }): Out;
  resampleTable(table: Floats, options: ResampleOptions): Float32Array;
}

/** See {@link LearnedMethods.addTable}. */
export const addTable: LearnedMethods['addTable'];
/** See {@link LearnedMethods.resampleTable}. */
export const resampleTable: LearnedMethods['resampleTable'];

/**
 * A table from an .npy file (format 1.0, 2.0 or 3.0; float16/32/64 in either
 * byte order; C order). Needs no init(). @throws PosencError BAD_FILE,
 * BAD_FILE_DTYPE, BAD_FILE_ORDER, BAD_SHAPE
 */
export function readNpy(bytes: FileBytes, options?: ReadTableOptions): LearnedTable;
/**
 * One tensor of a .safetensors file (F32, F16, BF16 or F64). Needs no init().
 * @throws PosencError BAD_FILE, BAD_FILE_DTYPE, BAD_NAME (listing the file's tensors), BAD_SHAPE
 */
export function readSafetensors(bytes: FileBytes, options?: ReadSafetensorsOptions): LearnedTable;
/** readNpy or readSafetensors, whichever the file's first bytes say it is. */
export function readTable(bytes: FileBytes, options?: ReadSafetensorsOptions): LearnedTable;
