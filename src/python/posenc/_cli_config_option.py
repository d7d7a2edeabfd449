"""`--config FILE` of the rope and alibi subcommands of `python -m posenc`: the
file read whole and interpreted by the core (pe_config_read), with the messages
of src/cli/config_option.c and src/js/cli/config-option.js."""

from __future__ import annotations

from typing import Optional

from . import _lib
from ._cli_args import fail
from ._cli_input import MAX_CONFIG_BYTES, read_input
from .config import _describe, _Reading


def config_failure(reading: _Reading, layer_type: Optional[str]) -> None:
    """The CLI's message for a refused reading (nothing when it succeeded)."""
    if reading.name in ("PE_ERR_CONFIG", "PE_ERR_SCALING"):
        key = reading.lines[0] if reading.lines else ""
        reason = reading.lines[1] if len(reading.lines) > 1 else ""
        fail(f"config key '{key}' {reason}", 1)
    if reading.name == "PE_ERR_LAYER_TYPE":
        listed = ", ".join(f"'{line}'" for line in reading.lines)
        if layer_type is not None and not reading.lines:
            fail(f"--layer-type is not used: the config's RoPE is the same for every layer; got {layer_type}")
        if layer_type is not None:
            fail(f"--layer-type must be one of the config's layer types ({listed}); got {layer_type}")
        fail(f"--layer-type is required: the config's RoPE differs by layer type ({listed})")
    if reading.status != 0:
        fail(_lib.lib.pe_status_str(reading.status).decode("utf-8"), 1)


def read_config_text(text: bytes, layer_type: Optional[str]) -> _Reading:
    """pe_config_read of the config's bytes for layer_type, or the CLI's failure."""
    reading = _Reading(text, layer_type)
    config_failure(reading, layer_type)
    return reading


def read_config_option(path: str, layer_type: Optional[str]) -> dict:
    """The description of the config at path (posenc.from_config's dict, plus 'longrope'), or the CLI's failure."""
    reading = read_config_text(read_input("--config", "a config.json", path, MAX_CONFIG_BYTES), layer_type)
    described = _describe(reading)
    described["longrope"] = bool(reading.config.longrope)
    return described
