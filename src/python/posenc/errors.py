"""PosencError and the codes it carries: the JS package's codes (README, "JavaScript API").

A status of the C core becomes a code by its enumerator's name (pe_status_name),
through the JS package's own table, src/js/runtime/status.js: the wheel carries
a copy generated from it at build time (_status_codes.py), and a source tree
without one reads the file itself. A status the table does not name becomes
CORE_STATUS, as in JS.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import _lib
from ._status_table import parse_status_js

UNKNOWN_STATUS_CODE = "CORE_STATUS"


def _code_table() -> dict[str, str]:
    try:
        from ._status_codes import CODE_OF_STATUS  # written by the wheel's build

        return dict(CODE_OF_STATUS)
    except ImportError:
        source = Path(__file__).resolve().parents[2] / "js" / "runtime" / "status.js"
        return parse_status_js(source.read_text(encoding="utf-8"))


CODE_OF_STATUS: dict[str, str] = _code_table()


def status_name(status: int) -> str:
    """The C enumerator's name of a status ("PE_ERR_DIM_ODD"); "PE_UNKNOWN" for other values."""
    return _lib.lib.pe_status_name(status).decode("ascii")


def status_text(status: int) -> str:
    """The core's sentence for a status (pe_status_str)."""
    return _lib.lib.pe_status_str(status).decode("utf-8")


def code_of_status(status: int) -> str:
    """The JS code of a C status (CORE_STATUS when the table does not name it)."""
    return CODE_OF_STATUS.get(status_name(status), UNKNOWN_STATUS_CODE)


class PosencError(ValueError):
    """A refused call: ``code`` is the JS package's code (``'BAD_DIM'``, ...), ``argument``
    the argument at fault and ``value`` its value when known, ``status`` the C
    enumerator's name when the core refused. A refused call leaves its inputs untouched."""

    def __init__(self, code: str, message: str, argument: str | None = None, value: Any = None,
                 status: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.argument = argument
        self.value = value
        self.status = status

    def __str__(self) -> str:
        return f"{self.code}: {self.args[0]}"


def refuse(code: str, argument: str, allowed: str, value: Any) -> None:
    """Raises PosencError naming the argument, its value and what is allowed."""
    raise PosencError(code, f"{argument} must be {allowed}; got {value!r}", argument, value)


def check(status: int, what: str) -> None:
    """Raises PosencError for a non-zero status of the call `what`."""
    if status == 0:
        return
    raise PosencError(code_of_status(status), f"{what}: {status_text(status)}", status=status_name(status))
