"""`python -m posenc t5-buckets`: T5's relative attention buckets (pe_t5_buckets), the bytes of
src/js/cli/t5-buckets.js."""

from __future__ import annotations

import ctypes
from typing import Callable

import numpy as np

from . import _lib
from ._cli_args import MAX_POSITION, Given, fail, flag_on, parse_count
from ._cli_format import FORMATS, npy_header_of
from ._cli_options import COMMON_HELP, count_option, format_option

USAGE = f"""usage: posenc t5-buckets --query-length N [options]

Prints T5's relative attention buckets (HF transformers' _relative_position_bucket):
one line per query row, one bucket per key. Query row i sits at key position offset + i.

  --query-length N   query rows, 0 to 2147483648 (required)
  --key-length K     keys, 0 to 16777216 (default N; a row is made whole, at most 64 MiB)
  --offset P         key position of query row 0 (default K - N: the last query on the last key)
  --num-buckets B    4 to 1024, or 2 to 1024 with --causal (default 32)
  --max-distance D   above the exact distances (B/4, or B/2 with --causal), at most 2147483648
                     (default 128)
  --causal           the decoder's buckets: keys ahead of the query share bucket 0
  --format F         text (spaces), csv or json (default text); or the (query_length, key_length)
                     int32 array: npy (<i4) or raw (little-endian int32); f32 is refused (the
                     buckets are integers)
{COMMON_HELP}
examples:
  posenc t5-buckets --query-length 4 --key-length 6
  posenc t5-buckets --query-length 1 --key-length 512 --offset 511 --causal --format json
  posenc t5-buckets --query-length 512 --format npy --output buckets.npy
"""
OPTIONS = ["--query-length", "--key-length", "--offset", "--num-buckets", "--max-distance", "--format", "--output"]
FLAGS = ["--causal"]
OPERAND = None

MAX_BUCKETS = 1024
CHUNK_VALUES = 65536  # buckets made and written per call (at least one row)
MAX_KEYS = 16777216  # 2^24: a row is made whole


class T5(ctypes.Structure):
    """pe_t5."""

    _fields_ = [("query_length", _lib.u32), ("key_length", _lib.u32), ("query_offset", _lib.u32),
                ("num_buckets", _lib.u32), ("max_distance", _lib.u32), ("bidirectional", ctypes.c_int)]


_lib.lib.pe_t5_buckets.restype = _lib.enum
_lib.lib.pe_t5_buckets.argtypes = [ctypes.POINTER(T5), _lib.voidp, _lib.size_t]


def run(given: Given, write: Callable[[bytes], None]) -> None:
    span = "an integer from 0 to 2147483648"
    causal = flag_on(given, "--causal")
    if "--query-length" not in given:
        fail("--query-length is required (the number of query rows)")
    query_length = count_option(given, "--query-length", None, 0, MAX_POSITION, span)
    key_length = count_option(given, "--key-length", given["--query-length"], 0, MAX_KEYS,
                              "an integer from 0 to 16777216 (a row of buckets is made whole, at most 64 MiB)")
    offset_text = given.get("--offset")
    if offset_text is not None:
        offset = count_option(given, "--offset", None, 0, MAX_POSITION, span)
        if offset + query_length > MAX_POSITION:
            fail(f"--offset + --query-length must be at most 2147483648; got {offset_text} + {query_length}")
    elif query_length > key_length:
        fail("--query-length is above --key-length, so --offset must be given (the key position of query row 0)")
    else:
        offset = key_length - query_length
    buckets_text = given.get("--num-buckets", "32")
    num_buckets = parse_count(buckets_text)
    if num_buckets is None or num_buckets < (2 if causal else 4) or num_buckets > MAX_BUCKETS:
        fail(f"--num-buckets must be an integer from 2 to 1024 with --causal; got {buckets_text}" if causal
             else f"--num-buckets must be an integer from 4 to 1024; got {buckets_text}")
    exact = (num_buckets if causal else num_buckets // 2) // 2
    distance_text = given.get("--max-distance", "128")
    max_distance = parse_count(distance_text)
    if max_distance is None or max_distance <= exact:
        fail(f"--max-distance must be an integer above {exact} (the exact distances) and at most 2147483648; "
             f"got {distance_text}")
    fmt = format_option(given, FORMATS, "text, csv, json, npy or raw")
    if fmt == "f32":
        fail("--format f32 writes float32, and T5's buckets are integers: use --format raw (int32) or npy (<i4)")
    per_call = CHUNK_VALUES if key_length == 0 else max(1, CHUNK_VALUES // key_length)
    if fmt == "json":
        write(b"[")
    if fmt == "npy":
        write(npy_header_of([query_length, key_length], "<i4"))
    for i0 in range(0, query_length, per_call):
        rows = min(per_call, query_length - i0)
        t5 = T5(rows, key_length, offset + i0, num_buckets, max_distance, 0 if causal else 1)
        values = np.empty((rows, key_length), dtype=np.int32)
        status = _lib.lib.pe_t5_buckets(ctypes.byref(t5), values.ctypes.data, values.size)
        if status != 0:
            fail(_lib.lib.pe_status_str(status).decode("utf-8"), 1)
        if fmt in ("npy", "raw"):
            write(values.astype("<i4").tobytes())
            continue
        sep = " " if fmt == "text" else ","
        lines = []
        for i, row in enumerate(values.tolist()):
            line = sep.join(str(v) for v in row)
            lines.append((("\n  [" if i0 + i == 0 else ",\n  [") + line + "]") if fmt == "json" else line + "\n")
        write("".join(lines).encode())
    if fmt == "json":
        write(b"\n]\n")
