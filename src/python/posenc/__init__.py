"""posenc: positional encodings for transformers, computed exactly and fast.

Python bindings over the posenc C library (ctypes, no compiled extension):
numpy arrays in and out, torch CPU tensors through numpy views of their memory,
and the same bits as the JS package and the C library on every build.

    >>> import posenc
    >>> pe = posenc.sinusoidal(10, 4)                  # (10, 4) float32
    >>> cos, sin = posenc.rope_cos_sin(head_dim=128, length=4096, base=500000.0)
    >>> posenc.rope(q, base=500000.0)                   # q: (batch, length, heads, head_dim), in place

Every refusal is a PosencError whose ``code`` is the JS package's code.
"""

from __future__ import annotations

from . import _lib
from .alibi import alibi_bias, alibi_slopes
from .config import from_config
from .diagnose import identify
from .errors import PosencError
from .rope import rope, rope_cos_sin, rope_frequencies
from .sinusoid import sinusoidal

__version__ = _lib.version()
library_path: str = _lib.path


def simd() -> bool:
    """True when the loaded C library runs its SIMD kernels (both kinds give the same bits)."""
    return _lib.simd()


__all__ = [
    "PosencError",
    "alibi_bias",
    "alibi_slopes",
    "from_config",
    "identify",
    "rope",
    "rope_cos_sin",
    "rope_frequencies",
    "simd",
    "sinusoidal",
    "__version__",
]
