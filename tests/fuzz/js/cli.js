// The CLI fuzzer's cases (issue 25): one seeded case is one argument vector
// (a command, its options with valid, edge and malformed values, repeats,
// unknown options, missing values) and the input files it names (a model's
// config.json, mutated; a table as .npy, .safetensors or text, mutated; a
// position-ids file), or `posenc config` of a hostile config.json
// (configArgs), run through the native CLI (build/posenc) and the JS
// CLI (src/js/cli/cli.js). Checked: both finish within the time limit, with
// the same exit status, the same stdout bytes, the same --output file and the
// same stderr bytes; a failure says something on stderr.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODELS } from '../../support/model-configs.js';
import { generator } from '../../support/random.js';
import { runCli } from '../../../src/js/cli/main.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const NATIVE = join(root, 'build/posenc');
export const NODE_CLI = join(root, 'src/js/cli/cli.js');
const RUN_MS = 20000; // per CLI run (a cold Node start is a fraction of a second)
const MAX_OUTPUT = 16 * 2 ** 20;

const SMALL = ['0', '1', '2', '3', '4', '8', '16', '64', '70'];
const EDGE = [
  '-1',
  '-0',
  '+5',
  ' 5',
  '5 ',
  '',
  '1e3',
  '0x10',
  '007',
  '1.5',
  'nan',
  'inf',
  'abc',
  '2147483647',
  '2147483648',
  '2147483649',
  '4294967296',
  '99999999999999999999',
  '1e300',
  '1e301',
];
const value = (r, small = SMALL) => (r.next() < 0.8 ? r.pick(small) : r.pick(EDGE));

/** Each command's options: name -> value maker (null: a flag). */
const COMMANDS = {
  table: {
    '--length': (r) => value(r),
    '--dim': (r) => value(r, ['2', '4', '6', '8', '1', '0']),
    '--base': (r) => value(r, ['2', '10000', '1e7', '1.0000001']),
    '--offset': (r) => value(r, ['0', '5', '2147483640', '2147483647']),
    '--layout': (r) => r.pick(['interleaved', 'split', 'half', 'x']),
    '--frequencies': (r) => r.pick(['paper', 'tensor2tensor', 'x']),
    '--preset': (r) => r.pick(['vaswani', 'tensor2tensor', 'fairseq', 'marian', 'x']),
    '--dtype': (r) => r.pick(['float32', 'float16', 'bfloat16', 'float64', 'x']),
    '--format': (r) => r.pick(['text', 'csv', 'json', 'npy', 'f32', 'raw', 'x']),
    '--kernels': (r) => r.pick(['auto', 'simd', 'scalar', 'x']),
  },
  rope: {
    '--config': (r, files) => files.config(r),
    '--layer-type': (r) => r.pick(['full_attention', 'sliding_attention', 'x', '']),
    '--length': (r) => value(r),
    '--offset': (r) => value(r),
    '--position-ids': (r, files) =>
      r.next() < 0.3
        ? files.ids(r)
        : r.pick(['0,1,2', '0 1 2', '0,1;0,1;0,1', '5', '', ',', '-1', '0,,1', '2147483648']),
    '--mrope-section': (r) => r.pick(['16,24,24', '1,1,1', '0,0,0', 'x']),
    '--vision': null,
    '--what': (r) => r.pick(['frequencies', 'attention-factor', 'cos-sin', 'x']),
    '--dtype': (r) => r.pick(['float64', 'float32', 'float16', 'bfloat16', 'x']),
    '--format': (r) => r.pick(['text', 'csv', 'json', 'x']),
  },
  alibi: {
    '--heads': (r) => value(r, ['1', '2', '3', '8', '12', '65536', '65537']),
    '--config': (r, files) => files.config(r),
    '--dtype': (r) => r.pick(['float32', 'float16']),
    '--format': (r) => r.pick(['text', 'csv', 'json', 'x']),
  },
  table2d: {
    '--height': (r) => value(r),
    '--width': (r) => value(r),
    '--dim': (r) => value(r, ['4', '8', '16', '6', '2']),
    '--base': (r) => value(r, ['2', '10000']),
    '--cls-token': (r) => r.pick(['true', 'false', 'yes', '']),
    '--dtype': (r) => r.pick(['float32', 'float16']),
    '--format': (r) => r.pick(['text', 'csv', 'json', 'npy', 'f32', 'raw', 'x']),
  },
  't5-buckets': {
    '--query-length': (r) => value(r),
    '--key-length': (r) => value(r),
    '--offset': (r) => value(r),
    '--num-buckets': (r) => value(r, ['4', '8', '32', '1024', '1025', '3']),
    '--max-distance': (r) => value(r, ['16', '128', '2147483648']),
    '--causal': null,
    '--format': (r) => r.pick(['text', 'csv', 'json', 'x']),
  },
  identify: {
    '--name': (r) => r.pick(['t', 'x', '']),
    '--rows': (r) => value(r),
    '--dim': (r) => value(r),
    '--kind': (r) => r.pick(['auto', 'table', 'cos-sin', 'x']),
    '--json': null,
  },
};
export const COMMAND_NAMES = Object.keys(COMMANDS);

/** Tokens JSON has not, or reads unlike JavaScript's number syntax. */
const NUMBERISH = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '0x10',
  '01',
  '.5',
  '+1',
  '1.',
  'null',
];

/** A JSON string literal of s with some characters written as \u escapes (JSON reads them as the characters). */
function escaped(r, s) {
  let out = '';
  for (const c of s)
    out += r.next() < 0.3 ? '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0') : JSON.stringify(c).slice(1, -1);
  return `"${out}"`;
}

/** RoPE keyed by n layer types (transformers v5), as text: names plain, escaped, repeated; some entries bad. */
function keyedTypes(r, n) {
  const names = Array.from({ length: n }, (_, i) => (r.next() < 0.02 ? `t${i}"}` : `t${i}`));
  const entries = names.map((name, i) => {
    const theta = r.next() < 0.02 ? r.pick(NUMBERISH) : String(1000 + i);
    const extra =
      r.next() < 0.02 ? r.pick([',"rope_wobble":1', ',"rope_type":"linear","factor":2', ',"factor":"2"']) : '';
    return `${r.next() < 0.1 ? escaped(r, name) : JSON.stringify(name)}:{"rope_theta":${theta}${extra}}`;
  });
  if (r.next() < 0.2) entries.push(`${JSON.stringify(names[0])}:{"rope_theta":77}`); // the last one wins
  const layers = Array.from({ length: r.next() < 0.8 ? n : r.int(1, 2 * n) }, () => JSON.stringify(r.pick(names)));
  const dict = r.next() < 0.8 ? 'rope_parameters' : 'rope_scaling';
  const body =
    `"model_type":"llama","hidden_size":64,"num_attention_heads":4,"num_hidden_layers":${layers.length},` +
    `"layer_types":[${layers.join(',')}],"${dict}":{${entries.join(',')}}`;
  return r.next() < 0.2 ? `{"model_type":"gemma3","text_config":{${body}}}` : `{${body}}`;
}

/**
 * A hostile config.json for `posenc config`: a corpus model or thousands of
 * layer types, then mutations: duplicate keys (before and after), keys written
 * with \u escapes, nesting near PE_CONFIG_MAX_DEPTH (1000), huge arrays and
 * layer counts near PE_CONFIG_MAX_LAYERS, number-like tokens JSON has not
 * (NaN, Infinity, 1e400, 0x10), a truncation.
 */
export function hostileConfig(r) {
  let text =
    r.next() < 0.3
      ? keyedTypes(r, r.pick([2, 3, 30, 300, r.int(1, 5000)]))
      : JSON.stringify(r.pick(MODELS).config, null, r.next() < 0.3 ? 1 : 0);
  for (let m = r.int(0, 3); m > 0; m--) {
    const k = r.int(0, 8);
    if (k === 0) {
      // A key given twice: an earlier copy with another value, or a later one that wins.
      const keys = [...text.matchAll(/"(\w+)":/g)];
      if (keys.length === 0) continue;
      const hit = r.pick(keys);
      const other = `"${hit[1]}":${r.pick(['7', '"x"', 'null', '{}', '[1]', '1e6', 'true'])},`;
      text = text.slice(0, hit.index) + other + text.slice(hit.index);
      if (r.next() < 0.5) text = text.replace(/}\s*$/, `,${other.slice(0, -1)}}`);
    } else if (k === 1) {
      // A key written with escapes.
      const keys = [...text.matchAll(/"(\w+)":/g)];
      if (keys.length === 0) continue;
      const hit = r.pick(keys);
      text = text.slice(0, hit.index) + escaped(r, hit[1]) + text.slice(hit.index + hit[1].length + 2);
    } else if (k === 2) {
      // Nesting around the limit.
      const depth = r.pick([r.int(990, 1002), r.int(1, 80), 5000]);
      text = text.replace(/^\s*{/, `{"pad":${'['.repeat(depth)}${']'.repeat(depth)},`);
    } else if (k === 3) {
      // A huge array, or a layer count near the cap.
      const n = r.pick([65535, 65536, 65537, 200000]);
      text = text.replace(
        /^\s*{/,
        r.next() < 0.5
          ? `{"pad":[${'0,'.repeat(n)}0],`
          : `{"num_hidden_layers":${n},"layer_types":[${'"full_attention",'.repeat(n - 1)}"full_attention"],`,
      );
    } else if (k === 4 || k === 5) {
      // A number-like token where a number stood.
      const numbers = [...text.matchAll(/:\s*(-?\d[\d.eE+-]*)/g)];
      if (numbers.length === 0) continue;
      const hit = r.pick(numbers);
      const at = hit.index + hit[0].length - hit[1].length;
      text = text.slice(0, at) + r.pick(NUMBERISH) + text.slice(at + hit[1].length);
    } else if (k === 6) text = text.slice(0, r.int(0, text.length));
    else if (k === 7) text = '\ufeff' + text;
    else text = text.replace(/"(rope_theta|head_dim|num_attention_heads)":/, '"$1":"$1",');
  }
  return text;
}

/** Input files of a case, written under dir. */
function inputFiles(dir) {
  return {
    config(r) {
      const model = structuredClone(r.pick(MODELS).config);
      let text = JSON.stringify(model, null, r.next() < 0.5 ? 2 : 0);
      const k = r.next();
      if (k < 0.15)
        text = text.replace(/"(rope_theta|num_attention_heads|head_dim)"/, '"$1": 7, "$1"'); // duplicate key
      else if (k < 0.25)
        text = text.replace(/"rope_(\w)/, '"rope_\\u00$1'.replace('$1', '') + '$1'); // escaped name
      else if (k < 0.35) text = text.slice(0, r.int(0, text.length));
      else if (k < 0.42) text = `{"a":${'['.repeat(r.int(60, 300))}${']'.repeat(0)}}`;
      else if (k < 0.5) text = text.replace(/: ?(\d+)/, ': NaN');
      const file = join(dir, r.pick(['config.json', 'c.json']));
      writeFileSync(file, text);
      return r.next() < 0.05 ? join(dir, 'missing.json') : file;
    },
    /** A config.json made hostile for `posenc config` (see hostileConfig). */
    hostile(r) {
      const file = join(dir, 'hostile.json');
      writeFileSync(file, hostileConfig(r));
      return r.next() < 0.02 ? join(dir, 'missing.json') : file;
    },
    ids(r) {
      const rows = Array.from({ length: r.int(1, 3) }, () =>
        Array.from({ length: r.int(0, 5) }, () =>
          r.next() < 0.9 ? r.int(0, 80) : r.pick(['-1', 'x', '2147483648']),
        ).join(r.pick([',', ' '])),
      );
      writeFileSync(join(dir, 'ids.txt'), rows.join('\n') + (r.next() < 0.5 ? '\n' : ''));
      return '@' + join(dir, 'ids.txt');
    },
    table(r) {
      const rows = r.int(1, 12);
      const dim = r.pick([2, 4, 6]);
      const data = Float32Array.from({ length: rows * dim }, (_, i) =>
        r.next() < 0.7 ? Math.sin((Math.floor(i / dim) + 1) / (1 + (i % dim))) : r.next() * 2 - 1,
      );
      const kind = r.pick(['npy', 'csv', 'txt', 'f32', 'safetensors']);
      let bytes;
      if (kind === 'npy') {
        let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${dim}), }`;
        header = header.padEnd(Math.ceil((header.length + 11) / 64) * 64 - 11) + '\n';
        bytes = Buffer.concat([
          Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 255, header.length >> 8]),
          Buffer.from(header, 'latin1'),
          Buffer.from(data.buffer),
        ]);
      } else if (kind === 'safetensors') {
        const json = Buffer.from(
          JSON.stringify({ t: { dtype: 'F32', shape: [rows, dim], data_offsets: [0, data.byteLength] } }),
        );
        const size = Buffer.alloc(8);
        size.writeBigUInt64LE(BigInt(json.length));
        bytes = Buffer.concat([size, json, Buffer.from(data.buffer)]);
      } else if (kind === 'f32') bytes = Buffer.from(data.buffer);
      else {
        const sep = kind === 'csv' ? ',' : ' ';
        const lines = [];
        for (let i = 0; i < rows; i++)
          lines.push(Array.from(data.subarray(i * dim, (i + 1) * dim), (v) => v.toPrecision(9)).join(sep));
        bytes = Buffer.from(lines.join('\n') + '\n');
      }
      for (let k = r.next() < 0.4 ? r.int(1, 3) : 0; k > 0; k--) {
        const at = r.int(0, bytes.length - 1);
        if (r.next() < 0.6) bytes[at] = r.int(0, 255);
        else bytes = bytes.subarray(0, at);
      }
      const file = join(dir, `table.${kind}`);
      writeFileSync(file, bytes);
      return file;
    },
  };
}

/** The argument vector of a case (and the files it wrote under dir). */
export function cliArgs(seed, dir) {
  const r = generator(seed);
  const files = inputFiles(dir);
  const k = r.next();
  if (k < 0.02) return [r.pick(['', 'tabel', '--help', '--version', '-h', 'x'])];
  const command = r.pick(COMMAND_NAMES);
  const options = COMMANDS[command];
  const names = Object.keys(options);
  const args = [command];
  if (command === 'identify' && r.next() < 0.95) args.push(files.table(r));
  // The required options mostly, then others.
  const required = {
    table: ['--length', '--dim'],
    rope: ['--config'],
    alibi: ['--heads'],
    table2d: ['--height', '--width', '--dim'],
    't5-buckets': ['--query-length'],
    identify: [],
  }[command];
  const chosen = required.filter(() => r.next() < 0.93);
  for (let n = r.int(0, 3); n > 0; n--) chosen.push(r.pick(names));
  for (const name of chosen) {
    args.push(name);
    if (options[name] && r.next() < 0.97) args.push(options[name](r, files));
  }
  if (r.next() < 0.05) args.push(r.pick(['--lenght', '--', 'extra', '--output']));
  if (r.next() < 0.08) args.push('--output', join(dir, 'out.bin'));
  if (r.next() < 0.04) args.push('--help');
  return args;
}

/**
 * The argument vector of a `posenc config` case: a hostile config.json
 * (hostileConfig) and a format. A case kind of its own ('config'), so that
 * the seeds of the corpus's CLI cases keep their argument vectors.
 */
export function configArgs(seed, dir) {
  const r = generator(seed);
  const files = inputFiles(dir);
  const args = ['config'];
  if (r.next() < 0.97) args.push(files.hostile(r));
  if (r.next() < 0.6) args.push('--format', r.pick(['text', 'json', 'json', 'csv', 'x', '']));
  if (r.next() < 0.03) args.push(r.pick(['--format', 'extra', '--lenght', '--help']));
  if (r.next() < 0.08) args.push('--output', join(dir, 'out.bin'));
  return args;
}

function run(program, args, dir) {
  const out = join(dir, 'out.bin');
  rmSync(out, { force: true });
  const t = performance.now();
  const result = spawnSync(program, args, { timeout: RUN_MS, maxBuffer: MAX_OUTPUT, cwd: dir });
  // A file past the cap is not read, and counts as output past it (ENOBUFS, as stdout's cap does): `table --length
  // 2147483647 --output` asks for GiBs, written until the time limit ends the run (3.2 GB seen, CI of 28 Nov).
  const size = existsSync(out) ? statSync(out).size : -1;
  const capped = size > MAX_OUTPUT;
  return {
    status: result.status,
    signal: capped ? null : result.signal,
    error: capped ? 'ENOBUFS' : result.error ? result.error.code : null,
    stdout: result.stdout ?? Buffer.alloc(0),
    stderr: (result.stderr ?? Buffer.alloc(0)).toString(),
    file: size >= 0 && !capped ? readFileSync(out) : null,
    ms: performance.now() - t,
  };
}

class OutputCap extends Error {}

/** The JS CLI's main function in this process (a cold Node start per case would take most of the time). */
async function inProcess(args, dir) {
  const out = join(dir, 'out.bin');
  rmSync(out, { force: true });
  const chunks = [];
  const errors = [];
  let bytes = 0;
  const t = performance.now();
  let timer;
  const limit = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), RUN_MS)));
  const status = await Promise.race([
    runCli(args, {
      stdout: (chunk) => {
        bytes += chunk.length;
        // Past the cap, the write fails: the command stops, as the native one does when spawnSync stops reading.
        if (bytes > MAX_OUTPUT) throw new OutputCap();
        chunks.push(Buffer.from(typeof chunk === 'string' ? chunk : chunk.slice()));
      },
      stderr: (text) => void errors.push(text),
    }),
    limit,
  ]).catch((error) => ({ thrown: error }));
  if (status && status.thrown instanceof OutputCap) status.thrown = null;
  if (status && status.thrown) {
    clearTimeout(timer);
    return {
      status: null,
      signal: null,
      error: `threw ${status.thrown.stack.split('\n').slice(0, 3).join(' ')}`,
      stdout: Buffer.alloc(0),
      stderr: '',
      file: null,
      ms: 0,
    };
  }
  clearTimeout(timer);
  return {
    status: status === 'timeout' || typeof status === 'object' ? null : status,
    signal: null,
    error: status === 'timeout' ? 'ETIMEDOUT' : bytes > MAX_OUTPUT ? 'ENOBUFS' : null,
    stdout: Buffer.concat(chunks),
    stderr: errors.join(''),
    file: existsSync(out) ? readFileSync(out) : null,
    ms: performance.now() - t,
  };
}

/** One case: null when both CLIs agree, else a finding { kind: 'cli' or 'config', seed, args, what }. */
export async function runCliCase(seed, dir, { spawnNode = false, argsOf = cliArgs, kind = 'cli' } = {}) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = argsOf(seed, dir);
  const a = run(NATIVE, args, dir);
  // With --output the command writes the file itself, past any cap: in a process of its own, with a time limit.
  const b =
    spawnNode || args.includes('--output')
      ? run(process.execPath, [NODE_CLI, ...args], dir)
      : await inProcess(args, dir);
  const finding = (what) => ({ kind, seed, args, what });
  if (a.error === 'ETIMEDOUT' || b.error === 'ETIMEDOUT') {
    return finding(
      `timed out (native ${a.error ?? a.ms.toFixed(0) + ' ms'}, node ${b.error ?? b.ms.toFixed(0) + ' ms'})`,
    );
  }
  if (a.error === 'ENOBUFS' && b.error === 'ENOBUFS') return null; // both printed past the fuzzer's 16 MiB: no more to compare
  if (a.signal || b.signal || a.error || b.error) {
    return finding(
      `ended by native ${a.signal ?? a.error ?? 'exit'}, node ${b.signal ?? b.error ?? 'exit'}: ${b.stderr.slice(0, 200)}`,
    );
  }
  if (a.status !== b.status)
    return finding(
      `status native ${a.status}, node ${b.status}: ${a.stderr.slice(0, 200)} | ${b.stderr.slice(0, 200)}`,
    );
  if (Buffer.compare(a.stdout, b.stdout) !== 0)
    return finding(`stdout differs (${a.stdout.length} and ${b.stdout.length} bytes)`);
  if ((a.file === null) !== (b.file === null) || (a.file && Buffer.compare(a.file, b.file) !== 0))
    return finding('--output file differs');
  if (a.status !== 0 && (a.stderr.length === 0 || b.stderr.length === 0))
    return finding('a failure with nothing on stderr');
  // The same refusal in the same words (issue 25: the CLIs worded several alike refusals differently).
  if (a.stderr !== b.stderr)
    return { ...finding('stderr words differ'), native: a.stderr.slice(0, 300), node: b.stderr.slice(0, 300) };
  return null;
}
