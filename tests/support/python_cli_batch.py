"""Runs `python -m posenc` (posenc.cli.main) on many argument lists in one process, for
tests/python-cli.test.js: reads a JSON list of argument lists on stdin, writes a JSON list of
{status, stdout (base64), stderr} in the same order. The runs are the CLI's own: main with
sys.stdout and sys.stderr pointed at in-memory buffers, in the directory given as argv[1]."""

import base64
import io
import json
import os
import sys

from posenc.cli import main

os.chdir(sys.argv[1])
runs = json.load(sys.stdin)
results = []
real_stdout, real_stderr = sys.stdout, sys.stderr
for args in runs:
    out, err = io.BytesIO(), io.StringIO()
    wrapper = io.TextIOWrapper(out, encoding="utf-8")
    sys.stdout, sys.stderr = wrapper, err
    try:
        status = main(args)
        wrapper.flush()
    finally:
        sys.stdout, sys.stderr = real_stdout, real_stderr
        wrapper.detach()  # out stays open
    results.append({"status": status, "stdout": base64.b64encode(out.getvalue()).decode(), "stderr": err.getvalue()})
json.dump(results, sys.stdout)
