"""`python -m posenc table2d`: MAE's 2-D sin-cos table (pe_table_2d), the bytes of src/js/cli/table2d.js."""

from __future__ import annotations

import ctypes
from typing import Callable

import numpy as np

from . import _lib
from ._arrays import aligned_bytes
from ._cli_args import Given, fail, flag_on, parse_decimal
from ._cli_format import epilogue, format_rows, prologue
from ._cli_options import COMMON_HELP, TABLE_FORMATS_HELP, count_option, dtype_option, format_option, kernels_option

USAGE = f"""usage: posenc table2d --height H --width W --dim D [options]

Prints the 2-D sin-cos table of a H x W grid of patches as MAE builds it (one row per patch,
row-major; the first D/2 columns encode the column x, the last D/2 the row y).

  --height H    grid rows, 1 to 65536 (required)
  --width W     grid columns, 1 to 65536 (required)
  --dim D       embedding size, a multiple of 4, 4 to 65536 (required)
  --base T      frequency base, above 1 and at most 1e300 (default 10000)
  --cls-token   a leading row of zeros for the class token (--no-cls-token: none, the default)
  --dtype T     float32 (the table's type, the only one)
{TABLE_FORMATS_HELP}{COMMON_HELP}
examples:
  posenc table2d --height 14 --width 14 --dim 768 --cls-token --format npy --output pos.npy
  posenc table2d --height 2 --width 3 --dim 8 --format csv
"""
OPTIONS = ["--height", "--width", "--dim", "--base", "--dtype", "--format", "--kernels", "--output"]
FLAGS = ["--cls-token"]
OPERAND = None

MAX_FLOATS = 2**28  # one call's table: 1 GiB of float32


class Grid2d(ctypes.Structure):
    """pe_grid2d."""

    _fields_ = [("height", _lib.u32), ("width", _lib.u32), ("dim", _lib.u32), ("base", _lib.f64),
                ("cls_token", ctypes.c_int)]


_lib.lib.pe_table_2d_scratch_size.restype = _lib.enum
_lib.lib.pe_table_2d_scratch_size.argtypes = [ctypes.POINTER(Grid2d), ctypes.POINTER(_lib.size_t)]
_lib.lib.pe_table_2d.restype = _lib.enum
_lib.lib.pe_table_2d.argtypes = [ctypes.POINTER(Grid2d), _lib.voidp, _lib.size_t, _lib.voidp, _lib.size_t]


def table_2d(height: int, width: int, dim: int, base: float, cls_token: bool) -> np.ndarray:
    """The (cls_token + height * width, dim) float32 table, or the CLI's failure (exit 1) when the core refuses."""
    grid = Grid2d(height, width, dim, base, 1 if cls_token else 0)
    size = _lib.size_t(0)
    status = _lib.lib.pe_table_2d_scratch_size(ctypes.byref(grid), ctypes.byref(size))
    out = np.empty((height * width + (1 if cls_token else 0), dim), dtype=np.float32)
    if status == 0:
        keep, scratch = aligned_bytes(size.value)
        status = _lib.lib.pe_table_2d(ctypes.byref(grid), out.ctypes.data, out.size, scratch, size.value)
    if status != 0:
        fail(_lib.lib.pe_status_str(status).decode("utf-8"), 1)
    return out


def run(given: Given, write: Callable[[bytes], None]) -> None:
    span = "an integer from 1 to 65536"
    height = count_option(given, "--height", None, 1, 65536, span)
    width = count_option(given, "--width", None, 1, 65536, span)
    dim = count_option(given, "--dim", None, 4, 65536, "a multiple of 4 from 4 to 65536")
    if dim % 4:
        fail(f"--dim must be a multiple of 4 from 4 to 65536; got {given['--dim']}")
    base_text = given.get("--base")
    base = 10000.0 if base_text is None else parse_decimal(base_text)
    if base is None or not 1 < base <= 1e300:
        fail(f"--base must be above 1 and at most 1e300; got {base_text}")
    cls = flag_on(given, "--cls-token")
    dtype_option(given, ["float32"], "float32 (the table's type)")
    fmt = format_option(given, ["text", "csv", "json", "npy", "f32", "raw"], "text, csv, json, npy, f32 or raw")
    kernels_option(given)
    rows = height * width + (1 if cls else 0)
    if rows * dim > MAX_FLOATS:
        fail(f"the table has {rows * dim} values, more than one call makes (2^28): ask for a smaller grid")
    values = table_2d(height, width, dim, base, cls)
    write(prologue(fmt, rows, dim))
    if fmt in ("npy", "f32", "raw"):
        write(values.astype("<f4").tobytes())
    else:
        write(format_rows(fmt, values, 0, 0).encode())
    write(epilogue(fmt, rows))
