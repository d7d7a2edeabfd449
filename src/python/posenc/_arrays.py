"""numpy (and torch) arrays at the C boundary: dtypes, views without copies,
aligned scratch memory. torch tensors pass through numpy views of their own
memory (a bfloat16 tensor as its 16-bit patterns), so nothing is copied; other
frameworks' CPU arrays through DLPack (_dlpack.py), likewise without a copy."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._dlpack import dlpack_view, has_dlpack
from .errors import PosencError, refuse

# pe_dtype
DTYPES = {"float32": 0, "float16": 1, "bfloat16": 2, "float64": 3}


def is_torch(x: Any) -> bool:
    """Whether x is a torch tensor (read through .numpy(), which shares its memory)."""
    return type(x).__module__.startswith("torch") and hasattr(x, "numpy") and hasattr(x, "dtype")


def torch_view(x: Any, argument: str) -> tuple[np.ndarray, str | None]:
    """A numpy view of a CPU tensor's memory and its dtype name when numpy has none (bfloat16)."""
    import torch  # only reached with a tensor in hand

    if x.device.type != "cpu":
        refuse("BAD_BUFFER", argument, "a CPU tensor (posenc works in host memory; call .cpu() first)", x.device)
    x = x.detach()
    if x.dtype == torch.bfloat16:
        return x.view(torch.int16).numpy().view(np.uint16), "bfloat16"
    return x.numpy(), None


def _dlpack(x: Any, argument: str) -> tuple[np.ndarray, str | None]:
    array, implied, why = dlpack_view(x)
    if array is None:
        refuse("BAD_BUFFER", argument, why, type(x).__name__)
    return array, implied


def in_place(x: Any, argument: str) -> tuple[np.ndarray, str | None]:
    """x as a writable C-contiguous numpy array sharing its memory (refused otherwise)."""
    implied = None
    if is_torch(x):
        array, implied = torch_view(x, argument)
    elif isinstance(x, np.ndarray):
        array = x
    elif has_dlpack(x):
        array, implied = _dlpack(x, argument)
    else:
        return refuse("BAD_BUFFER", argument, "a numpy array, a torch tensor or a DLPack array (updated in place)",
                      type(x).__name__)
    if not array.flags.c_contiguous or not array.flags.writeable:
        refuse("BAD_BUFFER", argument, "a writable C-contiguous array (it is updated in place)",
               "a strided or read-only view")
    return array, implied


def readable(x: Any, argument: str, dtype: Any) -> np.ndarray:
    """x as a C-contiguous array of dtype: the array itself when it already is one, else a converted copy."""
    if is_torch(x) or has_dlpack(x):
        x, implied = torch_view(x, argument) if is_torch(x) else _dlpack(x, argument)
        if implied:
            refuse("BAD_BUFFER", argument, "float32 values (a bfloat16 tensor: call .float() first)", "bfloat16")
    try:
        return np.ascontiguousarray(x, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise PosencError("BAD_BUFFER", f"{argument} must be numbers ({error})", argument, None) from None


def positions_array(positions: Any, argument: str = "positions") -> np.ndarray:
    """Positions as a C-contiguous uint32 array; negative, non-whole or too large ones are refused."""
    values = np.asarray(positions.cpu().numpy() if is_torch(positions) else positions)
    if values.size and values.dtype.kind not in "iuf":
        refuse("BAD_POSITION", argument, "whole numbers from 0 to 2^31 - 1", values.dtype)
    flat = values.reshape(-1)
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(flat) | (flat < 0) | (flat >= 2**31) | (np.floor(flat) != flat)
    if np.any(bad):
        refuse("BAD_POSITION", f"{argument}[{np.flatnonzero(bad)[0]}]", "a whole number from 0 to 2^31 - 1",
               flat[bad][0].item())
    return np.ascontiguousarray(values, dtype=np.uint32)


def aligned_bytes(count: int) -> tuple[np.ndarray, int]:
    """count bytes of scratch aligned to 64 (the array keeps them alive) and their address."""
    block = np.empty(count + 64, dtype=np.uint8)
    address = block.ctypes.data
    start = (-address) % 64
    return block, address + start


def check_dtype_name(dtype: str, allowed: tuple[str, ...], argument: str = "dtype") -> int:
    """The pe_dtype code of a dtype name among `allowed` (BAD_DTYPE otherwise)."""
    if not isinstance(dtype, str) or dtype not in allowed:
        refuse("BAD_DTYPE", argument, " or ".join(repr(d) for d in allowed), dtype)
    return DTYPES[dtype]


def numpy_dtype(dtype: str) -> Any:
    """The numpy type of an output of `dtype`: bfloat16 as its uint16 bit patterns."""
    return {"float32": np.float32, "float16": np.float16, "bfloat16": np.uint16, "float64": np.float64}[dtype]


def check_whole(value: Any, argument: str, code: str, low: int, high: int) -> int:
    """An integer in [low, high] (numpy integers too; bools refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= int(value) <= high:
        refuse(code, argument, f"an integer from {low} to {high}", value)
    return int(value)


def check_number(value: Any, argument: str, code: str) -> float:
    """A real number (numpy scalars too; bools refused) as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        refuse(code, argument, "a number", value)
    return float(value)


def check_base(value: Any, argument: str = "base") -> float:
    """A frequency base: above 1 and at most 1e300 (posenc.h's PE_MAX_BASE)."""
    base = check_number(value, argument, "BAD_BASE")
    if not 1 < base <= 1e300:
        refuse("BAD_BASE", argument, "a number above 1 and at most 1e300", value)
    return base
