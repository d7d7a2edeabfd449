"""The sinusoidal table (Vaswani et al.): posenc.h's pe_table_dtype and pe_table_at_dtype."""

from __future__ import annotations

import ctypes
from typing import Any, Optional

import numpy as np

from . import _lib
from ._arrays import aligned_bytes, check_base, check_dtype_name, check_whole, numpy_dtype, positions_array
from .errors import check, refuse

MAX_POSITION = 2**31
LAYOUTS = {"interleaved": 0, "split": 1, "half": 1}
FREQUENCIES = {"paper": 0, "tensor2tensor": 1}
# Named conventions of other libraries, as the JS package's presets.js.
PRESETS = {
    "vaswani": ("interleaved", "paper"),
    "tensor2tensor": ("split", "tensor2tensor"),
    "fairseq": ("split", "tensor2tensor"),
    "marian": ("split", "paper"),
}


def layout_code(layout: Any, argument: str = "layout") -> int:
    if not isinstance(layout, str) or layout not in LAYOUTS:
        refuse("BAD_LAYOUT", argument, "'interleaved', 'split' or 'half' (another name of 'split')", layout)
    return LAYOUTS[layout]


def convention(layout: Optional[str], frequencies: Optional[str], preset: Optional[str]) -> tuple[int, int]:
    """(pe_layout, pe_frequencies) from a preset or the options; a preset and an option that disagree are refused."""
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            refuse("BAD_PRESET", "preset", " or ".join(repr(p) for p in PRESETS), preset)
        preset_layout, preset_frequencies = PRESETS[preset]
        if layout is not None and layout_code(layout) != LAYOUTS[preset_layout]:
            refuse("BAD_PRESET", "layout", f"{preset_layout!r} with preset {preset!r} (or left out)", layout)
        if frequencies is not None and frequencies != preset_frequencies:
            refuse("BAD_PRESET", "frequencies", f"{preset_frequencies!r} with preset {preset!r} (or left out)",
                   frequencies)
        layout, frequencies = preset_layout, preset_frequencies
    if frequencies is not None and (not isinstance(frequencies, str) or frequencies not in FREQUENCIES):
        refuse("BAD_FREQUENCIES", "frequencies", "'paper' (T^(-2i/d)) or 'tensor2tensor' (T^(-i/(d/2-1)))",
               frequencies)
    return layout_code(layout or "interleaved"), FREQUENCIES[frequencies or "paper"]


def sinusoidal(
    length: Optional[int] = None,
    dim: int = 0,
    *,
    base: float = 10000.0,
    offset: int = 0,
    positions: Any = None,
    layout: Optional[str] = None,
    frequencies: Optional[str] = None,
    preset: Optional[str] = None,
    dtype: str = "float32",
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    """The sinusoidal positional-encoding table, shape (length, dim), row-major.

    Row r is position ``offset + r`` (or ``positions[r]`` when a list of
    positions is given instead of ``length``): PE(p, 2i) = sin(p w_i),
    PE(p, 2i+1) = cos(p w_i) in the interleaved layout, w_i = base^(-2i/dim).
    Every value is within 6e-8 of exact for every position below 2^31, and the
    bits are those of the JS package and the C library on every build.

    Args:
        length: number of rows (positions offset ... offset+length-1).
        dim: embedding size, even, 2 ... 65536.
        base: the frequency base T, above 1 (10000 in the paper).
        offset: the first position.
        positions: row positions instead of offset/length (packed sequences).
        layout: 'interleaved' (default; s0 c0 s1 c1 ...) or 'split' (s0 s1 ... c0 c1 ...).
        frequencies: 'paper' (default) or 'tensor2tensor'.
        preset: 'vaswani', 'tensor2tensor', 'fairseq' or 'marian' (sets layout and frequencies).
        dtype: 'float32' (default), 'float16' (numpy float16), 'bfloat16' (uint16 bit patterns)
            or 'float64' (the core's float64 values, the ones float32 rounds).
        out: a C-contiguous array of that dtype and length * dim elements to write into.

    Returns:
        out, or a new array of shape (length, dim).

    Raises:
        PosencError: BAD_DIM, BAD_LENGTH, BAD_OFFSET, BAD_POSITION, BAD_BASE, BAD_LAYOUT,
            BAD_FREQUENCIES, BAD_PRESET, BAD_DTYPE or BAD_SIZE, before anything is written.
    """
    dtype_code = check_dtype_name(dtype, ("float32", "float16", "bfloat16", "float64"))
    dim = check_whole(dim, "dim", "BAD_DIM", 2, 65536)
    if dim % 2:
        refuse("BAD_DIM", "dim", "even (sine-cosine pairs)", dim)
    base = check_base(base)
    layout_value, frequencies_value = convention(layout, frequencies, preset)
    encoding = _lib.Sinusoid(dim, base, layout_value, frequencies_value)
    if positions is not None:
        if length is not None and length != len(positions):
            refuse("BAD_LENGTH", "length", f"left out or the number of positions ({len(positions)})", length)
        if offset != 0:
            refuse("BAD_OFFSET", "offset", "0 with positions", offset)
        where = positions_array(positions).reshape(-1)
        rows = where.size
    else:
        if length is None:
            refuse("BAD_LENGTH", "length", "given (or positions)", length)
        rows = check_whole(length, "length", "BAD_LENGTH", 0, MAX_POSITION)
        offset = check_whole(offset, "offset", "BAD_OFFSET", 0, MAX_POSITION)
        if offset + rows > MAX_POSITION:
            refuse("BAD_OFFSET", "offset", f"at most 2^31 - length ({MAX_POSITION - rows})", offset)
    kind = numpy_dtype(dtype)
    count = rows * dim
    if out is None:
        out = np.empty((rows, dim), dtype=kind)
    elif (not isinstance(out, np.ndarray) or out.dtype != kind or out.size != count or not out.flags.c_contiguous
          or not out.flags.writeable):
        refuse("BAD_SIZE", "out", f"a writable C-contiguous {np.dtype(kind).name} array of {rows}*{dim} = {count} "
               "elements", getattr(out, "shape", type(out).__name__))
    size = ctypes.c_size_t(0)
    check(_lib.lib.pe_scratch_size(dim, ctypes.byref(size)), "sinusoidal")
    keep, scratch = aligned_bytes(size.value)
    if positions is not None:
        status = _lib.lib.pe_table_at_dtype(ctypes.byref(encoding), dtype_code, where.ctypes.data, rows,
                                            out.ctypes.data, count, scratch, size.value)
    else:
        status = _lib.lib.pe_table_dtype(ctypes.byref(encoding), dtype_code, offset, rows, out.ctypes.data, count,
                                         scratch, size.value)
    del keep
    check(status, "sinusoidal")
    return out
