"""Regenerates LongRoPE caches of the identify() corpus with HF's recipe
(make_corpus.py's longrope_inv_freq and hf_cos_sin, Debian's python3-torch)
with one factor changed, and says whether every cell is the file's bit for
bit: tests/diagnose-open-factors.test.js shows with it that the factors a
verdict leaves open are truly not fixed by the cells. Nothing here calls
posenc.

Reads on stdin a JSON list of {file, scaling ('longrope-short' or
'longrope-long'), dtype, start, rows, fn, layout, pair, value}; writes a JSON
list of the cells that differ (0: the cache is the file's bit for bit)."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, '..', 'fixtures', 'identify-peers')
sys.path.insert(0, CORPUS)

import make_corpus as mc  # noqa: E402  (the peers' recipes, after the path is set)


def differing(case):
    dim, theta, _, hf = mc.SCALINGS[case['scaling']]
    factors = list(mc.PHI3['short' if case['scaling'].endswith('short') else 'long'])
    factors[case['pair']] = case['value']
    inv, attention = mc.longrope_inv_freq(dim, theta, factors, hf['original_max_position_embeddings'], 131072)
    cos, sin = mc.hf_cos_sin(inv, list(range(case['start'], case['start'] + case['rows'])), attention,
                             mc.DTYPES[case['dtype']])
    pick = cos if case['fn'] == 'cos' else sin
    if case['layout'] == 'single':
        pick = pick[:, :dim // 2]
    made = pick.numpy() if pick.dtype == mc.torch.float16 else pick.float().numpy()
    held = np.load(os.path.join(CORPUS, case['file']))
    if made.shape != held.shape or made.dtype != held.dtype:
        return made.size
    return int(np.count_nonzero(made.view(f'u{made.itemsize}') != held.view(f'u{held.itemsize}')))


if __name__ == '__main__':
    print(json.dumps([differing(c) for c in json.load(sys.stdin)]))
