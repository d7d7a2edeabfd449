"""`python -m posenc alibi`: ALiBi's slopes, the bytes of src/js/cli/alibi.js."""

from __future__ import annotations

from typing import Callable

from ._cli_args import Given, fail
from ._cli_config_option import read_config_option
from ._cli_format import FORMATS
from ._cli_options import COMMON_HELP, count_option, dtype_option, format_option, value_list
from .alibi import alibi_slopes

USAGE = f"""usage: posenc alibi (--heads N | --config config.json) [options]

Prints ALiBi's slopes m_h, one per head (Press et al.; BLOOM's and MPT's): the float32 nearest
2^(-8(h+1)/n), with every other slope of 2n for the heads past the largest power of two.

  --heads N     number of attention heads, 1 to 65536
  --config FILE a model's config.json (BLOOM, MPT with attn_config.alibi, ...) instead of --heads
  --dtype T     float32 (the slopes' type, the only one)
  --format F    text (one value per line), csv or json, values with 9 significant digits; or the
                (heads,) float32 array: npy (<f4), f32 or raw (little-endian float32)
{COMMON_HELP}
examples:
  posenc alibi --heads 12
  posenc alibi --config bloom.json --format json
  posenc alibi --heads 32 --format npy --output slopes.npy
"""
OPTIONS = ["--heads", "--config", "--dtype", "--format", "--output"]
FLAGS: list = []
OPERAND = None


def run(given: Given, write: Callable[[bytes], None]) -> None:
    path = given.get("--config")
    if path is not None and "--heads" in given:
        fail("give --heads or --config, not both")
    if path is None and "--heads" not in given:
        fail("--heads is required (the number of attention heads), or --config")
    heads = count_option(given, "--heads", None, 1, 65536, "an integer from 1 to 65536") if path is None else 0
    dtype_option(given, ["float32"], "float32 (the slopes' type)")
    fmt = format_option(given, FORMATS, "text, csv, json, npy, f32 or raw")
    if path is not None:
        d = read_config_option(path, None)
        if d["kind"] != "alibi":
            fail(f"the config describes a model with {d['kind']} positions, not ALiBi", 1)
        heads = d["heads"]
    write(value_list(fmt, "float32", "head", "slope", alibi_slopes(heads)))
