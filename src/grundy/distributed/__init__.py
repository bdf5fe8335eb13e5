"""Solving a game on a Dask cluster: the state arrays partitioned across workers.

:func:`solve` runs the engine's level-by-level retrograde analysis with the
positions split into contiguous blocks, one block (or more) per Dask
worker.  Each block lives in a Dask *actor* on its worker
(:mod:`grundy.distributed.block`): its state bytes (a move counter, or a
WIN / LOSS / TIE mark, the engine's compact encoding) and its remoteness
(2 bytes a position, widened to 4 past 65535) never leave the worker until
the end.  Each level, every block, with the engine's compiled block kernel
(``grundy._core.blocks``: the same initial marks, level rule, decoding and
move rule as a single-machine solve)

1. routes the predecessors of its frontier (the positions it decided at the
   last level) to the blocks that own them, one message to each other
   block, straight to its actor, with the size of its frontier;
2. applies what was routed to it (a predecessor of a LOSS becomes a WIN; a
   predecessor of a WIN loses one undecided move and becomes a LOSS when
   none is left): the positions decided now are its next frontier, at
   remoteness = the level.

The blocks run the levels among themselves: each learns from the messages
how many positions the level decided in all, and every block stops at the
first level that decides none.  The client meanwhile reports progress and
watches the workers (:mod:`grundy.distributed.client`).  Ties then spread
the same way from the positions that are TIEs by rule; positions never
decided are draws.  The answers are those of the single-machine engine,
position by position (outcome and remoteness; the best move is computed by
the solution on demand, as for a single-machine solve).

The games it takes:

- a police-and-thief board (:class:`grundy.PoliceThief`): each worker
  rebuilds the compiled rules from the board;
- any compiled game (a ``MoveSource`` plug-in, see :mod:`grundy.engine.source`),
  given as a picklable function of no arguments that builds it
  (``functools.partial(MySource, ...)``: a compiled source itself cannot be
  sent to a worker);
- a batch game (:class:`grundy.BatchGame`) whose positions are numbered
  0..n-1 and that can list the predecessors of positions: it has the
  attribute ``n_positions``, and ``primitive(codes)``, ``moves(codes)``
  (for the number of moves of each position, and best moves) and
  ``predecessors(codes) -> (offsets, codes)`` (every position with a move
  to ``codes[i]``, once per move, as ``codes[offsets[i]:offsets[i + 1]]``).

This module needs Dask's ``distributed`` package (the ``grundy[distributed]``
extra); importing it does not, only calling :func:`solve` does.

Examples
--------
A 2-worker cluster on this machine (any ``dask.distributed.Client`` does):

>>> import grundy, grundy.distributed
>>> from dask.distributed import Client, LocalCluster
>>> client = Client(LocalCluster(n_workers=2, threads_per_worker=1))  # doctest: +SKIP
>>> board = grundy.PoliceThief.parse('''3 4
... P..E
... .**.
... ...T''')
>>> stats = grundy.distributed.SolveStats()
>>> sol = grundy.distributed.solve(board, client, stats=stats)  # doctest: +SKIP
>>> sol.result, stats.levels  # doctest: +SKIP
('The thief escapes', 15)
>>> (sol.outcome == board.solve().outcome).all()  # doctest: +SKIP
True

Running on a real cluster
-------------------------
The solve runs on whatever cluster the ``Client`` is connected to; this
library has no cluster code of its own.  Install ``grundy[distributed]``
(the same version) on the client and on every worker, start one worker
process per machine with one thread (``dask worker ADDRESS --nworkers 1
--nthreads 1``: a block computes in one thread, in compiled code)
and give it most of the machine's memory (its blocks may take 80% of
``--memory-limit``).  With Slurm or PBS,
``dask-jobqueue`` submits the workers as batch jobs::

    from dask_jobqueue import SLURMCluster      # or PBSCluster
    cluster = SLURMCluster(cores=1, processes=1, memory="200GB",
                           walltime="12:00:00", queue="bigmem")
    cluster.scale(jobs=16)                      # 16 machines, one worker each
    client = Client(cluster)
    client.wait_for_workers(16)
    saved = grundy.distributed.solve(board, client, save_to="/shared/run1")

On Kubernetes, ``dask-kubernetes`` (its operator) starts them as pods::

    from dask_kubernetes.operator import KubeCluster
    cluster = KubeCluster(name="grundy", image="myregistry/grundy:0.1",
                          n_workers=16, resources={"requests": {"memory": "200G"}})
    client = Client(cluster)

Wait for every worker before solving: the states are split among the
workers there are when :func:`solve` starts (``partitions=`` blocks, by
default one a worker), and a worker lost during the solve makes it fail
with :class:`WorkerLostError` (the blocks it held are gone; nothing is
retried or returned half done).  ``save_to=`` (a directory every worker can
write, such as a shared file system) keeps the answer of a game larger than
the client's memory in one file per block, written by the workers.  (More
in ``docs/distributed.md`` of the source distribution.)
"""
from grundy.distributed.client import SolveStats, WorkerLostError, solve
from grundy.distributed.results import BatchGameSolution, SavedBlocks, load_blocks

__all__ = ["solve", "SolveStats", "WorkerLostError", "BatchGameSolution", "SavedBlocks",
           "load_blocks"]
