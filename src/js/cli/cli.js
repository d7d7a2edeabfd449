#!/usr/bin/env node
// `posenc table ...`: prints a positional-encoding table; `posenc identify
// FILE` names the convention of a table in a file (identify.js). The native
// CLI (src/cli/posenc.c) takes the same arguments and prints the same bytes.
import { instantiate } from '../runtime/instance.js';
import { forEachChunk, BLOCK } from '../runtime/chunks.js';
import { parseArgs, USAGE, UsageError } from './args.js';
import { formatRows, prologue, epilogue, float32Bytes } from './format.js';
import { runIdentify } from './identify.js';

// Rows are generated, formatted and written about this many floats at a time,
// and at least one 64-position block (the core's seed interval) per chunk.
const CHUNK_FLOATS = 65536;

function write(text) {
  if (text.length === 0) return undefined;
  if (process.stdout.write(text)) return undefined;
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

async function printTable({ length, dim, base, offset, layout, frequencies, format, kernels }) {
  const posenc = await instantiate(kernels === 'auto' ? {} : { simd: kernels === 'simd' });
  const maxRows = Math.max(BLOCK, Math.floor(CHUNK_FLOATS / dim));
  const buffer = new Float32Array(Math.min(maxRows, Math.max(length, 1)) * dim);
  await write(prologue(format, length, dim));
  // Generate chunk by chunk (chunk starts on multiples of 64), then write.
  const chunks = [];
  forEachChunk(offset, length, maxRows, (start, rows) => chunks.push([start, rows]));
  for (const [start, rows] of chunks) {
    const values = posenc.sinusoidal({
      length: rows,
      dim,
      base,
      offset: start,
      layout,
      frequencies,
      out: buffer.subarray(0, rows * dim),
    });
    const binary = format === 'npy' || format === 'f32';
    await write(binary ? float32Bytes(values) : formatRows(format, values, rows, dim, start - offset, start));
  }
  await write(epilogue(format, length));
}

async function main(argv) {
  if (argv[0] === 't5-buckets') {
    const { runT5Buckets } = await import('../relative/cli-t5-buckets.js');
    process.exitCode = await runT5Buckets(argv.slice(1), instantiate);
    return;
  }
  if (argv[0] === 'identify') {
    process.exitCode = await runIdentify(argv.slice(1), () => instantiate(), write);
    return;
  }
  let args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`posenc: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  try {
    await printTable(args);
  } catch (error) {
    if (typeof error?.syscall === 'string') writeFailed(error); // thrown by a synchronous write (files)
    process.stderr.write(`posenc: ${error.message}\n`);
    process.exitCode = 1;
  }
}

// As the native CLI: any failed write (a full disk, a closed stdout) is one
// line on stderr and exit status 1; a reader that stopped early (EPIPE, e.g.
// head) has seen enough.
function writeFailed(error) {
  if (error?.code === 'EPIPE') process.exit(0);
  process.stderr.write('posenc: could not write the output\n');
  process.exit(1);
}
process.stdout.on('error', writeFailed);

main(process.argv.slice(2));
