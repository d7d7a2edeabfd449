"""inv_freq vectors as the peers' own code makes them, with PyTorch (Debian's
python3-torch): HF transformers' _compute_*_parameters of
modeling_rope_utils.py (default, linear, dynamic, yarn, longrope, llama3)
written out here step by step in torch, the PyTorch tutorial's exp recipe,
numpy's float64 recipe, and the casts a checkpoint goes through
(model.to(bfloat16) / half() cast buffers). Nothing here calls posenc.

Reads a JSON list of cases on stdin, writes {name: [values as float64]} on
stdout (each value exactly as stored: float32/16/bf16 widened to float64)."""
import json
import math
import sys

import numpy as np
import torch


def default(base, dim):
    # HF: 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


def linear(base, dim, factor):
    inv = default(base, dim)
    inv /= factor
    return inv


def dynamic(base, dim, factor, max_pos, seq_len):
    seq_len = seq_len if seq_len is not None and seq_len > max_pos else max_pos
    base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
    return default(base, dim)


def yarn(base, dim, factor, original_max, beta_fast=32, beta_slow=1, truncate=True):
    def correction_dim(rotations):
        return (dim * math.log(original_max / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    pos_freqs = base ** (torch.arange(0, dim, 2).float() / dim)
    extrapolation = 1.0 / pos_freqs
    interpolation = 1.0 / (factor * pos_freqs)
    keep = 1 - ramp
    return interpolation * (1 - keep) + extrapolation * keep


def longrope(base, dim, factors):
    ext = torch.tensor(factors, dtype=torch.float32)
    shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
    return 1.0 / (ext * base**shape)


def llama3(base, dim, factor, low_freq_factor, high_freq_factor, original_max):
    inv = default(base, dim)
    low_wavelen = original_max / low_freq_factor
    high_wavelen = original_max / high_freq_factor
    wavelen = 2 * math.pi / inv
    scaled = torch.where(wavelen > low_wavelen, inv / factor, inv)
    smooth = (original_max / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < high_wavelen) * ~(wavelen > low_wavelen)
    return torch.where(medium, smoothed, scaled)


def tutorial(base, dim):
    return torch.exp(torch.arange(0, dim, 2).float() * (-math.log(base) / dim))


def numpy64(base, dim):
    return np.exp(np.arange(0, dim, 2) * (-np.log(base) / dim))


MAKERS = {"default": default, "linear": linear, "dynamic": dynamic, "yarn": yarn, "longrope": longrope,
          "llama3": llama3, "tutorial": tutorial, "numpy64": numpy64}


def stored(values, dtype):
    if isinstance(values, np.ndarray):
        t = torch.from_numpy(values)
    else:
        t = values
    t = t.to({"float64": torch.float64, "float32": torch.float32, "float16": torch.float16,
              "bfloat16": torch.bfloat16}[dtype])
    return t.to(torch.float64).tolist()


def main():
    out = {}
    for case in json.load(sys.stdin):
        values = MAKERS[case["maker"]](*case["args"])
        out[case["name"]] = stored(values, case.get("dtype", "float32" if case["maker"] != "numpy64" else "float64"))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
