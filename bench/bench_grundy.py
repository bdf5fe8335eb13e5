"""Grundy values on a large random DAG next to solve(), and ImpartialGame speed.

    python bench/bench_grundy.py [--quick]
"""
import argparse

import numpy as np

import grundy
from _util import best_time, print_table


def random_dag(rng, n, m):
    """m edges u -> v with u < v in a random relabelling of 0..n-1."""
    a = rng.integers(0, n, size=m)
    b = rng.integers(0, n, size=m)
    keep = a != b
    a, b = a[keep], b[keep]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    perm = rng.permutation(n)
    return grundy.GameGraph.from_edges(np.stack([perm[lo], perm[hi]], axis=1), n=n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(2)
    n, m = (10 ** 5, 10 ** 6) if args.quick else (10 ** 6, 10 ** 7)
    g = random_dag(rng, n, m)
    t_solve, sol = best_time(g.solve)
    t_grundy, values = best_time(g.values)
    assert ((values == 0) == (sol.outcome == grundy.LOSS)).all()
    print_table(["graph", "n", "m", "solve() ms", "values() ms", "values/solve", "max value"],
                [["random DAG", n, g.n_moves, f"{t_solve * 1e3:.0f}", f"{t_grundy * 1e3:.0f}",
                  f"{t_grundy / t_solve:.2f}", int(values.max())]])

    # A move-function game with 10^5 reachable positions: Kayles-like splits
    # would be quadratic; use a subtraction game on pairs (heap, parity).
    N = 10 ** 5 // 2

    def moves(pos):
        k, parity = pos
        return [(k - s, parity ^ 1) for s in (1, 2, 5) if s <= k] + \
               ([grundy.Sum((k // 2, parity), (k - k // 2, parity))] if k >= 4 and k % 7 == 0 else [])

    def run():
        game = grundy.ImpartialGame(moves)
        game.values([(N - 1, 0), (N - 1, 1)])
        return game

    t_game, game = best_time(run, repeat=1)
    print()
    print_table(["ImpartialGame", "positions", "time ms", "positions/s"],
                [["subtraction + splits", game.n_explored, f"{t_game * 1e3:.0f}",
                  f"{game.n_explored / t_game:,.0f}"]])


if __name__ == "__main__":
    main()
