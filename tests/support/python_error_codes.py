"""For tests/python-errors.test.js: runs each call given on stdin as JSON
({"call": name, "args": [...], "kwargs": {...}, "nan_at": [row, col]?}) and
prints the code of the PosencError it raises (or "OK"), one JSON list."""

import json
import sys

import numpy as np

import posenc

codes = []
for case in json.load(sys.stdin):
    args = list(case.get("args", []))
    if "table" in case:  # identify's table: a sinusoidal table, one cell spoilt
        rows, dim, row, col = case["table"]
        table = posenc.sinusoidal(rows, dim)
        table[row, col] = np.nan
        args = [table]
    try:
        getattr(posenc, case["call"])(*args, **case.get("kwargs", {}))
        codes.append("OK")
    except posenc.PosencError as error:
        codes.append(error.code)
json.dump(codes, sys.stdout)
