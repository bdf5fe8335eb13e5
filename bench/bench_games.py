"""Games from their rules: grundy's explorer and engine next to plain Python.

Four tables, each measured side by side in one run (the machine is shared
and noisy; compare the ratios):

1. ``protocol``: tic-tac-toe and Connect Four 4x4 through the per-position
   protocol (``solve_game``) next to a pure-Python dict-based explore and
   retrograde analysis of the same game (the design of GamesmanPy's
   solver), checked to agree; and the share of grundy's time spent outside
   the game's own methods (the methods' time is measured by replaying them
   once per position).
2. ``batch``: Connect Four through the batch protocol (numpy rules, codes
   deduplicated in compiled code) on growing boards until one takes more
   than ``--limit`` seconds: positions, positions per second end to end,
   peak memory, and the first player's result.  Each board runs in its own
   process (its peak RSS is its own).
3. ``police``: police and thief through the compiled plug-in at 40x40 and
   100x100; with ``--before PYTHON`` (an interpreter with an earlier grundy
   installed) the same boards are solved by both, alternately.
4. ``kayles``: ``ImpartialGame`` on Kayles written with ``Sum`` options (the
   README's example) next to a plain memoised Python mex, and where the
   time goes.

    python bench/bench_games.py [--only protocol,batch,police,kayles]
                                [--limit 120] [--before /path/to/python]
"""
import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict, deque

import grundy
from _util import best_time, print_table

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "examples"))


# -- 1. the per-position protocol ------------------------------------------------------

class Connect4Positions(grundy.Game):
    """Connect Four, one position at a time: a tuple of columns (each a
    string of 'x'/'o' from the bottom), seen by the player to move ('x')."""

    def __init__(self, width, height):
        self.width, self.height = width, height

    def start(self):
        return ("",) * self.width

    def _cell(self, p, c, r):
        if not 0 <= c < self.width:
            return "."
        col = p[c]
        return col[r] if r < len(col) else "."

    def primitive(self, p):
        for c in range(self.width):
            for r in range(len(p[c])):
                if p[c][r] != "o":
                    continue
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(r + k * dr >= 0 and self._cell(p, c + k * dc, r + k * dr) == "o"
                           for k in range(4)):
                        return grundy.LOSS
        if all(len(col) == self.height for col in p):
            return grundy.TIE
        return None

    def moves(self, p):
        swapped = tuple(col.translate(str.maketrans("xo", "ox")) for col in p)
        return [swapped[:c] + (swapped[c] + "o",) + swapped[c + 1:]
                for c in range(self.width) if len(p[c]) < self.height]


def python_solve(game):
    """Explore with dicts, then retrograde analysis in plain Python (ties too)."""
    start = game.start()
    order, seen, children, prim = [start], {start}, {}, {}
    for p in order:
        v = game.primitive(p)
        prim[p] = v
        if v is None:
            ch = list(game.moves(p))
            children[p] = ch
            for c in ch:
                if c not in seen:
                    seen.add(c)
                    order.append(c)
    parents = defaultdict(list)
    for p, ch in children.items():
        for c in ch:
            parents[c].append(p)
    value, rem = {}, {}
    count = {p: len(children.get(p, ())) for p in order}
    queue, ties = deque(), deque()
    for p in order:
        v = prim[p] if prim[p] is not None else (grundy.LOSS if not children[p] else None)
        if v is not None:
            value[p], rem[p] = v, 0
            (ties if v == grundy.TIE else queue).append(p)
    while queue:
        p = queue.popleft()
        for u in parents[p]:
            if u in value:
                continue
            if value[p] == grundy.LOSS:
                value[u], rem[u] = grundy.WIN, rem[p] + 1
                queue.append(u)
            else:
                count[u] -= 1
                if count[u] == 0:
                    value[u], rem[u] = grundy.LOSS, rem[p] + 1
                    queue.append(u)
    while ties:
        p = ties.popleft()
        for u in parents[p]:
            if u not in value:
                value[u], rem[u] = grundy.TIE, rem[p] + 1
                ties.append(u)
    return {p: value.get(p, grundy.DRAW) for p in order}


def methods_time(game, positions):
    """The time of the game's own methods, called once per position."""
    t0 = time.perf_counter()
    game.start()
    for p in positions:
        if game.primitive(p) is None:
            list(game.moves(p))
        if hasattr(game, "canonical"):
            game.canonical(p)
    return time.perf_counter() - t0


def bench_protocol():
    from tictactoe import TicTacToe

    rows = []
    for name, game in (("tic-tac-toe", TicTacToe()), ("Connect Four 4x4",
                                                     Connect4Positions(4, 4))):
        t_grundy, sol = best_time(lambda: grundy.solve_game(game), repeat=3)
        t_python, ref = best_time(lambda: python_solve(game), repeat=1)
        assert len(ref) == sol.n_positions
        assert all(sol[p].outcome == o for p, o in ref.items())
        t_methods = min(methods_time(game, sol.positions) for _ in range(3))
        rows.append([name, f"{sol.n_positions:,}", f"{t_grundy:.3f}", f"{t_python:.3f}",
                     f"{t_python / t_grundy:.1f}x", f"{t_methods:.3f}",
                     f"{max(t_grundy - t_methods, 0) / t_grundy:.0%}",
                     sol[sol.start].outcome])
    print_table(["game", "positions", "grundy s", "python s", "python/grundy",
                 "methods s", "outside methods", "start"], rows)


# -- 2. the batch protocol --------------------------------------------------------------

def batch_child(width, height):
    from connect4 import Connect4

    game = Connect4(width, height, symmetry=True)
    t0 = time.perf_counter()
    sol = grundy.solve_game(game)
    dt = time.perf_counter() - t0
    with open("/proc/self/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
    print(json.dumps({"positions": sol.n_positions, "time": dt, "peak_kib": peak,
                      "result": str(sol[sol.start].outcome),
                      "remoteness": sol[sol.start].remoteness}))


def bench_batch(limit):
    boards = [(4, 4), (5, 4), (4, 5), (6, 4), (5, 5), (4, 6), (7, 4), (6, 5), (5, 6), (7, 5),
              (6, 6)]
    rows = []
    for w, h in boards:
        try:
            out = subprocess.run([sys.executable, __file__, "--batch-child", str(w), str(h)],
                                 capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            rows.append([f"{w}x{h}", f"> {limit} s", "-", "-", "-", "-"])
            break
        if out.returncode != 0:                   # refused: more memory than this machine has
            last = (out.stderr.strip().splitlines() or ["failed"])[-1]
            rows.append([f"{w}x{h}", "-", "-", "-", "-", last[:80]])
            break
        r = json.loads(out.stdout)
        rows.append([f"{w}x{h}", f"{r['positions']:,}", f"{r['time']:.2f}",
                     f"{r['positions'] / r['time'] / 1e6:.2f}", f"{r['peak_kib'] / 1024:,.0f}",
                     f"{r['result']} in {r['remoteness']}"])
    print_table(["board", "positions (symmetry)", "s", "M positions/s", "peak MiB",
                 "first player"], rows)


# -- 3. police and thief through the plug-in ----------------------------------------------

POLICE_CODE = r"""
import sys, time, numpy as np, grundy
n = int(sys.argv[1])
grid = np.full((n, n), ".")
grid[0, 0], grid[n // 2, n // 2], grid[n - 1, n - 1] = "P", "T", "E"
board = grundy.PoliceThief(["".join(r) for r in grid])
t = time.perf_counter(); sol = board.solve(); dt = time.perf_counter() - t
with open("/proc/self/status") as f:
    peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
print(dt, peak, sol.result)
"""


def bench_police(before):
    runs = [("now", sys.executable)] + ([("before", before)] if before else [])
    rows = []
    for n in (40, 100):
        best = {}
        for _ in range(3):
            for name, python in runs:
                out = subprocess.run([python, "-c", POLICE_CODE, str(n)], capture_output=True,
                                     text=True, check=True, cwd="/tmp").stdout.split()
                dt, peak = float(out[0]), int(out[1])
                old = best.get(name, (float("inf"), 0))
                best[name] = (min(old[0], dt), max(old[1], peak))
        row = [f"{n}x{n}", f"{2 * n ** 4:,}", f"{best['now'][0]:.3f}",
               f"{best['now'][1] / 1024:,.0f}"]
        if before:
            row += [f"{best['before'][0]:.3f}", f"{best['before'][1] / 1024:,.0f}",
                    f"{best['now'][0] / best['before'][0]:.3f}"]
        rows.append(row)
    headers = ["board", "positions", "solve s", "peak MiB"]
    if before:
        headers += ["before s", "before MiB", "now/before"]
    print_table(headers, rows)


# -- 4. ImpartialGame on Kayles ------------------------------------------------------------

def kayles(n):
    return [grundy.Sum(a, n - k - a) for k in (1, 2) for a in range(n - k + 1)]


def plain_mex(n):
    g = [0] * (n + 1)
    for m in range(1, n + 1):
        seen = set()
        for k in (1, 2):
            for a in range(m - k + 1):
                seen.add(g[a] ^ g[m - k - a])
        v = 0
        while v in seen:
            v += 1
        g[m] = v
    return g


def bench_kayles(n=2000):
    t_game, values = best_time(lambda: grundy.ImpartialGame(kayles).values(range(n + 1)),
                               repeat=1)
    t_plain, plain = best_time(lambda: plain_mex(n), repeat=3)
    assert values.tolist() == plain
    t_moves, _ = best_time(lambda: [kayles(m) for m in range(n + 1)], repeat=1)
    print_table(["n", "ImpartialGame s", "plain mex s", "game/plain", "kayles() alone s",
                 "the rest s"],
                [[n, f"{t_game:.2f}", f"{t_plain:.3f}", f"{t_game / t_plain:.0f}x",
                  f"{t_moves:.2f}", f"{t_game - t_moves:.2f}"]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="protocol,batch,police,kayles")
    ap.add_argument("--limit", type=float, default=120.0)
    ap.add_argument("--before", help="a Python with an earlier grundy, for the police A/B")
    ap.add_argument("--batch-child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.batch_child:
        return batch_child(*args.batch_child)
    parts = args.only.split(",")
    if "protocol" in parts:
        bench_protocol()
    if "batch" in parts:
        bench_batch(args.limit)
    if "police" in parts:
        bench_police(args.before)
    if "kayles" in parts:
        bench_kayles()


if __name__ == "__main__":
    sys.exit(main())
