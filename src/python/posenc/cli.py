"""`python -m posenc COMMAND ...`: the posenc CLI in Python, every command of the native and Node CLIs
(src/cli/posenc.c, src/js/cli/main.js) with the same options, the same bytes on stdout, the same
one-line messages on stderr and the same exit codes: 0, 1 when the input or the library refuses
(or the output cannot be written), 2 for bad usage or an input that cannot be read. A closed pipe
(`| head`) ends quietly with status 0."""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import BinaryIO, Dict, List, Optional

from . import _cli_alibi, _cli_config, _cli_identify, _cli_rope, _cli_t5_buckets, _cli_table, _cli_table2d
from ._cli_args import VERSION, UsageError, parse_command
from ._cli_input import os_reason
from .errors import PosencError

COMMANDS: Dict[str, ModuleType] = {
    "table": _cli_table,
    "rope": _cli_rope,
    "alibi": _cli_alibi,
    "table2d": _cli_table2d,
    "t5-buckets": _cli_t5_buckets,
    "identify": _cli_identify,
    "config": _cli_config,
}

GENERAL_USAGE = """usage: posenc COMMAND [options]   (posenc COMMAND --help for its options)

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
"""


class _WriteFailed(Exception):
    """A write to the output failed part-way: where (None: standard output) and the OS error."""

    def __init__(self, path: Optional[str], error: OSError) -> None:
        super().__init__(path)
        self.path = path
        self.error = error


class _Output:
    """Standard output or the --output file, written as the commands produce their chunks."""

    def __init__(self, path: Optional[str]) -> None:
        self.path = path
        self.stream: BinaryIO = sys.stdout.buffer
        if path is not None:
            try:
                self.stream = open(path, "wb")  # noqa: SIM115 - closed by close()
            except OSError as error:  # exit 2, as for an input that cannot be read
                raise UsageError(f"--output: cannot write {path}: {os_reason(error)}") from None

    def write(self, chunk: bytes) -> None:
        try:
            self.stream.write(chunk)
        except OSError as error:
            raise _WriteFailed(self.path, error) from None

    def close(self) -> None:
        try:
            self.stream.flush()
            if self.path is not None:
                self.stream.close()
        except OSError as error:
            raise _WriteFailed(self.path, error) from None


def _quiet_stdout() -> None:
    """No second complaint at exit about the stdout that could not be flushed."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError:
        pass


def _write_failed(failure: _WriteFailed) -> int:
    if failure.path is None:
        _quiet_stdout()
    if isinstance(failure.error, BrokenPipeError):
        return 0  # the reader left (`| head`): quiet, status 0
    where = f"--output: cannot write {failure.path}" if failure.path is not None else "cannot write standard output"
    sys.stderr.write(f"posenc: {where}: {os_reason(failure.error)}\n")
    return 1


def main(argv: Optional[List[str]] = None) -> int:
    """Runs `posenc ...argv` (sys.argv[1:] by default); returns the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    output: Optional[_Output] = None
    try:
        action, command, given = parse_command(args, COMMANDS)
        if action != "run":
            text = VERSION if action == "version" else command.USAGE if command is not None else GENERAL_USAGE
            output = _Output(None)
            output.write(text.encode())
            output.close()
            return 0
        output = _Output(given.get("--output"))
        command.run(given, output.write)  # type: ignore[union-attr]
        output.close()
        return 0
    except _WriteFailed as failure:
        return _write_failed(failure)
    except (UsageError, PosencError) as error:
        sys.stderr.write(f"posenc: {error.args[0]}\n")
        code = error.code if isinstance(error, UsageError) else 1
        if output is not None:
            try:
                output.close()
            except _WriteFailed as failure:
                _write_failed(failure)
        return code
