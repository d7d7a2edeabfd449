"""ALiBi (Press et al., "Train Short, Test Long"): the per-head slopes and the
bias tensor, computed by the C core (posenc.h, pe_alibi_slopes, pe_alibi_bias)."""

from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from . import _lib
from ._arrays import check_whole
from .errors import check, refuse
from .sinusoid import MAX_POSITION


def alibi_slopes(heads: int) -> np.ndarray:
    """The float32 slopes m_h of `heads` heads, as the paper's get_slopes gives them (1/2 ... 1/256 for 8)."""
    heads = check_whole(heads, "heads", "BAD_HEADS", 1, 65536)
    out = np.empty(heads, dtype=np.float32)
    check(_lib.lib.pe_alibi_slopes(heads, out.ctypes.data, heads), "alibi_slopes")
    return out


def alibi_bias(
    heads: int,
    query_length: int,
    key_length: Optional[int] = None,
    *,
    offset: Optional[int] = None,
    causal: bool = False,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    """The ALiBi bias, float32 of shape (heads, query_length, key_length).

    bias[h, i, j] = -(m_h * |q - j|) with query row i at key position q = offset + i; offset
    defaults to key_length - query_length (the last query on the last key, as HF and fairseq
    align them when decoding with a cache). causal=True masks future keys with -inf. Each value
    is the float32 nearest the exact product; the bits are the JS package's.

    Raises:
        PosencError: BAD_HEADS, BAD_LENGTH, BAD_OFFSET or BAD_SIZE (out), before anything is written.
    """
    heads = check_whole(heads, "heads", "BAD_HEADS", 1, 65536)
    query_length = check_whole(query_length, "query_length", "BAD_LENGTH", 0, MAX_POSITION)
    key_length = query_length if key_length is None else check_whole(key_length, "key_length", "BAD_LENGTH", 0,
                                                                      MAX_POSITION)
    if offset is None:
        if query_length > key_length:
            refuse("BAD_OFFSET", "offset", "given when query_length exceeds key_length (the key position of query "
                   "row 0)", offset)
        offset = key_length - query_length
    offset = check_whole(offset, "offset", "BAD_OFFSET", 0, MAX_POSITION - query_length)
    count = heads * query_length * key_length
    if out is None:
        out = np.empty((heads, query_length, key_length), dtype=np.float32)
    elif (not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.size != count
          or not out.flags.c_contiguous or not out.flags.writeable):
        refuse("BAD_SIZE", "out", f"a writable C-contiguous float32 array of {count} elements",
               getattr(out, "shape", type(out).__name__))
    if count == 0:
        return out
    description = _lib.Alibi(heads, query_length, key_length, offset, 1 if causal else 0)
    check(_lib.lib.pe_alibi_bias(ctypes.byref(description), 0, heads, out.ctypes.data, count), "alibi_bias")
    return out
