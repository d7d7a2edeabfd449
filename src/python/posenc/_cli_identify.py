"""`python -m posenc identify FILE`: the convention of a table and its error against the exact one (the
core's report), the bytes of src/js/cli/identify.js."""

from __future__ import annotations

import re
from typing import Callable

from ._cli_args import Given, fail
from ._cli_input import MAX_TABLE_BYTES, read_input
from ._cli_options import COMMON_HELP
from ._cli_tables import read_any
from .diagnose import identify

USAGE = f"""usage: posenc identify FILE [options]

Names the positional-encoding convention of the table in FILE and its error
against the exact table. FILE is .npy, .safetensors, CSV or whitespace-separated
text (one row per line), JSON (an array of rows; told from CSV by its content),
or raw little-endian float32 (give --rows and/or --dim).

  --name T      the tensor of a .safetensors file (needed when it holds several)
  --rows N      rows of a raw float32 file (checked against other files)
  --dim D       columns of a raw float32 file (checked against other files)
  --kind K      auto (default), table (sine-cosine pairs), cos-sin (a RoPE cos or sin cache)
                or inv-freq (a model's inv_freq vector: one column or one row, read as
                float32; auto reads a one-column or one-row FILE so)
  --json        print the facts as one JSON object instead of the report
{COMMON_HELP}
examples:
  posenc identify pe.npy
  posenc identify model.safetensors --name embed_positions.weight --json
  posenc identify inv_freq.npy
"""
OPTIONS = ["--name", "--rows", "--dim", "--kind", "--output"]
FLAGS = ["--json"]
OPERAND = "FILE"


def _shape_option(given: Given, name: str) -> int:
    """--rows or --dim: 1 ... 2^32 - 1 from decimal digits; 0 when absent."""
    text = given.get(name)
    if text is None:
        return 0
    value = int(text) if re.fullmatch(r"[0-9]{1,10}", text) else 0
    if value < 1 or value > 4294967295:
        fail(f"{name} must be an integer from 1 to 4294967295; got {text}")
    return value


def run(given: Given, write: Callable[[bytes], None]) -> None:
    name = given.get("--name")
    rows = _shape_option(given, "--rows")
    dim = _shape_option(given, "--dim")
    path = given.get("FILE")
    if path is None:
        fail("identify needs a FILE (.npy, .safetensors, CSV or raw float32; see posenc identify --help)")
    kind = given.get("--kind", "auto")
    if kind not in ("auto", "table", "cos-sin", "inv-freq"):
        fail(f"--kind must be auto, table, cos-sin or inv-freq; got {kind}")
    data = read_input("identify", "a table", path, MAX_TABLE_BYTES)
    table, rows, dim = read_any(data, name, rows, dim)
    # one column or one row: a frequency vector (identify_command.c's rule), read as float32 as the CLIs do
    if kind == "inv-freq" or (kind == "auto" and (dim == 1 or rows == 1)):
        result = identify(table.reshape(-1).astype("float32"), kind="inv-freq")
    else:
        result = identify(table.reshape(-1), rows=rows, dim=dim, kind=kind)
    write((result["json"] + "\n" if given.get("--json") == "true" else result["text"]).encode())
