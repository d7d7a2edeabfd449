#!/usr/bin/env node
// posenc: the Node CLI. `posenc COMMAND [options]`; the subcommands are the
// table below (one entry each, one module each in cli/); the native CLI
// (src/cli/posenc.c) has the same table and prints the same bytes.
import { openSync, writeSync, closeSync } from 'node:fs';
import { PosencError } from '../runtime/errors.js';
import { parseCommand, UsageError, VERSION } from './args.js';
import * as table from './table.js';
import * as rope from './rope.js';
import * as alibi from './alibi.js';
import * as table2d from './table2d.js';

const COMMANDS = [
  { name: 'table', ...table },
  { name: 'rope', ...rope },
  { name: 'alibi', ...alibi },
  { name: 'table2d', ...table2d },
];

const GENERAL_USAGE = `usage: posenc COMMAND [options]   (posenc COMMAND --help for its options)

  table     the sinusoidal positional-encoding table (Vaswani et al.)
  rope      a model's RoPE frequencies, read from its config.json
  alibi     ALiBi's per-head slopes
  table2d   the 2-D sin-cos table of a grid of patches (MAE)

  --version     print the version
  -h, --help    print this help
`;

/** Writes text or bytes to stdout (waiting on backpressure) or to the --output file. */
function writer(path) {
  if (path === undefined) {
    return (chunk) => {
      if (chunk.length === 0 || process.stdout.write(chunk)) return undefined;
      return new Promise((resolve) => process.stdout.once('drain', resolve));
    };
  }
  let fd;
  try {
    fd = openSync(path, 'w');
  } catch {
    throw new UsageError('--output: could not open the file for writing');
  }
  const write = (chunk) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
  };
  write.close = () => closeSync(fd);
  return write;
}

async function main(argv) {
  let write;
  try {
    const { action, command, given } = parseCommand(argv, COMMANDS);
    if (action === 'help') return void process.stdout.write(command ? command.usage : GENERAL_USAGE);
    if (action === 'version') return void process.stdout.write(VERSION);
    write = writer(given.get('--output'));
    await command.run(given, write);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof PosencError)) throw error;
    process.stderr.write(`posenc: ${error.message}\n`);
    process.exitCode = error instanceof UsageError ? error.exitCode : 1;
  } finally {
    write?.close?.();
  }
}

process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0); // the reader (e.g. head) has seen enough
  throw error;
});

main(process.argv.slice(2));
