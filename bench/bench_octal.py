"""Grundy's game and Officers (0.6): plain vs sparse-space kernel.

Prints time and values/second for each n, side by side, and Grundy's
game's rare/common statistics (mask 0xfffffffe) at the largest n, next to
the published figures for 2^21.  The plain kernel is quadratic; it runs
only up to --plain-max (default 2^18).

    python bench/bench_octal.py [--sizes 16,18,20,21] [--plain-max 18]
"""
import argparse

import grundy
from _util import best_time, print_table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="16,18,20,21", help="exponents of 2")
    ap.add_argument("--plain-max", type=int, default=18, help="largest exponent for plain")
    args = ap.parse_args()
    rows = []
    games = {"grundy": grundy.GrundysGame, "0.6": lambda: grundy.OctalGame("0.6")}
    last = {}
    for name, make in games.items():
        for e in map(int, args.sizes.split(",")):
            n = 1 << e
            t_sparse, g = best_time(lambda: _run(make, n, "auto"), repeat=1)
            last[name] = g
            plain = ratio = "-"
            if e <= args.plain_max:
                t_plain, gp = best_time(lambda: _run(make, n, "plain"), repeat=1)
                assert (gp.values(n) == g.values(n)).all()
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


def _run(make, n, kernel):
    g = make()
    g.values(n, kernel=kernel)
    return g


if __name__ == "__main__":
    main()
