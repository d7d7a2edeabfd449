"""The one reader of input files of `python -m posenc`, the twin of
src/cli/read_input.c and src/js/cli/read-input.js (the same caps and messages):
`--config FILE`, `--position-ids @FILE`, `identify FILE`, `config FILE`. '-' is
standard input. A regular file above its cap is refused before it is read; any
other input (a pipe, /dev/zero) is read until its end or past the cap, no further."""

from __future__ import annotations

import os
import stat
import sys
import time

from ._cli_args import fail

MIB = 1 << 20
MAX_CONFIG_BYTES = 64 * MIB  # PE_CONFIG_MAX_BYTES
MAX_IDS_BYTES = 64 * MIB
MAX_TABLE_BYTES = 256 * MIB


def os_reason(error: BaseException) -> str:
    """The OS's reason in glibc's strerror words (what the native CLI prints)."""
    number = getattr(error, "errno", None)
    return os.strerror(number) if isinstance(number, int) else str(error)


def read_input(what: str, noun: str, path: str, cap: int) -> bytes:
    """The whole input at path, or the CLI's failure: exit 2 "WHAT: cannot read PATH: REASON", exit 1
    "WHAT: PATH is larger than CAP, posenc's limit for NOUN"."""

    def too_large() -> None:
        fail(f"{what}: {path} is larger than {cap // MIB} MiB, posenc's limit for {noun}", 1)

    try:
        fd = sys.stdin.fileno() if path == "-" else os.open(path, os.O_RDONLY)
    except OSError as error:
        fail(f"{what}: cannot read {path}: {os_reason(error)}")
    chunks = []
    size = 0
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_size > cap:
            too_large()
        while True:
            try:
                chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            except BlockingIOError:  # a non-blocking stdin: wait for more
                time.sleep(0.01)
                continue
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > cap:
                too_large()
    except OSError as error:  # EISDIR, EIO, ...: read's reason
        fail(f"{what}: cannot read {path}: {os_reason(error)}")
    finally:
        if path != "-":
            os.close(fd)
    return b"".join(chunks)
