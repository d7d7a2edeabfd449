"""Sinusoidal tables as the peers' own code makes them (Debian's python3-torch
and python3-numpy), for tests/diagnose-recipes.test.js and
diagnose-verdicts.test.js: the PyTorch tutorial's PositionalEncoding (float32
exp for div_term, PyTorch's float32 sin and cos), numpy's float64 recipe
(np.exp(np.arange(0, d, 2) * (-np.log(base) / d)), float64 angles and
sin/cos, cast to float32), and fairseq's odd embedding_dim (a zero column
appended). Nothing here calls posenc.

Reads a JSON list of cases on stdin; writes {name: {rows, dim, data}} with
data the float32 bytes (row-major) in base64."""
import base64
import json
import math
import sys

import numpy as np
import torch


def tutorial(rows, dim, base=10000.0, start=0):
    position = torch.arange(start, start + rows, dtype=torch.float).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(base) / dim))
    pe = torch.zeros(rows, dim)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.numpy()


def numpy64(rows, dim, base=10000.0, start=0):
    position = np.arange(start, start + rows, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, dim, 2) * (-np.log(base) / dim))
    pe = np.zeros((rows, dim), dtype=np.float64)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe.astype(np.float32)


def fairseq_odd(rows, dim, base=10000.0):
    # fairseq's get_embedding: half_dim = dim // 2, tensor2tensor's rule, sin then cos, a zero column for odd dim
    half = dim // 2
    step = math.log(base) / (half - 1)
    freqs = torch.exp(torch.arange(half, dtype=torch.float) * -step)
    angles = torch.arange(rows, dtype=torch.float).unsqueeze(1) * freqs.unsqueeze(0)
    emb = torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
    return torch.cat([emb, torch.zeros(rows, 1)], dim=1).numpy()


MAKERS = {"tutorial": tutorial, "numpy64": numpy64, "fairseq_odd": fairseq_odd}


def main():
    out = {}
    for case in json.load(sys.stdin):
        t = np.ascontiguousarray(MAKERS[case["maker"]](*case["args"]), dtype=np.float32)
        out[case["name"]] = {"rows": t.shape[0], "dim": t.shape[1], "data": base64.b64encode(t.tobytes()).decode()}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
