#!/usr/bin/env node
// posenc: the Node CLI's entry (`posenc COMMAND [options]`). main.js does
// the work; this file connects it to the process: stdout with backpressure,
// stderr, the exit code, and a closed pipe ending the run quietly.
import { runCli } from './main.js';

process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0); // the reader (e.g. head) has seen enough
  throw error;
});

/** Writes to stdout; a promise to wait on when the pipe is full. */
function stdout(chunk) {
  if (chunk.length === 0 || process.stdout.write(chunk)) return undefined;
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

process.exitCode = await runCli(process.argv.slice(2), { stdout, stderr: (text) => process.stderr.write(text) });
