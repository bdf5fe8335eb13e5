"""The command line at contest scale: `grundy nim` and `grundy graph` on
10^6 input lines, next to naive Python scripts that read the same input and
print the same answers (checked identical), measured side by side in one run.

Every command runs as a fresh process reading a file and writing to a file,
so the figures include interpreter start-up and imports, as a user sees them.

    python bench/bench_cli.py [--lines 1000000] [--repeat 3]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from _util import print_table

NAIVE_NIM = r'''
import sys
out = []
for line in sys.stdin:
    piles = [int(x) for x in line.split()]
    s = 0
    for x in piles:
        s ^= x
    for i, x in enumerate(piles):
        if x ^ s < x:
            out.append(f"WIN {i} {x ^ s}")
            break
    else:
        out.append("LOSS")
sys.stdout.write("".join(a + "\n" for a in out))
'''

# The same retrograde analysis as the library (outcome, remoteness), plainly.
NAIVE_GRAPH = r'''
import sys
from collections import deque
named = sys.argv[1] == "edges"
data = sys.stdin.read().split("\n")
if named:
    index, names, edges = {}, [], []
    for line in data:
        if line.strip():
            u, v = line.replace(",", " ").split()
            for x in (u, v):
                if x not in index:
                    index[x] = len(names)
                    names.append(x)
            edges.append((index[u], index[v]))
    n = len(names)
else:
    n, m = map(int, data[0].split())
    edges = [tuple(map(int, line.split())) for line in data[1:m + 1]]
rev = [[] for _ in range(n)]
count = [0] * n
for u, v in edges:
    rev[v].append(u)
    count[u] += 1
outcome, rem = [0] * n, [-1] * n
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
word = {1: "WIN", -1: "LOSS", 0: "DRAW"}
sys.stdout.write("".join((names[v] + " " if named else "") + f"{word[outcome[v]]} {rem[v]}\n"
                         for v in range(n)))
'''


def timed(cmd, stdin_path, repeat):
    """Best wall time of running cmd with stdin from a file, and its output."""
    best, out = float("inf"), None
    for _ in range(repeat):
        with open(stdin_path, "rb") as f:
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, stdin=f, capture_output=True)
            best = min(best, time.perf_counter() - t0)
        if proc.returncode != 0:
            sys.exit(f"{cmd} failed: {proc.stderr.decode()[-2000:]}")
        out = proc.stdout
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10 ** 6)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    grundy = [sys.executable, "-m", "grundy"]
    naive = [sys.executable, "-c"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # Nim: 3-6 piles per line, up to 2^30 stones.
        nim_path = os.path.join(tmp, "nim.txt")
        with open(nim_path, "w") as f:
            for k in rng.integers(3, 7, size=args.lines):
                f.write(" ".join(map(str, rng.integers(0, 2 ** 30, size=k).tolist())) + "\n")
        # A random graph with n = lines / 4 vertices and m = lines edges.
        n, m = args.lines // 4, args.lines
        edges = rng.integers(0, n, size=(m, 2))
        nm_path = os.path.join(tmp, "graph.txt")
        with open(nm_path, "w") as f:
            f.write(f"{n} {m}\n")
            f.write("\n".join(f"{u} {v}" for u, v in edges.tolist()) + "\n")
        named_path = os.path.join(tmp, "edges.csv")
        with open(named_path, "w") as f:
            f.write("\n".join(f"v{u},v{v}" for u, v in edges.tolist()) + "\n")

        cases = [
            ("nim, 10^6 positions", nim_path, grundy + ["nim"], naive + [NAIVE_NIM]),
            ("graph, n m format", nm_path, grundy + ["graph"], naive + [NAIVE_GRAPH, "nm"]),
            ("graph, named edge list", named_path, grundy + ["graph", "--format", "edges"],
             naive + [NAIVE_GRAPH, "edges"]),
        ]
        for name, path, ours, theirs in cases:
            t_ours, out_ours = timed(ours, path, args.repeat)
            t_naive, out_naive = timed(theirs, path, args.repeat)
            same = "yes" if out_ours == out_naive else "NO"
            rows.append([name, f"{os.path.getsize(path) / 2 ** 20:.1f} MiB", f"{t_ours:.2f} s",
                         f"{t_naive:.2f} s", f"{t_naive / t_ours:.1f}x", same])
    print(f"{args.lines:,} input lines, best of {args.repeat}, each a fresh process")
    print_table(["input", "size", "grundy", "naive Python", "speed-up", "same output"], rows)


if __name__ == "__main__":
    main()
