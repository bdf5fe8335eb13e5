"""Saved solutions and progress: what keeping a solution costs, next to solving it.

For police boards of growing size, in one run: the solve, save, file size,
load into memory, load mapped (with and without the CRC pass), the first
queries on the mapped file (sol[start], the line of play), and the peak
memory of a mapped load and query (in a fresh subprocess, its
modules imported: peak RSS above the RSS before loading, file pages included).  Then the cost of ``progress=`` on the
engine: a police solve with no callback and with a callback, alternated.

    python bench/bench_store.py [--sizes 40,70,100]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import grundy
from _util import best_time, print_table

PROBE = r"""
import json, sys, time, numpy, grundy, grundy.engine.store, grundy.games.police
def status(key):       # VmHWM: this process's own peak (ru_maxrss survives exec)
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(key)) * 1024
path, verify = sys.argv[1], sys.argv[2] == "1"
before = status("VmRSS")
t0 = time.perf_counter()
sol = grundy.load(path, mmap=True, verify=verify)
opened = time.perf_counter() - t0
t0 = time.perf_counter()
e = sol[sol.start]
line = sol.line()
query = time.perf_counter() - t0
print(json.dumps({"open": opened, "query": query, "len": len(line),
                  "peak": status("VmHWM") - before}))
"""


def board(n, seed=0):
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random((n, n)) < 0.1, "*", ".")
    grid[0, 0], grid[n // 2, n // 2], grid[n - 1, n - 1] = "P", "T", "E"
    return grundy.PoliceThief(["".join(row) for row in grid])


def probe(path, verify):
    out = subprocess.run([sys.executable, "-c", PROBE, path, "1" if verify else "0"],
                         capture_output=True, text=True, check=True, timeout=600)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="40,70,100")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = tempfile.mkdtemp()
    rows = []
    for n in sizes:
        b = board(n)
        t_solve, sol = best_time(b.solve, repeat=1)
        path = os.path.join(folder, f"police{n}.npz")
        t_save, _ = best_time(lambda: sol.save(path), repeat=1)
        size = os.path.getsize(path)
        t_load, loaded = best_time(lambda: grundy.load(path), repeat=1)
        assert np.array_equal(loaded.outcome, sol.outcome)
        del loaded
        checked, quick = probe(path, True), probe(path, False)
        rows.append([f"{n}x{n}", f"{sol.n_positions / 1e6:.1f} M", f"{t_solve:.2f}",
                     f"{t_save:.2f}", f"{size / 2 ** 20:.0f}", f"{t_load:.2f}",
                     f"{checked['open']:.2f}", f"{quick['open'] * 1e3:.1f}",
                     f"{quick['query'] * 1e3:.1f} ({quick['len']})",
                     f"{quick['peak'] / 2 ** 20:.0f}"])
        os.unlink(path)
    print("police and thief, 10% walls: times in seconds unless said")
    print_table(["board", "positions", "solve", "save", "file MiB", "load", "mmap+CRC",
                 "mmap ms", "query ms (line)", "mmap peak MiB"], rows)

    print()
    print("progress= on the engine: police solve, alternated, best of 3 each")
    b = board(sizes[-1])
    calls = []
    plain, report = float("inf"), float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        b.solve()
        plain = min(plain, time.perf_counter() - t0)
        t0 = time.perf_counter()
        b.solve(progress=lambda done, total: calls.append(done))
        report = min(report, time.perf_counter() - t0)
    print_table(["board", "no progress s", "callback s", "ratio", "callbacks per solve"],
                [[f"{sizes[-1]}x{sizes[-1]}", f"{plain:.2f}", f"{report:.2f}",
                  f"{report / plain:.3f}", len(calls) // 3]])


if __name__ == "__main__":
    main()
