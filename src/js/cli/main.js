// The Node CLI's main function, apart from the process: runCli(argv, io)
// parses the arguments, runs one subcommand and returns the exit code,
// writing through io.stdout(chunk) (text or bytes; it may return a promise to
// wait for backpressure) and io.stderr(text). cli.js wires it to the process;
// tests run it in-process. The subcommands are the table below (one module
// each); the native CLI (src/cli/posenc.c) has the same table and prints the
// same bytes.
import { openSync, writeSync, closeSync } from 'node:fs';
import { PosencError } from '../runtime/errors.js';
import { parseCommand, UsageError, VERSION } from './args.js';
import { osReason } from './os-reason.js';
import * as table from './table.js';
import * as rope from './rope.js';
import * as alibi from './alibi.js';
import * as table2d from './table2d.js';
import * as t5Buckets from './t5-buckets.js';
import * as identify from './identify.js';
import * as config from './config.js';

const COMMANDS = [
  { name: 'table', ...table },
  { name: 'rope', ...rope },
  { name: 'alibi', ...alibi },
  { name: 'table2d', ...table2d },
  { name: 't5-buckets', ...t5Buckets },
  { name: 'identify', ...identify },
  { name: 'config', ...config },
];

const GENERAL_USAGE = `usage: posenc COMMAND [options]   (posenc COMMAND --help for its options)

  table       the sinusoidal positional-encoding table (Vaswani et al.)
  rope        RoPE frequencies and cos/sin caches, from a config.json or flags
  alibi       ALiBi's per-head slopes
  table2d     the 2-D sin-cos table of a grid of patches (MAE)
  t5-buckets  T5's relative attention buckets
  identify    which convention the table in FILE follows
  config      what every layer of a model uses, from its config.json

  --version   print the version
  -h, --help  print this help

examples:
  posenc table --length 10 --dim 4
  posenc rope --config config.json --what cos-sin --length 4096 --format npy --output cs.npy
  posenc rope --head-dim 128 --base 500000 --what cos-sin --length 4 --format csv
  posenc identify pe.npy --json
  posenc config config.json --format json
`;

/** io.stdout, or a writer to the --output file (closed by write.close()). */
function writer(path, stdout) {
  if (path === undefined) return stdout;
  let fd;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    // Exit 2, as for an input that cannot be read; the reason in C's strerror words.
    throw new UsageError(`--output: cannot write ${path}: ${osReason(error)}`);
  }
  // A write that fails part-way (a full disk) names the path and the reason, exit 1, as src/cli/posenc.c does.
  const failed = (error) => {
    if (typeof error?.syscall !== 'string') throw error;
    throw new UsageError(`--output: cannot write ${path}: ${osReason(error)}`, 1);
  };
  const write = (chunk) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    } catch (error) {
      failed(error);
    }
  };
  write.close = () => closeSync(fd);
  return write;
}

/**
 * Runs `posenc ...argv`; resolves to the exit code (0, 1 for a refusal of the
 * core or the package, 2 for bad usage). Errors of other kinds propagate.
 * @param {string[]} argv
 * @param {{ stdout: (chunk: string | Uint8Array) => unknown, stderr: (text: string) => unknown }} io
 */
export async function runCli(argv, io) {
  let write;
  try {
    const { action, command, given } = parseCommand(argv, COMMANDS);
    if (action === 'help') {
      await io.stdout(command ? command.usage : GENERAL_USAGE);
      return 0;
    }
    if (action === 'version') {
      await io.stdout(VERSION);
      return 0;
    }
    write = writer(given.get('--output'), io.stdout);
    await command.run(given, write);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof PosencError)) throw error;
    io.stderr(`posenc: ${error.message}\n`);
    return error instanceof UsageError ? error.exitCode : 1;
  } finally {
    write?.close?.();
  }
}
