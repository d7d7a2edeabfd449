// `posenc t5-buckets`: T5's relative attention buckets, one line per query
// row (src/cli/t5_buckets_command.c prints the same bytes).
import { instantiate } from '../instance.js';
import { fail, flagOn, parseCount } from './args.js';
import { formatOption, countOption, COMMON_HELP } from './options.js';
import { FORMATS, npyHeaderOf, littleEndianBytes } from '../shared/format.js';

const MAX_POSITION = 2147483648;
const MAX_BUCKETS = 1024;
const CHUNK_VALUES = 65536; // buckets made and written per call (at least one row)
const MAX_KEYS = 16777216; // 2^24: a row is made whole, so it is allocated whole (64 MiB)

export const usage = `usage: posenc t5-buckets --query-length N [options]

Prints T5's relative attention buckets (HF transformers' _relative_position_bucket):
one line per query row, one bucket per key. Query row i sits at key position offset + i.

  --query-length N   query rows, 0 to 2147483648 (required)
  --key-length K     keys, 0 to 16777216 (default N; a row is made whole, at most 64 MiB)
  --offset P         key position of query row 0 (default K - N: the last query on the last key)
  --num-buckets B    4 to 1024, or 2 to 1024 with --causal (default 32)
  --max-distance D   above the exact distances (B/4, or B/2 with --causal), at most 2147483648
                     (default 128)
  --causal           the decoder's buckets: keys ahead of the query share bucket 0
  --format F         text (spaces), csv or json (default text); or the (query_length, key_length)
                     int32 array: npy (<i4) or raw (little-endian int32); f32 is refused (the
                     buckets are integers)
${COMMON_HELP}
examples:
  posenc t5-buckets --query-length 4 --key-length 6
  posenc t5-buckets --query-length 1 --key-length 512 --offset 511 --causal --format json
  posenc t5-buckets --query-length 512 --format npy --output buckets.npy
`;

export const options = [
  '--query-length',
  '--key-length',
  '--offset',
  '--num-buckets',
  '--max-distance',
  '--format',
  '--output',
];
export const flags = ['--causal'];

function parse(given) {
  const range = 'an integer from 0 to 2147483648';
  const causal = flagOn(given, '--causal');
  if (!given.has('--query-length')) fail('--query-length is required (the number of query rows)');
  const queryLength = countOption(given, '--query-length', undefined, 0, MAX_POSITION, range);
  const keyLength = countOption(
    given,
    '--key-length',
    given.get('--query-length'),
    0,
    MAX_KEYS,
    'an integer from 0 to 16777216 (a row of buckets is made whole, at most 64 MiB)',
  );
  let offset;
  const offsetText = given.get('--offset');
  if (offsetText !== undefined) {
    offset = countOption(given, '--offset', undefined, 0, MAX_POSITION, range);
    if (offset + queryLength > MAX_POSITION)
      fail(`--offset + --query-length must be at most 2147483648; got ${offsetText} + ${queryLength}`);
  } else if (queryLength > keyLength) {
    fail('--query-length is above --key-length, so --offset must be given (the key position of query row 0)');
  } else {
    offset = keyLength - queryLength;
  }
  const bucketsText = given.get('--num-buckets') ?? '32';
  const numBuckets = parseCount(bucketsText);
  if (numBuckets === undefined || numBuckets < (causal ? 2 : 4) || numBuckets > MAX_BUCKETS) {
    fail(
      causal
        ? `--num-buckets must be an integer from 2 to 1024 with --causal; got ${bucketsText}`
        : `--num-buckets must be an integer from 4 to 1024; got ${bucketsText}`,
    );
  }
  const exact = Math.floor((causal ? numBuckets : Math.floor(numBuckets / 2)) / 2);
  const distanceText = given.get('--max-distance') ?? '128';
  const maxDistance = parseCount(distanceText);
  if (maxDistance === undefined || maxDistance <= exact) {
    fail(
      `--max-distance must be an integer above ${exact} (the exact distances) and at most 2147483648; got ${distanceText}`,
    );
  }
  const format = formatOption(given, FORMATS, 'text, csv, json, npy or raw');
  if (format === 'f32')
    fail("--format f32 writes float32, and T5's buckets are integers: use --format raw (int32) or npy (<i4)");
  return { queryLength, keyLength, offset, numBuckets, maxDistance, bidirectional: !causal, format };
}

/** Rows of buckets in the format; row `first` is the output's first row. */
function formatRows(format, values, rows, keys, first) {
  if (format === 'npy' || format === 'raw') return littleEndianBytes(values.subarray(0, rows * keys));
  const sep = format === 'text' ? ' ' : ',';
  let out = '';
  for (let i = 0; i < rows; i++) {
    const line = values.subarray(i * keys, (i + 1) * keys).join(sep);
    out += format === 'json' ? `${first + i === 0 ? '\n  [' : ',\n  ['}${line}]` : `${line}\n`;
  }
  return out;
}

export async function run(given, write) {
  const { format, ...r } = parse(given);
  const posenc = await instantiate();
  const keys = r.keyLength;
  const perCall = keys === 0 ? CHUNK_VALUES : Math.max(1, Math.floor(CHUNK_VALUES / keys));
  if (format === 'json') await write('[');
  if (format === 'npy') await write(npyHeaderOf([r.queryLength, keys], '<i4'));
  for (let i0 = 0; i0 < r.queryLength; i0 += perCall) {
    const rows = Math.min(perCall, r.queryLength - i0);
    const values = posenc.t5Buckets({
      queryLength: rows,
      keyLength: keys,
      offset: r.offset + i0,
      numBuckets: r.numBuckets,
      maxDistance: r.maxDistance,
      bidirectional: r.bidirectional,
    });
    await write(formatRows(format, values, rows, keys, i0));
  }
  if (format === 'json') await write('\n]\n');
}
