import os
import random
import signal
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))   # for `import reference`

# A test run started in the background by a non-interactive shell inherits
# SIGINT ignored, and so would every child it starts (an ignored signal
# stays ignored across exec, and Python then installs no KeyboardInterrupt
# handler): the Ctrl-C tests would wait for a signal nobody hears.  Python's
# own handler here makes every child start with the default disposition.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
