"""Threads: the retrograde engine and the octal kernels on 1 thread against 2 (or N).

Side by side in one run, alternating the thread counts, --repeat rounds; the
speed-up both as the ratio of the best times and as the median of each
round's ratio (this machine's speed drifts over minutes):

- police and thief, 100x100 open board (2·10^8 positions);
- a random graph, n = 10^6 positions and m = 10^7 moves;
- Grundy's game, G(0..2^22);

then the memory system's ceiling: the two solves that are memory-bound
(police, random graph) run serially in two processes at once, started
together, against one such process alone.  ``2 * alone / together`` is the
most any two threads could gain on the machine at that moment (the two
processes share nothing but the caches and memory), so a thread speed-up
below 1.6 next to a ceiling below 1.6 is the machine's, not the engine's;
then the scaling of the police solve for 1..N threads (N: --max-threads,
default the cores this process may use), and with --big the 200x200 open
police board (3.2·10^9 positions): wall time and peak memory of a solve in a
fresh process, and the refusal on a smaller --max-memory.

    python bench/bench_parallel.py [--repeat 5] [--big] [--max-threads N]
"""
import argparse
import json
import subprocess
import sys
import time

import numpy as np

import grundy
from grundy._common import usable_cores
from _util import print_table


def open_board(n):
    rows = ["." * n for _ in range(n)]
    rows[0] = "P" + rows[0][1:]
    mid = n // 2
    rows[mid] = rows[mid][:mid] + "T" + rows[mid][mid + 1:]
    rows[-1] = rows[-1][:-1] + "E"
    return grundy.PoliceThief(rows)


def alternate(work, counts, repeat):
    """Seconds of work(threads) for each thread count, ``repeat`` times, the
    counts alternated: {threads: [seconds of each round]}."""
    times = {t: [] for t in counts}
    for _ in range(repeat):
        for t in counts:
            t0 = time.perf_counter()
            work(t)
            times[t].append(time.perf_counter() - t0)
    return times


def speedups(times, t):
    """``times[1] / times[t]``: the best of each, and the median, lowest and
    highest of the ratios of one round (runs seconds apart: on a shared
    machine whose speed drifts over minutes, the ratio of a round is the
    side-by-side figure, and the best times may come from different
    moments)."""
    pairs = sorted(a / b for a, b in zip(times[1], times[t]))
    return (min(times[1]) / min(times[t]), float(np.median(pairs)), pairs[0], pairs[-1])


BIG = r"""
import json, sys, time, grundy
def hwm():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) * 1024
n, threads = int(sys.argv[1]), int(sys.argv[2])
max_memory = int(sys.argv[3]) if len(sys.argv) > 3 else None
rows = ["." * n for _ in range(n)]
rows[0] = "P" + rows[0][1:]
rows[n // 2] = rows[n // 2][:n // 2] + "T" + rows[n // 2][n // 2 + 1:]
rows[-1] = rows[-1][:-1] + "E"
board = grundy.PoliceThief(rows)
t0 = time.perf_counter()
try:
    sol = board.solve(threads=threads, max_memory=max_memory)
    result = sol.result
except MemoryError as exc:
    result = "refused: " + str(exc)
print(json.dumps({"seconds": time.perf_counter() - t0, "peak": hwm(), "result": result,
                  "positions": board.n_positions, "estimate": board.memory_estimate()}))
"""


SOLO = r"""
import sys, time
import numpy as np
import grundy
kind = sys.argv[1]
if kind == "police":
    n = 100
    rows = ["." * n for _ in range(n)]
    rows[0] = "P" + rows[0][1:]
    rows[n // 2] = rows[n // 2][:n // 2] + "T" + rows[n // 2][n // 2 + 1:]
    rows[-1] = rows[-1][:-1] + "E"
    work = grundy.PoliceThief(rows)
else:
    rng = np.random.default_rng(0)
    work = grundy.GameGraph.from_edges(rng.integers(0, 10 ** 6, size=(10 ** 7, 2)), n=10 ** 6)
print("ready", flush=True)
sys.stdin.readline()                    # "go": both processes start together
t0 = time.perf_counter()
for _ in range(int(sys.argv[2])):
    work.solve(threads=1)
print(time.perf_counter() - t0, flush=True)
"""


def solo_runs(kind, copies, solves):
    """Seconds of ``solves`` serial solves in each of ``copies`` processes started together."""
    procs = [subprocess.Popen([sys.executable, "-c", SOLO, kind, str(solves)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(copies)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    out = [float(p.communicate(timeout=3600)[0]) for p in procs]
    return out


def ceiling(kind, solves, repeat):
    """2 * alone / together, best of ``repeat`` (alternated), and the two times."""
    alone = together = float("inf")
    for _ in range(repeat):
        alone = min(alone, solo_runs(kind, 1, solves)[0])
        together = min(together, max(solo_runs(kind, 2, solves)))
    return 2 * alone / together, alone, together


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="also the 200x200 board")
    parser.add_argument("--max-threads", type=int, default=usable_cores())
    parser.add_argument("--skip-octal", action="store_true")
    args = parser.parse_args()

    rows = []

    def row(label, size, times, goal):
        best, median, low, high = speedups(times, 2)
        rows.append([label, size, f"{min(times[1]):.2f}", f"{min(times[2]):.2f}", f"{best:.2f}",
                     f"{median:.2f}", f"{low:.2f}-{high:.2f}", goal])

    board = open_board(100)
    row("police 100x100", f"{board.n_positions:.2e}",
        alternate(lambda t: board.solve(threads=t), [1, 2], args.repeat), "1.6")
    rng = np.random.default_rng(0)
    graph = grundy.GameGraph.from_edges(rng.integers(0, 10 ** 6, size=(10 ** 7, 2)), n=10 ** 6)
    row("random graph 1e6/1e7", "1.00e+06",
        alternate(lambda t: graph.solve(threads=t), [1, 2], args.repeat), "1.6")
    if not args.skip_octal:
        def grundys(t):
            grundy.GrundysGame().nim_sequence(2 ** 22, threads=t)
        row("Grundy's game 2^22", f"{2 ** 22:.2e}",
            alternate(grundys, [1, 2], max(1, args.repeat - 1)), "1.5")
    print("1 thread against 2, alternated,", args.repeat, "rounds (seconds: the best of each)")
    print_table(["work", "size", "1 thread", "2 threads", "best/best", "median of rounds",
                 "rounds' range", "goal"], rows)

    print()
    print("the memory system's ceiling: serial solves in 1 process, and in 2 at once")
    out = []
    for kind, label, solves in (("police", "police 100x100", 1), ("graph", "random graph", 10)):
        ratio, alone, together = ceiling(kind, solves, args.repeat)
        out.append([label, solves, f"{alone:.2f}", f"{together:.2f}", f"{ratio:.2f}"])
    print_table(["work", "solves", "1 process", "2 at once", "ceiling"], out)

    counts = list(range(1, args.max_threads + 1))
    times = alternate(lambda t: board.solve(threads=t), counts, max(1, args.repeat - 1))
    print()
    print("police 100x100: scaling")
    print_table(["threads", "seconds", "best/best", "median of rounds"],
                [[t, f"{min(times[t]):.2f}", *(f"{x:.2f}" for x in speedups(times, t)[:2])]
                 for t in counts])

    if args.big:
        print()
        print("police 200x200 open board, in a fresh process")
        out = []
        for threads, limit in ((args.max_threads, None), (args.max_threads, 8 * 2 ** 30)):
            cmd = [sys.executable, "-c", BIG, "200", str(threads)] + \
                ([str(limit)] if limit else [])
            r = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True,
                                          timeout=3600).stdout)
            out.append([threads, "-" if limit is None else f"{limit / 2 ** 30:.0f} GiB",
                        f"{r['positions']:.2e}", f"{r['estimate'] / 2 ** 30:.2f}",
                        f"{r['seconds']:.1f}", f"{r['peak'] / 2 ** 30:.2f}", r["result"][:60]])
        print_table(["threads", "max_memory", "positions", "estimate GiB", "seconds",
                     "peak GiB", "result"], out)


if __name__ == "__main__":
    main()
