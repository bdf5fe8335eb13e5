import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))   # for `import reference`


def random_graph(rng, n, m, self_loops=True):
    """(n, succ) with m random edges (multi-edges and, optionally, self-loops)."""
    succ = [[] for _ in range(n)]
    if n:
        for _ in range(m):
            u, v = rng.randrange(n), rng.randrange(n)
            if u == v and not self_loops:
                continue
            succ[u].append(v)
    return succ


@pytest.fixture
def rng():
    return random.Random(12345)
