"""`python -m posenc COMMAND ...`: the posenc CLI's table, rope and identify
commands, printing the bytes the native and Node CLIs print for the same
arguments (their formats: src/js/shared/format.js). Exit status 0, 1 when the
library refuses, 2 for bad usage; a closed pipe ends quietly with 0."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any, Callable, Optional

import numpy as np

from . import _lib
from .config import from_config
from .diagnose import identify
from .errors import PosencError
from .rope import rope_cos_sin, rope_frequencies
from .sinusoid import sinusoidal

DIGITS = {"text": 4, "csv": 9, "json": 9}
MAX_POSITION = 2**31


class UsageError(Exception):
    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def format_fixed(v: float, digits: int) -> str:
    """v with `digits` decimals, rounded half to even from v * 10^k in double, as format.js's formatFixed."""
    if math.isnan(v):
        return "nan"
    negative = v < 0 or math.copysign(1.0, v) < 0
    if math.isinf(v):
        return "-inf" if negative else "inf"
    scale = 10**digits
    n = round(abs(v * scale))  # Python rounds a float half to even, exactly
    whole = n // scale
    return ("-" if negative else "") + str(whole) + "." + str(n - whole * scale).rjust(digits, "0")


def format_rows(fmt: str, values: np.ndarray, first_row: int, position: int) -> str:
    digits = DIGITS[fmt]
    lines = []
    for r, row in enumerate(values.tolist()):
        cells = [format_fixed(v, digits) for v in row]
        if fmt == "text":
            lines.append(" ".join(cells) + "\n")
        elif fmt == "csv":
            lines.append(f"{position + r}," + ",".join(cells) + "\n")
        else:
            lines.append(("[" if first_row + r == 0 else ",\n[") + ",".join(cells) + "]")
    return "".join(lines)


def npy_header(length: int, dim: int, descr: str = "<f4") -> bytes:
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({length}, {dim}), }}"
    text += " " * ((64 - (10 + len(text) + 1) % 64) % 64) + "\n"
    return bytes([0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59, 1, 0, len(text) & 0xFF, len(text) >> 8]) + text.encode("latin1")


def prologue(fmt: str, length: int, dim: int) -> Any:
    if fmt == "csv":
        return "position," + ",".join(f"d{j}" for j in range(dim)) + "\n"
    if fmt == "json":
        return "[\n"
    return ""


def epilogue(fmt: str, length: int) -> str:
    if fmt != "json":
        return ""
    return "]\n" if length == 0 else "\n]\n"


def format_exp(v: float, digits: int) -> str:
    """C's "%.*e" (glibc rounds the exact decimal expansion half to even; so does Python)."""
    return "%.*e" % (digits, v)


def format_values(fmt: str, index_name: str, value_name: str, values: list, digits: int) -> str:
    texts = [format_exp(v, digits) for v in values]
    if fmt == "csv":
        return f"{index_name},{value_name}\n" + "".join(f"{i},{t}\n" for i, t in enumerate(texts))
    if fmt == "json":
        return "[]\n" if not texts else "[\n" + ",\n".join(texts) + "\n]\n"
    return "".join(t + "\n" for t in texts)


def narrow(values: np.ndarray, dtype: str) -> np.ndarray:
    """float64 values rounded once to dtype (the core's pe_narrow_f64), as float64 again."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    if dtype == "float64":
        return values
    if dtype == "float32":
        return values.astype(np.float32).astype(np.float64)
    bits = np.empty(values.size, dtype=np.uint16)
    code = 1 if dtype == "float16" else 2
    lib = _lib.lib
    lib.pe_narrow_f64.argtypes = [_lib.enum, _lib.voidp, _lib.size_t, _lib.voidp, _lib.size_t]
    lib.pe_narrow_f64(code, values.ctypes.data, values.size, bits.ctypes.data, bits.size)
    if dtype == "float16":
        return bits.view(np.float16).astype(np.float64)
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def count(text: Optional[str], name: str, fallback: int, low: int = 0, high: int = MAX_POSITION) -> int:
    if text is None:
        return fallback
    if not text.isdigit() or len(text) > 12 or not low <= int(text) <= high:
        raise UsageError(f"{name} must be an integer from {low} to {high}; got {text}")
    return int(text)


def choice(text: Optional[str], name: str, allowed: list, fallback: str) -> str:
    value = fallback if text is None else text
    if value not in allowed:
        raise UsageError(f"{name} must be {', '.join(allowed[:-1])} or {allowed[-1]}; got {value}")
    return value


def run_table(a: argparse.Namespace, write: Callable[[Any], None]) -> None:
    if a.length is None or a.dim is None:
        raise UsageError("--length and --dim are required")
    length = count(a.length, "--length", 0)
    offset = count(a.offset, "--offset", 0)
    dim = count(a.dim, "--dim", 0, 2, 65536)
    if dim % 2:
        raise UsageError(f"--dim must be an even number (sines and cosines come in pairs); got {dim}")
    fmt = choice(a.format, "--format", ["text", "csv", "json", "npy", "f32", "raw"], "text")
    dtype = choice(a.dtype, "--dtype", ["float32", "float16", "bfloat16"], "float32")
    try:
        base = float(a.base) if a.base is not None else 10000.0
    except ValueError:
        base = math.nan
    if not 1 < base <= 1e300:
        raise UsageError(f"--base must be above 1 and at most 1e300; got {a.base}")
    if dtype != "float32" and fmt == "f32":
        raise UsageError(f"--format f32 writes float32: use --format raw for --dtype {dtype}")
    if dtype == "bfloat16" and fmt == "npy":
        raise UsageError("--format npy has no bfloat16 (NumPy lacks the type): use --format raw")
    table = sinusoidal(length, dim, base=base, offset=offset, layout=a.layout, frequencies=a.frequencies,
                       preset=a.preset, dtype=dtype)
    if fmt in ("raw", "f32"):
        write(table.tobytes())
    elif fmt == "npy":
        write(npy_header(length, dim, "<f2" if dtype == "float16" else "<f4") + table.tobytes())
    else:
        if dtype != "float32":  # every value the nearest of that type, printed as float32
            table = table.astype(np.float32) if dtype == "float16" else (table.astype(np.uint32) << 16).view(np.float32)
        write(prologue(fmt, length, dim))
        step = max(1, 65536 // dim)
        for start in range(0, length, step):
            write(format_rows(fmt, table[start : start + step], start, offset + start))
        write(epilogue(fmt, length))


def run_rope(a: argparse.Namespace, write: Callable[[Any], None]) -> None:
    if a.config is None:
        raise UsageError("--config is required (a model's config.json)")
    length = count(a.length, "--length", 0)
    offset = count(a.offset, "--offset", 0)
    if offset + length > MAX_POSITION:
        raise UsageError(f"--offset + --length must be at most 2147483648; got {offset} + {length}")
    what = choice(a.what, "--what", ["frequencies", "attention-factor", "cos-sin"], "frequencies")
    fmt = choice(a.format, "--format", ["text", "csv", "json"], "text")
    if what == "cos-sin":
        dtype = choice(a.dtype, "--dtype", ["float32", "float16", "bfloat16"], "float32")
    else:
        dtype = choice(a.dtype, "--dtype", ["float64", "float32", "float16", "bfloat16"], "float64")
    d = from_config(a.config, a.layer_type)
    if d["kind"] != "rope":
        raise UsageError(f"the config describes a model with {d['kind']} positions, not RoPE", 1)
    r = d["rope"]
    scaling = r["scaling"]
    if scaling is not None:
        scaling = {k: v for k, v in scaling.items() if k != "mrope_section"} or None
    spelled = dict(head_dim=r["head_dim"], rotary_dim=r["rotary_dim"], base=r["base"], scaling=scaling)
    if what == "cos-sin":
        asked = "float32" if dtype == "float32" else "float64"
        cos, sin = rope_cos_sin(**spelled, layout=r["layout"], offset=offset, length=length, dtype=asked)
        rows = np.concatenate([narrow(cos, dtype).reshape(cos.shape), narrow(sin, dtype).reshape(sin.shape)], axis=1)
        write(prologue(fmt, length, rows.shape[1]))
        write(format_rows(fmt, rows, 0, offset))
        write(epilogue(fmt, length))
        return
    w, factor = rope_frequencies(**spelled, length=offset + length)
    digits = 16 if dtype == "float64" else 8
    if what == "frequencies":
        write(format_values(fmt, "pair", "frequency", narrow(w, dtype).tolist(), digits))
    else:
        write(format_values(fmt, "index", "attention_factor", narrow(np.array([factor]), dtype).tolist(), digits))


def read_table_file(data: bytes, name: Optional[str], rows: int, dim: int) -> tuple[np.ndarray, int, int]:
    """A table from .npy, .safetensors, CSV/whitespace text, or raw little-endian float32 bytes (by content)."""
    if data[:6] == b"\x93NUMPY":
        import io

        array = np.load(io.BytesIO(data), allow_pickle=False)
        array = array.reshape(array.shape[0], -1) if array.ndim != 1 else array.reshape(1, -1)
        return np.ascontiguousarray(array, dtype=np.float32), array.shape[0], array.shape[1]
    if len(data) >= 8:
        head = int.from_bytes(data[:8], "little")
        if 2 <= head <= len(data) - 8 and data[8:9] == b"{":
            header = json.loads(data[8 : 8 + head])
            tensors = {k: v for k, v in header.items() if k != "__metadata__"}
            if name is None and len(tensors) != 1:
                raise UsageError(f"the .safetensors file holds {len(tensors)} tensors; give --name", 1)
            key = name if name is not None else next(iter(tensors))
            if key not in tensors:
                raise UsageError(f"the .safetensors file has no tensor '{key}'", 1)
            t = tensors[key]
            begin, end = t["data_offsets"]
            raw = data[8 + head + begin : 8 + head + end]
            kinds = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "BF16": "<u2"}
            if t["dtype"] not in kinds:
                raise UsageError(f"tensor '{key}' is {t['dtype']}; identify reads F32, F16, BF16 and F64", 1)
            array = np.frombuffer(raw, dtype=kinds[t["dtype"]])
            if t["dtype"] == "BF16":
                array = (array.astype(np.uint32) << 16).view(np.float32)
            shape = t["shape"]
            cols = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
            return np.ascontiguousarray(array, dtype=np.float32), array.size // max(cols, 1), cols
    if name is not None:
        raise UsageError("--name is for .safetensors files", 1)
    if data and all(b in (9, 10, 13) or 32 <= b < 127 for b in data):
        values: list = []
        width = 0
        count_rows = 0
        for index, line in enumerate(data.decode("latin1").split("\n")):
            fields = [f for f in line.replace(",", " ").replace("\t", " ").replace(";", " ").replace("\r", " ")
                      .split(" ") if f]
            if not fields:
                continue
            try:
                numbers = [float(f) for f in fields]
            except ValueError:
                if count_rows == 0 and not values:
                    continue  # a first line of names
                raise UsageError(f"line {index + 1}: not a row of numbers", 1) from None
            if count_rows == 0:
                width = len(numbers)
            elif len(numbers) != width:
                raise UsageError(f"line {index + 1} has {len(numbers)} numbers; the first row has {width}", 1)
            values += numbers
            count_rows += 1
        if count_rows == 0:
            raise UsageError("the text holds no numbers", 1)
        return np.array(values, dtype=np.float32), count_rows, width
    if not rows and not dim:
        raise UsageError("a raw float32 file needs --rows and/or --dim", 1)
    if len(data) % 4:
        raise UsageError(f"a raw float32 file has a multiple of 4 bytes; this one has {len(data)}", 1)
    total = len(data) // 4
    rows = rows or total // dim
    dim = dim or total // rows
    if rows * dim != total:
        raise UsageError(f"the file holds {total} floats, not --rows x --dim", 1)
    return np.frombuffer(data, dtype="<f4").astype(np.float32), rows, dim


def run_identify(a: argparse.Namespace, write: Callable[[Any], None]) -> None:
    if a.file is None:
        raise UsageError("identify needs a FILE (.npy, .safetensors, CSV or raw float32; see --help)")
    kind = choice(a.kind, "--kind", ["auto", "table", "cos-sin"], "auto")
    rows = count(a.rows, "--rows", 0, 1, 2**32 - 1)
    dim = count(a.dim, "--dim", 0, 1, 2**32 - 1)
    cap = 256 << 20  # the CLIs' cap for a table (README "Limits"); a stream is read no further
    try:
        if a.file == "-":
            data = sys.stdin.buffer.read(cap + 1)
        else:
            with open(a.file, "rb") as file:
                data = file.read(cap + 1)
        if len(data) > cap:
            raise UsageError(f"identify: {a.file} is larger than 256 MiB, posenc's limit for a table", 1)
    except OSError as error:
        raise UsageError(f"identify: cannot read {a.file}: {error.strerror}", 2) from None
    table, rows, dim = read_table_file(data, a.name, rows, dim)
    result = identify(table.reshape(-1), rows=rows, dim=dim, kind=kind)
    write(result["json"] + "\n" if a.json else result["text"])


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m posenc", description="posenc's CLI in Python: the same bytes as "
                                  "the native and Node CLIs for the same arguments.")
    top.add_argument("--version", action="store_true", help="print the version")
    commands = top.add_subparsers(dest="command")
    t = commands.add_parser("table", help="the sinusoidal positional-encoding table (Vaswani et al.)")
    for option in ("length", "dim", "base", "offset", "layout", "frequencies", "preset", "dtype", "format", "output"):
        t.add_argument(f"--{option}")
    r = commands.add_parser("rope", help="a model's RoPE frequencies, read from its config.json")
    for option in ("config", "layer-type", "length", "offset", "what", "dtype", "format", "output"):
        r.add_argument(f"--{option}")
    i = commands.add_parser("identify", help="which convention the table in FILE follows")
    i.add_argument("file", nargs="?", metavar="FILE", help=".npy, .safetensors, CSV/text or raw float32; - reads "
                   "standard input")
    for option in ("name", "rows", "dim", "kind", "output"):
        i.add_argument(f"--{option}")
    i.add_argument("--json", action="store_true", help="print the facts as one JSON object")
    return top


def main(argv: Optional[list] = None) -> int:
    a = parser().parse_args(argv)
    if a.version:
        sys.stdout.write(f"posenc {_lib.version()}\n")
        return 0
    if a.command is None:
        parser().print_help()
        return 2
    output = getattr(a, "output", None)
    chunks: list = []

    def write(chunk: Any) -> None:
        chunks.append(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)

    try:
        {"table": run_table, "rope": run_rope, "identify": run_identify}[a.command](a, write)
    except (UsageError, PosencError) as error:
        message = error.args[0] if isinstance(error, PosencError) else str(error)
        sys.stderr.write(f"posenc: {message}\n")
        return error.code if isinstance(error, UsageError) else 1
    data = b"".join(chunks)
    try:
        if output is not None:
            with open(output, "wb") as file:
                file.write(data)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
    except BrokenPipeError:
        # The reader left (`| head`): quiet, status 0, and no second complaint at exit.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        sys.stderr.write(f"posenc: cannot write '{output}': {error.strerror}\n")
        return 1
    return 0
