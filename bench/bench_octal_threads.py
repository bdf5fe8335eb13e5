"""Take-and-break values on threads: threads=1 against more threads, in one run.

Each game is computed from scratch with ``nim_sequence(n, threads=k)``, the
thread counts alternating round after round (best of --repeat rounds), and
the values are checked identical.  Games: Grundy's game and Officers (0.6)
by the sparse-space kernel (auto mask), Officers and Dawson's chess (0.137)
by the plain kernel, a three-heap hexadecimal game (0.8F, O(n^2) per value)
and a subtraction game (never threaded: its values cost a few steps each).

    python bench/bench_octal_threads.py [--threads 1,2] [--repeat 2] [--grundy 22]
                                        [--games grundy,0.6] [--quick]

The 2-thread figures need two otherwise idle cores: the threads hand each
value over to the next, so a core taken by another process stalls them
(the kernel then drops to one thread; see octal.pyx).  The "others" column
is the most CPU that other processes used during one of the timed runs, in
cores (Linux; "?" elsewhere): figures next to a large one are not the
kernel's.
"""
import argparse
import os
import time

import numpy as np

import grundy
from _util import print_table
from grundy._core import octal as kernel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default=f"1,{max(2, _cores())}",
                    help="thread counts, comma-separated (the first is the baseline)")
    ap.add_argument("--repeat", type=int, default=2, help="rounds (best of)")
    ap.add_argument("--grundy", type=int, default=22, help="Grundy's game to 2^GRUNDY")
    ap.add_argument("--games", default="", help="only these games, comma-separated "
                    "(grundy, 0.6, 0.137, 0.8F, sub)")
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = ap.parse_args()
    counts = [int(x) for x in args.threads.split(",")]
    q = args.quick
    cases = [
        ("grundy", "sparse", lambda: grundy.GrundysGame(), "auto",
         1 << (18 if q else args.grundy)),
        ("0.6", "sparse", lambda: grundy.OctalGame("0.6"), "auto", 1 << (18 if q else 22)),
        ("0.6", "plain", lambda: grundy.OctalGame("0.6"), "plain", 1 << (15 if q else 18)),
        ("0.137", "plain", lambda: grundy.OctalGame("0.137"), "plain", 1 << (15 if q else 18)),
        ("hex 0.8F", "plain", lambda: grundy.HexGame("0.8F"), "plain", 1500 if q else 4000),
        ("sub 1,3,4", "plain", lambda: grundy.SubtractionGame({1, 3, 4}), "plain",
         1 << (20 if q else 24)),
    ]
    print(f"OpenMP: {kernel.OPENMP}; cores usable: {_cores()}; "
          f"load average at start: {_load()}")
    speeds = _core_speeds()
    if speeds:
        print("one thread pinned to each core, Grundy's game to 2^16 (best of 2): " +
              ", ".join(f"core {c}: {t:.2f} s" for c, t in speeds.items()))
    if args.games:
        wanted = args.games.split(",")
        cases = [c for c in cases if any(w in c[0] for w in wanted)]
    rows = []
    for name, kind, make, kern, n in cases:
        best = {k: float("inf") for k in counts}
        ref = None
        others = 0.0
        for _ in range(args.repeat):
            for k in counts:
                game = make()
                dt, vals, load = timed(lambda: game.nim_sequence(n - 1, kernel=kern, threads=k))
                best[k] = min(best[k], dt)
                others = None if load is None or others is None else max(others, load)
                if ref is None:
                    ref = vals
                elif not np.array_equal(vals, ref):
                    raise SystemExit(f"{name}: threads={k} gives other values")
        base = best[counts[0]]
        rows.append([name, kind, _size(n)] + [f"{best[k]:.2f}" for k in counts] +
                    [f"{base / best[k]:.2f}x" for k in counts[1:]] +
                    ["yes", "?" if others is None else f"{others:.2f}"])
        print(f"  {name} ({kind}) done, load {_load()}", flush=True)
    print()
    print_table(["game", "kernel", "n"] + [f"{k} thr s" for k in counts] +
                [f"speedup {k}" for k in counts[1:]] + ["identical", "others"], rows)


def _busy():
    """CPU seconds used by every process since boot (Linux), or None."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _own():
    t = os.times()
    return t.user + t.system


def timed(fn):
    """(seconds, result, cores other processes used meanwhile or None)."""
    busy0, own0, t0 = _busy(), _own(), time.perf_counter()
    result = fn()
    dt = time.perf_counter() - t0
    busy1, own1 = _busy(), _own()
    others = None if busy0 is None or busy1 is None else \
        max(0.0, (busy1 - busy0) - (own1 - own0)) / dt
    return dt, result, others


def _core_speeds():
    """Seconds of one serial run pinned to each usable core (Linux), or {}.

    Cores of a virtual machine need not run at one speed (the host's load on
    each differs): two threads can then gain at most 1 + slower/faster."""
    if not hasattr(os, "sched_setaffinity"):
        return {}
    cores = sorted(os.sched_getaffinity(0))
    speeds = {}
    try:
        for _ in range(2):
            for c in cores:
                os.sched_setaffinity(0, {c})
                dt = timed(lambda: grundy.GrundysGame().nim_sequence(1 << 16, threads=1))[0]
                speeds[c] = min(speeds.get(c, dt), dt)
    finally:
        os.sched_setaffinity(0, cores)
    return speeds


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _load():
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "?"


def _size(n):
    e = n.bit_length() - 1
    return f"2^{e}" if n == 1 << e else f"{n:,}"


if __name__ == "__main__":
    main()
