"""The position axes of `python -m posenc rope` (--mrope-section, --vision, --position-ids), with the
checks, order and messages of src/js/cli/rope-axes.js and src/cli/rope_axes_option.c."""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

import numpy as np

from ._cli_args import Given, fail, parse_count
from ._cli_input import MAX_IDS_BYTES, read_input

MAX_ID = 2147483647


def _sections(text: str, half: int) -> List[int]:
    parts = text.split(",")

    def bad() -> None:
        fail("--mrope-section must be 3 whole numbers of pairs (temporal, height, width), each ≥ 1, summing to "
             f"rotary_dim/2 = {half}; got {text}")

    if len(parts) != 3 or any(len(p.encode()) >= 16 for p in parts):
        bad()
    s = [parse_count(p) for p in parts]
    if any(v is None or v < 1 for v in s) or sum(s) != half:  # type: ignore[operator]
        bad()
    return s  # type: ignore[return-value]


def _ids(text: str, axes: int) -> List[List[int]]:
    rows: List[List[int]] = []
    for line in re.split(r"[;\n]", text):
        tokens = [t for t in re.split(r"[, \t\r]", line) if t]
        if not tokens:
            continue
        ids = []
        for token in tokens:
            raw = token.encode("utf-8", "surrogateescape")
            value = parse_count(token) if len(raw) < 16 else None
            if value is None or value > MAX_ID:
                fail(f"--position-ids must hold whole numbers from 0 to 2147483647; got {raw[:40].decode('latin1')}")
            ids.append(value)
        rows.append(ids)
        if len(rows) > 1 and len(ids) != len(rows[0]):
            fail(f"--position-ids rows must be equally long; row 1 has {len(rows[0])} ids, row {len(rows)} has "
                 f"{len(ids)}")
    if len(rows) != axes:
        need = ("mrope takes 3: temporal, height, width" if axes == 3 else
                "--vision takes 2: the patches' rows, then their columns" if axes == 2 else
                "plain RoPE takes 1 (rows are separated by ';' or new lines)")
        fail(f"--position-ids has {len(rows)} row{'' if len(rows) == 1 else 's'}; {need}")
    return rows


def rope_axes_options(given: Given, rotary_dim: int, scaling: Optional[dict], scaled: bool, offset: int,
                      length: int) -> Tuple[dict, dict]:
    """(the axes as posenc's rope functions take them: mrope_section, vision; the rows: offset, length,
    positions (None, a list, or one list per axis) and end, the largest position + 1)."""
    half = rotary_dim // 2
    sections_text = given.get("--mrope-section")
    ids_text = given.get("--position-ids")
    vision = given.get("--vision") == "true"
    sections = None if sections_text is None else _sections(sections_text, half)
    from_config = None if scaling is None else scaling.get("mrope_section")
    if from_config is not None:
        listed = ", ".join(str(v) for v in from_config)
        if len(from_config) != 3:
            fail(f"the config's mrope_section has {len(from_config)} entries; posenc takes 3 (temporal, height, "
                 "width)", 1)
        if sum(from_config) != half:
            fail(f"the config's mrope_section ({listed}) must sum to rotary_dim/2 = {half}", 1)
        if sections is not None and sections != list(from_config):
            fail(f"--mrope-section {sections_text} differs from the config's mrope_section ({listed})")
        sections = list(from_config)
    if vision and sections is not None:
        fail("--vision takes no mrope sections (a rope is mrope or 2-D, not both)")
    if vision and (half % 2 or scaled):
        fail("--vision needs rotary_dim a multiple of 4 and no rope scaling (2-D RoPE turns by the patch grid as "
             "it is)")
    if ids_text is not None and ("--offset" in given or "--length" in given):
        fail("--position-ids replaces --offset and --length; give one or the other")
    if vision and ids_text is None:
        fail("--vision needs --position-ids (two rows: the patches' rows, then their columns)")
    axes: dict = {}
    if sections is not None:
        axes["mrope_section"] = sections
    if vision:
        axes["vision"] = True
    if ids_text is None:
        return axes, {"offset": offset, "length": length, "positions": None, "end": offset + length}
    text = ids_text
    if ids_text.startswith("@"):
        data = read_input("--position-ids", "a file of position ids", ids_text[1:], MAX_IDS_BYTES)
        text = data.decode("utf-8", "replace")
        if "\0" in text:
            fail("--position-ids must hold whole numbers from 0 to 2147483647; got a NUL byte")
    rows = _ids(text, 3 if sections is not None else 2 if vision else 1)
    end = max((max(row) + 1 for row in rows if row), default=0)
    positions = np.array(rows[0] if len(rows) == 1 else rows, dtype=np.uint32)
    return axes, {"offset": 0, "length": len(rows[0]), "positions": positions, "end": end}
