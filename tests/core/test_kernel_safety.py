"""The compiled kernels, called directly with random (mostly invalid) arrays,
raise clean Python errors and never crash the interpreter."""
import random

import numpy as np
import pytest

from grundy._core import csr, explore, grundy as kgrundy, loopy, octal, police, retrograde

OK = (ValueError, TypeError, MemoryError)


def garbage(rng, length=None):
    n = rng.randrange(0, 6) if length is None else length
    return np.array([rng.randrange(-3, 8) for _ in range(n)], dtype=np.int64)


def call(fn, *args):
    try:
        fn(*args)
    except OK:
        pass


@pytest.mark.parametrize("seed", range(10))
def test_graph_kernels_with_garbage(seed):
    rng = random.Random(seed)
    for _ in range(300):
        indptr, indices = garbage(rng), garbage(rng)
        n = max(len(indptr) - 1, 0)
        call(csr.check_csr, indptr, indices)
        call(csr.edges_to_csr, garbage(rng), garbage(rng), rng.randrange(-1, 6))
        labels = np.array([rng.randrange(-2, 3) for _ in range(rng.choice([n, n + 1]))],
                          dtype=np.int8)
        try:
            src = csr.CSRSource(indptr, indices, labels)
        except OK:
            pass
        else:
            call(retrograde.solve, src, np.empty(rng.choice([n, 0]), np.uint8),
                 np.empty(n, np.uint16))
        call(kgrundy.dag_grundy, indptr, indices, np.empty(rng.choice([n, n + 2]), np.int64))
        call(loopy.loopy_grundy, indptr, indices, np.empty(n, np.int64))
        call(kgrundy.sums_grundy, garbage(rng), rng.randrange(-1, 4), garbage(rng),
             garbage(rng), garbage(rng), np.zeros(rng.randrange(0, 6), np.int64))


@pytest.mark.parametrize("seed", range(5))
def test_octal_and_police_kernels_with_garbage(seed):
    rng = random.Random(seed)
    for _ in range(200):
        G = np.array([rng.randrange(0, 9) for _ in range(rng.randrange(0, 40))], dtype=np.uint32)
        start, stop = rng.randrange(-2, 45), rng.randrange(-2, 45)
        rules = [garbage(rng) for _ in range(4)]
        call(octal.plain_extend, G, start, stop, *rules, rng.random() < 0.5)
        call(octal.sparse_extend, G, start, stop, *rules[:3], rng.random() < 0.5,
             rng.randrange(0, 16))
        call(octal.find_period, G, rng.randrange(-1, 4), rng.randrange(-1, 4), rng.randrange(0, 2))
        F = rng.randrange(0, 4)
        k = rng.randrange(0, 3)
        pp = np.array([[rng.randrange(-2, 5) for _ in range(k)] for _ in range(F)],
                      dtype=np.int64).reshape(F, k)
        tp = np.array([[rng.randrange(-2, 5) for _ in range(k)] for _ in range(F)],
                      dtype=np.int64).reshape(F, k)
        n = 2 * F * F
        exits = np.array([rng.randrange(0, 2) for _ in range(F)],
                         dtype=np.uint8)[:rng.choice([F, max(F - 1, 0)])]
        try:        # the police plug-in: its tables garbage
            src = police.PoliceThiefSource(pp, tp, tp, pp, exits, rng.random() < 0.5)
        except OK:
            continue
        # The generic driver and best-move kernel on it, with garbage arrays.
        call(retrograde.solve, src, np.zeros(rng.choice([n, n + 1]), np.uint8),
             np.zeros(n, rng.choice([np.uint16, np.int32, np.int64])))
        start, stop = rng.randrange(-1, n + 2), rng.randrange(-1, n + 2)
        call(retrograde.best_moves, src,
             np.array([rng.randrange(-1, 3) for _ in range(rng.choice([n, n + 1]))], dtype=np.int8),
             np.array([rng.randrange(0, 9) for _ in range(n)],
                      dtype=rng.choice([np.uint16, np.int32, np.int64])),
             start, stop, np.zeros(rng.randrange(0, n + 2), np.int64))


@pytest.mark.parametrize("seed", range(5))
def test_explore_kernel_with_garbage(seed):
    rng = random.Random(seed)
    table = explore.CodeTable(rng.randrange(0, 40))
    ref = {}
    for _ in range(300):
        keys = garbage(rng)
        if rng.random() < 0.2:
            keys = keys.astype(rng.choice([np.int32, np.uint64, np.float64, np.int8]))
        ids = np.zeros(rng.randrange(0, 7),
                       dtype=rng.choice([np.int64, np.int64, np.int64, np.int32, np.uint64]))
        try:
            table.insert(keys, ids)
        except OK:
            pass
        else:
            for k in keys.tolist():
                ref.setdefault(k, len(ref))
            assert ids[:len(keys)].tolist() == [ref[k] for k in keys.tolist()]
        call(table.lookup, keys, ids)
        call(table.reserve, rng.randrange(-3, 100))
        call(table.bytes_for, rng.randrange(-3, 100))
        call(explore.CodeTable, rng.randrange(-3, 40))
    assert table.codes().tolist() == list(ref)
