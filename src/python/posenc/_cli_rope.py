"""`python -m posenc rope`: a model's RoPE frequencies, attention factor or cos/sin cache rows (plain,
mrope or 2-D positions), from --config or flags; the bytes of src/js/cli/rope.js."""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from ._cli_args import MAX_POSITION, Given, fail
from ._cli_config_option import read_config_option
from ._cli_format import FORMATS, epilogue, format_rows, prologue
from ._cli_options import COMMON_HELP, bits16, count_option, dtype_format_check, dtype_option, format_option, \
    narrow_values, value_list
from ._cli_rope_axes import rope_axes_options
from ._cli_rope_flags import DESCRIPTION_OPTIONS, description_given, rope_flags
from .rope import rope_cos_sin, rope_frequencies

USAGE = f"""usage: posenc rope (--config config.json | --head-dim D [RoPE flags]) [options]

Prints the RoPE frequencies w_i (one per rotated pair) of a model's config.json, read as HF
transformers reads it (rope_theta, rope_scaling / rope_parameters, partial_rotary_factor, ...),
or of the RoPE the flags below describe, its attention factor, or its cos/sin cache rows.

  --config FILE      a model's config.json (or the RoPE flags, not both)
  --layer-type T     the layer type, when the RoPE differs by layer type (Gemma 3: full_attention
                     or sliding_attention)
  --length N         positions offset ... offset+N-1 (default 0); dynamic NTK scales for
                     L = offset + N
  --offset P         first position (default 0)
  --position-ids IDS the rows' positions instead of --offset/--length, one row of ids per axis:
                     0,1,2 (plain RoPE), T;H;W rows for mrope (0,1,1;0,0,1;0,1,0), R;C rows for
                     --vision, or @FILE with one row per line; whole numbers below 2^31,
                     separated by ',' or blanks; dynamic NTK scales for L = the largest + 1
  --mrope-section S  Qwen2-VL's mrope: pairs per axis T,H,W summing to rotary_dim/2 (16,24,24
                     for head_dim 128); the config's rope_scaling.mrope_section is used without it
  --vision           2-D RoPE of vision patches (Qwen2-VL's vision tower): the first half of the
                     pairs turn by the patch's row, the second by its column
  --what W           frequencies (default), attention-factor, or cos-sin: one line per row,
                     cos of the rotary_dim/2 pairs then their sin, times the attention factor (the
                     package's ropeCosSin; with axes, HF's cos/sin after the section split)
  --dtype T          float64 (default: the core's values), float32, float16 or bfloat16: each
                     value rounded once to that type; cos-sin: float32 (default: the products
                     rope multiplies by), float16 or bfloat16
  --format F         text (one value per line), csv or json; 17 significant digits for float64,
                     9 for the others; npy (a 1-D array: <f8, <f4 or <f2 by --dtype), f32 (with
                     --dtype float32) or raw (the --dtype's own little-endian bytes); cos-sin as
                     `posenc table` prints rows (text 4 decimals, csv and json 9; csv's first column
                     is the position, or the row with --position-ids), npy (float32, or float16's
                     <f2), f32 (float32) or raw (the --dtype's own bytes)

RoPE flags (instead of --config; the parameters are HF's rope_scaling keys):
  --head-dim D       the head dimension, 2 to 65536 (required without --config)
  --rotary-dim R     the rotated dimensions, even, 2 to D (default D)
  --base B           rope_theta, above 1 and at most 1e300 (default 10000)
  --scaling T        default (none), linear, dynamic, yarn or llama3 (default default)
  --factor F         linear, dynamic, yarn, llama3: the scaling factor, at least 1
  --original-max-position-embeddings L
                     dynamic, yarn, llama3: the pre-training context length
  --beta-fast B, --beta-slow B, --attention-factor A, --mscale M, --mscale-all-dim M,
  --truncate, --no-truncate
                     yarn's parameters (HF's defaults when absent)
  --low-freq-factor L, --high-freq-factor H
                     llama3's parameters (required with it)

{COMMON_HELP}
examples:
  posenc rope --config config.json --length 8192 --format csv
  posenc rope --head-dim 128 --base 500000 --scaling linear --factor 4
  posenc rope --head-dim 128 --base 500000 --format npy --output inv_freq.npy
  posenc rope --head-dim 64 --what cos-sin --length 2048 --format npy --output cos_sin.npy
  posenc rope --config qwen2-vl.json --what cos-sin --position-ids '0,1,1;0,0,1;0,1,0'
"""
OPTIONS = ["--config", "--layer-type"] + [n for n in DESCRIPTION_OPTIONS if n != "--truncate"] + [
    "--length", "--offset", "--position-ids", "--mrope-section", "--what", "--dtype", "--format", "--output"]
FLAGS = ["--vision", "--truncate"]
OPERAND = None

MAX_COS_VALUES = 16777216  # 2^24 a run: the cache is built whole before it is printed


def _without_sections(scaling: Optional[dict]) -> Optional[dict]:
    """The scaling without mrope's keys (the axes carry them); None when nothing else is left."""
    if scaling is None:
        return None
    rest = {k: v for k, v in scaling.items() if k not in ("mrope_section", "mrope_interleaved")}
    return None if all(k == "rope_type" and v == "default" for k, v in rest.items()) else rest


def _cos_sin(spelled: dict, axes: dict, rows: dict, dtype: str, fmt: str, write: Callable[[bytes], None]) -> None:
    r = spelled["rotary_dim"] or spelled["head_dim"]
    half = r // 2
    if rows["length"] * half > MAX_COS_VALUES:
        fail("--what cos-sin prints at most 16777216 cos values (rows x rotary_dim/2) in one run; got "
             f"{rows['length']} rows x {half} pairs")
    where = ({"offset": rows["offset"], "length": rows["length"]} if rows["positions"] is None
             else {"positions": rows["positions"]})
    # float32: the core's own products; the others rounded once from its float64 values.
    asked = "float32" if dtype == "float32" else "float64"
    cos, sin = rope_cos_sin(**spelled, **axes, **where, dtype=asked)
    lines = np.concatenate([cos, sin], axis=1).reshape(rows["length"], r)
    write(prologue(fmt, rows["length"], r, "<f2" if dtype == "float16" else "<f4"))
    if asked == "float64" and fmt in ("npy", "raw"):
        write(bits16(lines, dtype).astype("<u2").tobytes())  # the 16-bit type's own bits
    else:
        values = lines if asked == "float32" else narrow_values(dtype, lines).astype(np.float32)
        if fmt in ("npy", "f32", "raw"):
            write(values.astype("<f4").tobytes())
        else:
            position = rows["offset"] if rows["positions"] is None else 0
            for start in range(0, rows["length"], 4096):
                write(format_rows(fmt, values[start : start + 4096], start, position + start).encode())
    write(epilogue(fmt, rows["length"]))


def run(given: Given, write: Callable[[bytes], None]) -> None:
    path = given.get("--config")
    flag = description_given(given)
    if path is not None and flag is not None:
        fail(f"give --config or {flag}, not both (the config sets it)")
    if path is None and flag is None:
        fail("--config or --head-dim is required (a model's config.json, or the RoPE by flags: see posenc rope "
             "--help)")
    if path is None and "--layer-type" in given:
        fail("--layer-type picks a layer type of --config, so it needs --config")
    span = "an integer from 0 to 2147483648"
    length = count_option(given, "--length", "0", 0, MAX_POSITION, span)
    offset = count_option(given, "--offset", "0", 0, MAX_POSITION, span)
    if offset + length > MAX_POSITION:
        fail(f"--offset + --length must be at most 2147483648; got {offset} + {length}")
    what = given.get("--what", "frequencies")
    if what not in ("frequencies", "attention-factor", "cos-sin"):
        fail(f"--what must be frequencies, attention-factor or cos-sin; got {what}")
    if what == "cos-sin":
        dtype = dtype_option(given, ["float32", "float16", "bfloat16"],
                             "float32, float16 or bfloat16 with --what cos-sin")
    else:
        dtype = dtype_option(given, ["float64", "float32", "float16", "bfloat16"],
                             "float64, float32, float16 or bfloat16")
    fmt = format_option(given, FORMATS, "text, csv, json, npy, f32 or raw")
    dtype_format_check(dtype, fmt)
    if path is None:
        d = {"kind": "rope", "rope": rope_flags(given), "longrope": False}
    else:
        d = read_config_option(path, given.get("--layer-type"))
    if d["kind"] != "rope":
        see = "alibi" if d["kind"] == "alibi" else "rope --help"
        fail(f"the config describes a model with {d['kind']} positions, not RoPE (see posenc {see} --config)", 1)
    if d["longrope"]:
        fail("rope_type 'longrope' is not supported yet: HF's short/long factors arrive with the RoPE variants of "
             "issue 12", 1)
    rope = d["rope"]
    scaling = rope["scaling"]
    scaled = scaling is not None and scaling.get("rope_type") != "default"
    axes, rows = rope_axes_options(given, rope["rotary_dim"], scaling, scaled, offset, length)
    spelled = {"head_dim": rope["head_dim"], "rotary_dim": rope["rotary_dim"], "base": rope["base"],
               "scaling": _without_sections(scaling)}
    if what == "cos-sin":
        _cos_sin(spelled, axes, rows, dtype, fmt, write)
        return
    frequencies, factor = rope_frequencies(**spelled, **axes, length=rows["end"])
    values = frequencies if what == "frequencies" else np.array([factor])
    name = "frequency" if what == "frequencies" else "attention_factor"
    index = "pair" if what == "frequencies" else "index"
    write(value_list(fmt, dtype, index, name, narrow_values(dtype, values)))
