"""`python -m posenc config FILE`: what every layer of a model uses, read by the core
(pe_config_layer_read, then pe_config_read for each layer's layer type); the bytes of
src/cli/config_command.c and src/js/cli/config.js. Layers with one description share a line."""

from __future__ import annotations

import ctypes
from typing import Callable, List, Tuple

from . import _lib
from ._cli_args import Given, fail
from ._cli_config_option import read_config_text
from ._cli_format import format_exp
from ._cli_input import MAX_CONFIG_BYTES, read_input
from ._cli_options import COMMON_HELP, format_option

USAGE = f"""usage: posenc config FILE [options]

Prints what every layer of the model whose config.json is FILE uses for positions, read as HF
transformers reads the file: RoPE (base, head and rotary dims, layout, scaling), ALiBi, relative
buckets, learned or sinusoidal tables, or none (NoPE attention, or no attention: Mamba, linear
attention); each layer's kind and key/value heads; and the keys that change nothing.

  --format F    text (layers with one description on one line) or json (one object a layer)
{COMMON_HELP}
examples:
  posenc config config.json
  posenc config gemma3.json --format json --output layers.json
"""
OPTIONS = ["--format", "--output"]
FLAGS: list = []
OPERAND = "FILE"


class ConfigLayer(ctypes.Structure):
    """pe_config_layer."""

    _fields_ = [("layers", _lib.u32), ("kv_heads", _lib.u32), ("positions", _lib.enum),
                ("attention_chunk", _lib.u32), ("sliding_window", _lib.u32), ("sliding_bidirectional", _lib.u32),
                ("query_scale_beta", ctypes.c_double), ("query_scale_length", ctypes.c_double),
                ("query_scale_shift", _lib.u32), ("kind", ctypes.c_char * 24), ("layer_type", ctypes.c_char * 24)]


_lib.lib.pe_config_layer_read.restype = _lib.enum
_lib.lib.pe_config_layer_read.argtypes = [ctypes.c_char_p, _lib.size_t, _lib.u32, ctypes.POINTER(ConfigLayer),
                                          ctypes.c_char_p, _lib.size_t]
SCALINGS = ["default", "linear", "dynamic", "yarn", "llama3"]
KINDS = ["", "rope", "alibi", "sinusoidal", "learned", "relative", "none"]


def _number(v: float) -> str:
    """Whole numbers plainly, others with 17 significant digits."""
    return f"{v:.0f}" if -1e15 < v < 1e15 and v == int(v) else format_exp(v, 16)


class _Fields:
    """One description: text " name value" or json ",\"name\":value" pieces."""

    def __init__(self, json: bool) -> None:
        self.json = json
        self.parts: List[str] = []

    def field(self, name: str, v: float) -> None:
        self.parts.append((f',"{name}":' if self.json else f" {name} ") + _number(v))

    def word(self, name: str, v: str) -> None:
        self.parts.append(f',"{name}":"{v}"' if self.json else f" {name} {v}")

    def raw(self, json_text: str, text: str) -> None:
        self.parts.append(json_text if self.json else text)


def _rope(f: _Fields, c: _lib.Config) -> None:
    r = c.rope
    s = r.scaling
    f.field("base", r.base)
    f.field("head_dim", r.head_dim)
    f.field("rotary_dim", r.rotary_dim)
    f.word("layout", "interleaved" if r.layout == 0 else "half")
    f.word("scaling", "longrope" if c.longrope else SCALINGS[s.type])
    if c.longrope:
        f.field("factor", c.longrope_factor)
        f.field("original_max_position_embeddings", s.original_max_position_embeddings)
        if c.longrope_attention_factor != 0:
            f.field("attention_factor", c.longrope_attention_factor)
    elif s.type != 0:
        f.field("factor", s.factor)
        if SCALINGS[s.type] != "linear":
            f.field("original_max_position_embeddings", s.original_max_position_embeddings)
        if SCALINGS[s.type] == "llama3":
            f.field("low_freq_factor", s.low_freq_factor)
            f.field("high_freq_factor", s.high_freq_factor)
        if SCALINGS[s.type] == "yarn":
            for key in ("beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim"):
                if getattr(s, key) != 0:
                    f.field(key, getattr(s, key))
            if s.no_truncate:
                f.raw(',"truncate":false', " truncate false")
    if c.mrope_sections:
        listed = ",".join(str(v) for v in list(c.mrope_section)[: c.mrope_sections])
        f.raw(f',"mrope_section":[{listed}]', f" mrope_section {listed}")
        if c.mrope_interleaved:
            f.raw(',"mrope_interleaved":true', " mrope_interleaved true")


def _scheme(f: _Fields, layer: ConfigLayer, c: _lib.Config) -> None:
    if layer.positions != 0:
        f.word("scheme", "none")
        f.word("none", "nope" if layer.positions == 1 else "no-attention")
        return
    f.word("scheme", KINDS[c.kind])
    if c.kind == 1:
        _rope(f, c)
    elif c.kind == 2:
        f.field("heads", c.heads)
    elif c.kind == 5 and c.shaw:
        f.word("relative", "shaw")
        f.field("max_relative", c.max_relative)
    elif c.kind == 5:
        f.word("relative", "t5")
        f.field("buckets", c.num_buckets)
        f.field("max_distance", c.max_distance)
    if c.kind in (3, 4):
        f.field("dim", c.hidden_size)
        f.field("rows", c.max_positions)
        f.field("offset", c.position_offset)
    if c.kind == 3:
        f.word("layout", "interleaved" if c.layout == 0 else "split")
        f.word("frequencies", "paper" if c.frequencies == 0 else "tensor2tensor")


def _query_scale(layer: ConfigLayer, as_json: bool) -> str:
    """The layer's query scale: json {beta, length, shift}, text 1 + B ln(1 + floor((p + S) / L))."""
    beta, length, shift = _number(layer.query_scale_beta), _number(layer.query_scale_length), layer.query_scale_shift
    if as_json:
        return f',"query_scale":{{"beta":{beta},"length":{length},"shift":{shift}}}'
    step = f"(p + {shift}) / {length}" if shift else f"p / {length}"
    return f" query_scale 1 + {beta} ln(1 + floor({step}));"


def _layer(text: bytes, index: int, keys: ctypes.Array) -> Tuple[int, ConfigLayer]:
    layer = ConfigLayer()
    status = _lib.lib.pe_config_layer_read(text, len(text), index, ctypes.byref(layer), keys, len(keys))
    return status, layer


def _ranges(indices: List[int]) -> str:
    """"0-3,5,7-9" of sorted indices."""
    parts = []
    k = 0
    while k < len(indices):
        end = k
        while end + 1 < len(indices) and indices[end + 1] == indices[end] + 1:
            end += 1
        parts.append(f"{indices[k]}-{indices[end]}" if end > k else f"{indices[k]}")
        k = end + 1
    return ",".join(parts)


def run(given: Given, write: Callable[[bytes], None]) -> None:
    fmt = format_option(given, ["text", "json"], "text or json")
    path = given.get("FILE")
    if path is None:
        fail("config needs a FILE: a model's config.json (see posenc config --help)")
    text = read_input("config", "a config.json", path, MAX_CONFIG_BYTES)
    keys = ctypes.create_string_buffer(8 * len(text) + 256)
    status, first = _layer(text, 0, keys)
    if status != 0:
        if _lib.lib.pe_status_name(status) == b"PE_ERR_CONFIG":
            lines = keys.value.decode("utf-8", "replace").split("\n")
            fail(f"config key '{lines[0]}' {lines[1] if len(lines) > 1 else ''}", 1)
        fail(_lib.lib.pe_status_str(status).decode("utf-8"), 1)
    as_json = fmt == "json"
    descs: List[str] = []
    ignored = None
    for i in range(first.layers):
        status, layer = _layer(text, i, keys)
        if status != 0:
            fail(_lib.lib.pe_status_str(status).decode("utf-8"), 1)
        f = _Fields(as_json)
        config = _lib.Config()
        if layer.positions == 0:
            reading = read_config_text(text, layer.layer_type.decode() or None)
            config = reading.config
            if ignored is None:  # the keys that change nothing: the read of the first layer with positions
                ignored = reading.lines
        kind = layer.kind.decode()
        head = f'"kind":"{kind}","kv_heads":{layer.kv_heads}' if as_json else f"{kind}; kv_heads {layer.kv_heads};"
        if layer.attention_chunk:  # Llama 4's chunked_attention layers
            head += f',"attention_chunk":{layer.attention_chunk}' if as_json else f" attention_chunk {layer.attention_chunk};"
        if layer.sliding_window:  # the layer's attention window
            head += f',"sliding_window":{layer.sliding_window}' if as_json else f" sliding_window {layer.sliding_window};"
        if layer.sliding_bidirectional:  # ModernBERT's two-sided window
            head += ',"sliding_bidirectional":1' if as_json else " sliding_bidirectional 1;"
        if layer.query_scale_length > 0:  # Ministral 3's and Llama 4's queries scaled by position
            head += _query_scale(layer, as_json)
        _scheme(f, layer, config)
        descs.append(head + "".join(f.parts))
    ignored = ignored or []
    if as_json:
        rows = "".join(f'    {{"index":{i},{d}}}{"," if i + 1 < len(descs) else ""}\n' for i, d in enumerate(descs))
        listed = ",".join(f'"{k}"' for k in ignored)
        write(f'{{\n  "layers": [\n{rows}  ],\n  "ignored": [{listed}]\n}}\n'.encode())
        return
    done = [False] * len(descs)
    out = []
    for i, desc in enumerate(descs):
        if done[i]:
            continue
        same = [k for k in range(i, len(descs)) if not done[k] and descs[k] == desc]
        for k in same:
            done[k] = True
        out.append(f"layer{'s' if len(same) > 1 else ''} {_ranges(same)}: {desc}\n")
    write(("".join(out) + f"ignored: {', '.join(ignored)}\n").encode())
