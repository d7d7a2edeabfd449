#!/usr/bin/env node
// posenc: the Node CLI's entry (`posenc COMMAND [options]`). main.js does
// the work; this file connects it to the process: stdout with backpressure,
// stderr, the exit code, and an output that cannot be written ending the run
// as the native CLI's does: a closed pipe (`| head`) quietly with status 0,
// any other failure (a full disk) with the reason and status 1.
import { runCli } from './main.js';
import { osReason } from './os-reason.js';

/** The native CLI's answer to a failed write to stdout: status 0 for a closed pipe, else the reason and status 1. */
function writeFailed(error) {
  if (error?.code === 'EPIPE') process.exit(0);
  process.stderr.write(`posenc: cannot write standard output: ${osReason(error)}\n`);
  process.exit(1);
}

// Asynchronous write errors (stdout is a pipe), EPIPE from a reader that stopped (e.g. head) among them.
process.stdout.on('error', writeFailed);

/** Writes to stdout; a promise to wait on when the pipe is full. */
function stdout(chunk) {
  if (chunk.length === 0 || process.stdout.write(chunk)) return undefined;
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

try {
  process.exitCode = await runCli(process.argv.slice(2), { stdout, stderr: (text) => process.stderr.write(text) });
} catch (error) {
  if (typeof error?.syscall !== 'string') throw error;
  writeFailed(error); // thrown by a synchronous write (stdout or --output is a file)
}
