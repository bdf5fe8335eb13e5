"""Retrograde analysis on large random graphs, next to a plain BFS, and
against a build of an earlier version.

For each graph: solve() from CSR, end to end from an edge array
(from_edges + solve), and scipy's breadth_first_order over the same CSR
(one graph traversal: the practical floor), measured side by side in one
run.  A pure-Python version of the same algorithm runs on a 10^5-edge
graph for scale.

With ``--previous REF`` (a git commit, such as 4fb0e53, or the Python of
an environment where an earlier grundy is installed), a second table: the
random graph n = 10^6, m = 3*10^6 solved with threads=1 and threads=2 by
this build and the earlier one, and with the default thread count and
threads=1 while another process keeps one core busy.  Each build runs in
its own process, kept alive; their solves alternate, the best of
``--rounds`` counted.  A commit is built once into a virtual environment
under ~/.cache/grundy-bench (a minute or two).

    python bench/bench_retrograde.py [--quick] [--previous 4fb0e53] [--rounds 7]
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from collections import deque

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

import grundy
from _util import best_time, print_table


def python_solve(n, indptr, indices):
    """The same queue algorithm in pure Python (outcome and remoteness)."""
    rev = [[] for _ in range(n)]
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            rev[indices[e]].append(u)
    count = [indptr[u + 1] - indptr[u] for u in range(n)]
    outcome = [0] * n
    rem = [-1] * n
    q = deque()
    for v in range(n):
        if count[v] == 0:
            outcome[v], rem[v] = -1, 0
            q.append(v)
    while q:
        s = q.popleft()
        for u in rev[s]:
            if outcome[u]:
                continue
            if outcome[s] == -1:
                outcome[u], rem[u] = 1, rem[s] + 1
                q.append(u)
            else:
                count[u] -= 1
                if count[u] == 0:
                    outcome[u], rem[u] = -1, rem[s] + 1
                    q.append(u)
    return outcome, rem


# A solver process: builds the graph, then answers "THREADS" (or "default")
# on stdin with the seconds of one solve.
_SOLVER = r"""
import sys, time, inspect, numpy as np, grundy
n, m = 10 ** 6, 3 * 10 ** 6
edges = np.random.default_rng(1).integers(0, n, size=(m, 2), dtype=np.int64)
g = grundy.GameGraph.from_edges(edges, n=n)
threaded = "threads" in inspect.signature(g.solve).parameters
g.solve()
print(grundy.__version__, threaded, flush=True)
for line in sys.stdin:
    arg = line.strip()
    kw = {} if arg == "default" or not threaded else {"threads": int(arg)}
    if arg not in ("default", "1") and not threaded:
        print("inf", flush=True)
        continue
    t0 = time.perf_counter()
    g.solve(**kw)
    print(time.perf_counter() - t0, flush=True)
"""


def previous_python(ref):
    """The Python of an environment with grundy at ``ref``: ``ref`` itself if
    it is an executable, else the commit built (once) into a cache."""
    if os.path.isfile(ref) and os.access(ref, os.X_OK):
        return ref
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", ref], check=True,
                            capture_output=True, text=True).stdout.strip()
    home = os.path.join(os.path.expanduser("~"), ".cache", "grundy-bench", commit)
    python = os.path.join(home, "venv", "bin", "python")
    if not os.path.exists(python):
        print(f"building grundy {commit} into {home} ...", file=sys.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", root, "archive", commit], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            subprocess.run([sys.executable, "-m", "venv", os.path.join(home, "venv")],
                           check=True)
            subprocess.run([python, "-m", "pip", "install", "-q", tmp], check=True)
    return python


class Solver:
    """A solver process of one build."""

    def __init__(self, python):
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        self.proc = subprocess.Popen([python, "-c", _SOLVER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env,
                                     cwd=tempfile.gettempdir())
        version, threaded = self.proc.stdout.readline().split()
        self.version, self.threaded = version, threaded == "True"

    def time(self, threads):
        self.proc.stdin.write(f"{threads}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def against_previous(ref, rounds):
    """The serial and 2-thread table of this build against ``ref``'s, and
    the default thread count under a busy core."""
    solvers = {"this": Solver(sys.executable), "previous": Solver(previous_python(ref))}
    best = {}

    def measure(cases):
        for _ in range(rounds):
            for who, threads in cases:              # alternating, one solve each
                t = solvers[who].time(threads)
                best[who, threads] = min(best.get((who, threads), float("inf")), t)

    try:
        measure([("previous", "1"), ("this", "1"), ("previous", "2"), ("this", "2")])
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            time.sleep(0.5)
            busy = {}
            for _ in range(rounds):
                for who, threads in [("this", "1"), ("this", "default"),
                                     ("previous", "default")]:
                    t = solvers[who].time(threads)
                    busy[who, threads] = min(busy.get((who, threads), float("inf")), t)
        finally:
            hog.kill()
            hog.wait()
    finally:
        for s in solvers.values():
            s.close()
    prev, this = solvers["previous"].version, solvers["this"].version

    def ms(t):                                  # "-": the earlier build has no threads=
        return f"{t * 1e3:.0f}" if math.isfinite(t) else "-"

    rows = [["threads=1", ms(best["previous", "1"]), ms(best["this", "1"]),
             f"{best['previous', '1'] / best['this', '1']:.2f}x"],
            ["threads=2", ms(best["previous", "2"]), ms(best["this", "2"]),
             f"{best['this', '1'] / best['this', '2']:.2f}x faster than threads=1"],
            ["one core busy: threads=1", "", ms(busy["this", "1"]), ""],
            ["one core busy: default threads", ms(busy["previous", "default"]),
             ms(busy["this", "default"]),
             f"{busy['this', '1'] / busy['this', 'default']:.2f}x threads=1's speed"]]
    print(f"random graph n = 10^6, m = 3*10^6: grundy {prev} ({ref}) against this build "
          f"({this}), best of {rounds}")
    print_table(["solve", f"{os.path.basename(ref)} ms", "this ms", "ratio"], rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller graphs")
    ap.add_argument("--previous", metavar="REF",
                    help="a git commit (or the Python of an environment) to compare with")
    ap.add_argument("--rounds", type=int, default=7, help="alternating solves of each kind")
    args = ap.parse_args()
    if args.previous:
        against_previous(args.previous, args.rounds)
        print()
    n = 10 ** 5 if args.quick else 10 ** 6
    rng = np.random.default_rng(1)
    rows = []
    for name, m in (("sparse", 2 * n), ("random", 10 * n), ("dense", 30 * n)):
        edges = rng.integers(0, n, size=(m, 2), dtype=np.int64)
        g = grundy.GameGraph.from_edges(edges, n=n)
        indptr, indices = g.indptr, g.indices
        mat = sp.csr_matrix((np.ones(m, dtype=np.int8), indices.astype(np.int32),
                             indptr.astype(np.int32)), shape=(n, n))
        t_bfs, _ = best_time(lambda: breadth_first_order(mat, 0, directed=True,
                                                         return_predecessors=False))
        t_csr, sol = best_time(lambda: grundy.GameGraph.from_csr(indptr, indices).solve())
        t_e2e, _ = best_time(lambda: grundy.GameGraph.from_edges(edges, n=n).solve())
        c = sol.counts()
        rows.append([name, n, m, f"{c[grundy.WIN]}/{c[grundy.LOSS]}/{c[grundy.DRAW]}",
                     f"{t_bfs * 1e3:.0f}", f"{t_csr * 1e3:.0f}", f"{t_e2e * 1e3:.0f}",
                     f"{t_csr / t_bfs:.2f}", f"{t_e2e / t_bfs:.2f}"])
    print_table(["graph", "n", "m", "win/loss/draw", "bfs ms", "solve(csr) ms",
                 "end-to-end ms", "csr/bfs", "e2e/bfs"], rows)

    # Pure Python on a 10^5-edge graph (sparse, so most vertices get decided).
    n_small, m_small = 5 * 10 ** 4, 10 ** 5
    edges = rng.integers(0, n_small, size=(m_small, 2), dtype=np.int64)
    g = grundy.GameGraph.from_edges(edges, n=n_small)
    ip, ix = g.indptr.tolist(), g.indices.tolist()
    t_py, (out_py, rem_py) = best_time(lambda: python_solve(n_small, ip, ix), repeat=1)
    t_c, sol = best_time(lambda: g.solve())
    assert out_py == sol.outcome.tolist() and rem_py == sol.remoteness.tolist()
    print()
    print_table(["graph", "n", "m", "pure Python ms", "grundy ms", "speed-up"],
                [["sparse", n_small, m_small, f"{t_py * 1e3:.0f}", f"{t_c * 1e3:.2f}",
                  f"{t_py / t_c:.0f}x"]])


if __name__ == "__main__":
    sys.exit(main())
