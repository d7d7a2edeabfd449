#!/usr/bin/env python3
"""Settles rounding_check's HARD lines at 300 bits with mpmath: each line is
`HARD dim base freq p i cos f32bits f16bits bf16bits` (posenc's bits, hex);
prints each case with its distance to the nearest midpoint and whether posenc's
float32, float16 and bfloat16 are the exact value rounded once."""
import struct
import sys

import mpmath as mp

mp.mp.prec = 300


def rounded(x, t, emin):
    """x rounded once to t fraction bits (nearest, ties to even), and its distance to the nearest midpoint."""
    if x == 0:
        return mp.mpf(0), mp.inf
    e = max(int(mp.floor(mp.log(abs(x), 2))), emin)
    step = mp.mpf(2) ** (e - t)
    n = abs(x) / step
    fl = mp.floor(n)
    gap = abs(n - fl - mp.mpf(0.5)) * step
    r = mp.nint(n) * step  # mpmath nint rounds half to even
    return (r if x > 0 else -r), gap


def from_bits16(b, t, bias):
    sign = -1 if b & 0x8000 else 1
    e = (b & 0x7FFF) >> t
    f = b & ((1 << t) - 1)
    if e == 0:
        return sign * mp.mpf(f) * mp.mpf(2) ** (1 - bias - t)
    return sign * (1 + mp.mpf(f) / 2**t) * mp.mpf(2) ** (e - bias)


count = bad = 0
for line in sys.stdin:
    _, dim, base, freq, p, i, cos, b32, b16, bb16 = line.split()
    dim, p, i, cos = int(dim), int(p), int(i), int(cos)
    half = dim // 2
    expo = mp.mpf(i) / (half - 1 if half > 1 else 1) if freq == 'tensor2tensor' else mp.mpf(2 * i) / dim
    w = mp.power(mp.mpf(base), -expo)
    x = mp.cos(p * w) if cos else mp.sin(p * w)
    got32 = mp.mpf(struct.unpack('<f', struct.pack('<I', int(b32, 16)))[0])
    got16 = from_bits16(int(b16, 16), 10, 15)
    gotb16 = from_bits16(int(bb16, 16), 7, 127)
    checks = [('f32', 23, -126, got32), ('f16', 10, -14, got16), ('bf16', 7, -126, gotb16)]
    oks = []
    for name, t, emin, got in checks:
        want, gap = rounded(x, t, emin)
        oks.append(f'{name} {"ok" if want == got else "WRONG"} (gap {mp.nstr(gap, 3)})')
        bad += want != got
    count += 1
    print(f'p={p} i={i} cos={cos}: ' + ', '.join(oks))
print(f'settled {count} hard cases at 300 bits; {bad} wrong')
