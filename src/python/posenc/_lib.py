"""The posenc shared library through ctypes: where it is found, the C structs
of posenc.h that the bindings fill, and the signature of every call used.

The library is looked for, in order: $POSENC_LIBRARY (a path), the copy the
wheel ships inside this package, a build of the source tree this file sits in
(build/lib, as `make` writes it), then the system's (`make install`,
ctypes.util.find_library). The struct layouts below mirror posenc.h field for
field; src/python/tests/test_layout.py compares them with a C compiler's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _candidates() -> list[str]:
    found = []
    env = os.environ.get("POSENC_LIBRARY")
    if env:
        return [env]
    found += sorted(str(p) for p in _HERE.glob("libposenc.so*"))
    tree = _HERE.parent.parent.parent / "build" / "lib" / "libposenc.so"
    if tree.exists():
        found.append(str(tree))
    system = ctypes.util.find_library("posenc")
    if system:
        found.append(system)
    return found


def _load() -> ctypes.CDLL:
    tried = _candidates()
    errors = []
    for path in tried:
        try:
            return ctypes.CDLL(path)
        except OSError as error:
            errors.append(f"{path}: {error}")
    raise ImportError(
        "posenc: the C library libposenc.so was not found ("
        + ("; ".join(errors) if errors else "no candidate")
        + "). Install the package with `pip install .` from the posenc repository, run `make` there, "
        "or set POSENC_LIBRARY to the library's path."
    )


lib = _load()
path = lib._name

u32 = ctypes.c_uint32
i32 = ctypes.c_int32
f64 = ctypes.c_double
enum = ctypes.c_int  # C enums of posenc.h: int-sized
size_t = ctypes.c_size_t
voidp = ctypes.c_void_p
f64p = ctypes.POINTER(ctypes.c_double)


class Sinusoid(ctypes.Structure):
    """pe_sinusoid."""

    _fields_ = [("dim", u32), ("base", f64), ("layout", enum), ("frequencies", enum)]


class Alibi(ctypes.Structure):
    """pe_alibi."""

    _fields_ = [
        ("heads", u32),
        ("query_length", u32),
        ("key_length", u32),
        ("query_offset", u32),
        ("causal", ctypes.c_int),
    ]


class RopeScaling(ctypes.Structure):
    """pe_rope_scaling."""

    _fields_ = [
        ("type", enum),
        ("factor", f64),
        ("original_max_position_embeddings", u32),
        ("beta_fast", f64),
        ("beta_slow", f64),
        ("attention_factor", f64),
        ("mscale", f64),
        ("mscale_all_dim", f64),
        ("no_truncate", ctypes.c_int),
        ("low_freq_factor", f64),
        ("high_freq_factor", f64),
        ("sequence_length", u32),
        ("short_factor", f64p),
        ("long_factor", f64p),
    ]


class RopeAxes(ctypes.Structure):
    """pe_rope_axes."""

    _fields_ = [("type", enum), ("mrope_section", u32 * 3)]


class Xpos(ctypes.Structure):
    """pe_xpos."""

    _fields_ = [("scale_base", f64), ("gamma", f64), ("key", ctypes.c_int), ("center", u32)]


class Rotary(ctypes.Structure):
    """pe_rotary."""

    _fields_ = [
        ("head_dim", u32),
        ("rotary_dim", u32),
        ("heads", u32),
        ("base", f64),
        ("layout", enum),
        ("order", enum),
        ("inverse", ctypes.c_int),
        ("scaling", RopeScaling),
        ("axes", RopeAxes),
        ("xpos", Xpos),
    ]


class Config(ctypes.Structure):
    """pe_config."""

    _fields_ = [
        ("kind", enum),
        ("heads", u32),
        ("kv_heads", u32),
        ("hidden_size", u32),
        ("max_positions", u32),
        ("position_offset", u32),
        ("rope", Rotary),
        ("layer_types", u32),
        ("longrope", ctypes.c_int),
        ("longrope_factor", f64),
        ("longrope_attention_factor", f64),
        ("short_factor", f64p),
        ("long_factor", f64p),
        ("mrope_section", u32 * 4),
        ("mrope_sections", u32),
        ("mrope_interleaved", ctypes.c_int),
        ("layout", enum),
        ("frequencies", enum),
        ("shaw", ctypes.c_int),
        ("num_buckets", u32),
        ("max_distance", u32),
        ("max_relative", u32),
        ("encoder_decoder", ctypes.c_int),
    ]


# Bytes reserved for a pe_diagnosis, which the bindings never read field by
# field (pe_diagnosis_json gives its facts); test_layout.py checks it is enough.
DIAGNOSIS_BYTES = 8192
# The same for a pe_inv_freq_diagnosis (pe_inv_freq_diagnosis_json gives its facts).
INV_FREQ_DIAGNOSIS_BYTES = 4096

_S = enum  # pe_status
_P = ctypes.POINTER
_SIGNATURES = {
    "pe_version": (ctypes.c_char_p, []),
    "pe_status_str": (ctypes.c_char_p, [_S]),
    "pe_status_name": (ctypes.c_char_p, [_S]),
    "pe_active_kernels": (_S, [_P(enum)]),
    "pe_scratch_size": (_S, [u32, _P(size_t)]),
    "pe_table_dtype": (_S, [_P(Sinusoid), enum, u32, u32, voidp, size_t, voidp, size_t]),
    "pe_table_at_dtype": (_S, [_P(Sinusoid), enum, voidp, size_t, voidp, size_t, voidp, size_t]),
    "pe_alibi_slopes": (_S, [u32, voidp, size_t]),
    "pe_alibi_bias": (_S, [_P(Alibi), u32, u32, voidp, size_t]),
    "pe_rope_frequencies": (_S, [_P(Rotary), voidp, size_t, _P(f64)]),
    "pe_rope_plan_size": (_S, [_P(Rotary), u32, _P(size_t)]),
    "pe_rope_plan_init": (_S, [_P(Rotary), u32, voidp, size_t, _P(voidp)]),
    "pe_rope_plan_apply": (_S, [voidp, enum, u32, u32, u32, voidp, voidp, size_t]),
    "pe_rope_plan_cos_sin": (_S, [voidp, enum, ctypes.c_int, u32, u32, voidp, voidp, voidp, size_t]),
    "pe_diagnose_scratch_size": (_S, [u32, u32, _P(size_t)]),
    "pe_diagnose": (_S, [voidp, u32, u32, enum, voidp, _P(size_t), voidp, size_t]),
    "pe_diagnosis_text": (_S, [voidp, ctypes.c_char_p, size_t, _P(size_t)]),
    "pe_diagnosis_json": (_S, [voidp, ctypes.c_char_p, size_t, _P(size_t)]),
    "pe_diagnose_inv_freq": (_S, [voidp, u32, voidp, _P(u32)]),
    "pe_inv_freq_diagnosis_text": (_S, [voidp, ctypes.c_char_p, size_t, _P(size_t)]),
    "pe_inv_freq_diagnosis_json": (_S, [voidp, ctypes.c_char_p, size_t, _P(size_t)]),
    "pe_config_read": (
        _S,
        [ctypes.c_char_p, size_t, ctypes.c_char_p, voidp, size_t, _P(Config), ctypes.c_char_p, size_t],
    ),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes


def version() -> str:
    """The loaded library's version (pe_version)."""
    return lib.pe_version().decode("ascii")


def simd() -> bool:
    """True when the loaded library runs its SIMD kernels (both give the same bits)."""
    kernels = enum(0)
    lib.pe_active_kernels(ctypes.byref(kernels))
    return kernels.value == 1
