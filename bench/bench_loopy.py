"""Generalized Sprague-Grundy values on random cyclic graphs, next to solve().

    python bench/bench_loopy.py
"""
import numpy as np

import grundy
from _util import best_time, print_table


def main():
    rng = np.random.default_rng(3)
    rows = []
    for n in (10 ** 5, 10 ** 6):
        m = 3 * n
        edges = rng.integers(0, n, size=(m, 2))
        g = grundy.GameGraph.from_edges(edges, n=n)
        t_solve, sol = best_time(g.solve)
        t_loopy, lv = best_time(g.loopy_values)
        assert (lv.outcome == sol.outcome).all()
        rows.append([n, m, lv.stages, int(lv.finite.max()), int(lv.infinite.sum()),
                     f"{t_solve * 1e3:.0f}", f"{t_loopy * 1e3:.0f}", f"{t_loopy / t_solve:.2f}"])
    print_table(["n", "m", "stages", "max finite", "infinite", "solve() ms",
                 "loopy_values() ms", "loopy/solve"], rows)


if __name__ == "__main__":
    main()
