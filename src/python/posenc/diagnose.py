"""identify: which positional-encoding convention a table, a RoPE cos/sin cache
or an inv_freq vector follows, and its error against exact (posenc.h,
pe_diagnose). The fitting and the verdict's words are the C core's, so this
says what the JS package and both CLIs say."""

from __future__ import annotations

import ctypes
import json
from typing import Any, Optional

import numpy as np

from . import _lib
from ._arrays import is_torch, readable, torch_view
from .errors import PosencError, check, refuse

KINDS = {"auto": 0, "table": 1, "cos-sin": 2}
TEXT_BYTES = 16384
JSON_BYTES = 16384


def identify(table: Any, *, kind: str = "auto", rows: Optional[int] = None, dim: Optional[int] = None) -> dict:
    """Names the convention of a table and measures its error against the exact one.

    Args:
        table: a 2-D array (rows, dim) or (dim, rows) (detected): a sinusoidal table, a RoPE cos
            or sin cache, both side by side, or a learned table; a 1-D array with rows or dim;
            or a checkpoint's inv_freq vector (one frequency per rotated pair): a 1-D array with
            neither rows nor dim, or kind='inv-freq'; its values are read exactly (float64, float32,
            float16, bfloat16) and base, rotary dim, RoPE scaling and recipe are named
            (pe_diagnose_inv_freq). numpy arrays and CPU torch tensors of any float type.
        kind: 'auto' (default), 'table' (sine-cosine pairs), 'cos-sin' (a RoPE cache) or 'inv-freq'.

    Returns:
        The core's facts as a dict (the JS package's identify result: layout, base, rule, offset,
        scaling, recipe, max_error, ...), plus ``text`` (the report), ``verdict`` (its first line)
        and ``json`` (the facts as the core wrote them).

    Raises:
        PosencError: BAD_KIND, BAD_SHAPE, BAD_TABLE (a NaN or infinite cell, named by row and
            column), BAD_FREQUENCIES (an inv_freq value not in (0, 4]) or BAD_BUFFER.
    """
    if not isinstance(kind, str) or kind not in (*KINDS, "inv-freq"):
        refuse("BAD_KIND", "kind", "'auto' (the default), 'table', 'cos-sin' or 'inv-freq'", kind)
    if is_torch(table):
        table, implied = torch_view(table, "table")
        if implied:  # bfloat16 bits: widen to float32 (exact)
            table = (table.astype(np.uint32) << 16).view(np.float32)
    values = readable(table, "table", np.float32)
    if kind == "inv-freq" or (kind == "auto" and values.ndim == 1 and rows is None and dim is None):
        return _identify_inv_freq(readable(table, "table", np.float64).reshape(-1), rows, dim)
    if values.ndim == 2 and rows is None and dim is None:
        rows, dim = values.shape
    elif values.ndim != 2 and rows is None and dim is None:
        refuse("BAD_SHAPE", "rows and dim", "given for a table that is not 2-D (row-major rows x dim)", values.shape)
    total = values.size
    if rows is None:
        rows = total // dim if dim else 0
    if dim is None:
        dim = total // rows if rows else 0
    if rows * dim != total or total == 0 or (rows < 2 and dim < 2):
        raise PosencError("BAD_SHAPE", f"table has {total} values, not rows*dim = {rows}*{dim} with two rows or "
                          "two columns at least", "table", total)
    size = ctypes.c_size_t(0)
    check(_lib.lib.pe_diagnose_scratch_size(rows, dim, ctypes.byref(size)), "identify")
    scratch = np.empty(size.value + 64, dtype=np.uint8)
    result = np.zeros(_lib.DIAGNOSIS_BYTES, dtype=np.float64)  # 8-aligned, as the struct needs
    bad = ctypes.c_size_t(0)
    flat = values.reshape(-1)
    status = _lib.lib.pe_diagnose(flat.ctypes.data, rows, dim, KINDS[kind], result.ctypes.data, ctypes.byref(bad),
                                  scratch.ctypes.data, scratch.size)
    if status != 0:
        from .errors import status_name

        if status_name(status) == "PE_ERR_NOT_FINITE":
            cell = bad.value
            raise PosencError("BAD_TABLE", f"table[{cell // dim}, {cell % dim}] (row {cell // dim}, column "
                              f"{cell % dim}) is {flat[cell]}; identify needs finite numbers", "table",
                              float(flat[cell]), "PE_ERR_NOT_FINITE")
        check(status, "identify")
    written = ctypes.c_size_t(0)
    text = ctypes.create_string_buffer(TEXT_BYTES)
    facts = ctypes.create_string_buffer(JSON_BYTES)
    check(_lib.lib.pe_diagnosis_text(result.ctypes.data, text, TEXT_BYTES, ctypes.byref(written)), "identify")
    check(_lib.lib.pe_diagnosis_json(result.ctypes.data, facts, JSON_BYTES, ctypes.byref(written)), "identify")
    out = json.loads(facts.value.decode("utf-8"))
    out["json"] = facts.value.decode("utf-8")
    out["text"] = text.value.decode("utf-8")
    out["verdict"] = out["text"][len("verdict: "): out["text"].index("\n")]
    return out


def _identify_inv_freq(w: np.ndarray, rows: Optional[int], dim: Optional[int]) -> dict:
    """pe_diagnose_inv_freq on a 1-D vector of float64 values (exact widenings of the caller's)."""
    if rows is not None or dim is not None:
        refuse("BAD_SHAPE", "rows and dim", "left out with kind='inv-freq' (the vector is 1-D)", rows or dim)
    w = np.ascontiguousarray(w, dtype=np.float64)
    result = np.zeros(_lib.INV_FREQ_DIAGNOSIS_BYTES // 8, dtype=np.float64)
    bad = ctypes.c_uint32(0)
    status = _lib.lib.pe_diagnose_inv_freq(w.ctypes.data, w.size, result.ctypes.data, ctypes.byref(bad))
    if status != 0:
        from .errors import status_name

        name = status_name(status)
        if name in ("PE_ERR_NOT_FINITE", "PE_ERR_FREQUENCY_VALUE"):
            k = bad.value
            x = float(w[k])
            what = ("NaN" if x != x else ("Infinity" if x > 0 else "-Infinity") if x - x != 0 else "0" if x == 0
                    else "negative" if x < 0 else "above 4")
            raise PosencError("BAD_TABLE" if name == "PE_ERR_NOT_FINITE" else "BAD_FREQUENCIES",
                              f"table[{k}] is {what}; an inv_freq vector holds finite frequencies above 0 and at "
                              "most 4", "table", float(w[k]), name)
        check(status, "identify")
    written = ctypes.c_size_t(0)
    text = ctypes.create_string_buffer(TEXT_BYTES)
    facts = ctypes.create_string_buffer(JSON_BYTES)
    check(_lib.lib.pe_inv_freq_diagnosis_text(result.ctypes.data, text, TEXT_BYTES, ctypes.byref(written)),
          "identify")
    check(_lib.lib.pe_inv_freq_diagnosis_json(result.ctypes.data, facts, JSON_BYTES, ctypes.byref(written)),
          "identify")
    out = json.loads(facts.value.decode("utf-8"))
    out["json"] = facts.value.decode("utf-8")
    out["text"] = text.value.decode("utf-8")
    out["verdict"] = out["text"][len("verdict: "): out["text"].index("\n")]
    return out
