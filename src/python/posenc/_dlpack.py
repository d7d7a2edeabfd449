"""Arrays of other frameworks through DLPack, without a copy: the producer's
__dlpack__ capsule read with ctypes (numpy < 2.1 gives read-only arrays from
np.from_dlpack, and none for bfloat16), so that rope can rotate them in place.
CPU memory only; the capsule is renamed "used_dltensor" as the protocol asks,
and the producer's deleter runs when the view (through its keeper) is freed."""

from __future__ import annotations

import ctypes
from typing import Any, Optional, Tuple

import numpy as np

K_DL_CPU = 1
# DLDataType (code, bits) -> numpy dtype; bfloat16 as its uint16 bit patterns
_TYPES = {(2, 32): np.float32, (2, 16): np.float16, (2, 64): np.float64, (4, 16): np.uint16, (1, 32): np.uint32,
          (0, 32): np.int32, (0, 64): np.int64, (1, 16): np.uint16, (0, 16): np.int16}


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32), ("dtype", _DataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _Managed(ctypes.Structure):
    pass


_Managed._fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p),
                     ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_Managed)))]

_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _Keeper:
    """Owns a consumed DLManagedTensor: calls its deleter once nothing views the memory."""

    def __init__(self, managed: Any) -> None:
        self.managed = managed

    def __del__(self) -> None:
        if self.managed.contents.deleter:
            self.managed.contents.deleter(self.managed)


def has_dlpack(x: Any) -> bool:
    """Whether x offers DLPack (and is not a numpy array, which posenc reads directly)."""
    return hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__") and not isinstance(x, np.ndarray)


def dlpack_view(x: Any) -> Tuple[Optional[np.ndarray], Optional[str], str]:
    """(a numpy view of x's memory, 'bfloat16' when the elements are that, or None) and '' when it worked;
    (None, None, why) when x is not in CPU memory, is strided, or has a type numpy cannot hold."""
    device = x.__dlpack_device__()
    if int(device[0]) != K_DL_CPU:
        return None, None, "a CPU array (posenc works in host memory)"
    capsule = x.__dlpack__()
    if not _api.PyCapsule_IsValid(capsule, b"dltensor"):
        return None, None, "a DLPack capsule that has not been used"
    managed = ctypes.cast(_api.PyCapsule_GetPointer(capsule, b"dltensor"), ctypes.POINTER(_Managed))
    _api.PyCapsule_SetName(capsule, b"used_dltensor")  # the consumer owns it now
    keeper = _Keeper(managed)
    t = managed.contents.dl_tensor
    shape = [t.shape[k] for k in range(t.ndim)]
    kind = _TYPES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
    if kind is None:
        return None, None, f"numbers numpy holds (DLPack type code {t.dtype.code}, {t.dtype.bits} bits)"
    itemsize = np.dtype(kind).itemsize
    if t.strides:
        expected = 1
        for k in reversed(range(t.ndim)):
            if shape[k] != 1 and t.strides[k] != expected:
                return None, None, "a C-contiguous array (a strided view cannot be updated in place)"
            expected *= shape[k]
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    address = (t.data or 0) + t.byte_offset
    buffer = (ctypes.c_char * max(count * itemsize, 1)).from_address(address or id(keeper))
    buffer.keeper = keeper  # the view's base holds the producer's tensor until the view is freed
    array = np.frombuffer(buffer, dtype=kind, count=count).reshape(shape)
    return array, "bfloat16" if t.dtype.code == 4 else None, ""
