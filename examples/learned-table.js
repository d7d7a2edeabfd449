// A learned position table as a checkpoint ships it: the toy transformer's wpe
// (128 positions × 16, trained by web/models/train-toy-transformer.js and saved
// as .npy) read from the file, saved again as .safetensors and read back,
// resampled to 200 positions for a longer input (linear, align_corners=True, as
// torch.nn.functional.interpolate), and added to token embeddings. Each step is
// checked against the file's bytes and the formulas, written out here. Exits 1
// on any mismatch.
import { readFileSync } from 'node:fs';
import { init, readNpy, readSafetensors, resampleTable, addTable } from 'posenc';

const failures = [];
const expect = (ok, message) => ok || failures.push(message);

const npy = readFileSync(new URL('../web/models/toy-transformer-wpe.npy', import.meta.url));
const { table, rows, dim, dtype } = readNpy(npy); // dtype: the file's, '<f4'; the readers need no init()
expect(rows === 128 && dim === 16 && dtype === '<f4', `read ${rows} × ${dim} ${dtype}`);
// The .npy layout: magic, version, header length (uint16 LE), the header, then little-endian float32s.
const headerLength = npy.readUInt16LE(8);
const data = new DataView(npy.buffer, npy.byteOffset + 10 + headerLength);
expect(
  table.every((v, i) => v === data.getFloat32(4 * i, true)),
  'the table is not the file’s float32 values',
);

// The same table as a .safetensors file (an 8-byte header size, a JSON header, the data), read by name.
const name = 'transformer.wpe.weight';
const header = new TextEncoder().encode(
  JSON.stringify({ [name]: { dtype: 'F32', shape: [rows, dim], data_offsets: [0, table.byteLength] } }),
);
const file = new Uint8Array(8 + header.length + table.byteLength);
new DataView(file.buffer).setBigUint64(0, BigInt(header.length), true);
file.set(header, 8);
file.set(new Uint8Array(table.buffer, table.byteOffset, table.byteLength), 8 + header.length);
const again = readSafetensors(file, { name });
expect(
  again.table.every((v, i) => v === table[i]),
  'the .safetensors copy reads differently',
);

await init();

// Resampled to 200 rows: new row r reads position r·(rows − 1)/(newRows − 1), between its two neighbours.
const newRows = 200;
const longer = resampleTable(table, { dim, newRows });
for (let r = 0; r < newRows; r++) {
  const at = (r * (rows - 1)) / (newRows - 1),
    below = Math.floor(at),
    t = at - below;
  for (let c = 0; c < dim; c++) {
    const a = table[below * dim + c],
      b = table[Math.min(below + 1, rows - 1) * dim + c];
    const want = Math.fround((1 - t) * a + t * b);
    if (longer[r * dim + c] !== want) expect(false, `resampled[${r}, ${c}] = ${longer[r * dim + c]}, want ${want}`);
  }
}

// Added to a batch of 2 sequences of 200 token embeddings: x ← x + table[position].
const length = newRows,
  batch = 2;
const x = Float32Array.from({ length: batch * length * dim }, (_, i) => Math.fround(Math.sin(i)));
const before = x.slice();
addTable(x, longer, { length, dim });
for (let i = 0; i < x.length; i++) {
  const want = Math.fround(before[i] + longer[i % (length * dim)]);
  if (x[i] !== want) expect(false, `x[${i}] = ${x[i]}, want ${want}`);
}

console.log(`learned table: ${rows} × ${dim} read from .npy and .safetensors, resampled to ${newRows} rows, added`);
for (const failure of failures.slice(0, 5)) console.error(failure);
if (failures.length > 0) process.exit(1);
