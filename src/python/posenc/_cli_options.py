"""Option checks several subcommands of `python -m posenc` share, with the
messages of src/js/cli/options.js and src/cli/options.c."""

from __future__ import annotations

from typing import List, Optional, Sequence

import numpy as np

from . import _lib
from ._cli_args import Given, fail, parse_count
from ._cli_format import format_values, npy_header_of

TABLE_FORMATS_HELP = """  --format F    text (4 decimals), csv or json (9 decimals), npy (NumPy .npy float32)
                f32 (raw little-endian float32) or raw (the --dtype's own little-endian bytes)
                (default text)
  --kernels K   auto, simd or scalar (default auto); all give the same bits
"""
COMMON_HELP = """  --output FILE write to FILE instead of standard output
  --version     print the version
  -h, --help    print this help
"""

_lib.lib.pe_narrow_f64.restype = _lib.enum
_lib.lib.pe_narrow_f64.argtypes = [_lib.enum, _lib.voidp, _lib.size_t, _lib.voidp, _lib.size_t]
_lib.lib.pe_use_kernels.restype = _lib.enum
_lib.lib.pe_use_kernels.argtypes = [_lib.enum]


def format_option(given: Given, allowed: List[str], listed: str) -> str:
    """--format among `allowed` (default text)."""
    fmt = given.get("--format", "text")
    if fmt not in allowed:
        fail(f"--format must be {listed}; got {fmt}")
    return fmt


def dtype_option(given: Given, allowed: List[str], listed: str) -> str:
    """--dtype among `allowed` (default the first)."""
    dtype = given.get("--dtype", allowed[0])
    if dtype not in allowed:
        fail(f"--dtype must be {listed}; got {dtype}")
    return dtype


def dtype_format_check(dtype: str, fmt: str) -> None:
    """f32 only for float32, and npy not for bfloat16 (NumPy lacks it)."""
    if dtype != "float32" and fmt == "f32":
        fail(f"--format f32 writes float32: use --format raw for --dtype {dtype}")
    if dtype == "bfloat16" and fmt == "npy":
        fail("--format npy has no bfloat16 (NumPy lacks the type): use --format raw")


def kernels_option(given: Given) -> None:
    """--kernels auto, simd or scalar applied to the library (exit 1 when this build lacks SIMD)."""
    text = given.get("--kernels", "auto")
    if text not in ("auto", "simd", "scalar"):
        fail(f"--kernels must be auto, simd or scalar; got {text}")
    if text == "auto":
        return
    status = _lib.lib.pe_use_kernels(1 if text == "simd" else 0)  # pe_kernels: SCALAR 0, SIMD 1
    if status != 0:
        fail(_lib.lib.pe_status_str(status).decode("utf-8"), 1)


def count_option(given: Given, name: str, fallback: Optional[str], low: int, high: int, what: str) -> int:
    """A count option from low to high; `fallback` when absent (None: required)."""
    text = given.get(name, fallback)
    if text is None:
        fail(f"{name} is required ({what})")
    value = parse_count(text)
    if value is None or value < low or value > high:
        fail(f"{name} must be {what}; got {text}")
    return value


def bits16(values: np.ndarray, dtype: str) -> np.ndarray:
    """float64 values rounded once to float16 or bfloat16 by the core (pe_narrow_f64): their uint16 patterns."""
    values = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    bits = np.empty(values.size, dtype=np.uint16)
    status = _lib.lib.pe_narrow_f64(1 if dtype == "float16" else 2, values.ctypes.data, values.size,
                                    bits.ctypes.data, bits.size)
    if status != 0:
        fail(_lib.lib.pe_status_str(status).decode("utf-8"), 1)
    return bits


def widen16(bits: np.ndarray, dtype: str) -> np.ndarray:
    """float16 or bfloat16 patterns as float64 values (exact)."""
    if dtype == "float16":
        return bits.view(np.float16).astype(np.float64)
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def narrow_values(dtype: str, values: np.ndarray) -> np.ndarray:
    """float64 values as the dtype's nearest, rounded once, as float64."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    if dtype == "float64":
        return values
    if dtype == "float32":
        return values.astype(np.float32).astype(np.float64)
    return widen16(bits16(values, dtype), dtype).reshape(values.shape)


def value_list(fmt: str, dtype: str, index_name: str, value_name: str, values: Sequence[float]) -> bytes:
    """Values already rounded to dtype as a list (text, csv, json: 17 significant digits for float64, 9 for the
    others) or a 1-D array of the dtype: npy (<f8, <f4, <f2), f32 or raw (its little-endian bytes)."""
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    if fmt in ("text", "csv", "json"):
        return format_values(fmt, index_name, value_name, array.tolist(), 16 if dtype == "float64" else 8).encode()
    if dtype == "float64":
        data = array.astype("<f8").tobytes()
    elif dtype == "float32":
        data = array.astype("<f4").tobytes()
    else:
        data = bits16(array, dtype).astype("<u2").tobytes()
    if fmt != "npy":
        return data
    descr = {"float64": "<f8", "float32": "<f4", "float16": "<f2"}[dtype]
    return npy_header_of([array.size], descr) + data
