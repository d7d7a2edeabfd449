#!/usr/bin/env node
// posenc: the Node CLI's entry (`posenc COMMAND [options]`). main.js does
// the work; this file connects it to the process: stdout with backpressure,
// stderr, the exit code, and an output that cannot be written (a closed
// pipe, a full disk) ending the run as the native CLI's does.
import { runCli } from './main.js';

/** The native CLI's answer to a failed write: its message, exit status 1, no stack trace. */
function writeFailed() {
  process.stderr.write('posenc: could not write the output\n');
  process.exit(1);
}

// Asynchronous write errors (stdout is a pipe): EPIPE from a reader that
// stopped (e.g. head) is one too, as in the native CLI, which ignores SIGPIPE.
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
  writeFailed(); // thrown by a synchronous write (stdout or --output is a file)
}
