// readTable: a position table from a file's bytes, whichever of the two
// formats it is (told apart by their first bytes, not by a file name).
import { PosencError } from '../runtime/errors.js';
import { checkOptions } from '../runtime/validate.js';
import { asBytes, badFile } from './decode.js';
import { isNpy, readNpy } from './npy.js';
import { isSafetensors, readSafetensors } from './safetensors.js';

/**
 * @param {ArrayBuffer | ArrayBufferView} input  the contents of a .npy or .safetensors file
 * @param {{name?: string, rows?: number, dim?: number}} [options]  name: the tensor of a
 *   .safetensors file; rows, dim: the shape the table must have
 */
export function readTable(input, options) {
  const o = checkOptions(options, ['name', 'rows', 'dim'], 'readTable');
  const bytes = asBytes(input);
  if (isNpy(bytes)) {
    if (o.name !== undefined) {
      throw new PosencError(
        'BAD_NAME',
        'name picks a tensor of a .safetensors file; this is an .npy file, which holds one array',
        'name',
        o.name,
      );
    }
    return readNpy(bytes, { rows: o.rows, dim: o.dim });
  }
  if (isSafetensors(bytes)) return readSafetensors(bytes, o);
  throw badFile(
    '.npy or .safetensors',
    'it starts neither with "\\x93NUMPY" (.npy) nor with an 8-byte header length followed by "{" (.safetensors)',
  );
}
