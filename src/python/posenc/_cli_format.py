"""The CLIs' output formats, line for line as src/js/shared/format.js and
src/cli/format.c write them: fixed decimals rounded half to even from v * 10^k
in double, C's "%.*e", the .npy header, little-endian bytes."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

DIGITS = {"text": 4, "csv": 9, "json": 9}
FORMATS = ["text", "csv", "json", "npy", "f32", "raw"]


def format_fixed(v: float, digits: int) -> str:
    """v with `digits` decimals: n = v * 10^k in double rounded half to even; '-' when the sign bit is set."""
    if math.isnan(v):
        return "nan"
    negative = math.copysign(1.0, v) < 0
    if math.isinf(v):
        return "-inf" if negative else "inf"
    scale = 10**digits
    n = round(abs(v * scale))  # a float's round() is half to even, exact
    whole = n // scale
    sign = "-" if negative else ""
    if digits == 0:
        return sign + str(whole)
    return sign + str(whole) + "." + str(n - whole * scale).rjust(digits, "0")


def format_rows(fmt: str, values: np.ndarray, first_row: int, position: int) -> str:
    """Rows (a 2-D array) as text, csv or json; first_row is the rows' index in the table (json's separators),
    position the csv position of the first one."""
    digits = DIGITS[fmt]
    parts = []
    for r, row in enumerate(np.asarray(values, dtype=np.float64).tolist()):
        cells = [format_fixed(v, digits) for v in row]
        if fmt == "text":
            parts.append(" ".join(cells) + "\n")
        elif fmt == "csv":
            parts.append(f"{position + r}," + ",".join(cells) + "\n")
        else:
            parts.append(("[" if first_row + r == 0 else ",\n[") + ",".join(cells) + "]")
    return "".join(parts)


def npy_header_of(shape: Sequence[int], descr: str) -> bytes:
    """NPY 1.0 header of a little-endian C-order array (a multiple of 64 bytes; 1-D prints as `(n,)`)."""
    sizes = f"{shape[0]}," if len(shape) == 1 else ", ".join(str(s) for s in shape)
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({sizes}), }}"
    text += " " * ((64 - (10 + len(text) + 1) % 64) % 64) + "\n"
    return bytes([0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59, 1, 0, len(text) & 0xFF, len(text) >> 8]) + text.encode("latin1")


def prologue(fmt: str, length: int, dim: int, descr: str = "<f4") -> bytes:
    """What comes before the rows: csv's header, json's bracket, npy's header."""
    if fmt == "csv":
        return ("position" + "".join(f",d{j}" for j in range(dim)) + "\n").encode()
    if fmt == "json":
        return b"[\n"
    if fmt == "npy":
        return npy_header_of([length, dim], descr)
    return b""


def epilogue(fmt: str, length: int) -> bytes:
    """What comes after the rows: json's closing bracket (an empty table is `[\\n]\\n`)."""
    if fmt != "json":
        return b""
    return b"]\n" if length == 0 else b"\n]\n"


def format_exp(v: float, digits: int) -> str:
    """C's "%.*e": Python's % rounds the exact decimal expansion half to even, as glibc's printf does."""
    return "%.*e" % (digits, v)


def format_values(fmt: str, index_name: str, value_name: str, values: Sequence[float], digits: int) -> str:
    """A list of numbers in exponent form: text (one per line), csv ("i,v" after a header) or json."""
    texts = [format_exp(v, digits) for v in values]
    if fmt == "csv":
        return f"{index_name},{value_name}\n" + "".join(f"{i},{t}\n" for i, t in enumerate(texts))
    if fmt == "json":
        return "[]\n" if not texts else "[\n" + ",\n".join(texts) + "\n]\n"
    return "".join(t + "\n" for t in texts)
