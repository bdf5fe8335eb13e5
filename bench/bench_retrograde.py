"""Retrograde analysis on large random graphs, next to a plain BFS.

For each graph: solve() from CSR, end to end from an edge array
(from_edges + solve), and scipy's breadth_first_order over the same CSR
(one graph traversal: the practical floor), measured side by side in one
run.  A pure-Python version of the same algorithm runs on a 10^5-edge
graph for scale.

    python bench/bench_retrograde.py [--quick]
"""
import argparse
import sys
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller graphs")
    args = ap.parse_args()
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
