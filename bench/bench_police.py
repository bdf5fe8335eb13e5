"""Police and thief: the implicit solver at 20x20 .. 100x100, next to the
explicit approach: the position graph built in Python (plain loops, at 20x20)
or vectorised with numpy (up to 40x40), then GameGraph.solve(labels=...).
Also the time to build the best move of every position (``sol.move``) after
a solve, side by side with the solve.

Each implicit solve runs in a fresh subprocess so that its peak memory
(peak RSS above the process's RSS just before solving) is its own.

    python bench/bench_police.py [--sizes 20,40,70,100]
"""
import argparse
import json
import subprocess
import sys
import time

import numpy as np

import grundy
from _util import best_time, print_table


def board_rows(n, walls, seed=0):
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random((n, n)) < walls, "*", ".")
    grid[0, 0], grid[n // 2, n // 2], grid[n - 1, n - 1] = "P", "T", "E"
    return ["".join(row) for row in grid]


def explicit_solve(board):
    """Every position and move as an edge array (numpy), then the generic solver."""
    F = board.n_cells
    idx = {tuple(c): i for i, c in enumerate(board.cells.tolist())}

    def step_pairs(offsets):
        src, dst = [], []
        for i, (r, c) in enumerate(board.cells.tolist()):
            for dr, dc in offsets:
                j = idx.get((r + dr, c + dc))
                if j is not None:
                    src.append(i)
                    dst.append(j)
        src += list(range(F))                 # passes
        dst += list(range(F))
        return np.array(src), np.array(dst)

    ps, pd = step_pairs(board.police_moves)
    ts, td = step_pairs(board.thief_moves)
    cells = np.arange(F)
    # police moves: (p, t, 1) -> (p2, t, 0) for every t; thief: (p, t, 0) -> (p, t2, 1)
    t_all = np.repeat(cells[None, :], len(ps), axis=0)
    e1 = np.stack([((ps[:, None] * F + t_all) * 2 + 1).ravel(),
                   ((pd[:, None] * F + t_all) * 2).ravel()], axis=1)
    p_all = np.repeat(cells[None, :], len(ts), axis=0)
    e2 = np.stack([((p_all * F + ts[:, None]) * 2).ravel(),
                   ((p_all * F + td[:, None]) * 2 + 1).ravel()], axis=1)
    labels = np.zeros(2 * F * F, dtype=np.int8)
    pt = np.arange(F * F)
    p, t = pt // F, pt % F
    exits = np.zeros(F, dtype=bool)
    exits[[idx[tuple(e)] for e in board.exits.tolist()]] = True
    caught, escaped = p == t, (p != t) & exits[t]
    labels[pt[caught] * 2 + 1], labels[pt[caught] * 2] = 1, -1
    labels[pt[escaped] * 2], labels[pt[escaped] * 2 + 1] = 1, -1
    g = grundy.GameGraph.from_edges(np.concatenate([e1, e2]), n=2 * F * F)
    return g.solve(labels=labels), g.n_moves


def _status_kib(field):
    # /proc/self/status: VmHWM is the peak RSS of this process image (unlike
    # ru_maxrss, which a child inherits from its parent across fork + exec).
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def python_explicit_solve(board):
    """The explicit approach written plainly: positions and moves enumerated in
    Python loops into an edge list, then the generic solver."""
    F = board.n_cells
    cells = [tuple(c) for c in board.cells.tolist()]
    idx = {c: i for i, c in enumerate(cells)}
    exits = {tuple(e) for e in board.exits.tolist()}

    def steps(i, offsets):
        r, c = cells[i]
        return [idx[(r + dr, c + dc)] for dr, dc in offsets if (r + dr, c + dc) in idx] + [i]

    pol = [steps(i, board.police_moves) for i in range(F)]
    thf = [steps(i, board.thief_moves) for i in range(F)]
    edges, labels = [], np.zeros(2 * F * F, dtype=np.int8)
    for p in range(F):
        for t in range(F):
            s = (p * F + t) * 2
            if p == t:
                labels[s], labels[s + 1] = -1, 1
            elif cells[t] in exits:
                labels[s], labels[s + 1] = 1, -1
            else:
                edges.extend((s + 1, (p2 * F + t) * 2) for p2 in pol[p])
                edges.extend((s, (p * F + t2) * 2 + 1) for t2 in thf[t])
    return grundy.GameGraph.from_edges(edges, n=2 * F * F).solve(labels=labels)


def child(n, walls):
    """Run in a subprocess: solve one board, print JSON."""
    board = grundy.PoliceThief(board_rows(n, walls))
    base = _status_kib("VmRSS")
    t0 = time.perf_counter()
    sol = board.solve()
    dt = time.perf_counter() - t0
    peak = _status_kib("VmHWM") - base
    t0 = time.perf_counter()
    sol.move                          # every best move, built by the kernel on first use
    dt_move = time.perf_counter() - t0
    print(json.dumps({"positions": board.n_positions, "time": dt, "peak_kib": peak,
                      "move_time": dt_move, "result": sol.result}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="20,40,70,100")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(int(args.child[0]), float(args.child[1]))
    rows = []
    for n in map(int, args.sizes.split(",")):
        for walls in (0.0, 0.2):
            out = subprocess.run([sys.executable, __file__, "--child", str(n), str(walls)],
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out)
            explicit = ratio = py_explicit = py_ratio = "-"
            if n <= 20:
                board = grundy.PoliceThief(board_rows(n, walls))
                t_py, sol_py = best_time(lambda: python_explicit_solve(board), repeat=1)
                assert np.array_equal(sol_py.outcome, board.solve().outcome)
                py_explicit = f"{t_py:.2f}"
                py_ratio = f"{t_py / r['time']:.0f}x"
            if n <= 40:
                board = grundy.PoliceThief(board_rows(n, walls))
                t_exp, (sol_exp, m) = best_time(lambda: explicit_solve(board), repeat=3 if n <= 20 else 1)
                t_imp, sol_imp = best_time(board.solve)
                assert np.array_equal(sol_exp.outcome, sol_imp.outcome)
                explicit = f"{t_exp:.2f}"
                ratio = f"{t_exp / t_imp:.0f}x"
            rows.append([f"{n}x{n}", f"{int(walls * 100)}%", f"{r['positions']:,}", f"{r['time']:.3f}",
                         f"{r['peak_kib'] / 1024:,.0f}", f"{r['positions'] / r['time'] / 1e6:.1f}",
                         f"{r['move_time']:.3f}", f"{r['move_time'] / r['time']:.2f}",
                         py_explicit, py_ratio, explicit, ratio, r["result"]])
    print_table(["board", "walls", "positions", "implicit s", "peak MiB", "M positions/s",
                 "move array s", "move/solve",
                 "explicit(py) s", "py/implicit", "explicit(numpy) s", "numpy/implicit",
                 "result"], rows)


if __name__ == "__main__":
    sys.exit(main())
