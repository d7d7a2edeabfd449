#!/usr/bin/env node
// posenc: the Node CLI's entry (`posenc COMMAND [options]`). main.js does
// the work; this file connects it to the process: stdout with backpressure,
// stderr, the exit code, and a closed pipe ending the run quietly.
import { runCli } from './main.js';

/** An output that cannot be written ends the run as the native CLI's does: its message, exit status 1. */
function writeFailed() {
  process.stderr.write('posenc: could not write the output\n');
  process.exit(1);
}

process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0); // the reader (e.g. head) has seen enough
  writeFailed();
});

/** Writes to stdout; a promise to wait on when the pipe is full. */
function stdout(chunk) {
  if (chunk.length === 0 || process.stdout.write(chunk)) return undefined;
  return new Promise((resolve) => process.stdout.once('drain', resolve));
}

// t5-buckets and identify keep their own parsers (not yet in main.js's table).
const argv = process.argv.slice(2);
if (argv[0] === 't5-buckets') {
  const [{ runT5Buckets }, { instantiate }] = await Promise.all([
    import('../relative/cli-t5-buckets.js'),
    import('../runtime/instance.js'),
  ]);
  process.exitCode = await runT5Buckets(argv.slice(1), instantiate);
} else if (argv[0] === 'identify') {
  const [{ runIdentify }, { instantiate }] = await Promise.all([
    import('./identify.js'),
    import('../runtime/instance.js'),
  ]);
  process.exitCode = await runIdentify(argv.slice(1), () => instantiate(), stdout);
} else {
  try {
    process.exitCode = await runCli(argv, { stdout, stderr: (text) => process.stderr.write(text) });
  } catch (error) {
    if (typeof error?.syscall !== 'string') throw error;
    writeFailed(); // thrown by a synchronous write (stdout is a file)
  }
}
