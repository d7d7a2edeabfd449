// The safetensors format's rules beyond valid JSON (as the reference reader,
// huggingface/safetensors, enforces them): unique tensor names, a
// `__metadata__` that maps strings to strings, and data_offsets that tile the
// data exactly: in order from byte 0, no gap, no overlap, ending at its end.
import { badFile } from './decode.js';

const show = (value) => JSON.stringify(value) ?? String(value);

const isOffsets = (o) =>
  Array.isArray(o) && o.length === 2 && o.every((n) => Number.isSafeInteger(n) && n >= 0) && o[0] <= o[1];

/**
 * Throws BAD_FILE when the header breaks a rule; `keys` are the header's top-level keys in file order
 * (header-keys.js, duplicates kept), `names` the tensors (every key but __metadata__, once each).
 */
export function checkSafetensorsRules(keys, header, names, dataLength) {
  const seen = new Set();
  for (const key of keys) {
    if (seen.has(key)) throw badFile('.safetensors', `the header names ${show(key)} twice; names must be unique`);
    seen.add(key);
  }
  if (Object.hasOwn(header, '__metadata__')) {
    const metadata = header.__metadata__;
    if (
      metadata === null ||
      typeof metadata !== 'object' ||
      Array.isArray(metadata) ||
      !Object.values(metadata).every((value) => typeof value === 'string')
    ) {
      throw badFile('.safetensors', `__metadata__ must be an object of strings; got ${show(metadata).slice(0, 80)}`);
    }
  }
  const spans = [];
  for (const name of names) {
    const entry = header[name];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw badFile('.safetensors', `the header entry of tensor ${show(name)} is not an object`);
    }
    const offsets = entry.data_offsets;
    if (!isOffsets(offsets)) {
      throw badFile(
        '.safetensors',
        `the data_offsets of tensor ${show(name)} must be [begin, end] with 0 ≤ begin ≤ end; got ${show(offsets)}`,
      );
    }
    spans.push({ name, begin: offsets[0], end: offsets[1] });
  }
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let next = 0;
  for (const { name, begin, end } of spans) {
    if (begin !== next) {
      throw badFile(
        '.safetensors',
        `tensor ${show(name)} starts at byte ${begin} of the data where byte ${next} was next: ` +
          `the data_offsets must tile the data in order, without ${begin < next ? 'overlap' : 'gaps'}`,
      );
    }
    next = end;
  }
  if (next !== dataLength) {
    throw badFile(
      '.safetensors',
      `the tensors' data ends at byte ${next} but the file holds ${dataLength} bytes of data; ` +
        'the data_offsets must cover the data exactly',
    );
  }
}
