"""Take-and-break kernels: plain against sparse, the automatic mask against
the best mask found, and the period search.

Tables (``--tables``, comma-separated; default all):

kernels
    Grundy's game and Officers (0.6): time and values/second for each n,
    plain against sparse side by side, and Grundy's game's rare/common
    statistics (mask 0xfffffffe) next to the published figures for 2^21.
    The plain kernel is quadratic; it runs only up to --plain-max.
masks
    For each of ten hard games, G(0..2^--mask-size) with the automatic
    mask against the same values with each candidate mask: the three masks
    that make fewest of the values rare (at the end, and at a sixteenth of
    the way), 0xfffffffe, 0xffffffff and the plain kernel.  Every run is
    from scratch on one thread, the candidates and the automatic choice
    alternating round after round (best of --repeat).  "auto / best" is the
    goal's figure (at most 1.2).
period
    0.376, whose period 4 starts at 2,268,248: ``periodicity()`` from
    scratch (values and search, 1 and 2 threads), then the search alone
    (``find_period``) on windows of 2^20 to 2^23 of its values: linear in
    the window.  (The search it replaced scanned each p from the top: on
    the 2^22 window, where every multiple of 4 matches for 1.9 million
    values, that took about 150 s.)

misere (not in the default set: a few minutes)
    Misère quotients (``grundy.misere_quotient``) of 0.75, 0.31, Kayles
    (0.77), Dawson's chess (0.137), Officers (0.6) and 0.07 up to growing
    heap sizes, each from a fresh game in a fresh process: order, |P|,
    generators, seconds and peak memory, until a run takes longer than
    --misere-seconds (a run is stopped after five times that).

scale (not in the default set: about 25 minutes)
    Grundy's game and Officers (0.6) (or --games) to 2^--scale (default 26) with
    ``compute()`` into a values file in a temporary folder, each run in a
    fresh process, with 1 and 2 threads: wall time, values a second, the
    peak of the process's own memory (RssAnon: the mapped file's pages are
    the page cache's) and the file's size.

    python bench/bench_octal.py [--tables kernels,masks,period,misere,scale]
                                [--sizes 16,18,20,21]
                                [--plain-max 18] [--mask-size 18] [--repeat 1]
                                [--games 0.146,0.6] [--scale 26] [--threads 1,2]
                                [--misere-seconds 60]
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
from grundy._core import octal as kernel
from grundy.impartial.octal.stats import _MASK_LOW_BITS
from grundy.impartial.octal.stats import rare as _rare

MASK_GAMES = ["0.146", "0.143", "0.376", "0.16", "0.6", "0.106", "grundy", "0.56", "0.354",
              "4.007"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", default="kernels,masks,period")
    ap.add_argument("--sizes", default="16,18,20,21", help="kernels: exponents of 2")
    ap.add_argument("--plain-max", type=int, default=18, help="kernels: largest for plain")
    ap.add_argument("--mask-size", type=int, default=18, help="masks: values to 2^SIZE")
    ap.add_argument("--repeat", type=int, default=1, help="masks: rounds (best of)")
    ap.add_argument("--games", help="masks, scale: the games (default: the ten hard "
                                    "games; grundy,0.6)")
    ap.add_argument("--scale", type=int, default=26, help="scale: values to 2^SCALE")
    ap.add_argument("--threads", default="1,2", help="scale: thread counts")
    ap.add_argument("--misere-seconds", type=float, default=60,
                    help="misere: a game's last heap size is the first to take longer")
    args = ap.parse_args()
    tables = args.tables.split(",")
    if "kernels" in tables:
        kernels(args)
    if "masks" in tables:
        masks(args)
    if "period" in tables:
        period()
    if "misere" in tables:
        misere(args)
    if "scale" in tables:
        scale(args)


def make(code):
    return grundy.GrundysGame() if code == "grundy" else grundy.OctalGame(code)


def kernels(args):
    rows = []
    last = {}
    for name in ("grundy", "0.6"):
        for e in map(int, args.sizes.split(",")):
            n = 1 << e
            t_sparse, g = best_time(lambda: _run(name, n, "auto"), repeat=1)
            last[name] = g
            plain = ratio = "-"
            if e <= args.plain_max:
                t_plain, gp = best_time(lambda: _run(name, n, "plain"), repeat=1)
                assert (gp.nim_sequence(n) == g.nim_sequence(n)).all()
                plain = f"{t_plain:.2f}"
                ratio = f"{t_plain / t_sparse:.1f}x"
            rows.append([name, f"2^{e}", f"{t_sparse:.2f}", f"{n / t_sparse:,.0f}", plain,
                         ratio, f"{g._mask:#x}" if g._mask else "none"])
    print_table(["game", "n", "sparse s", "values/s", "plain s", "plain/sparse", "mask"], rows)

    g = last["grundy"]
    rc = g.rare_common(0xFFFFFFFE)
    print()
    print_table(["Grundy's game to", "rare values", "last rare at", "largest value", "at"],
                [[f"{rc.n:,}", rc.rare_count, f"{rc.last_rare:,}", rc.max_value,
                  f"{rc.max_at:,}"],
                 ["published, 2^21", 1274, "82,860", 231, "763,622"]])
    print()


def _run(code, n, kernel_name, mask=None):
    g = make(code)
    g.nim_sequence(n, kernel=kernel_name, mask=mask, threads=1)
    return g


def _fewest_rare(values, count):
    """The ``count`` masks over the values' bits (low 12 exhaustively) that
    make fewest of ``values`` rare, bits above the largest value set."""
    bits = max(1, int(values.max()).bit_length())
    low = min(bits, _MASK_LOW_BITS)
    counts = np.bincount(values)
    present = np.flatnonzero(counts).astype(np.uint32)
    ranked = sorted((int(counts[present[_rare(present, m)]].sum()), -m)
                    for m in range(1, 1 << low))
    high = (0xFFFFFFFF << bits) & 0xFFFFFFFF
    return [(-m | high) for _, m in ranked[:count]]


def masks(args):
    n = 1 << args.mask_size
    rows = []
    for code in (args.games.split(",") if args.games else MASK_GAMES):
        auto_game = _run(code, n, "auto")
        values = auto_game.nim_sequence(n).astype(np.int64)
        candidates = _fewest_rare(values, 3) + _fewest_rare(values[:n // 16 + 1], 3) + \
            [0xFFFFFFFE, 0xFFFFFFFF]
        candidates = list(dict.fromkeys(candidates))
        if not auto_game.splits:
            candidates = []
        runs = [("auto", None)] + [(f"{m:#x}", m) for m in candidates] + [("plain", None)]
        best = {}
        for _ in range(args.repeat):
            for label, m in runs:
                kernel_name = "auto" if label == "auto" else "plain" if label == "plain" \
                    else "sparse"
                t, g = best_time(lambda: _run(code, n, kernel_name, m), repeat=1)
                assert np.array_equal(g.nim_sequence(n), values), (code, label)
                best[label] = min(best.get(label, np.inf), t)
        found = min((label for label, _ in runs if label != "auto"), key=best.get)
        rare = int(_rare(values, auto_game._mask).sum()) if auto_game._mask else n + 1
        rows.append([code, f"{auto_game._mask:#x}" if auto_game._mask else "none",
                     f"{rare / (n + 1):.1%}" if auto_game._mask else "-",
                     f"{best['auto']:.2f}", found, f"{best[found]:.2f}",
                     f"{best['auto'] / best[found]:.2f}", len(runs) - 1])
        print(f"  {code}: " + ", ".join(f"{k} {v:.2f}" for k, v in best.items()), flush=True)
    print()
    print_table([f"game, 2^{args.mask_size}", "auto mask (at the end)", "rare", "auto s",
                 "best candidate", "its s", "auto / best", "candidates"], rows)
    print()


def period():
    rows = []
    for threads in (1, 2):
        g = grundy.OctalGame("0.376")
        t0 = time.perf_counter()
        per = g.periodicity(1 << 23, threads=threads)
        rows.append([threads, f"{time.perf_counter() - t0:.1f}", str(per)])
    print_table(["0.376 periodicity(), threads", "s (values and search)", "found"], rows)
    print()
    g = grundy.OctalGame("0.376")
    G = g.nim_sequence(1 << 23).astype(np.uint32)
    rows = []
    for e in (20, 21, 22, 23):
        t, found = best_time(lambda: kernel.find_period(G[:1 << e], 2, 3, 0), repeat=3)
        rows.append([f"2^{e}", f"{t * 1e3:.1f}", f"{t * 1e9 / (1 << e):.1f}", str(found)])
    print_table(["window", "find_period ms", "ns a value", "(preperiod, period, needed)"], rows)


SCALE_RUN = r"""
import json, sys, time, grundy
code, n, threads, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = grundy.GrundysGame() if code == "grundy" else grundy.OctalGame(code)
t0 = time.perf_counter()
game.compute(n, path, threads=threads)
seconds = time.perf_counter() - t0
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
print(json.dumps({"seconds": seconds, "anon_kib": int(status["RssAnon"].split()[0]),
                  "hwm_kib": int(status["VmHWM"].split()[0]), "mask": game._mask}))
"""


def scale(args):
    n = 1 << args.scale
    rows = []
    for code in (args.games.split(",") if args.games else ("grundy", "0.6")):
        for threads in map(int, args.threads.split(",")):
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "values.npy")
                out = subprocess.run([sys.executable, "-c", SCALE_RUN, code, str(n),
                                      str(threads), path], check=True, capture_output=True,
                                     text=True).stdout
                r = json.loads(out)
                size = os.path.getsize(path)
            rows.append([code, f"2^{args.scale}", threads, f"{r['seconds']:.0f}",
                         f"{n / r['seconds']:,.0f}", f"{r['anon_kib'] / 1024:.0f}",
                         f"{r['hwm_kib'] / 1024:.0f}", f"{size / 2 ** 20:.0f}",
                         f"{r['mask']:#x}" if r["mask"] else "none"])
            print("  " + " ".join(map(str, rows[-1])), flush=True)
    print_table(["game", "n", "threads", "s", "values/s", "own memory MiB",
                 "peak RSS MiB (with file pages)", "file MiB", "mask"], rows)


MISERE_RUN = """
import json, sys, time, grundy
game = grundy.OctalGame(sys.argv[1])
t0 = time.perf_counter()
q = grundy.misere_quotient(game, int(sys.argv[2]))
seconds = time.perf_counter() - t0
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
print(json.dumps({"seconds": seconds, "order": q.order, "p": len(q.p_positions),
                  "generators": len(q.generators),
                  "hwm_kib": int(status["VmHWM"].split()[0])}))
"""


def misere(args):
    rows = []
    games = args.games.split(",") if args.games else ["0.75", "0.31", "0.77", "0.137", "0.6",
                                                      "0.07"]
    for code in games:
        for n in (4, 8, 12, 16, 20, 24, 28, 32):
            try:
                out = subprocess.run([sys.executable, "-c", MISERE_RUN, code, str(n)],
                                     check=True, capture_output=True, text=True,
                                     timeout=5 * args.misere_seconds).stdout
            except subprocess.TimeoutExpired:
                rows.append([code, n, "-", "-", "-", f"> {5 * args.misere_seconds:.0f}", "-"])
                print("  " + " ".join(map(str, rows[-1])), flush=True)
                break
            except subprocess.CalledProcessError as exc:
                rows.append([code, n, "-", "-", "-", "-", exc.stderr.strip().splitlines()[-1]])
                print("  " + " ".join(map(str, rows[-1])), flush=True)
                break
            r = json.loads(out)
            rows.append([code, n, r["order"], r["p"], r["generators"], f"{r['seconds']:.1f}",
                         f"{r['hwm_kib'] / 1024:.0f}"])
            print("  " + " ".join(map(str, rows[-1])), flush=True)
            if r["seconds"] > args.misere_seconds:
                break
    print_table(["game", "heaps up to", "order", "|P|", "generators", "s", "peak RSS MiB"],
                rows)


if __name__ == "__main__":
    main()
