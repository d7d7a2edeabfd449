"""`python -m posenc table`: the sinusoidal table, the bytes of src/js/cli/table.js."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ._cli_args import MAX_POSITION, Given, fail, parse_count, parse_decimal
from ._cli_format import epilogue, format_rows, prologue
from ._cli_options import COMMON_HELP, TABLE_FORMATS_HELP, dtype_format_check, dtype_option, format_option, \
    kernels_option, widen16
from .sinusoid import PRESETS, sinusoidal

USAGE = f"""usage: posenc table --length N --dim D [options]

Prints the sinusoidal positional-encoding table of positions offset ... offset+N-1
(one row per position, D columns).

  --length N    number of positions, 0 to 2147483648 (required)
  --dim D       embedding size, even, 2 to 65536 (required)
  --base T      frequency base, above 1 and at most 1e300 (default 10000)
  --offset P    first position (default 0); offset + length <= 2147483648
  --layout L    interleaved [s0 c0 s1 c1 ...] or split [s0 s1 ... c0 c1 ...] (default interleaved)
  --frequencies F  paper, w_i = T^(-2i/D), or tensor2tensor, w_i = T^(-i/(D/2-1)) (default paper)
  --preset P    vaswani, tensor2tensor, fairseq or marian: sets --layout and --frequencies
  --dtype T     float32 (default), float16 or bfloat16: each value the nearest of that type
{TABLE_FORMATS_HELP}{COMMON_HELP}
examples:
  posenc table --length 10 --dim 4
  posenc table --length 2048 --dim 512 --format npy --output pe.npy
  posenc table --length 8 --dim 16 --preset tensor2tensor --format csv
  posenc table --length 4096 --dim 128 --dtype bfloat16 --format raw --output pe.bf16
"""
OPTIONS = ["--length", "--dim", "--base", "--offset", "--layout", "--format", "--kernels", "--frequencies",
           "--preset", "--dtype", "--output"]
FLAGS: list = []
OPERAND = None

CHUNK_FLOATS = 65536
BLOCK = 64  # the core's seed interval: chunks start on its multiples


def run(given: Given, write: Callable[[bytes], None]) -> None:
    if "--dim" not in given:
        fail("--dim is required (the embedding size, an even number from 2 to 65536)")
    if "--length" not in given:
        fail("--length is required (the number of positions)")
    dim = parse_count(given["--dim"])
    if dim is None or dim < 2 or dim > 65536:
        fail(f"--dim must be an even integer from 2 to 65536; got {given['--dim']}")
    if dim % 2:
        fail(f"--dim must be an even number (sines and cosines come in pairs); got {given['--dim']}")
    length = parse_count(given["--length"])
    if length is None:
        fail(f"--length must be an integer from 0 to 2147483648; got {given['--length']}")
    offset_text = given.get("--offset", "0")
    offset = parse_count(offset_text)
    if offset is None:
        fail(f"--offset must be an integer from 0 to 2147483648; got {offset_text}")
    if offset + length > MAX_POSITION:
        fail(f"--offset + --length must be at most 2147483648; got {offset} + {length}")
    base_text = given.get("--base", "10000")
    base = parse_decimal(base_text)
    if base is None or not 1 < base <= 1e300:
        fail(f"--base must be above 1 and at most 1e300; got {base_text}")
    layout, frequencies, preset = given.get("--layout"), given.get("--frequencies"), given.get("--preset")
    if preset is not None:
        if preset not in PRESETS:
            fail(f"--preset must be vaswani, tensor2tensor, fairseq or marian; got {preset}")
        p_layout, p_frequencies = PRESETS[preset]
        if layout is not None and layout != p_layout:
            fail(f"--layout must be {p_layout} with --preset {preset}; got {layout}")
        if frequencies is not None and frequencies != p_frequencies:
            fail(f"--frequencies must be {p_frequencies} with --preset {preset}; got {frequencies}")
        layout, frequencies = p_layout, p_frequencies
    layout = layout or "interleaved"
    if layout not in ("interleaved", "split"):
        fail(f"--layout must be interleaved or split; got {layout}")
    frequencies = frequencies or "paper"
    if frequencies not in ("paper", "tensor2tensor"):
        fail(f"--frequencies must be paper or tensor2tensor; got {frequencies}")
    fmt = format_option(given, ["text", "csv", "json", "npy", "f32", "raw"], "text, csv, json, npy, f32 or raw")
    dtype = dtype_option(given, ["float32", "float16", "bfloat16"], "float32, float16 or bfloat16")
    dtype_format_check(dtype, fmt)
    kernels_option(given)
    write(prologue(fmt, length, dim, "<f2" if dtype == "float16" else "<f4"))
    rows_per_chunk = max(BLOCK, CHUNK_FLOATS // dim)
    start, end = offset, offset + length
    while start < end:
        # Chunks end on the core's seed blocks, as the JS package's forEachChunk cuts them.
        rows = min((start + rows_per_chunk) // BLOCK * BLOCK, end) - start
        table = sinusoidal(rows, dim, base=base, offset=start, layout=layout, frequencies=frequencies, dtype=dtype)
        if fmt in ("npy", "f32", "raw"):
            write(table.astype(table.dtype.newbyteorder("<")).tobytes())  # the dtype's own little-endian bytes
        else:
            values = table if dtype == "float32" else widen16(table.view(np.uint16), dtype)
            write(format_rows(fmt, values.reshape(rows, dim), start - offset, start).encode())
        start += rows
    write(epilogue(fmt, length))
