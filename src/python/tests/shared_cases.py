"""Runs cases given as JSON on standard input through the installed posenc
package and prints each result's bytes (base64), for tests/python-package.test.js,
which computes the same cases with the JS package and compares bit for bit.

A case: {"call": name, "kwargs": {...}, "x": {"b64": ..., "dtype": ..., "shape": [...]}?}.
"""

import base64
import json
import sys

import numpy as np

import posenc


def array(spec: dict) -> np.ndarray:
    return np.frombuffer(base64.b64decode(spec["b64"]), dtype=spec["dtype"]).reshape(spec["shape"]).copy()


def run(case: dict) -> bytes:
    call, kwargs = case["call"], case.get("kwargs", {})
    if call == "sinusoidal":
        return posenc.sinusoidal(**kwargs).tobytes()
    if call == "rope":
        x = array(case["x"])
        if case.get("torch"):
            import torch

            if case["torch"] == "bfloat16":
                t = torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
            else:
                t = torch.from_numpy(x)
            posenc.rope(t, **kwargs)
            return x.tobytes()  # t is a view of x's memory: rotated in place
        return posenc.rope(x, **kwargs).tobytes()
    if call == "rope_cos_sin":
        cos, sin = posenc.rope_cos_sin(**kwargs)
        return cos.tobytes() + sin.tobytes()
    if call == "rope_frequencies":
        w, factor = posenc.rope_frequencies(**kwargs)
        return w.tobytes() + np.float64(factor).tobytes()
    if call == "alibi_bias":
        return posenc.alibi_bias(**kwargs).tobytes()
    if call == "identify":
        return posenc.identify(array(case["x"]), **kwargs)["json"].encode("utf-8")
    raise ValueError(f"unknown call {call}")


print(json.dumps([base64.b64encode(run(case)).decode("ascii") for case in json.load(sys.stdin)]))
