"""Solving a game on a Dask cluster: the state arrays partitioned across workers.

:func:`solve` runs the engine's level-by-level retrograde analysis with the
states split into contiguous blocks, one block (or more) per Dask worker.
Each block lives in a Dask *actor* on its worker: its state bytes (a move
counter, or a WIN / LOSS / TIE mark, the engine's compact encoding) and its
remoteness (2 bytes a state, widened to 4 past 65535) never leave the
worker until the end.  Each level, every block

1. applies the decisions routed to it for this level (a predecessor of a
   LOSS becomes a WIN; a predecessor of a WIN loses one undecided move and
   becomes a LOSS when none is left): the states decided now are its
   frontier, at remoteness = the level;
2. generates the predecessors of its frontier, sorts them by the block
   that owns them and sends each other block one message of two numpy
   arrays (the predecessors of LOSS states and those of WIN states, as
   offsets into the receiver's block), straight to the receiver's actor.

The client only starts each level, counts the states decided and stops when
no block decided any.  Ties then spread the same way from the states that
are TIEs by rule; states never decided are draws.  The answers are those of
the single-machine engine, state by state (outcome and remoteness; the best
move is computed by the solution on demand, as for a single-machine solve).

The games it takes:

- a police-and-thief board (:class:`grundy.PoliceThief`): each worker
  rebuilds the compiled rules from the board;
- any compiled game (a ``MoveSource`` plug-in, see :mod:`grundy.engine.source`),
  given as a picklable function of no arguments that builds it
  (``functools.partial(MySource, ...)``: a compiled source itself cannot be
  sent to a worker);
- a batch game (:class:`grundy.BatchGame`) whose states are numbered
  0..n-1 and that can list the parents of states: it has
  ``n_positions()``, ``primitive(codes)``, ``moves(codes)`` (for the number
  of moves of each state, and best moves) and ``parents(codes) -> (offsets,
  parent_codes)`` (every position with a move to ``codes[i]``, once per
  move, as ``parent_codes[offsets[i]:offsets[i + 1]]``).

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
--nthreads 1``: a block computes in one thread, numpy and compiled code)
and give it most of the machine's memory (its blocks may take 80% of
``--memory-limit``).  Dask's nanny starts workers with
``MALLOC_TRIM_THRESHOLD_=65536``, which makes every large numpy temporary
a fresh memory map: the blocks compute about 1.7 times faster with
``distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_: null`` in the
Dask configuration of the machines starting workers.  With Slurm or PBS,
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
from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import os
import pickle
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, TIE, Int64Array, as_int64_array, check_bool,
                            check_count, check_memory, check_number, readonly, shorten)
from grundy._progress import Progress, check_progress, reporting
from grundy.engine.source import StateSolution
from grundy.engine.solution import Solution

if TYPE_CHECKING:
    from grundy.games.police import PoliceThief, PoliceThiefSolution

__all__ = ["solve", "SolveStats", "WorkerLostError", "BatchGameSolution", "SavedBlocks",
           "load_blocks"]

_INSTALL = "pip install 'grundy[distributed]'"

# The engine's compact state bytes (retrograde.pxd): a counter of undecided
# moves 1..252, or a mark.
_WIN_MARK, _LOSS_MARK, _TIE_MARK = 255, 254, 253
_MAX_MOVES = 252
_DECODE = np.zeros(256, dtype=np.int8)          # state byte -> outcome (DRAW by default)
_DECODE[_WIN_MARK], _DECODE[_LOSS_MARK], _DECODE[_TIE_MARK] = 1, -1, 2

_BATCH = 1 << 16            # codes per call of a batch game's rules
_CHUNK = 1 << 18            # frontier states expanded at once by a compiled source
_POLL = 0.25                # seconds between two looks at the workers while waiting
_WIN_LOSS, _TIES = "win/loss", "tie"


def _distributed() -> Any:
    """The ``distributed`` package, or an ImportError saying how to get it."""
    try:
        import distributed
    except ImportError:
        raise ImportError(f"grundy.distributed needs Dask's distributed package: "
                          f"{_INSTALL}") from None
    return distributed


class WorkerLostError(RuntimeError):
    """A worker holding part of a distributed solve was lost before the end.

    The states of its blocks are gone with it, so the solve stops (it is
    not retried, and nothing half done is returned): run it again on the
    workers there are.

    Parameters
    ----------
    message : str
        What was lost, and when.
    worker : str, optional
        The address of the worker (kept as the attribute ``worker``).

    Examples
    --------
    >>> exc = WorkerLostError("lost", worker="tcp://10.0.0.7:40123")
    >>> isinstance(exc, RuntimeError), exc.worker
    (True, 'tcp://10.0.0.7:40123')
    """

    def __init__(self, message: str, worker: str | None = None) -> None:
        super().__init__(message)
        self.worker = worker


@dataclasses.dataclass
class SolveStats:
    """What a distributed solve did: pass one as ``solve(..., stats=)`` to have it filled.

    Levels are counted in the win/loss pass (``levels``: the level 0 of the
    states decided by rule, then one a remoteness) and in the tie pass
    (``tie_levels``, 0 without ties); the ``level_*`` lists hold one entry a
    level, win/loss levels first.  A message is one array pair sent from
    one block to another in one level; ``bytes`` counts the arrays' bytes
    (the routed states), not Dask's framing.

    Attributes
    ----------
    n_states, partitions, workers : int
        The states, the blocks they were split into, the workers holding them.
    levels, tie_levels : int
        Levels of the win/loss and tie passes.
    messages, bytes : int
        Messages between blocks and their bytes, in all.
    level_states, level_routed, level_messages, level_bytes : list of int
        Per level: the states decided at that level (the frontier), the
        predecessors generated from it (routed to their blocks), the messages
        and their bytes.
    level_compute, level_send : list of float
        Per level, the slowest block's seconds computing (applying and
        generating) and sending.
    work_seconds : float
        The blocks' computing seconds, all added up (the work to share out).
    setup_seconds, solve_seconds, gather_seconds : float
        Wall time to set the blocks up (their initial states), to run the
        levels, and to gather (or save) the answer.

    Examples
    --------
    >>> stats = SolveStats()
    >>> stats.levels, stats.bytes, stats.level_bytes
    (0, 0, [])
    """

    n_states: int = 0
    partitions: int = 0
    workers: int = 0
    levels: int = 0
    tie_levels: int = 0
    messages: int = 0
    bytes: int = 0
    level_states: list[int] = dataclasses.field(default_factory=list)
    level_routed: list[int] = dataclasses.field(default_factory=list)
    level_messages: list[int] = dataclasses.field(default_factory=list)
    level_bytes: list[int] = dataclasses.field(default_factory=list)
    level_compute: list[float] = dataclasses.field(default_factory=list)
    level_send: list[float] = dataclasses.field(default_factory=list)
    work_seconds: float = 0.0
    setup_seconds: float = 0.0
    solve_seconds: float = 0.0
    gather_seconds: float = 0.0


# -- the rules, on a worker ------------------------------------------------------------

class _SourceRules:
    """A compiled MoveSource's rules in batches."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.max_predecessors = max(int(source.max_predecessors), 1)

    def initial(self, lo: int, hi: int) -> npt.NDArray[np.uint8]:
        out: npt.NDArray[np.uint8] = self.source.initial_block(lo, hi)
        return out

    def predecessors(self, states: Int64Array) -> tuple[Int64Array, Int64Array]:
        offsets, ids = self.source.predecessors_of(states)
        return offsets, ids


class _BatchRules:
    """A batch game's rules, every array checked (naming the method)."""

    max_predecessors = 16           # an allowance for the memory estimate only

    def __init__(self, game: Any, n: int) -> None:
        self.game = game
        self.n = n

    def _csr(self, result: Any, method: str, k: int) -> tuple[Int64Array, Int64Array]:
        from grundy.engine.explore import _int64_array

        if not (isinstance(result, tuple) and len(result) == 2):
            raise TypeError(f"{method}(codes) must return (offsets, codes), got "
                            f"{shorten(result)}")
        offsets = _int64_array(result[0], f"{method}(codes): offsets", k + 1)
        ids = _int64_array(result[1], f"{method}(codes): codes")
        if offsets[0] != 0 or offsets[-1] != len(ids) or (np.diff(offsets) < 0).any():
            raise ValueError(f"{method}(codes): offsets must start at 0, never decrease and "
                             f"end at {len(ids)} (the number of codes), got "
                             f"{shorten(offsets.tolist())}")
        bad = np.flatnonzero((ids < 0) | (ids >= self.n))
        if bad.size:
            raise ValueError(f"{method}(codes) gave the code {int(ids[bad[0]])}, outside the "
                             f"states 0..{self.n - 1} of n_positions()")
        return offsets, ids

    def primitive(self, codes: Int64Array) -> npt.NDArray[np.int8]:
        labels = np.asarray(self.game.primitive(codes))
        if labels.dtype.kind not in "iu" or labels.shape != codes.shape:
            raise TypeError(f"primitive(codes) must return an int8 array of {len(codes)} "
                            f"values, got {shorten(labels)} (dtype {labels.dtype}, shape "
                            f"{labels.shape})")
        bad = np.flatnonzero((labels != 0) & (labels != 1) & (labels != -1) & (labels != 2))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"primitive(codes) gave {int(labels[i])} for the code "
                             f"{int(codes[i])}: expected 0 (not over), WIN (1), LOSS (-1) or "
                             f"TIE (2)")
        return labels.astype(np.int8)

    def moves(self, codes: Int64Array) -> tuple[Int64Array, Int64Array]:
        return self._csr(self.game.moves(codes), "moves", len(codes))

    def initial(self, lo: int, hi: int) -> npt.NDArray[np.uint8]:
        out = np.empty(hi - lo, dtype=np.uint8)
        for a in range(lo, hi, _BATCH):
            b = min(hi, a + _BATCH)
            codes = np.arange(a, b, dtype=np.int64)
            labels = self.primitive(codes)
            open_ = np.flatnonzero(labels == 0)
            degree = np.zeros(b - a, dtype=np.int64)
            if open_.size:
                offsets, _ = self.moves(codes[open_])
                degree[open_] = np.diff(offsets)
            many = np.flatnonzero(degree > _MAX_MOVES)
            if many.size:
                i = int(many[0])
                raise ValueError(f"the code {a + i} has {int(degree[i])} moves: a distributed "
                                 f"solve takes at most {_MAX_MOVES} moves a state")
            part = degree.astype(np.uint8)
            part[labels == 1] = _WIN_MARK
            part[labels == -1] = _LOSS_MARK
            part[labels == 2] = _TIE_MARK
            out[a - lo:b - lo] = part
        return out

    def predecessors(self, states: Int64Array) -> tuple[Int64Array, Int64Array]:
        offsets: list[Int64Array] = []
        ids: list[Int64Array] = []
        total = 0
        for a in range(0, len(states), _BATCH):
            part = states[a:a + _BATCH]
            off, got = self._csr(self.game.parents(part), "parents", len(part))
            offsets.append(off[1:] + total if offsets else off + total)
            ids.append(got)
            total += len(got)
        if not offsets:
            return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(offsets), np.concatenate(ids)


def _rules(kind: str, game: Any, n: int) -> _SourceRules | _BatchRules:
    """The rules of a game spec, built where they run (on a worker)."""
    if kind == "police":
        return _SourceRules(game._source())
    if kind == "source":
        from grundy._core.retrograde import MoveSource

        source = game()
        if not isinstance(source, MoveSource) or source.n_states != n:
            raise ValueError(f"the source factory built {shorten(source)} on a worker, not "
                             f"the MoveSource of {n:,} states it built on the client")
        return _SourceRules(source)
    return _BatchRules(game, n)


# -- a block of states: a Dask actor on its worker ---------------------------------------

# The blocks of each solve living in this process, by solve id (for their
# release, whatever happened to the solve).
_LIVE: dict[str, list[_Block]] = {}
_LIVE_LOCK = threading.Lock()


class _Block:
    """The states lo..hi-1 of a solve, on one worker (a Dask actor).

    ``state`` holds the engine's state bytes, ``rem`` the remoteness of the
    decided states.  Each level: ``step`` applies the decisions received
    for the level, generates the predecessors of the states it decided and
    sends them to their blocks' ``receive``.
    """

    def __init__(self, solve_id: str, index: int, payload: bytes, bounds: list[int],
                 misere: bool) -> None:
        from distributed import get_worker

        kind, game, n = pickle.loads(payload)
        self.solve_id = solve_id
        self.index = index
        self.bounds = np.array(bounds, dtype=np.int64)
        self.lo, self.hi = bounds[index], bounds[index + 1]
        self.rules = _rules(kind, game, n)
        state = self.rules.initial(self.lo, self.hi)
        # A state with no move (and no rule saying otherwise) ends the game.
        state[state == 0] = _WIN_MARK if misere else _LOSS_MARK
        self.state: npt.NDArray[np.uint8] | None = state
        self.rem: npt.NDArray[Any] = np.zeros(self.hi - self.lo, dtype=np.uint16)
        # State numbers, in messages and while sorting (uint32 sorts faster).
        self.id_type: Any = np.uint32 if n < 2 ** 32 else np.int64
        self.local_type: Any = np.uint32 if int(np.max(np.diff(self.bounds))) < 2 ** 32 \
            else np.int64
        self.counts = (int(np.count_nonzero(state >= _LOSS_MARK)),
                       int(np.count_nonzero(state == _TIE_MARK)))
        self.inbox: dict[tuple[str, int], list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]] = {}
        self.own: tuple[str, int, npt.NDArray[Any], npt.NDArray[Any]] | None = None
        self.peers: list[Any] = []
        self.sending: asyncio.Future[Any] | None = None
        try:                    # the actor's own thread (None: asyncio's, off a worker)
            self.executor: Any = get_worker().executors["actor"]
        except ValueError:
            self.executor = None
        with _LIVE_LOCK:
            _LIVE.setdefault(solve_id, []).append(self)

    # -- called by the client

    async def summary(self) -> tuple[int, int]:
        """(states decided by rule as a WIN or LOSS, states that are TIEs)."""
        return self.counts

    async def set_peers(self, peers: list[Any]) -> None:
        self.peers = peers

    async def step(self, phase: str, level: int) -> dict[str, Any]:
        """Apply the decisions of ``level`` and send the next level's."""
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        out, info = await loop.run_in_executor(self.executor, self._advance, phase, level)
        t1 = time.perf_counter()
        sends = [self.peers[j].receive(phase, level + 1, w, d) for j, (w, d) in out.items()]
        if sends:
            self.sending = asyncio.ensure_future(asyncio.gather(*sends))
            try:
                await self.sending
            finally:
                self.sending = None
        info["compute"] = t1 - t0
        info["send"] = time.perf_counter() - t1
        return info

    async def receive(self, phase: str, level: int, win: npt.NDArray[Any],
                      dec: npt.NDArray[Any]) -> None:
        """Decisions for this block's states at ``level``, from another block."""
        self.inbox.setdefault((phase, level), []).append((win, dec))

    # -- the work, in the actor's thread

    def _live(self) -> npt.NDArray[np.uint8]:
        if self.state is None:
            raise RuntimeError(f"block {self.index} of the solve {self.solve_id} was released")
        return self.state

    def _advance(self, phase: str, level: int) -> tuple[dict[int, tuple[Any, Any]],
                                                        dict[str, Any]]:
        st = self._live()
        if level == 0:
            frontier = np.flatnonzero(st >= _LOSS_MARK) if phase == _WIN_LOSS else \
                np.flatnonzero(st == _TIE_MARK)
        else:
            incoming = self.inbox.pop((phase, level), [])
            if self.own is not None:
                own_phase, own_level, w, d = self.own
                if (own_phase, own_level) != (phase, level):    # pragma: no cover - a bug
                    raise RuntimeError(f"block {self.index}: decisions of {own_phase} level "
                                       f"{own_level} left at {phase} level {level}")
                incoming.append((w, d))
                self.own = None
            frontier = self._apply(st, phase, level, incoming)
        out, info = self._expand(st, phase, level, frontier)
        info["new"] = len(frontier)
        return out, info

    def _remoteness(self, level: int) -> npt.NDArray[Any]:
        if level > 65535 and self.rem.dtype == np.uint16:
            self.rem = self.rem.astype(np.int32)
        if level > 2 ** 31 - 1:                 # pragma: no cover - 2^31 levels
            raise ValueError("a remoteness exceeds 2^31 - 1")
        return self.rem

    def _apply(self, st: npt.NDArray[np.uint8], phase: str, level: int,
               incoming: list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]) -> Int64Array:
        """Decide the states of this level; returns them (local offsets)."""
        rem = self._remoteness(level)
        wins = _concat([m[0] for m in incoming])
        decs = _concat([m[1] for m in incoming])
        incoming.clear()
        # Undecided states hold a counter 1..252: below the marks.
        w = wins[st[wins] < _TIE_MARK]
        del wins
        # Each sender's arrays come sorted: here they are merged.
        w = _unique(w, runs=True)[0].astype(np.int64)   # (indexing converts to int64 anyway)
        st[w] = _WIN_MARK if phase == _WIN_LOSS else _TIE_MARK
        rem[w] = level
        if not decs.size:
            return w
        d = decs[st[decs] < _TIE_MARK]
        del decs
        u, count = _unique(d, counts=True, runs=True)
        u = u.astype(np.int64)
        del d
        left = st[u].astype(np.int64) - count
        if left.size and left.min() < 0:
            i = int(np.argmin(left))
            raise ValueError(f"the state {self.lo + int(u[i])} has {int(st[u[i]])} moves left "
                             f"undecided but {int(count[i])} children decided at level "
                             f"{level - 1}: the game's parents and moves disagree")
        st[u] = left.astype(np.uint8)
        lost = u[left == 0]
        st[lost] = _LOSS_MARK
        rem[lost] = level
        return np.concatenate([w, lost])

    def _expand(self, st: npt.NDArray[np.uint8], phase: str, level: int, frontier: Int64Array
                ) -> tuple[dict[int, tuple[Any, Any]], dict[str, Any]]:
        """Route the predecessors of the frontier to their blocks: the pairs
        to send (by block) and what was done."""
        win_parts, dec_parts = [], []
        routed = 0
        for a in range(0, len(frontier), _CHUNK):
            part = frontier[a:a + _CHUNK]
            offsets, preds = self.rules.predecessors(part + self.lo)
            routed += len(preds)
            preds = preds.astype(self.id_type, copy=False)
            if phase == _WIN_LOSS:
                lost = np.repeat(st[part] == _LOSS_MARK, np.diff(offsets))
                win_parts.append(preds[lost])
                dec_parts.append(preds[~lost])
            else:
                win_parts.append(preds)
        # Sorted, the states fall into their blocks in order; a state
        # decided as a WIN (or TIE) needs telling once.
        wins = _unique(_concat(win_parts, self.id_type))[0]
        decs = _concat(dec_parts, self.id_type)
        decs.sort()
        del win_parts, dec_parts
        bounds = self.bounds.astype(self.id_type)
        cut_w = np.searchsorted(wins, bounds)
        cut_d = np.searchsorted(decs, bounds)
        out: dict[int, tuple[Any, Any]] = {}
        sent = messages = 0
        for j in range(len(self.bounds) - 1):
            w = wins[cut_w[j]:cut_w[j + 1]]
            d = decs[cut_d[j]:cut_d[j + 1]]
            if not (w.size or d.size):
                continue
            start = int(self.bounds[j])
            pair = (np.subtract(w, start, dtype=self.local_type),
                    np.subtract(d, start, dtype=self.local_type))
            if j == self.index:
                self.own = (phase, level + 1) + pair
            else:
                out[j] = pair
                messages += 1
                sent += pair[0].nbytes + pair[1].nbytes
        return out, {"routed": routed, "messages": messages, "bytes": sent}

    # -- the answer

    def arrays(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The outcome (int8) and compact remoteness (0 at draws) of the block."""
        return _DECODE[self._live()], self.rem

    def save(self, path: str) -> str:
        """Write the block's answer to ``path`` (atomically); returns ``path``."""
        outcome, rem = self.arrays()
        tmp = f"{path}.{uuid.uuid4().hex[:8]}.tmp"
        with open(tmp, "wb") as f:
            np.savez(f, outcome=outcome, remoteness=rem,
                     bounds=np.array([self.lo, self.hi], dtype=np.int64))
        os.replace(tmp, path)
        return path

    def close(self) -> None:
        """Free the arrays and the peers (their handles keep actors alive)."""
        self.state = None
        self.rem = np.zeros(0, dtype=np.uint16)
        self.inbox.clear()
        self.own = None
        self.peers = []
        if self.sending is not None:
            self.sending.cancel()


def _unique(x: npt.NDArray[Any], counts: bool = False, runs: bool = False
            ) -> tuple[npt.NDArray[Any], Int64Array]:
    """The distinct values of x, sorted, and how often each occurs (if
    ``counts``): a plain sort (faster than np.unique's hashing here), of x
    itself (an array of the caller's own); ``runs``: x is a few sorted runs
    end to end (a stable sort merges them fast)."""
    x.sort(kind="stable" if runs else "quicksort")
    s = x
    if not s.size:
        return s, np.zeros(0, dtype=np.int64)
    first = np.empty(len(s), dtype=bool)
    first[0] = True
    np.not_equal(s[1:], s[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    many = np.diff(starts, append=len(s)) if counts else np.zeros(0, dtype=np.int64)
    return s[starts], many


def _concat(parts: list[npt.NDArray[Any]], dtype: Any = np.int64) -> npt.NDArray[Any]:
    """The arrays end to end (the only one itself, not a copy)."""
    parts = [p for p in parts if p.size]
    if not parts:
        return np.zeros(0, dtype=dtype)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _block(solve_id: str, index: int) -> _Block:
    with _LIVE_LOCK:
        for block in _LIVE.get(solve_id, ()):
            if block.index == index:
                return block
    raise RuntimeError(f"block {index} of the solve {solve_id} is not on this worker (was "
                       f"the worker restarted?)")


def _block_arrays(solve_id: str, index: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
    """A task: the answer of a block living on this worker."""
    return _block(solve_id, index).arrays()


def _block_save(solve_id: str, index: int, path: str) -> str:
    """A task: write a block living on this worker to ``path``."""
    return _block(solve_id, index).save(path)


def _release(solve_id: str) -> int:
    """Run on every worker at the end of a solve: free its blocks."""
    with _LIVE_LOCK:
        blocks = _LIVE.pop(solve_id, [])
    for block in blocks:
        block.close()
    return len(blocks)


def _worker_memory() -> int:
    """The memory available on this worker (run there)."""
    from grundy._common import available_memory

    return available_memory()


# -- the client ------------------------------------------------------------------------

def _game_spec(game: Any) -> tuple[str, Any, int, Any]:
    """(kind, what the workers get, number of states, the client's rules)."""
    from grundy._core.retrograde import MoveSource
    from grundy.games.police import PoliceThief

    if isinstance(game, PoliceThief):
        return "police", game, game.n_positions, None
    if isinstance(game, MoveSource):
        raise TypeError(f"a compiled MoveSource ({shorten(game)}) cannot be sent to the "
                        f"workers: pass a function of no arguments that builds it, such as "
                        f"functools.partial({type(game).__name__}, ...)")
    needed = ("n_positions", "primitive", "moves", "parents")
    has = [callable(getattr(game, m, None)) for m in needed]
    if all(has):
        n = check_count(game.n_positions(), "n_positions()")
        return "batch", game, n, None
    if any(has) or callable(getattr(game, "start", None)):
        missing = ", ".join(f"{m}()" for m, h in zip(needed, has) if not h)
        raise TypeError(f"a batch game solved on a cluster needs n_positions(), "
                        f"primitive(codes), moves(codes) and parents(codes); {shorten(game)} "
                        f"has no {missing}")
    if callable(game):
        source = game()
        if not isinstance(source, MoveSource):
            raise TypeError(f"the source factory {shorten(game)} returned {shorten(source)}, "
                            f"not a MoveSource (a compiled game)")
        return "source", game, int(source.n_states), source
    raise TypeError(f"expected a PoliceThief board, a batch game with parents() or a "
                    f"function building a MoveSource, got {shorten(game)}")


def _block_bytes(kind: str, game: Any, rules: Any, size: int) -> int:
    """Bytes a block of ``size`` states takes at its peak (an estimate): a
    state byte and 2 of remoteness a state, the rules, and a frontier of
    1/64 of the block with its predecessors (generated, sorted and sent)."""
    if kind == "police":
        fixed = game._table_bytes()
        preds = max(len(game.police_moves), len(game.thief_moves)) + 1
    elif kind == "source":
        fixed, preds = 0, max(int(rules.max_predecessors), 1)
    else:
        fixed, preds = 0, _BatchRules.max_predecessors
    return int(3 * size + fixed + (size // 64 + 1) * (16 + 24 * preds))


@overload
def solve(game: PoliceThief, client: Any = None, *, partitions: int | None = None,
          misere: bool = False, max_memory: int | None = None, save_to: None = None,
          stats: SolveStats | None = None, progress: Progress = None) -> PoliceThiefSolution:
    ...


@overload
def solve(game: Any, client: Any = None, *, partitions: int | None = None,
          misere: bool = False, max_memory: int | None = None, save_to: None = None,
          stats: SolveStats | None = None, progress: Progress = None) -> Solution:
    ...


@overload
def solve(game: Any, client: Any = None, *, partitions: int | None = None,
          misere: bool = False, max_memory: int | None = None,
          save_to: str | os.PathLike[str], stats: SolveStats | None = None,
          progress: Progress = None) -> SavedBlocks:
    ...


def solve(game: Any, client: Any = None, *, partitions: int | None = None,
          misere: bool = False, max_memory: int | None = None,
          save_to: str | os.PathLike[str] | None = None, stats: SolveStats | None = None,
          progress: Progress = None) -> Solution | SavedBlocks:
    """Solve every state of a game on a Dask cluster, the states split across its workers.

    Parameters
    ----------
    game : PoliceThief, batch game or callable
        A :class:`grundy.PoliceThief` board; a batch game with
        ``n_positions()``, ``primitive(codes)``, ``moves(codes)`` and
        ``parents(codes)`` (its states are 0..n_positions()-1); or a
        picklable function of no arguments returning a compiled
        ``MoveSource``.
    client : dask.distributed.Client, optional
        The cluster (default: the current client, ``distributed.default_client()``).
    partitions : int, optional
        Blocks of states (default: one a worker), spread over the workers
        round robin; each is a contiguous range of state numbers.
    misere : bool, default False
        A state with no move (and no primitive value) is a WIN (normally a
        LOSS).  Not for police and thief.
    max_memory : int, optional
        Bytes each worker may take for its blocks (default: the smaller of
        80% of its Dask memory limit, below the threshold where Dask pauses
        and then restarts a worker, and the memory available on it); a
        larger solve is refused before anything is allocated.
    save_to : str or os.PathLike, optional
        A directory (made if missing) that every worker can write to: each
        block is saved there by its worker, ``part-K.npz`` with the arrays
        ``outcome``, ``remoteness`` (compact: 0 at draws) and ``bounds``,
        with an ``index.json``; the answer never passes through the client.
        :func:`load_blocks` reads it back.
    stats : SolveStats, optional
        Filled with what the solve did (levels, messages, bytes, times), as
        it goes.
    progress : bool or callable, optional
        True draws a progress bar on a terminal (the ``grundy[progress]``
        extra); a callable is called as ``progress(done, total)`` about
        every quarter second (done: the states decided).

    Returns
    -------
    Solution or SavedBlocks
        As the single-machine solve would give: a
        :class:`grundy.PoliceThiefSolution` for a board, a
        :class:`grundy.SourceSolution` for a compiled source, a
        :class:`BatchGameSolution` for a batch game; with ``save_to``, the
        :class:`SavedBlocks` written.

    Raises
    ------
    ImportError
        If Dask's ``distributed`` is not installed.
    TypeError
        If ``game`` or ``client`` is not one of the kinds above.
    ValueError
        If an option has a bad value, the cluster has no workers, or the
        game breaks its contract (naming the state or code).
    MemoryLimitError
        If a worker's blocks would need more than ``max_memory`` (or the
        gathered answer more than the client has).
    WorkerLostError
        If a worker holding blocks is lost during the solve.

    Examples
    --------
    >>> import grundy
    >>> board = grundy.PoliceThief(["P.ET"])
    >>> sol = solve(board, client)  # doctest: +SKIP
    >>> sol.result  # doctest: +SKIP
    'The thief escapes'
    """
    distributed = _distributed()
    misere = check_bool(misere, "misere")
    check_progress(progress)
    if partitions is not None:
        partitions = check_count(partitions, "partitions", minimum=1)
    if stats is not None and not isinstance(stats, SolveStats):
        raise TypeError(f"stats must be a SolveStats, got {shorten(stats)}")
    if max_memory is not None:
        max_memory = check_count(max_memory, "max_memory", minimum=1)
    if save_to is not None:
        if not isinstance(save_to, (str, os.PathLike)):
            raise TypeError(f"save_to must be a directory name, got {shorten(save_to)}")
        save_to = os.fspath(save_to)
    if client is None:
        try:
            client = distributed.default_client()
        except ValueError:
            raise ValueError("no Dask client: pass client=Client(...) (or make one the "
                             "default)") from None
    if not isinstance(client, distributed.Client):
        raise TypeError(f"client must be a dask.distributed.Client, got {shorten(client)}")
    if client.asynchronous:
        raise ValueError("solve() needs a synchronous Client (this one is asynchronous)")
    kind, spec, n, client_rules = _game_spec(game)
    if misere and kind == "police":
        raise ValueError("misere=True: police and thief has no misère form (a board's "
                         "players never run out of moves to lose by)")
    stats = SolveStats() if stats is None else stats
    stats.n_states = n
    cloudpickle = importlib.import_module("cloudpickle")     # Dask's own dependency
    try:
        payload = cloudpickle.dumps((kind, spec, n))
    except Exception as exc:
        raise TypeError(f"the game must be picklable to reach the workers: pickling "
                        f"{shorten(spec)} failed: {exc}") from None
    run = _Run(distributed, client, stats)
    return run.solve(kind, spec, n, client_rules, payload, partitions, misere, max_memory,
                     save_to, progress)


class _Run:
    """One distributed solve, seen from the client."""

    def __init__(self, distributed: Any, client: Any, stats: SolveStats) -> None:
        self.distributed = distributed
        self.client = client
        self.stats = stats
        self.solve_id = uuid.uuid4().hex[:12]
        self.futures: list[Any] = []
        self.actors: list[Any] = []
        self.homes: list[str] = []           # the worker of each block
        self.bounds: list[int] = []
        self.next_check = 0.0

    def solve(self, kind: str, spec: Any, n: int, client_rules: Any, payload: bytes,
              partitions: int | None, misere: bool, max_memory: int | None,
              save_to: str | None, progress: Progress) -> Solution | SavedBlocks:
        stats = self.stats
        workers = sorted(self.client.scheduler_info()["workers"].items())
        if not workers:
            raise ValueError("the Dask cluster has no workers")
        p = min(len(workers) if partitions is None else partitions, n)
        self.bounds = [k * n // p for k in range(p + 1)] if p else [0]
        size = max((b - a for a, b in zip(self.bounds, self.bounds[1:])), default=0)
        blocks = len(self.bounds) - 1
        self.homes = [workers[k % len(workers)][0] for k in range(blocks)]
        stats.partitions, stats.workers = blocks, min(blocks, len(workers))
        self._check_memory(kind, spec, client_rules, size, workers, max_memory, n, save_to)
        rem_type: type[np.integer[Any]] = np.uint16
        try:
            t0 = time.perf_counter()
            if blocks:
                self._start(payload, misere)
                setup = "while setting up the blocks"
                summaries = self._wait([a.summary() for a in self.actors], setup)
                self._wait([a.set_peers(self.actors) for a in self.actors], setup)
            else:
                summaries = []
            t1 = time.perf_counter()
            stats.setup_seconds = t1 - t0
            with reporting(progress, "solving (distributed)", "states") as report:
                decided = [0]
                stats.levels = self._levels(_WIN_LOSS, n, report, decided)
                if any(ties for _, ties in summaries):
                    stats.tie_levels = self._levels(_TIES, n, report, decided)
                if report is not None:
                    report(n, n)
            t2 = time.perf_counter()
            stats.solve_seconds = t2 - t1
            if max(stats.levels, stats.tie_levels) - 1 > 65535:
                rem_type = np.int32
            saved = arrays = None
            if save_to is not None:
                saved = self._save(save_to, kind, n, rem_type)
            else:
                arrays = self._gather(n, rem_type)
            stats.gather_seconds = time.perf_counter() - t2
        finally:
            self._close()
        if arrays is None:
            assert saved is not None
            return saved
        return _solution(kind, spec, client_rules, *arrays)

    # -- setting up

    def _check_memory(self, kind: str, spec: Any, client_rules: Any, size: int,
                      workers: list[tuple[str, Any]], max_memory: int | None, n: int,
                      save_to: str | None) -> None:
        per_block = _block_bytes(kind, spec, client_rules, size)
        counts: dict[str, int] = {}
        for home in self.homes:
            counts[home] = counts.get(home, 0) + 1
        if max_memory is None and counts:
            free = self.client.run(_worker_memory, workers=list(counts))
        for address, info in workers:
            if address not in counts:
                continue
            limit = None
            if max_memory is None:
                # Below Dask's pause (80%) and terminate (95%) thresholds.
                dask_limit = int(0.8 * (info.get("memory_limit") or 0))
                limit = min(free[address], dask_limit) if dask_limit > 0 else free[address]
            what = (f"the worker {address}, holding {counts[address]} block(s) of up to "
                    f"{size:,} states,")
            check_memory(counts[address] * per_block, max_memory, what, limit=limit)
        if save_to is None:
            # The answer, gathered block by block into its final arrays.
            check_memory(3 * n + 3 * size, None,
                         f"gathering the answer of {n:,} states on the client (save_to= "
                         f"keeps it on disk instead)")

    def _start(self, payload: bytes, misere: bool) -> None:
        client = self.client
        for k, home in enumerate(self.homes):
            self.futures.append(client.submit(
                _Block, self.solve_id, k, payload, self.bounds, misere, actor=True,
                workers=[home], allow_other_workers=False, pure=False,
                key=f"grundy-block-{k}-{self.solve_id}"))
        self._wait_futures(self.futures, "while setting up the blocks")
        self.actors = [f.result() for f in self.futures]

    # -- the levels

    def _levels(self, phase: str, n: int, report: Any, decided: list[int]) -> int:
        """Run the levels of a pass until one decides nothing; returns how many did."""
        stats = self.stats
        level = 0
        while True:
            infos = self._wait([a.step(phase, level) for a in self.actors],
                               f"during level {level} of the {phase} pass")
            new = sum(i["new"] for i in infos)
            if new == 0:
                return level
            messages = sum(i["messages"] for i in infos)
            sent = sum(i["bytes"] for i in infos)
            stats.level_states.append(new)
            stats.level_routed.append(sum(i["routed"] for i in infos))
            stats.level_messages.append(messages)
            stats.level_bytes.append(sent)
            stats.level_compute.append(max(i["compute"] for i in infos))
            stats.level_send.append(max(i["send"] for i in infos))
            stats.work_seconds += sum(i["compute"] for i in infos)
            stats.messages += messages
            stats.bytes += sent
            decided[0] += new
            if report is not None:
                report(decided[0], n)
            level += 1

    def _wait(self, calls: list[Any], what: str) -> list[Any]:
        """The results of actor calls, looking at the workers while waiting."""
        out = []
        for call in calls:
            while True:
                try:
                    out.append(call.result(timeout=_POLL))
                    break
                except (TimeoutError, asyncio.TimeoutError):
                    self._check_alive(what)
        return out

    def _check_alive(self, what: str, force: bool = False) -> None:
        """WorkerLostError if a worker holding blocks is gone."""
        for k, f in enumerate(self.futures):
            if f.status in ("lost", "cancelled", "error") or (
                    self.actors and f.status != "finished"):
                self._lost(k, what)
        now = time.monotonic()
        if not force and now < self.next_check:
            return
        self.next_check = now + 1.0
        alive = self.client.scheduler_info()["workers"]
        for k, home in enumerate(self.homes):
            if home not in alive:
                self._lost(k, what)

    def _lost(self, k: int, what: str) -> None:
        home = self.homes[k]
        raise WorkerLostError(
            f"the worker {home} holding the states {self.bounds[k]:,}..{self.bounds[k + 1] - 1:,} "
            f"(block {k}) was lost {what}: the distributed solve stops (run it again "
            f"on the workers there are)", worker=home)

    # -- the answer

    def _gather(self, n: int, rem_type: type[np.integer[Any]]
                ) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        outcome = np.empty(n, dtype=np.int8)
        remoteness = np.empty(n, dtype=rem_type)
        for k, home in enumerate(self.homes):
            f = self.client.submit(_block_arrays, self.solve_id, k, workers=[home],
                                   allow_other_workers=False, pure=False,
                                   key=f"grundy-gather-{k}-{self.solve_id}")
            self._wait_futures([f], "while gathering the answer")
            o, r = self.client.gather(f, direct=True)
            f.release()
            lo, hi = self.bounds[k], self.bounds[k + 1]
            outcome[lo:hi] = o
            remoteness[lo:hi] = r
        return outcome, remoteness

    def _save(self, directory: str, kind: str, n: int, rem_type: type[np.integer[Any]]
              ) -> SavedBlocks:
        os.makedirs(directory, exist_ok=True)
        names = [f"part-{k:05d}.npz" for k in range(len(self.homes))]
        futures = [self.client.submit(_block_save, self.solve_id, k,
                                      os.path.join(directory, names[k]), workers=[home],
                                      allow_other_workers=False, pure=False,
                                      key=f"grundy-save-{k}-{self.solve_id}")
                   for k, home in enumerate(self.homes)]
        self._wait_futures(futures, "while saving the answer")
        for f in futures:
            f.result()
        index = {"format": "grundy-blocks", "version": 1, "kind": kind, "n_states": n,
                 "bounds": self.bounds, "files": names,
                 "remoteness_dtype": np.dtype(rem_type).name}
        tmp = os.path.join(directory, f"index.json.{self.solve_id}.tmp")
        with open(tmp, "w") as f:
            json.dump(index, f)
        os.replace(tmp, os.path.join(directory, "index.json"))
        return SavedBlocks(directory)

    def _wait_futures(self, futures: list[Any], what: str) -> None:
        """Wait for tasks (raising the first error), looking at the workers."""
        pending = list(futures)
        while pending:
            try:
                self.distributed.wait(pending, timeout=_POLL, return_when="FIRST_COMPLETED")
            except (TimeoutError, asyncio.TimeoutError):
                pass
            for f in pending:
                if f.status == "error":
                    f.result()                      # raises the worker's exception
            pending = [f for f in pending if f.status != "finished"]
            if pending:
                self._check_alive(what, force=True)

    def _close(self) -> None:
        """Free the blocks on their workers and forget the actors (best effort:
        a worker may be gone)."""
        homes = sorted(set(self.homes))
        try:
            alive = set(self.client.scheduler_info()["workers"])
            live = [h for h in homes if h in alive]
            if live:
                self.client.run(_release, self.solve_id, workers=live, on_error="ignore")
        except Exception:               # pragma: no cover - the cluster is going away
            pass
        self.actors = []
        try:
            if self.futures:
                self.client.cancel(self.futures, force=True)
        except Exception:               # pragma: no cover
            pass
        self.futures = []


def _solution(kind: str, spec: Any, client_rules: Any, outcome: npt.NDArray[np.int8],
              remoteness: npt.NDArray[Any]) -> Solution:
    """The solution a single-machine solve of the game returns, on the arrays."""
    solution: Solution
    if kind == "police":
        from grundy.games.police import PoliceThiefSolution

        solution = PoliceThiefSolution._of_board(spec, outcome, remoteness, None)
    elif kind == "source":
        from grundy.engine.source import SourceSolution

        solution = SourceSolution._owned(client_rules, readonly(outcome), readonly(remoteness),
                                         None)
    else:
        solution = BatchGameSolution._owned(spec, readonly(outcome), readonly(remoteness))
    return solution


# -- the answers -------------------------------------------------------------------------

def _keeps(o: npt.NDArray[np.int8], r: npt.NDArray[Any], o2: npt.NDArray[np.int8],
           r2: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Moves to (o2, r2) that are optimal from (o, r) (the engine's rule)."""
    r = r.astype(np.int64)
    r2 = r2.astype(np.int64)
    winloss = (o2 == -o) & (r2 == r - 1) & (o != DRAW) & (o != TIE)
    keeps: npt.NDArray[np.bool_] = winloss | ((o == TIE) & (o2 == TIE) & (r2 == r - 1)) | \
        ((o == DRAW) & (o2 == DRAW))
    return keeps


def _batch_moves(rules: _BatchRules, outcome: npt.NDArray[np.int8], rem: npt.NDArray[Any],
                 lo: int, hi: int) -> Int64Array:
    """The best moves of the states lo..hi-1 of a batch game: each one's
    first optimal child in ``moves()`` order, -1 where the game is over."""
    move = np.full(hi - lo, -1, dtype=np.int64)
    for a in range(lo, hi, _BATCH):
        b = min(hi, a + _BATCH)
        codes = np.arange(a, b, dtype=np.int64)
        open_ = np.flatnonzero(rules.primitive(codes) == 0)
        if not open_.size:
            continue
        offsets, children = rules.moves(codes[open_])
        parent = np.repeat(codes[open_], np.diff(offsets))
        good = np.flatnonzero(_keeps(outcome[parent], rem[parent], outcome[children],
                                     rem[children]))
        # The first good child of each parent: ``good`` is in move order.
        first = np.unique(parent[good], return_index=True)[1]
        move[parent[good[first]] - lo] = children[good[first]]
    return move


class BatchGameSolution(StateSolution):
    """Every state of a batch game numbered 0..n-1, solved: the protocol of
    :class:`grundy.Solution`.

    Made by :func:`solve` for a batch game (one with ``n_positions()`` and
    ``parents()``).  Positions are the codes 0..n_positions-1 themselves.
    ``outcome`` is the solve's array; ``remoteness`` and ``move`` (8 bytes a
    position each) are built on first use, ``move`` by asking the game's
    ``moves()`` again: the best move of a state is its first optimal child
    in ``moves()`` order (a draw's: its first drawn child).

    Parameters
    ----------
    game : object
        The batch game (kept as the attribute ``game``): ``primitive(codes)``
        and ``moves(codes)`` are used for the best moves; ``start()``, if it
        has one, gives :attr:`start`.
    outcome : array_like of int
        The outcome of every state (-1..2), copied as int8.
    remoteness : array_like of int
        The remoteness of every state (>= 0; 0 or -1 at draws), copied as
        int32.

    Raises
    ------
    TypeError
        If an array does not hold integers.
    ValueError
        If the arrays have different lengths or a value out of range.

    Examples
    --------
    One heap of 0..5 tokens: take 1 or 2; states are the heap sizes.

    >>> import numpy as np
    >>> class Heap:
    ...     def n_positions(self): return 6
    ...     def primitive(self, codes): return np.zeros(len(codes), np.int8)
    ...     def moves(self, codes):
    ...         kids = codes[:, None] - np.array([1, 2])
    ...         ok = kids >= 0
    ...         return np.r_[0, np.cumsum(ok.sum(1))], kids[ok]
    ...     def parents(self, codes):
    ...         up = codes[:, None] + np.array([1, 2])
    ...         ok = up < 6
    ...         return np.r_[0, np.cumsum(ok.sum(1))], up[ok]
    >>> sol = BatchGameSolution(Heap(), [-1, 1, 1, -1, 1, 1], [0, 1, 1, 2, 3, 3])
    >>> sol[5], sol.line(5)
    (Evaluation(WIN, remoteness=3, move=3), [5, 3, 2, 0])
    """

    __slots__ = ("game",)
    _position_name = "code"

    def __init__(self, game: Any, outcome: npt.ArrayLike, remoteness: npt.ArrayLike) -> None:
        from grundy.engine.solution import checked_array

        outcome = as_int64_array(outcome, "outcome", ndim=1)
        checked = checked_array(outcome, "outcome", np.int8, len(outcome), -1, 2)
        n = len(checked)
        rem = checked_array(remoteness, "remoteness", np.int32, n, -1, 2 ** 31 - 1)
        rem = np.where(checked == DRAW, np.int32(0), rem)          # the compact form
        self._setup(game, checked, readonly(rem))

    @classmethod
    def _owned(cls, game: Any, outcome: npt.NDArray[np.int8], remoteness: npt.NDArray[Any]
               ) -> BatchGameSolution:
        """A solution on the arrays of a solve (not copied)."""
        self = cls.__new__(cls)
        self._setup(game, readonly(outcome), readonly(remoteness))
        return self

    def _setup(self, game: Any, outcome: npt.NDArray[np.int8], rem: npt.NDArray[Any]) -> None:
        self.game = game
        self._setup_states(outcome, rem, None)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_batch_solution, (type(self), self.game, self._outcome, self._rem))

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        raise TypeError("a BatchGameSolution cannot be saved (its rules are code, not data): "
                        "keep its outcome, remoteness and move arrays with numpy.save, or "
                        "solve with save_to=")

    def _moves(self, start: int, stop: int) -> Int64Array:
        # Asked of the game's moves(): the first optimal child in moves() order.
        rules = _BatchRules(self.game, len(self._outcome))
        return _batch_moves(rules, self._outcome, self._rem, start, stop)

    @property
    def start(self) -> Any:
        """The game's ``start()``, if it has one (else None).

        Examples
        --------
        >>> print(BatchGameSolution(None, [1, -1], [1, 0]).start)
        None
        """
        start = getattr(self.game, "start", None)
        if not callable(start):
            return None
        try:
            return check_number(start(), len(self._outcome), "start()")
        except NotImplementedError:
            return None


def _restore_batch_solution(cls: type[BatchGameSolution], game: Any,
                            outcome: npt.NDArray[np.int8], rem: npt.NDArray[Any]
                            ) -> BatchGameSolution:
    return cls._owned(game, np.array(outcome), np.array(rem))


class SavedBlocks:
    """The answer of a distributed solve saved with ``save_to=``: one file a block.

    The directory holds ``index.json`` (the number of states, the block
    bounds, the file names) and one ``part-K.npz`` a block, with the arrays
    ``outcome`` (int8), ``remoteness`` (uint16 or int32, 0 at draws) and
    ``bounds`` (the block's first and last + 1 state numbers).

    Parameters
    ----------
    directory : str or os.PathLike
        Where the solve saved its blocks.

    Attributes
    ----------
    directory : str
    n_states : int
    bounds : list of int
        Block k holds the states ``bounds[k]..bounds[k + 1] - 1``.
    files : list of str
        The block files, by block.
    kind : str
        ``"police"``, ``"source"`` or ``"batch"``: what was solved.

    Raises
    ------
    ValueError
        If the directory holds no readable index of saved blocks.

    Examples
    --------
    >>> import tempfile
    >>> SavedBlocks(tempfile.mkdtemp())                     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../index.json: not the index of a distributed solve's saved blocks (...)
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = os.fspath(directory)
        path = os.path.join(self.directory, "index.json")
        try:
            with open(path) as f:
                index = json.load(f)
            assert index["format"] == "grundy-blocks" and index["version"] == 1
            self.n_states = int(index["n_states"])
            self.bounds = [int(b) for b in index["bounds"]]
            self.files = [str(name) for name in index["files"]]
            self.kind = str(index["kind"])
            assert len(self.files) == len(self.bounds) - 1
        except (OSError, ValueError, KeyError, TypeError, AssertionError) as exc:
            raise ValueError(f"{path}: not the index of a distributed solve's saved blocks "
                             f"({type(exc).__name__}: {exc})") from None

    def __len__(self) -> int:
        return len(self.files)

    def __repr__(self) -> str:
        return (f"SavedBlocks({self.directory!r}, n_states={self.n_states}, "
                f"blocks={len(self.files)})")

    def block(self, k: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The outcome and compact remoteness (0 at draws) of block ``k``.

        Parameters
        ----------
        k : int
            A block number.

        Returns
        -------
        (outcome, remoteness) : tuple of numpy.ndarray

        Raises
        ------
        ValueError
            If ``k`` is out of range or the file does not fit the index.

        Examples
        --------
        >>> saved = solve(board, client, partitions=4, save_to="run")  # doctest: +SKIP
        >>> outcome, remoteness = saved.block(2)                       # doctest: +SKIP
        >>> len(outcome) == saved.bounds[3] - saved.bounds[2]          # doctest: +SKIP
        True
        """
        k = check_number(k, len(self.files), "block")
        path = os.path.join(self.directory, self.files[k])
        with np.load(path) as data:
            outcome, rem = data["outcome"], data["remoteness"]
            bounds = data["bounds"].tolist()
        if bounds != self.bounds[k:k + 2] or len(outcome) != len(rem) or \
                len(outcome) != bounds[1] - bounds[0]:
            raise ValueError(f"{path} holds the states {bounds}, not "
                             f"{self.bounds[k:k + 2]} as the index says")
        return outcome, rem

    def arrays(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The outcome and compact remoteness of every state, read into memory.

        Returns
        -------
        (outcome, remoteness) : tuple of numpy.ndarray

        Raises
        ------
        MemoryLimitError
            If they do not fit the memory available.

        Examples
        --------
        >>> outcome, remoteness = load_blocks("run").arrays()         # doctest: +SKIP
        """
        check_memory(5 * self.n_states, None, f"reading {self.n_states:,} saved states")
        parts = [self.block(k) for k in range(len(self.files))]
        rem_type = np.result_type(*[r.dtype for _, r in parts]) if parts else np.uint16
        outcome = np.concatenate([o for o, _ in parts]) if parts else np.zeros(0, np.int8)
        rem = np.concatenate([r.astype(rem_type) for _, r in parts]) if parts else \
            np.zeros(0, np.uint16)
        return outcome, rem

    def solution(self, game: Any) -> Solution:
        """The solution, in memory, as :func:`solve` would have returned it.

        Parameters
        ----------
        game
            The game that was solved (the same argument as for :func:`solve`).

        Returns
        -------
        Solution

        Raises
        ------
        TypeError
            If ``game`` is not of the kind that was solved.
        ValueError
            If it does not have the number of states saved.

        Examples
        --------
        >>> sol = load_blocks("run").solution(board)                  # doctest: +SKIP
        >>> sol.result                                                # doctest: +SKIP
        'The thief escapes'
        """
        kind, spec, n, client_rules = _game_spec(game)
        if kind != self.kind or n != self.n_states:
            raise ValueError(f"the blocks hold a {self.kind} game of {self.n_states:,} states, "
                             f"not {shorten(game)} ({kind}, {n:,} states)")
        outcome, rem = self.arrays()
        return _solution(kind, spec, client_rules, outcome, rem)


def load_blocks(directory: str | os.PathLike[str]) -> SavedBlocks:
    """The blocks a distributed solve saved with ``save_to=``.

    Parameters
    ----------
    directory : str or os.PathLike

    Returns
    -------
    SavedBlocks

    Raises
    ------
    ValueError
        If the directory holds no readable index of saved blocks.

    Examples
    --------
    >>> import tempfile
    >>> load_blocks(tempfile.mkdtemp())                     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...index.json: not the index of a distributed solve's saved blocks (...)
    """
    return SavedBlocks(directory)
