"""grundy.distributed on a LocalCluster against the single-process engine, on
police and thief (default 60x60, 2.1e7 positions), and what the measured costs
project for a 300x300 board (1.6e10 positions) on N machines.

    python bench/bench_distributed.py [--size 60] [--walls 0.1] [--workers 2] [--rounds 3]

The engine (``board.solve(threads=1)``) and the distributed solves (1 block,
and ``--workers`` blocks: one per worker process, 1 thread each, Dask's
default worker settings) alternate, ``--rounds`` times; the best wall time of
each counts.  Tables:

1. wall time, levels, messages and bytes between blocks, the links that were
   direct streams, and the ratio to the serial engine (the goal: 2 workers
   within 1.5x of it);
2. where the distributed time goes: setting the blocks up, the levels (the
   slowest block computing, then sending and waiting for the others, and
   the rest), gathering the answer;
3. a projection for a 300x300 board onto N = 1, 4, 16, 64 machines (one
   worker each), from the costs measured in (1) and (2), with this model:

   - compute: ``c_state * n / N`` -- the blocks' measured work per state
     (``SolveStats.work_seconds / n`` of the 1-block run: one busy process,
     as each machine would be), shared evenly;
   - exchange: ``c_byte * B`` per machine -- with contiguous blocks a
     police move leaves its block only when the police crosses the block's
     edge, so one boundary carries ``B`` = (the bytes measured across the
     one boundary of 2 blocks) * (300 / size) * (F_300 / F_size) (a row of
     police cells times every thief cell), and a machine sends half of the
     traffic of each of its two boundaries; ``c_byte`` is the measured cost
     of moving a 128 MiB array between the two workers through Dask (on
     localhost: a real network is slower, scale it by your bandwidth);
   - latency: ``levels * lambda`` -- levels grow with the board's side
     (``levels_300 = levels_size * 300 / size``), each costing the measured
     time a level of the 2-block run spends besides its slowest block's
     computing (the messages' latency, and waiting for the slowest block);
   - memory: 3 bytes a state (state byte, 2 bytes of remoteness) over N
     machines, plus the measured peak of predecessors routed in one level
     (16 bytes each while sorted and sent).
"""
import argparse
import logging
import time

import numpy as np

import grundy
import grundy.distributed as gd
from _util import best_time, print_table


def board_rows(n, walls, seed=0):
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random((n, n)) < walls, "*", ".")
    grid[0, 0], grid[n // 2, n // 2], grid[n - 1, n - 1] = "P", "T", "E"
    return ["".join(row) for row in grid]


def mb(x):
    return f"{x / 1e6:,.1f}"


def seconds(x):
    if x >= 3600:
        return f"{x / 3600:,.1f} h"
    if x >= 60:
        return f"{x / 60:,.1f} min"
    return f"{x:,.2f} s"


def _array(nbytes):
    return np.ones(nbytes, dtype=np.uint8)


def _nbytes(array):
    return array.nbytes


def transfer_cost(client, nbytes=1 << 27):
    """Seconds a byte to move an array from one worker to another (Dask's
    worker-to-worker transfer, as the blocks' messages), best of 3."""
    first, second = sorted(client.scheduler_info()["workers"])[:2]
    best = float("inf")
    for _ in range(3):
        data = client.submit(_array, nbytes, workers=[first], pure=False)
        data.result()
        t0 = time.perf_counter()
        client.submit(_nbytes, data, workers=[second], pure=False).result()
        best = min(best, time.perf_counter() - t0)
        del data
    return best / nbytes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=60)
    ap.add_argument("--walls", type=float, default=0.1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs of each kind")
    ap.add_argument("--big", type=int, default=300, help="side of the projected board")
    args = ap.parse_args()
    from dask.distributed import Client, LocalCluster

    board = grundy.PoliceThief(board_rows(args.size, args.walls))
    n = board.n_positions
    print(f"police and thief {args.size}x{args.size}, {int(args.walls * 100)}% walls: "
          f"{board.n_cells:,} cells, {n:,} positions; best of {args.rounds} alternating "
          f"runs\n")

    grundy.PoliceThief(board_rows(10, args.walls)).solve()        # warm up
    ref = board.solve(threads=1)
    levels_single = int(ref.remoteness.max()) + 1
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    t_single = float("inf")
    runs = {}
    try:
        gd.solve(grundy.PoliceThief(["P.ET"]), client)        # warm the workers up
        bandwidth = transfer_cost(client) if args.workers > 1 else 0.0
        for _ in range(args.rounds):
            t_single = min(t_single, best_time(lambda: board.solve(threads=1), repeat=1)[0])
            for parts in (1, args.workers):
                stats = gd.SolveStats()
                t0 = time.perf_counter()
                sol = gd.solve(board, client, partitions=parts, stats=stats)
                wall = time.perf_counter() - t0
                assert np.array_equal(sol.outcome, ref.outcome)
                assert np.array_equal(sol.remoteness, ref.remoteness)
                if parts not in runs or wall < runs[parts][0]:
                    runs[parts] = (wall, stats)
                del sol
    finally:
        client.close()
        cluster.close()

    def name(parts):
        return f"distributed, {parts} block(s) on {min(parts, args.workers)} worker(s)"

    rows = [["engine, 1 thread", f"{t_single:.2f}", levels_single, "-", "-", "-", "-",
             "1.00x"]]
    for parts, (wall, st) in runs.items():
        per = st.level_bytes
        rows.append([name(parts), f"{wall:.2f}", st.levels, st.messages, mb(st.bytes),
                     mb(max(per)) if per else "-", f"{st.streams}/{parts * (parts - 1)}",
                     f"{wall / t_single:.2f}x"])
    print_table(["run", "wall s", "levels", "messages", "MB sent", "MB/level max",
                 "streams", "vs serial engine"], rows)

    print()
    rows = []
    for parts, (wall, st) in runs.items():
        compute = sum(st.level_compute)
        rest = st.solve_seconds - compute
        rows.append([name(parts), f"{st.setup_seconds:.2f}", f"{st.solve_seconds:.2f}",
                     f"{compute:.2f}", f"{rest:.2f}", f"{1e3 * rest / max(st.levels, 1):.2f}",
                     f"{st.work_seconds:.2f}", f"{st.gather_seconds:.2f}"])
    print_table(["run", "setup s", "levels s", "slowest block computing s",
                 "messages and waiting s", "ms a level", "work s", "gather s"], rows)

    # -- the projection
    wall, st = runs[args.workers]
    # The blocks' work a state, from the 1-block run: one busy process, as on
    # one machine each (here, 2 busy worker processes also share the machine
    # with the client and scheduler: their work a state comes out higher).
    c_state = runs[1][1].work_seconds / n
    c_state_shared = st.work_seconds / n
    c_engine = t_single / n
    c_byte = bandwidth
    # A level's time besides the slowest block's computing: the messages'
    # latency and the waiting for the slowest block.
    lam = max(st.solve_seconds - sum(st.level_compute), 0.0) / st.levels
    side = args.big
    F_big = side * side                          # an open board (no walls): an upper bound
    n_big = 2 * F_big ** 2
    boundaries = max(args.workers - 1, 1)
    per_boundary = st.bytes / boundaries * (side / args.size) * (F_big / board.n_cells)
    levels_big = st.levels * side / args.size
    peak = max(st.level_routed) / n              # predecessors routed at once, a state
    print(f"\nprojection for {side}x{side} ({n_big:.2e} positions) from the "
          f"{args.workers}-block run:\n"
          f"  c_state = {c_state * 1e9:.0f} ns of block work a state, 1 block alone "
          f"({c_state_shared * 1e9:.0f} ns with {args.workers} blocks side by side on this "
          f"machine; the serial engine: {c_engine * 1e9:.0f} ns)\n"
          f"  c_byte = {c_byte * 1e9:.2f} ns a byte (a 128 MiB transfer between the workers, "
          f"{1 / max(c_byte, 1e-12) / 1e9:.2f} GB/s)\n"
          f"  lambda = {lam * 1e3:.2f} ms a level besides computing (latency and waiting)\n"
          f"  {levels_big:,.0f} levels; {per_boundary / 1e9:,.1f} GB across each block "
          f"boundary; peak frontier {peak:.3f} predecessors a state (16 bytes each)\n")
    rows = [["serial engine", seconds(c_engine * n_big), "-", "-",
             seconds(c_engine * n_big), f"{3 * n_big / 1e9:,.0f}"]]
    for machines in (1, 4, 16, 64):
        compute = c_state * n_big / machines
        # Each machine sends half the traffic of each of its (up to) two boundaries.
        exchange = c_byte * per_boundary if machines > 1 else 0.0
        latency = levels_big * lam if machines > 1 else 0.0
        memory = (3 + 16 * peak) * n_big / machines
        rows.append([f"{machines}", seconds(compute), seconds(exchange), seconds(latency),
                     seconds(compute + exchange + latency), f"{memory / 1e9:,.0f}"])
    print_table(["machines", "compute", "exchange", "latency", "total", "GB a machine"], rows)


if __name__ == "__main__":
    main()
