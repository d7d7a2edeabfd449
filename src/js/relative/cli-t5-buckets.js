// `posenc t5-buckets`: T5's relative attention buckets, one line per query
// row. Mirrors src/cli/t5_buckets.c: the same options, the same checks in the
// same order, the same messages and the same bytes.
import { createWriteStream, readFileSync } from 'node:fs';
import { parseCount, UsageError } from '../cli/args.js'; // digits only, at most 2^31, as the table command

const MAX_POSITION = 2147483648;
const MAX_BUCKETS = 1024;
const CHUNK_VALUES = 65536; // buckets made and written per call (at least one row)
const VALUED = [
  '--query-length',
  '--key-length',
  '--offset',
  '--num-buckets',
  '--max-distance',
  '--format',
  '--output',
];

export const USAGE = `usage: posenc t5-buckets --query-length N [options]

Prints T5's relative attention buckets (HF transformers' _relative_position_bucket):
one line per query row, one bucket per key. Query row i sits at key position offset + i.

  --query-length N   query rows, 0 to 2147483648 (required)
  --key-length K     keys, 0 to 2147483648 (default N)
  --offset P         key position of query row 0 (default K - N: the last query on the last key)
  --num-buckets B    4 to 1024, or 2 to 1024 with --causal (default 32)
  --max-distance D   above the exact distances (B/4, or B/2 with --causal), at most 2147483648
                     (default 128)
  --causal           the decoder's buckets: keys ahead of the query share bucket 0
  --format F         text (spaces), csv or json (default text)
  --output FILE      write to FILE instead of standard output
  --version          print the version
  -h, --help         print this help
`;

const fail = (message) => {
  throw new UsageError(message);
};

function parse(argv) {
  const given = {};
  let causal = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) fail(`unexpected argument '${arg}' (see posenc t5-buckets --help)`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (name === '--causal') {
      if (eq >= 0) fail(`--causal takes no value; got '${arg}'`);
      causal = true;
      continue;
    }
    if (!VALUED.includes(name)) fail(`unknown option '${name.slice(0, 60)}' (see posenc t5-buckets --help)`);
    if (eq >= 0) given[name] = arg.slice(eq + 1);
    else if (i + 1 < argv.length) given[name] = argv[++i];
    else fail(`${name} needs a value`);
  }
  return { given, causal };
}

function check({ given, causal }) {
  const text = (name) => given[name];
  if (text('--query-length') === undefined) fail('--query-length is required (the number of query rows)');
  const queryLength = parseCount(text('--query-length'));
  if (queryLength === undefined)
    fail(`--query-length must be an integer from 0 to 2147483648; got ${text('--query-length')}`);
  const keyLength = text('--key-length') !== undefined ? parseCount(text('--key-length')) : queryLength;
  if (keyLength === undefined)
    fail(`--key-length must be an integer from 0 to 2147483648; got ${text('--key-length')}`);
  let offset;
  if (text('--offset') !== undefined) {
    offset = parseCount(text('--offset'));
    if (offset === undefined) fail(`--offset must be an integer from 0 to 2147483648; got ${text('--offset')}`);
    if (offset + queryLength > MAX_POSITION)
      fail(`--offset + --query-length must be at most 2147483648; got ${text('--offset')} + ${queryLength}`);
  } else if (queryLength > keyLength) {
    fail('--query-length is above --key-length, so --offset must be given (the key position of query row 0)');
  } else {
    offset = keyLength - queryLength;
  }
  const least = causal ? 2 : 4;
  const numBuckets = text('--num-buckets') !== undefined ? parseCount(text('--num-buckets')) : 32;
  if (numBuckets === undefined || numBuckets < least || numBuckets > MAX_BUCKETS) {
    fail(
      causal
        ? `--num-buckets must be an integer from 2 to 1024 with --causal; got ${text('--num-buckets')}`
        : `--num-buckets must be an integer from 4 to 1024; got ${text('--num-buckets')}`,
    );
  }
  const exact = Math.floor((causal ? numBuckets : Math.floor(numBuckets / 2)) / 2);
  const maxDistance = text('--max-distance') !== undefined ? parseCount(text('--max-distance')) : 128;
  if (maxDistance === undefined || maxDistance <= exact) {
    fail(
      `--max-distance must be an integer above ${exact} (the exact distances) and at most 2147483648; got ${text('--max-distance') ?? '128'}`,
    );
  }
  const format = text('--format') ?? 'text';
  if (!['text', 'csv', 'json'].includes(format)) fail(`--format must be text, csv or json; got ${format}`);
  return {
    queryLength,
    keyLength,
    offset,
    numBuckets,
    maxDistance,
    bidirectional: !causal,
    format,
    output: text('--output'),
  };
}

/** Rows of buckets in the format; row `first` is the output's first row. */
function formatRows(format, values, rows, keys, first) {
  const sep = format === 'text' ? ' ' : ',';
  let out = '';
  for (let i = 0; i < rows; i++) {
    const line = values.subarray(i * keys, (i + 1) * keys).join(sep);
    out += format === 'json' ? `${first + i === 0 ? '\n  [' : ',\n  ['}${line}]` : `${line}\n`;
  }
  return out;
}

function writer(path) {
  const stream = path === undefined ? process.stdout : createWriteStream(path);
  const write = (text) =>
    text.length === 0 || stream.write(text) ? undefined : new Promise((resolve) => stream.once('drain', resolve));
  const end = () =>
    path === undefined
      ? undefined
      : new Promise((resolve, reject) => {
          stream.on('error', reject);
          stream.end(resolve);
        });
  return {
    write,
    end,
    ready:
      path === undefined
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            stream.once('open', resolve);
            stream.once('error', reject);
          }),
  };
}

/** Runs `posenc t5-buckets` with `argv` (the arguments after t5-buckets); resolves to the exit code. */
export async function runT5Buckets(argv, instantiate) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`posenc ${version}\n`);
    return 0;
  }
  let r;
  try {
    r = check(parse(argv));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`posenc: ${error.message}\n`);
    return 2;
  }
  const out = writer(r.output);
  try {
    await out.ready;
  } catch {
    process.stderr.write(`posenc: could not open ${r.output} for writing\n`);
    return 2;
  }
  const posenc = await instantiate({});
  const keys = r.keyLength;
  const perCall = keys === 0 ? CHUNK_VALUES : Math.max(1, Math.floor(CHUNK_VALUES / keys));
  if (r.format === 'json') await out.write('[');
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
    await out.write(formatRows(r.format, values, rows, keys, i0));
  }
  if (r.format === 'json') await out.write('\n]\n');
  await out.end();
  return 0;
}
