"""RoPE (rotary position embeddings) and its HF scalings: posenc.h's RoPE plans
(pe_rope_plan_init, pe_rope_plan_apply, pe_rope_plan_cos_sin) and
pe_rope_frequencies. x is rotated in place, as float32, float16 or bfloat16."""

from __future__ import annotations

import ctypes
from typing import Any, Optional

import numpy as np

from . import _lib
from ._arrays import (
    DTYPES,
    aligned_bytes,
    check_base,
    check_dtype_name,
    check_number,
    check_whole,
    in_place,
    numpy_dtype,
    positions_array,
)
from .errors import PosencError, check, refuse
from .sinusoid import MAX_POSITION, layout_code

ORDERS = {"blhd": 0, "bhld": 1}
SCALING_TYPES = {"linear": 1, "dynamic": 2, "yarn": 3, "llama3": 4, "longrope": 5}
# Keys each rope_type reads, named as HF names them (the JS package's scaling.js).
SCALING_KEYS = {
    "default": ("mrope_section",),
    "mrope": ("mrope_section",),
    "linear": ("factor",),
    "dynamic": ("factor", "original_max_position_embeddings"),
    "yarn": ("factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "attention_factor", "mscale",
             "mscale_all_dim", "truncate"),
    "llama3": ("factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"),
    "longrope": ("short_factor", "long_factor", "original_max_position_embeddings", "attention_factor", "factor"),
}
COMMON_KEYS = ("rope_type", "type", "rope_theta")


def _scaling(scaling: Optional[dict], rotary_dim: int, keep: list) -> tuple[_lib.RopeScaling, Any, Optional[float]]:
    """(pe_rope_scaling, mrope_section or None, rope_theta or None) from an HF rope_scaling dict.
    The keys are checked here; the ranges of their values by the core (BAD_SCALING)."""
    s = _lib.RopeScaling()
    if scaling is None:
        return s, None, None
    if not isinstance(scaling, dict):
        refuse("BAD_SCALING", "scaling", "an HF rope_scaling dict such as {'rope_type': 'linear', 'factor': 2}",
               scaling)
    given = {k: v for k, v in scaling.items() if v is not None}
    kind = given.get("rope_type", given.get("type", "default"))
    if "rope_type" in given and "type" in given and given["type"] != given["rope_type"]:
        refuse("BAD_SCALING", "scaling.type", f"the same as scaling.rope_type ({given['rope_type']!r}) or left out",
               given["type"])
    if not isinstance(kind, str) or kind not in SCALING_KEYS:
        refuse("BAD_SCALING", "scaling.rope_type", " or ".join(repr(k) for k in SCALING_KEYS), kind)
    allowed = COMMON_KEYS + SCALING_KEYS[kind]
    for key in scaling:
        if key not in allowed:
            raise PosencError("BAD_SCALING", f"scaling has no key {key!r} for rope_type {kind!r}; its keys are "
                              + ", ".join(allowed), f"scaling.{key}", scaling[key])

    def number(key: str) -> float:
        value = given.get(key, 0)
        return check_number(value, f"scaling.{key}", "BAD_SCALING")

    mrope = given.get("mrope_section")
    theta = number("rope_theta") if "rope_theta" in given else None
    if kind in ("default", "mrope"):
        return s, mrope, theta
    s.type = SCALING_TYPES[kind]
    if kind != "longrope" and "factor" not in given:
        refuse("BAD_SCALING", "scaling.factor", f"given for rope_type {kind!r}: a finite number >= 1", None)
    s.factor = number("factor") if "factor" in given else 1.0
    if kind != "linear":
        if "original_max_position_embeddings" not in given:
            refuse("BAD_SCALING", "scaling.original_max_position_embeddings",
                   f"given for rope_type {kind!r}: the context length the model was trained with", None)
        s.original_max_position_embeddings = check_whole(given["original_max_position_embeddings"],
                                                         "scaling.original_max_position_embeddings", "BAD_SCALING",
                                                         1, 2**32 - 1)
    for key in ("beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim", "low_freq_factor",
                "high_freq_factor"):
        if key in given:
            setattr(s, key, number(key))
    if kind == "llama3":
        for key in ("low_freq_factor", "high_freq_factor"):
            if key not in given:
                refuse("BAD_SCALING", f"scaling.{key}", "given for rope_type 'llama3': a finite number above 0", None)
    if "truncate" in given:
        if not isinstance(given["truncate"], bool):
            refuse("BAD_SCALING", "scaling.truncate", "True or False", given["truncate"])
        s.no_truncate = 0 if given["truncate"] else 1
    if kind == "longrope":
        for key in ("short_factor", "long_factor"):
            values = np.ascontiguousarray(given.get(key, []), dtype=np.float64).reshape(-1)
            if values.size != rotary_dim // 2 or not np.all(np.isfinite(values)) or not np.all(values > 0):
                refuse("BAD_SCALING", f"scaling.{key}",
                       f"rotary_dim/2 = {rotary_dim // 2} finite numbers above 0 (one per pair)", given.get(key))
            keep.append(values)
            setattr(s, key, values.ctypes.data_as(_lib.f64p))
    return s, mrope, theta


def _xpos(xpos: Optional[dict]) -> _lib.Xpos:
    x = _lib.Xpos()
    if xpos is None:
        return x
    if not isinstance(xpos, dict):
        refuse("BAD_XPOS", "xpos", "a dict {'scale_base': 512, 'gamma': 0.4, 'center': 0, 'role': 'query'}", xpos)
    for key in xpos:
        if key not in ("scale_base", "gamma", "center", "role"):
            refuse("BAD_XPOS", f"xpos.{key}", "one of scale_base, gamma, center, role (no other key)", xpos[key])
    x.scale_base = check_number(xpos.get("scale_base", 512), "xpos.scale_base", "BAD_XPOS")
    x.gamma = check_number(xpos.get("gamma", 0.4), "xpos.gamma", "BAD_XPOS")
    x.center = check_whole(xpos.get("center", 0), "xpos.center", "BAD_XPOS", 0, MAX_POSITION - 1)
    role = xpos.get("role", "query")
    if role not in ("query", "key"):
        refuse("BAD_XPOS", "xpos.role", "'query' or 'key'", role)
    x.key = 1 if role == "key" else 0
    return x


def describe(
    *,
    head_dim: Optional[int],
    heads: Optional[int] = 1,
    rotary_dim: Optional[int] = None,
    base: Optional[float] = None,
    layout: Optional[str] = None,
    scaling: Optional[dict] = None,
    order: str = "blhd",
    inverse: bool = False,
    xpos: Optional[dict] = None,
    config: Any = None,
    layer_type: Optional[str] = None,
    mrope_section: Any = None,
    vision: bool = False,
) -> tuple[_lib.Rotary, list, int]:
    """A pe_rotary from the options (or a model's config), the arrays it points into, and its number of axes."""
    keep: list = []
    if config is not None:
        for name, value in (("head_dim", head_dim), ("rotary_dim", rotary_dim), ("base", base),
                            ("scaling", scaling)):
            if value is not None:
                refuse("BAD_OPTIONS", name, "left out with config (the config gives it)", value)
        from .config import from_config

        described = from_config(config, layer_type)
        if described["kind"] != "rope":
            raise PosencError("BAD_CONFIG", f"config describes {described['kind']} positions, not RoPE", "config")
        if "layer_types" in described:
            raise PosencError("BAD_LAYER_TYPE", "layer_type must be one of the config's layer types ("
                              + ", ".join(repr(t) for t in described["layer_types"]) + ")", "layer_type")
        r = described["rope"]
        head_dim, rotary_dim, base, scaling = r["head_dim"], r["rotary_dim"], r["base"], r["scaling"]
        layout = layout or r["layout"]
        heads = heads if heads is not None else described.get("heads", 1)
    elif layer_type is not None:
        refuse("BAD_OPTIONS", "layer_type", "given only with config", layer_type)
    if head_dim is None:
        refuse("BAD_DIM", "head_dim", "given (or a config)", head_dim)
    rope = _lib.Rotary()
    rope.head_dim = check_whole(head_dim, "head_dim", "BAD_DIM", 1, 65536)
    rope.rotary_dim = check_whole(rotary_dim if rotary_dim is not None else head_dim, "rotary_dim",
                                  "BAD_ROTARY_DIM", 0, 65536)
    rope.heads = check_whole(heads if heads is not None else 1, "heads", "BAD_HEADS", 1, 65536)
    rope.layout = layout_code(layout or "half")
    if order not in ORDERS:
        refuse("BAD_ORDER", "order", "'blhd' (batch, length, heads, head_dim) or 'bhld'", order)
    rope.order = ORDERS[order]
    rope.inverse = 1 if inverse else 0
    rope.scaling, section, theta = _scaling(scaling, rope.rotary_dim, keep)
    if theta is not None and base is not None and theta != base:
        refuse("BAD_BASE", "base", f"the same as scaling.rope_theta ({theta}) or left out", base)
    rope.base = check_base(base if base is not None else theta if theta is not None else 10000.0)
    section = mrope_section if mrope_section is not None else section
    axes = 1
    if vision:
        if section is not None:
            refuse("BAD_AXES", "vision", "False with mrope_section", vision)
        rope.axes.type, axes = 2, 2
    elif section is not None:
        if len(section) != 3:
            refuse("BAD_AXES", "mrope_section", "three whole numbers of pairs (temporal, height, width)", section)
        rope.axes.type, axes = 1, 3
        for a in range(3):
            rope.axes.mrope_section[a] = check_whole(section[a], f"mrope_section[{a}]", "BAD_AXES", 0, 65536)
    rope.xpos = _xpos(xpos)
    return rope, keep, axes


class _Plan:
    """A RoPE plan in numpy-owned memory (no cache rows)."""

    def __init__(self, rope: _lib.Rotary) -> None:
        size = ctypes.c_size_t(0)
        check(_lib.lib.pe_rope_plan_size(ctypes.byref(rope), 0, ctypes.byref(size)), "rope")
        self.memory, address = aligned_bytes(size.value)
        self.handle = ctypes.c_void_p()
        check(_lib.lib.pe_rope_plan_init(ctypes.byref(rope), 0, address, size.value, ctypes.byref(self.handle)),
              "rope")


def _rows(positions: Any, axes: int, offset: int, length: Optional[int]) -> tuple[Optional[np.ndarray], int, int]:
    """(positions listed row by row, or None; offset; rows) for a call."""
    if positions is None:
        if length is None:
            refuse("BAD_LENGTH", "length", "given (or positions, or x of shape (batch, length, heads, head_dim))",
                   length)
        rows = check_whole(length, "length", "BAD_LENGTH", 0, MAX_POSITION)
        offset = check_whole(offset, "offset", "BAD_OFFSET", 0, MAX_POSITION)
        if offset + rows > MAX_POSITION:
            refuse("BAD_OFFSET", "offset", f"at most 2^31 - length ({MAX_POSITION - rows})", offset)
        return None, offset, rows
    if offset != 0:
        refuse("BAD_OFFSET", "offset", "0 with positions", offset)
    where = positions_array(positions)
    if axes > 1:
        if where.ndim != 2 or where.shape[0] != axes:
            refuse("BAD_AXES", "positions", f"of shape ({axes}, length): one row of positions per axis", where.shape)
        where = np.ascontiguousarray(where.T)  # the core lists them row by row
    else:
        where = where.reshape(-1)
    rows = where.shape[0]
    if length is not None and length != rows:
        refuse("BAD_LENGTH", "length", f"left out or the number of positions ({rows})", length)
    return where, 0, rows


def rope(
    x: Any,
    *,
    head_dim: Optional[int] = None,
    heads: Optional[int] = None,
    length: Optional[int] = None,
    offset: int = 0,
    positions: Any = None,
    base: Optional[float] = None,
    layout: Optional[str] = None,
    rotary_dim: Optional[int] = None,
    scaling: Optional[dict] = None,
    inverse: bool = False,
    order: str = "blhd",
    xpos: Optional[dict] = None,
    config: Any = None,
    layer_type: Optional[str] = None,
    mrope_section: Any = None,
    vision: bool = False,
    dtype: Optional[str] = None,
) -> Any:
    """Rotates x in place by RoPE and returns it (the same object: a numpy array or a torch tensor).

    x is (batch, length, heads, head_dim) with order='blhd' (the default: activations before the
    transpose) or (batch, heads, length, head_dim) with order='bhld'; a 3-D x has no batch axis.
    Shapes are read from x; give head_dim, heads and length for a flat x. Each pair (x1, x2) of a
    head's first rotary_dim elements turns by p*w_i, w_i = base^(-2i/rotary_dim), in float32 and in
    HF transformers' operation order; the bits are the JS package's and the C library's.

    Args:
        x: float32, float16 (numpy float16, or uint16 bits with dtype='float16') or bfloat16
            (uint16 bits with dtype='bfloat16', or a torch.bfloat16 tensor), C-contiguous, writable.
        positions: the rows' positions (one per row, shared by the batch) instead of offset;
            of shape (3, length) with mrope_section, (2, length) with vision=True.
        base: rope_theta (10000 when left out). layout: 'half' (default; HF's rotate_half) or
            'interleaved' (GPT-J). scaling: HF's rope_scaling dict as the model's config has it.
        config: a model's config.json (dict, text or path) in place of head_dim, rotary_dim,
            base and scaling; heads default to its num_attention_heads.
        inverse: rotate back. xpos: {'scale_base', 'gamma', 'center', 'role'} (torchscale's xPos).

    Raises:
        PosencError with the JS package's codes (BAD_DIM, BAD_HEADS, BAD_ROTARY_DIM, BAD_SCALING,
        BAD_POSITION, BAD_SIZE, BAD_DTYPE, BAD_BUFFER, ...) before x is touched.
    """
    array, implied = in_place(x, "x")
    kind = array.dtype
    if kind == np.float32:
        natural = "float32"
    elif kind == np.float16:
        natural = "float16"
    elif kind in (np.uint16, np.int16):
        natural = implied
        if natural is None and dtype not in ("float16", "bfloat16"):
            refuse("BAD_DTYPE", "dtype", "'float16' or 'bfloat16' for 16-bit patterns in an integer array", dtype)
    else:
        return refuse("BAD_DTYPE", "x", "float32, float16 or bfloat16 values (uint16 bits with dtype)", str(kind))
    if dtype is not None and natural is not None and dtype != natural:
        refuse("BAD_DTYPE", "dtype", f"{natural!r} for this x (or left out)", dtype)
    dtype_code = check_dtype_name(dtype or natural, ("float32", "float16", "bfloat16"))
    shape = array.shape
    if array.ndim >= 3:
        inferred = {"head_dim": shape[-1]}
        if order == "blhd":
            inferred.update(length=shape[-3], heads=shape[-2])
        else:
            inferred.update(length=shape[-2], heads=shape[-3])
        for name, given in (("head_dim", head_dim), ("heads", heads), ("length", length)):
            if given is not None and given != inferred[name]:
                refuse("BAD_SIZE", name, f"{inferred[name]} as x's shape {shape} says (or left out)", given)
        heads = inferred["heads"]
        if config is None:
            head_dim = inferred["head_dim"]
        if positions is None:
            length = inferred["length"]
    if config is None and heads is None:
        heads = 1
    rotary, keep, axes = describe(head_dim=head_dim, heads=heads, rotary_dim=rotary_dim, base=base, layout=layout,
                                  scaling=scaling, order=order, inverse=inverse, xpos=xpos, config=config,
                                  layer_type=layer_type, mrope_section=mrope_section, vision=vision)
    if array.ndim >= 3 and rotary.head_dim != shape[-1]:
        refuse("BAD_SIZE", "x", f"of head_dim {rotary.head_dim} in its last axis (the config's)", shape)
    where, offset, rows = _rows(positions, axes, offset, length)
    plan = _Plan(rotary)
    status = _lib.lib.pe_rope_plan_apply(plan.handle, dtype_code, 0, offset, rows,
                                         None if where is None else where.ctypes.data, array.ctypes.data, array.size)
    check(status, "rope")
    return x


def rope_cos_sin(
    *,
    head_dim: Optional[int] = None,
    length: Optional[int] = None,
    offset: int = 0,
    positions: Any = None,
    rotary_dim: Optional[int] = None,
    base: Optional[float] = None,
    layout: Optional[str] = None,
    scaling: Optional[dict] = None,
    expand: bool = False,
    dtype: str = "float32",
    xpos: Optional[dict] = None,
    config: Any = None,
    layer_type: Optional[str] = None,
    mrope_section: Any = None,
    vision: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The cos and sin caches engines take, times the attention factor (as HF applies it).

    Shape (length, rotary_dim/2) each (ONNX RotaryEmbedding's cos_cache), or (length, rotary_dim)
    with expand=True, laid out for the layout (HF's cat((freqs, freqs)) for 'half', each value twice
    for 'interleaved'). dtype 'float32' gives the very products rope multiplies by; 'float16'
    (numpy float16), 'bfloat16' (uint16 bits) and 'float64' the exact value rounded once.
    Options as rope's.
    """
    dtype_code = check_dtype_name(dtype, ("float32", "float16", "bfloat16", "float64"))
    rotary, keep, axes = describe(head_dim=head_dim, heads=1, rotary_dim=rotary_dim, base=base, layout=layout,
                                  scaling=scaling, xpos=xpos, config=config, layer_type=layer_type,
                                  mrope_section=mrope_section, vision=vision)
    where, offset, rows = _rows(positions, axes, offset, length)
    r = rotary.rotary_dim or rotary.head_dim
    width = r if expand else r // 2
    cos = np.empty((rows, width), dtype=numpy_dtype(dtype))
    sin = np.empty((rows, width), dtype=numpy_dtype(dtype))
    plan = _Plan(rotary)
    status = _lib.lib.pe_rope_plan_cos_sin(plan.handle, dtype_code, 1 if expand else 0, offset, rows,
                                           None if where is None else where.ctypes.data, cos.ctypes.data,
                                           sin.ctypes.data, cos.size)
    check(status, "rope_cos_sin")
    return cos, sin


def rope_frequencies(
    *,
    head_dim: Optional[int] = None,
    rotary_dim: Optional[int] = None,
    base: Optional[float] = None,
    scaling: Optional[dict] = None,
    length: int = 0,
    config: Any = None,
    layer_type: Optional[str] = None,
    mrope_section: Any = None,
    vision: bool = False,
) -> tuple[np.ndarray, float]:
    """(w, attention_factor): the scaled frequencies w_i (float64, rotary_dim/2 of them) and the
    attention factor, as HF's rope_init_fn gives them; length is dynamic NTK's and LongRoPE's
    sequence length (0: unscaled). mrope_section and vision as rope's (2-D RoPE turns each axis by
    its own frequencies)."""
    rotary, keep, axes = describe(head_dim=head_dim, rotary_dim=rotary_dim, base=base, scaling=scaling,
                                  config=config, layer_type=layer_type, mrope_section=mrope_section,
                                  vision=vision)
    rotary.scaling.sequence_length = check_whole(length, "length", "BAD_LENGTH", 0, MAX_POSITION)
    r = rotary.rotary_dim or rotary.head_dim
    w = np.empty(r // 2, dtype=np.float64)
    factor = ctypes.c_double(0)
    check(_lib.lib.pe_rope_frequencies(ctypes.byref(rotary), w.ctypes.data, w.size, ctypes.byref(factor)),
          "rope_frequencies")
    return w, factor.value


__all__ = ["rope", "rope_cos_sin", "rope_frequencies", "DTYPES"]
