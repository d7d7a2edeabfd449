#!/usr/bin/python3
"""The identify() sweep beyond the checked-in corpus (issue 24): every HF
scaling of make_corpus.py (default, linear, dynamic NTK, YaRN and DeepSeek's
YaRN, Llama 3, LongRoPE short and long) x float32 / float16 / bfloat16 x cos /
sin x halves / single, and the table peers (the tutorial in float32 and
float64, fairseq, Marian, tensor2tensor, Keras, GPT-J), each at the first
positions FIRSTS. The arrays are made by make_corpus.py's functions, the
peers' own recipes; nothing here calls posenc. tests/support/identify-sweep.js
runs identify() on them and prints the confusion table.

    /usr/bin/python3 tests/support/identify-sweep.py OUT_DIR [--variants] [--sample N --seed S] [--names A,B]

writes OUT_DIR/*.npy and OUT_DIR/index.json (make_corpus.py's format); with
--sample, N cases drawn without replacement by a seeded generator (the CI
sample of tests/diagnose-sweep.test.js); with --names, those cases alone.
With --variants, the cases as users hold them beyond the clean 32 rows
instead (variant_cases): transposed, with Gaussian noise, 8 and 16 rows, a
2,048-row window."""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'fixtures', 'identify-peers'))

import make_corpus as mc  # noqa: E402  (the peers' recipes, after the path is set)

# 2^24 + 3: past float32's whole numbers, where HF's position_ids.float() rounds positions in runs
FIRSTS = [0, 100, 65537, 1000003, 13000000, 2**24 + 3]
ROWS = 32
TABLE_DIM = 64


def tables(rows=ROWS):
    """(name, maker, truth) for each table peer, as make_corpus.build writes them, rows rows."""
    t = mc.table_truth
    return [
        ('tutorial-f32', lambda s: mc.tutorial(rows, TABLE_DIM, s, 'float32'),
         lambda s: t('interleaved', 'paper', s, 'float32-angle-exp')),
        # .double() angles: past 10^7 their float64 rounding shows in the float32 cells (numpy's float64 recipe)
        ('tutorial-f64', lambda s: mc.tutorial(rows, TABLE_DIM, s, 'float64'),
         lambda s: t('interleaved', 'paper', s, 'exact' if s < 10**7 else 'float64-numpy')),
        # fairseq's float32 arange rounds its start first: past 2^24 the rows are those from float32(start), which
        # every start rounding alike gives bit for bit (2^24+3: 16777219 to 16777221), so that is what they fix
        ('fairseq', lambda s: mc.fairseq(rows, TABLE_DIM, s),
         lambda s: t('split', 'tensor2tensor', int(mc.np.float32(s)), 'float32-angle-exp')),
        ('marian', lambda s: mc.marian(rows, TABLE_DIM, s), lambda s: t('split', 'paper', s, 'exact')),
        ('t2t', lambda s: mc.tensor2tensor(rows, TABLE_DIM, s),
         lambda s: t('split', 'tensor2tensor', s, 'float32-angle-exp')),
        ('keras-f32', lambda s: mc.keras(rows, TABLE_DIM, s, 'float32'),
         lambda s: t('interleaved', 'paper', s, 'float32-angle-keras')),
        ('gptj', lambda s: mc.gptj(rows, TABLE_DIM, s), lambda s: t('split', 'paper', s, 'float32-angle-hf')),
    ]


def cases():
    """Every case of the sweep, in a fixed order: (name, make) with make() -> (tensor, truth)."""
    out = []
    for scaling in mc.SCALINGS:
        for dtype in mc.DTYPES:
            for fn in ('cos', 'sin'):
                for layout in ('halves', 'single'):
                    for start in FIRSTS:
                        out.append((f'hf-{scaling}-{dtype}-{fn}-{layout}-{start}',
                                    lambda a=(scaling, dtype, start, ROWS, fn, layout): mc.hf_cache(*a)))
    for name, make, truth in tables():
        for start in FIRSTS:
            out.append((f'{name}-{start}', lambda m=make, t=truth, s=start: (m(s), t(s))))
    return out


VARIANT_FIRSTS = [0, 65537, 1000003, 13000000]
# variant: (rows, save()'s keywords; noise as a share of the cells' peak, the cache's attention factor)
VARIANTS = {
    'transposed': (ROWS, {'transpose': True}),
    'noise1e-4': (ROWS, {'noise': 1e-4}),
    'noise1e-2': (ROWS, {'noise': 1e-2}),
    'rows8': (8, {}),
    'rows16': (16, {}),
    'rows2048': (2048, {}),
}


def variant_cases():
    """Each HF scaling (a float32 cos cache, halves duplicated) and table peer at VARIANT_FIRSTS, as each variant:
    (name, make) with make() -> (tensor, truth, save()'s keywords)."""
    out = []
    for variant, (rows, how) in VARIANTS.items():
        for start in VARIANT_FIRSTS:
            for scaling in mc.SCALINGS:
                out.append((f'hf-{scaling}-float32-cos-halves-{start}-{variant}',
                            lambda a=(scaling, 'float32', start, rows, 'cos', 'halves'), h=how:
                            (*mc.hf_cache(*a), h)))
            for name, make, truth in tables(rows):
                out.append((f'{name}-{start}-{variant}', lambda m=make, t=truth, s=start, h=how: (m(s), t(s), h)))
    return out


def save_variant(out_dir, name, tensor, truth, how, index):
    how = dict(how)
    if 'noise' in how:  # a share of the amplitude; the seed from the name, so a case is the same alone or in the run
        how['noise'] *= float(tensor.float().abs().max())
        how['seed'] = sum(name.encode())
    mc.save(out_dir, name, tensor, truth, index, **how)


def main():
    args = sys.argv[1:]
    out_dir = args[0]
    variants = '--variants' in args
    every = variant_cases() if variants else cases()
    if '--names' in args:  # the named cases alone (comma-separated, without .npy)
        names = args[args.index('--names') + 1].split(',')
        every = [case for case in every if case[0] in names]
    if '--sample' in args:
        rng = random.Random(int(args[args.index('--seed') + 1]) if '--seed' in args else 0)
        every = rng.sample(every, int(args[args.index('--sample') + 1]))
    os.makedirs(out_dir, exist_ok=True)
    index = []
    for name, make in every:
        if variants:
            save_variant(out_dir, name, *make(), index)
        else:
            tensor, truth = make()
            mc.save(out_dir, name, tensor, truth, index)
    with open(os.path.join(out_dir, 'index.json'), 'w') as f:
        json.dump({'generator': 'tests/support/identify-sweep.py ' + ' '.join(args[1:]),
                   'torch': mc.torch.__version__, 'numpy': mc.np.__version__, 'files': index}, f, indent=1)
    print(f'{len(index)} files in {out_dir}')


if __name__ == '__main__':
    main()
