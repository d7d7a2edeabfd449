"""A model's config.json read by the C core (posenc.h, pe_config_read), as HF
transformers reads it: the same reading as the JS package's fromConfig, both
CLIs and the page."""

from __future__ import annotations

import ctypes
import json
import os
from typing import Any, Optional, Union

import numpy as np

from . import _lib
from .errors import PosencError, check, status_name

KINDS = {1: "rope", 2: "alibi", 3: "sinusoidal", 4: "learned", 5: "relative", 6: "none"}
SCALING_TYPES = {0: "default", 1: "linear", 2: "dynamic", 3: "yarn", 4: "llama3"}

ConfigLike = Union[dict, str, bytes, "os.PathLike[str]"]


def config_bytes(config: Any) -> bytes:
    """The config as UTF-8 JSON: a dict serialised, JSON text as given, or a file's bytes (a path)."""
    if isinstance(config, dict):
        return json.dumps(config).encode("utf-8")
    if isinstance(config, bytes):
        return config
    if isinstance(config, str) and config.lstrip().startswith("{"):
        return config.encode("utf-8")
    if isinstance(config, (str, os.PathLike)):
        try:
            with open(config, "rb") as file:
                return file.read()
        except OSError as error:
            raise PosencError("BAD_CONFIG", f"config file {os.fspath(config)!r}: {error.strerror}", "config",
                              os.fspath(config)) from None
    raise PosencError("BAD_CONFIG", "config must be a model's config.json: a dict, its JSON text or its path; got "
                      f"{type(config).__name__}", "config", config)


class _Reading:
    """One pe_config_read: the struct, the longrope factors it points into, and the keys' lines."""

    def __init__(self, config: Any, layer_type: Optional[str]) -> None:
        text = config_bytes(config)
        if layer_type is not None and (not isinstance(layer_type, str) or not layer_type or "\0" in layer_type):
            raise PosencError("BAD_LAYER_TYPE", "layer_type must be a layer type of the config such as "
                              f"'full_attention'; got {layer_type!r}", "layer_type", layer_type)
        self.factors = np.zeros(len(text) // 2 + 2, dtype=np.float64)
        keys = ctypes.create_string_buffer(8 * len(text) + 256)
        self.config = _lib.Config()
        self.status = _lib.lib.pe_config_read(
            text, len(text), None if layer_type is None else layer_type.encode("utf-8"), self.factors.ctypes.data,
            self.factors.size, ctypes.byref(self.config), keys, len(keys))
        self.lines = [line for line in keys.value.decode("utf-8", "replace").split("\n") if line]
        self.name = status_name(self.status)
        self.layer_type = layer_type

    def raise_refusal(self) -> None:
        """A PosencError naming the config key (or the layer types) for a refused reading."""
        if self.name == "PE_ERR_LAYER_TYPE":
            if not self.lines:
                raise PosencError("BAD_LAYER_TYPE", "layer_type is not used: the config's RoPE is the same for every "
                                  f"layer; got {self.layer_type!r}", "layer_type", self.layer_type, self.name)
            raise PosencError("BAD_LAYER_TYPE", "layer_type must be one of the config's layer types ("
                              + ", ".join(repr(line) for line in self.lines) + f"); got {self.layer_type!r}",
                              "layer_type", self.layer_type, self.name)
        if self.name in ("PE_ERR_CONFIG", "PE_ERR_SCALING") and len(self.lines) >= 2:
            code = "BAD_CONFIG" if self.name == "PE_ERR_CONFIG" else "BAD_SCALING"
            raise PosencError(code, f"config key '{self.lines[0]}' {self.lines[1]}", f"config.{self.lines[0]}",
                              None, self.name)
        check(self.status, "from_config")


def read(config: Any, layer_type: Optional[str]) -> _Reading:
    """A successful reading (PosencError otherwise)."""
    reading = _Reading(config, layer_type)
    if reading.status != 0:
        reading.raise_refusal()
    return reading


def _scaling(c: _lib.Config, factors: np.ndarray) -> Optional[dict]:
    """The HF scaling dict posenc's rope takes, rebuilt from the core's numbers (only the keys that matter)."""
    s = c.rope.scaling
    half = c.rope.rotary_dim // 2
    mrope = {"mrope_section": list(c.mrope_section)[: c.mrope_sections]} if c.mrope_sections else {}
    if c.longrope:
        d = {
            "rope_type": "longrope",
            "short_factor": factors[:half].tolist(),
            "long_factor": factors[half : 2 * half].tolist(),
            "original_max_position_embeddings": s.original_max_position_embeddings,
            "factor": c.longrope_factor,
        }
        if c.longrope_attention_factor != 0:
            d["attention_factor"] = c.longrope_attention_factor
        return {**d, **mrope}
    kind = SCALING_TYPES[s.type]
    if kind == "default":
        return {"rope_type": "default", **mrope} if mrope else None
    d = {"rope_type": kind, "factor": s.factor}
    if kind != "linear":
        d["original_max_position_embeddings"] = s.original_max_position_embeddings
    if kind == "llama3":
        d.update(low_freq_factor=s.low_freq_factor, high_freq_factor=s.high_freq_factor)
    if kind == "yarn":
        for key in ("beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim"):
            if getattr(s, key) != 0:
                d[key] = getattr(s, key)
        if s.no_truncate:
            d["truncate"] = False
    return {**d, **mrope}


def _describe(reading: _Reading) -> dict:
    c = reading.config
    kind = KINDS[c.kind]
    d: dict[str, Any] = {"kind": kind}
    for key, value in (("heads", c.heads), ("hidden_size", c.hidden_size), ("max_positions", c.max_positions)):
        if value:
            d[key] = value
    if kind == "rope":
        d["rope"] = {
            "head_dim": c.rope.head_dim,
            "rotary_dim": c.rope.rotary_dim,
            "base": c.rope.base,
            "layout": "interleaved" if c.rope.layout == 0 else "half",
            "scaling": _scaling(c, reading.factors),
        }
    elif kind == "relative":
        if c.shaw:
            d.update(scheme="shaw", max_relative=c.max_relative)
        else:
            d.update(scheme="t5", num_buckets=c.num_buckets, max_distance=c.max_distance,
                     encoder_decoder=c.encoder_decoder == 1)
    elif kind == "sinusoidal":
        d.update(dim=c.hidden_size, layout="interleaved" if c.layout == 0 else "split",
                 frequencies="paper" if c.frequencies == 0 else "tensor2tensor", position_offset=c.position_offset)
    elif kind == "learned":
        d.update(dim=c.hidden_size, position_offset=c.position_offset)
    return d


def from_config(config: ConfigLike, layer_type: Optional[str] = None) -> dict:
    """What position scheme a model uses, read from its config.json as HF transformers reads it.

    Args:
        config: the config as a dict (json.load of the file), its JSON text, or a path to the file.
        layer_type: for a RoPE that differs by layer type (Gemma 3), the one to describe.

    Returns:
        A dict: ``kind`` ('rope', 'alibi', 'relative', 'learned' or 'sinusoidal'), ``heads``,
        ``hidden_size``, ``max_positions`` when the config has them, then per kind
        ``rope`` (head_dim, rotary_dim, base, layout, scaling: the HF dict posenc's rope takes) or
        ``layer_types`` (one such dict per layer type), ``slopes`` (ALiBi, float32), ``scheme``,
        ``num_buckets``, ``max_distance``, ``encoder_decoder`` (T5) or ``max_relative`` (Shaw),
        ``dim``, ``layout``, ``frequencies``, ``position_offset``; and ``ignored``, the config keys
        not used. The same facts as the JS package's fromConfig, with snake_case names.

    Raises:
        PosencError: BAD_CONFIG (not a JSON object, or no scheme posenc knows; the message names the
            key), BAD_SCALING (a RoPE key that changes the math and is not understood),
            BAD_LAYER_TYPE.
    """
    first = _Reading(config, layer_type)
    if first.status != 0:
        if first.name == "PE_ERR_LAYER_TYPE" and layer_type is None:
            layer_types = {}
            last = first
            for name in first.lines:
                last = read(config, name)
                layer_types[name] = _describe(last)["rope"]
            common = {k: v for k, v in _describe(last).items() if k != "rope"}
            return {**common, "layer_types": layer_types, "ignored": last.lines}
        first.raise_refusal()
    d = _describe(first)
    if d["kind"] == "alibi":
        from .alibi import alibi_slopes

        d["slopes"] = alibi_slopes(d["heads"])
    d["ignored"] = first.lines
    return d
