"""The RoPE description given by flags instead of --config (`posenc rope --head-dim 128 --base 500000
--scaling llama3 ...`), with the checks and messages of src/js/cli/rope-flags.js and
src/cli/rope_flags_option.c. The parameters are HF's rope_scaling keys spelled as flags."""

from __future__ import annotations

import math
import re
from typing import Optional

from ._cli_args import Given, fail, parse_count, parse_decimal
from ._cli_options import count_option

# The description flags, in the order they are checked (from --factor on: the scaling's parameters).
DESCRIPTION_OPTIONS = ["--head-dim", "--rotary-dim", "--base", "--scaling", "--factor",
                       "--original-max-position-embeddings", "--beta-fast", "--beta-slow", "--attention-factor",
                       "--mscale", "--mscale-all-dim", "--low-freq-factor", "--high-freq-factor", "--truncate"]
_YARN = ["--factor", "--original-max-position-embeddings", "--beta-fast", "--beta-slow", "--attention-factor",
         "--mscale", "--mscale-all-dim", "--truncate"]
# The --scaling types and the parameters each reads.
READS = {
    "default": [],
    "linear": ["--factor"],
    "dynamic": ["--factor", "--original-max-position-embeddings"],
    "yarn": _YARN,
    "llama3": ["--factor", "--original-max-position-embeddings", "--low-freq-factor", "--high-freq-factor"],
}
FLOAT_MAX = 3.4028234663852886e38


def description_given(given: Given) -> Optional[str]:
    """The first description flag given, or None."""
    return next((name for name in DESCRIPTION_OPTIONS if name in given), None)


def _number(given: Given, name: str, low: float, above: bool, what: str) -> Optional[float]:
    text = given.get(name)
    if text is None:
        return None
    v = parse_decimal(text)
    if v is None or not math.isfinite(v) or v < low or (above and v == low):
        fail(f"{name} must be {what}; got {text}")
    return v


def rope_flags(given: Given) -> dict:
    """{'head_dim', 'rotary_dim', 'base', 'scaling'} (scaling: an HF rope_scaling dict or None)."""
    head_dim = count_option(given, "--head-dim", None, 2, 65536, "an integer from 2 to 65536")
    rotary_text = given.get("--rotary-dim")
    if rotary_text is None and head_dim % 2:
        fail(f"--head-dim must be even (RoPE turns pairs) unless --rotary-dim is given; got {head_dim}")
    rotary_dim = head_dim
    if rotary_text is not None:
        rotary_dim = parse_count(rotary_text)
        if rotary_dim is None or rotary_dim < 2 or rotary_dim > head_dim or rotary_dim % 2:
            fail(f"--rotary-dim must be an even integer from 2 to --head-dim ({head_dim}); got {rotary_text}")
    base = _number(given, "--base", 1, True, "a number above 1 and at most 1e300")
    base = 10000.0 if base is None else base
    if base > 1e300:
        fail(f"--base must be a number above 1 and at most 1e300; got {given['--base']}")
    kind = given.get("--scaling", "default")
    if kind not in READS:
        fail(f"--scaling must be default, linear, dynamic, yarn or llama3; got {kind}")
    for name in DESCRIPTION_OPTIONS[4:]:
        if name in given and name not in READS[kind]:
            fail(f"{name} is not a parameter of --scaling {kind} ({', '.join(READS[kind]) or 'it has none'})")
    rope = {"head_dim": head_dim, "rotary_dim": rotary_dim, "base": base, "scaling": None}
    if kind == "default":
        return rope
    if "--factor" not in given:
        fail(f"--factor is required with --scaling {kind} (a number at least 1)")
    scaling: dict = {"rope_type": kind, "factor": _number(given, "--factor", 1, False, "a number at least 1")}
    rope["scaling"] = scaling
    if kind == "linear":
        return rope
    original = given.get("--original-max-position-embeddings")
    if original is None:
        fail(f"--original-max-position-embeddings is required with --scaling {kind} (the context length the "
             "model was trained with)")
    if not re.fullmatch(r"[0-9]+", original) or not 1 <= int(original) <= 4294967295:
        fail(f"--original-max-position-embeddings must be an integer from 1 to 4294967295; got {original}")
    scaling["original_max_position_embeddings"] = int(original)
    if kind == "dynamic" and rotary_dim < 4:
        fail(f"--scaling dynamic needs a rotary dimension of at least 4; got {rotary_dim}")
    if kind == "yarn":
        beta_fast = _number(given, "--beta-fast", 0, False, "a number at least 0 (0: 32)")
        beta_slow = _number(given, "--beta-slow", 0, False, "a number at least 0 (0: 1)")
        attention = _number(given, "--attention-factor", 0, True, "a number above 0 and below 3.4e38")
        mscale = _number(given, "--mscale", -math.inf, False, "a finite number")
        mscale_all_dim = _number(given, "--mscale-all-dim", -math.inf, False, "a finite number")
        if attention is not None and attention > FLOAT_MAX:
            fail(f"--attention-factor must be a number above 0 and below 3.4e38; got {given['--attention-factor']}")
        # 0 is the core's "use HF's default" for the betas, as absent.
        if beta_fast:
            scaling["beta_fast"] = beta_fast
        if beta_slow:
            scaling["beta_slow"] = beta_slow
        if attention is not None:
            scaling["attention_factor"] = attention
        if mscale is not None:
            scaling["mscale"] = mscale
        if mscale_all_dim is not None:
            scaling["mscale_all_dim"] = mscale_all_dim
        if given.get("--truncate") == "false":
            scaling["truncate"] = False
    if kind == "llama3":
        for name in ("--low-freq-factor", "--high-freq-factor"):
            if name not in given:
                fail(f"{name} is required with --scaling llama3 (a number above 0)")
        low = _number(given, "--low-freq-factor", 0, True, "a number above 0")
        scaling["low_freq_factor"] = low
        high = _number(given, "--high-freq-factor", low, True, "a number above --low-freq-factor")  # type: ignore
        scaling["high_freq_factor"] = high
    return rope
