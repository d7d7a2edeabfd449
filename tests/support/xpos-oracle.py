"""xPos's scales in 50-digit arithmetic (mpmath), for tests/rope-xpos.test.js.

Reads a JSON list of [r, gamma, scale_base, d] on stdin and writes a JSON list
of strings: zeta_i^(d / scale_base) for every pair i < r/2 of each entry, where
zeta_i = (2i/r + gamma)/(1 + gamma) with gamma and scale_base taken exactly as
the doubles given (the paper's definition, evaluated with mpmath's power, not
the core's exp/log). 25 significant digits each: far below float32's half ulp.
"""
import json
import sys

from mpmath import mp, mpf, nstr

mp.dps = 50


def scales(r, gamma, scale_base, d):
    g = mpf(gamma)
    out = []
    for i in range(r // 2):
        zeta = (mpf(2 * i) / r + g) / (1 + g)
        out.append(nstr(zeta ** (mpf(d) / mpf(scale_base)), 25))
    return out


json.dump([scales(*entry) for entry in json.load(sys.stdin)], sys.stdout)
