// The Node CLI's one reader of input files, the twin of src/cli/read_input.c (the
// same caps and messages): `--config FILE`, `--position-ids @FILE` and `identify
// FILE`. '-' is standard input. A regular file is read by its size, refused before
// reading when it is above the cap; any other input (a pipe, a FIFO, a device such
// as /dev/zero) is read until its end or until it passes the cap, never further.
import { openSync, fstatSync, readSync, closeSync } from 'node:fs';
import { fail } from './args.js';
import { osReason } from './os-reason.js';

const MiB = 1 << 20;
/** The caps (README "Limits"). */
export const MAX_CONFIG_BYTES = 64 * MiB; // PE_CONFIG_MAX_BYTES
export const MAX_IDS_BYTES = 64 * MiB; // --position-ids @FILE
export const MAX_TABLE_BYTES = 256 * MiB; // identify FILE

const reason = osReason;

/** Waits ms milliseconds without returning to the event loop (stdin when it is non-blocking). */
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The whole input at path as bytes (a Uint8Array), or the CLI's failure: exit 2
 * "WHAT: cannot read PATH: REASON", exit 1 "WHAT: PATH is larger than CAP,
 * posenc's limit for NOUN".
 */
export function readInput(what, noun, path, cap) {
  const tooLarge = () => fail(`${what}: ${path} is larger than ${cap / MiB} MiB, posenc's limit for ${noun}`, 1);
  const cannot = (error) => fail(`${what}: cannot read ${path}: ${reason(error)}`);
  const isStdin = path === '-';
  let fd;
  try {
    fd = isStdin ? 0 : openSync(path, 'r');
  } catch (error) {
    cannot(error);
  }
  try {
    let room = 1 << 16;
    try {
      const stat = fstatSync(fd);
      if (stat.isFile()) {
        if (stat.size > cap) tooLarge();
        room = stat.size + 1; // one more byte to see the end (or a file that grew)
      }
    } catch (error) {
      if (error instanceof Error && 'exitCode' in error) throw error;
      cannot(error);
    }
    let buffer = Buffer.allocUnsafe(room);
    let size = 0;
    for (;;) {
      let got;
      try {
        got = readSync(fd, buffer, size, buffer.length - size, null);
      } catch (error) {
        if (error?.code === 'EAGAIN') {
          pause(10);
          continue;
        }
        if (error?.code === 'EOF') break;
        cannot(error);
      }
      if (got === 0) break;
      size += got;
      if (size > cap) tooLarge();
      if (size === buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, cap + 1));
        buffer.copy(grown, 0, 0, size);
        buffer = grown;
      }
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, size);
  } finally {
    if (!isStdin) closeSync(fd);
  }
}
