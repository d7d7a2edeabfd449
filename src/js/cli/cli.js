#!/usr/bin/env node
// `posenc table ...`: prints a positional-encoding table. The native CLI
// (src/cli/posenc.c) takes the same arguments and prints the same bytes.
import { instantiate } from '../runtime/instance.js';
import { forEachChunk, BLOCK } from '../runtime/chunks.js';
import { parseArgs, USAGE, UsageError } from './args.js';
import { formatRows, prologue, epilogue, float32Bytes } from './format.js';

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
    process.stderr.write(`posenc: ${error.message}\n`);
    process.exitCode = 1;
  }
}

process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0); // the reader (e.g. head) has seen enough
  throw error;
});

main(process.argv.slice(2));
