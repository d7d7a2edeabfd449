"""Reads the JS package's status table (src/js/runtime/status.js, CODE_OF_STATUS):
{C enumerator name: JS code}. Imports nothing, so the wheel's build backend
uses it too, to write _status_codes.py."""

import re

_ENTRY = re.compile(r"^\s*(PE_[A-Z0-9_]+):\s*'([A-Z_]+)'", re.M)


def parse_status_js(text: str) -> dict:
    """The CODE_OF_STATUS object literal of status.js, entry by entry."""
    start = text.index("CODE_OF_STATUS")
    end = text.index("});", start)
    table = dict(_ENTRY.findall(text[start:end]))
    if "PE_OK" not in table or len(table) < 2:
        raise ValueError("status.js: no CODE_OF_STATUS entries found")
    return table
