"""The table readers of `python -m posenc identify`, by content as src/js/cli/identify.js and
src/cli/read_table.c read them: .npy, .safetensors, JSON (an array of rows, told from CSV by its
first character), CSV or whitespace-separated text, or raw little-endian float32. The text, JSON and
raw rules and messages are the CLIs'; .npy and .safetensors files are read with the JS readers'
messages for the refusals users meet (dtype, shape, tensor name, truncation)."""

from __future__ import annotations

import ast
import json
import math
import re
from typing import List, Optional, Tuple

import numpy as np

from ._cli_args import fail

Table = Tuple[np.ndarray, int, int]
_FIELD = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_JSON_NUMBER = re.compile(r"-?(?:NaN|Infinity|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)")


def refused(message: str) -> None:
    fail(message, 1)


def is_text(data: bytes) -> bool:
    return len(data) > 0 and all(b in (9, 10, 13) or 32 <= b < 127 for b in data)


def _field(text: str) -> Optional[float]:
    """A field as a number (plain decimal, nan, [+-]inf, [+-]infinity), else None."""
    if not text or len(text) >= 64:
        return None
    sign = -1.0 if text[0] == "-" else 1.0
    word = (text[1:] if text[0] in "+-" else text).lower()
    if word == "nan":
        return math.nan
    if word in ("inf", "infinity"):
        return sign * math.inf
    return float(text) if _FIELD.fullmatch(text) else None


def _check_shape(rows: int, dim: int, want_rows: int, want_dim: int) -> None:
    if (want_rows and rows != want_rows) or (want_dim and dim != want_dim):
        refused(f"the table is {rows} x {dim}, not the --rows/--dim given")


def read_text(data: bytes, want_rows: int, want_dim: int) -> Table:
    """CSV or whitespace-separated rows; a first line of names is skipped."""
    values: List[float] = []
    rows = dim = 0
    lines = data.decode("latin1").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for index, line in enumerate(lines):
        fields = [f for f in re.split(r"[,\t ;\r]+", line) if f]
        if not fields:
            continue
        header = False
        numbers = []
        for k, field in enumerate(fields):
            value = _field(field)
            if value is None:
                if rows == 0 and k == 0:
                    header = True
                if not (rows == 0 and header):
                    refused(f"line {index + 1}, field {k + 1}: '{field[:40]}' is not a number")
                continue
            if header:
                refused(f"line {index + 1} mixes names and numbers")
            numbers.append(value)
        if header:
            continue
        if rows == 0:
            dim = len(numbers)
        elif len(numbers) != dim:
            refused(f"line {index + 1} has {len(numbers)} numbers; the first row has {dim}")
        values += numbers
        rows += 1
    if rows == 0:
        refused("the text holds no numbers")
    _check_shape(rows, dim, want_rows, want_dim)
    return np.array(values, dtype=np.float32), rows, dim


def _skip(text: str, p: int) -> int:
    while p < len(text) and text[p] in " \t\n\r":
        p += 1
    return p


def is_json(data: bytes) -> bool:
    """Text whose first non-blank character is '[' is JSON (by content, whatever the file's name)."""
    text = data.decode("latin1")
    p = _skip(text, 0)
    return p < len(text) and text[p] == "["


def read_json(data: bytes, want_rows: int, want_dim: int) -> Table:
    """An array of rows of numbers, or a flat array with --rows and/or --dim."""
    text = data.decode("latin1")
    values: List[float] = []
    p = _skip(text, _skip(text, 0) + 1)
    nested = p < len(text) and text[p] == "["
    rows = dim = 0
    ok = True
    while True:
        in_row = 0
        if nested:
            if p >= len(text) or text[p] != "[":
                break
            p = _skip(text, p + 1)
        while p < len(text) and text[p] != "]":
            m = _JSON_NUMBER.match(text[p : p + 64])
            if not m or m.group(0) == "-NaN" or len(m.group(0)) >= 64:
                ok = False
                break
            word = m.group(0).lstrip("-")
            sign = -1.0 if m.group(0)[0] == "-" else 1.0
            values.append(math.nan if word == "NaN" else sign * math.inf if word == "Infinity" else float(m.group(0)))
            in_row += 1
            p = _skip(text, p + len(m.group(0)))
            if p < len(text) and text[p] == ",":
                p = _skip(text, p + 1)
            elif p >= len(text) or text[p] != "]":
                ok = False
                break
        if not ok or p >= len(text):
            ok = False
            break
        p = _skip(text, p + 1)
        if not nested:
            break
        rows += 1
        if rows == 1:
            dim = in_row
        elif in_row != dim:
            refused(f"JSON row {rows} has {in_row} numbers; the first row has {dim}")
        if p < len(text) and text[p] == ",":
            p = _skip(text, p + 1)
        elif p < len(text) and text[p] == "]":
            p = _skip(text, p + 1)
            break
        else:
            ok = False
            break
    if not ok or p != len(text):
        refused(f"not a JSON array of rows of numbers (at byte {min(p, len(text))})")
    if not values:
        refused("the JSON holds no numbers")
    if not nested:
        if not want_rows and not want_dim:
            refused("a flat JSON array needs --rows and/or --dim")
        rows = want_rows or len(values) // want_dim
        dim = want_dim or len(values) // want_rows
        if rows * dim != len(values):
            refused(f"the array holds {len(values)} numbers, not --rows x --dim")
    else:
        _check_shape(rows, dim, want_rows, want_dim)
    return np.array(values, dtype=np.float32), rows, dim


def read_raw(data: bytes, want_rows: int, want_dim: int) -> Table:
    """Raw little-endian float32 of --rows and/or --dim."""
    if not want_rows and not want_dim:
        refused("a raw float32 file needs --rows and/or --dim")
    if len(data) % 4:
        refused(f"a raw float32 file has a multiple of 4 bytes; this one has {len(data)}")
    count = len(data) // 4
    rows = want_rows or count // want_dim
    dim = want_dim or count // want_rows
    if rows * dim != count:
        refused(f"the file holds {count} floats, not --rows x --dim")
    return np.frombuffer(data, dtype="<f4").astype(np.float32), rows, dim


def _shape_text(shape: List[int]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _table_shape(shape: List[int], want_rows: int, want_dim: int, what: str) -> Tuple[int, int]:
    """(rows, dim) after dropping leading axes of size 1 (src/js/learned/shape.js's rules and words)."""
    first = 0
    while len(shape) - first > 2 and shape[first] == 1:
        first += 1
    axes = shape[first:]
    if len(axes) != 2:
        refused(f"{what} has shape {_shape_text(shape)}; a position table must be 2-D (rows, dim), after dropping "
                "leading axes of size 1")
    rows, dim = axes
    wrong = ([f"{want_rows} rows"] if want_rows and rows != want_rows else []) + (
        [f"dim {want_dim}"] if want_dim and dim != want_dim else [])
    if wrong:
        refused(f"{what} has shape {_shape_text(shape)}, so {rows} rows of dim {dim}; expected {' and '.join(wrong)}")
    return rows, dim


def read_npy(data: bytes, want_rows: int, want_dim: int) -> Table:
    """A .npy file (versions 1.0 to 3.0) of float16, float32 or float64 in C order."""
    major = data[6] if len(data) > 6 else 0
    start = 12 if major >= 2 else 10
    length = int.from_bytes(data[8:start], "little") if len(data) >= start else 0
    if len(data) < start or not 1 <= major <= 3 or start + length > len(data):
        refused("not a valid .npy file: the preamble or the header length is wrong")
    try:
        header = ast.literal_eval(data[start : start + length].decode("utf-8" if major == 3 else "latin1"))
        descr, fortran, shape = header["descr"], header["fortran_order"], list(header["shape"])
    except Exception:  # noqa: BLE001 - any malformed header is one refusal
        refused("not a valid .npy file: the header is not a Python dict literal")
    kinds = {"<f2": "<f2", ">f2": ">f2", "<f4": "<f4", ">f4": ">f4", "<f8": "<f8", ">f8": ">f8"}
    if not isinstance(descr, str):
        refused("the .npy array has a structured dtype; a position table must be float16, float32 or float64")
    if descr not in kinds:
        refused(f"the .npy array has dtype '{descr}'; supported: float16, float32, float64 in either byte order "
                "('<f2', '<f4', '<f8', '>f2', '>f4', '>f8')")
    if fortran and len([n for n in shape if n != 1]) > 1:
        refused(f"the .npy array {_shape_text(shape)} is stored in Fortran (column-major) order; save it in C order, "
                "e.g. np.save(path, np.ascontiguousarray(table))")
    rows, dim = _table_shape(shape, want_rows, want_dim, "the .npy array")
    size = int(descr[2:])
    count = int(np.prod(shape, dtype=object)) if shape else 1
    available = len(data) - start - length
    if count * size > available:
        refused(f"not a valid .npy file: the data is truncated: shape {_shape_text(shape)} of '{descr}' needs "
                f"{count * size} bytes after the header, the file has {available}")
    table = np.frombuffer(data, dtype=descr, count=count, offset=start + length)
    return table.astype(np.float32), rows, dim


def read_safetensors(data: bytes, name: Optional[str], want_rows: int, want_dim: int) -> Table:
    """One tensor (F32, F16, BF16, F64) of a .safetensors file; name may be left out when it holds one."""
    length = int.from_bytes(data[:8], "little")
    if length > len(data) - 8:
        refused(f"not a valid .safetensors file: the header length is {length} bytes but only {len(data) - 8} "
                "bytes follow it (truncated, or not a .safetensors file)")
    try:
        header = json.loads(data[8 : 8 + length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        refused("not a valid .safetensors file: the header is not UTF-8 JSON")
    if not isinstance(header, dict):
        refused("not a valid .safetensors file: the header is not a JSON object")
    names = [k for k in header if k != "__metadata__"]
    show = json.dumps
    positional = [n for n in names if "pos" in n.lower()] + [n for n in names if "pos" not in n.lower()]
    listed = ("it holds no tensors" if not names else f"it holds {len(names)} tensor{'' if len(names) == 1 else 's'}: "
              + ", ".join(show(n) for n in positional[:20]) + (f" and {len(names) - 20} more" if len(names) > 20
                                                                 else ""))
    if name is None and len(names) != 1:
        refused(f"name must say which tensor to read: {listed}")
    key = name if name is not None else names[0]
    if key not in names:
        refused(f"this .safetensors file has no tensor named {show(key)}; {listed}")
    entry = header[key]
    what = f"tensor {show(key)}"
    kinds = {"F16": "<f2", "BF16": "<u2", "F32": "<f4", "F64": "<f8"}
    dtype = entry.get("dtype") if isinstance(entry, dict) else None
    if dtype not in kinds:
        refused(f"{what} has dtype {dtype}; supported: F32, F16, BF16, F64")
    shape = list(entry.get("shape", []))
    begin, end = entry.get("data_offsets", [0, 0])
    data_length = len(data) - 8 - length
    if end > data_length:
        refused(f"not a valid .safetensors file: {what} ends at byte {end} of the data, but the file holds only "
                f"{data_length} bytes of data (truncated?)")
    size = int(kinds[dtype][2:])
    count = int(np.prod(shape, dtype=object)) if shape else 1
    if count * size != end - begin:
        refused(f"not a valid .safetensors file: {what} has shape {_shape_text(shape)} of {dtype}, which is not the "
                f"{end - begin} bytes its data_offsets {show([begin, end])} span")
    rows, dim = _table_shape(shape, want_rows, want_dim, f"{what} of the .safetensors file")
    table = np.frombuffer(data, dtype=kinds[dtype], count=count, offset=8 + length + begin)
    if dtype == "BF16":
        table = (table.astype(np.uint32) << 16).view(np.float32)
    return table.astype(np.float32), rows, dim


def read_any(data: bytes, name: Optional[str], want_rows: int, want_dim: int) -> Table:
    """The table in the bytes, by their content."""
    if data[:6] == b"\x93NUMPY":
        if name is not None:
            refused("name picks a tensor of a .safetensors file; this is an .npy file, which holds one array")
        return read_npy(data, want_rows, want_dim)
    if len(data) >= 9 and data[8] == 0x7B:
        return read_safetensors(data, name, want_rows, want_dim)
    if name is not None:
        refused("--name is for .safetensors files")
    if is_text(data) and is_json(data):
        return read_json(data, want_rows, want_dim)
    return read_text(data, want_rows, want_dim) if is_text(data) else read_raw(data, want_rows, want_dim)
