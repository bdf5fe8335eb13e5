"""The client side of a distributed solve: :func:`solve`, its statistics
and its failures.

The client splits the positions into blocks, starts one actor a block on
the workers (:mod:`grundy.distributed.block`), lets them run the passes
among themselves, and meanwhile reports progress and watches the workers:
a worker lost mid-solve fails it with :class:`WorkerLostError`, Ctrl-C
frees the blocks.  At the end it gathers the answer (or has each block save
its own), and frees the blocks whatever happened.
"""
from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import os
import secrets
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, overload

import numpy as np
import numpy.typing as npt

from grundy._common import check_bool, check_count, check_memory, shorten
from grundy._progress import Progress, check_progress, reporting
from grundy.distributed import transport
from grundy.distributed.block import TIES, WIN_LOSS, Block, block_save, release, worker_memory
from grundy.distributed.games import BatchRules, game_spec
from grundy.distributed.results import SavedBlocks, solution_of
from grundy.engine.driver import NARROW_MAX
from grundy.engine.solution import Solution

if TYPE_CHECKING:
    from grundy.games.police import PoliceThief, PoliceThiefSolution

__all__ = ["solve", "SolveStats", "WorkerLostError", "dask_distributed"]

INSTALL = "pip install 'grundy[distributed]'"
_FETCH_TIMEOUT = 2.0         # seconds the client waits to reach a block's port, or for data
_STEP = 0.05                # seconds between two looks at the other calls while waiting
_POLL = 0.25                # seconds between two looks at the workers while waiting


def dask_distributed() -> Any:
    """Dask's ``distributed`` package, or an ImportError saying how to get it."""
    try:
        import distributed
    except ImportError:
        raise ImportError(f"grundy.distributed needs Dask's distributed package: "
                          f"{INSTALL}") from None
    return distributed


class WorkerLostError(RuntimeError):
    """A worker holding part of a distributed solve was lost before the end.

    The positions of its blocks are gone with it, so the solve stops (it is
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
    positions decided by rule, then one a remoteness) and in the tie pass
    (``tie_levels``, 0 without ties); the ``level_*`` lists hold one entry a
    level, win/loss levels first.  A message is the one array a block sends
    another in one level (the routed positions); ``bytes`` counts the
    arrays' bytes, not the framing.

    Attributes
    ----------
    n_positions, partitions, workers : int
        The positions, the blocks they were split into, the workers holding them.
    levels, tie_levels : int
        Levels of the win/loss and tie passes.
    messages, bytes : int
        Messages between blocks and their bytes, in all.
    streams : int
        Of the blocks' links (one per ordered pair of blocks), those that
        were direct streams; the others went through Dask's actor calls
        (see :mod:`grundy.distributed.transport`).
    level_states, level_routed, level_messages, level_bytes : list of int
        Per level: the positions decided at that level (the frontier), the
        predecessors generated from it (routed to their blocks), the messages
        and their bytes.
    level_compute, level_send : list of float
        Per level, the slowest block's seconds computing (applying and
        generating), and sending and waiting for the others' messages.
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

    n_positions: int = 0
    partitions: int = 0
    workers: int = 0
    levels: int = 0
    tie_levels: int = 0
    messages: int = 0
    bytes: int = 0
    streams: int = 0
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


def _check_gather(n: int, rem_bytes: int, size: int) -> None:
    """Refuse an answer the client cannot hold: its final arrays (an int8
    outcome and a remoteness of ``rem_bytes``), and one block of ``size``
    positions on its way (when it comes through Dask's calls)."""
    check_memory((1 + rem_bytes) * (n + size), None,
                 f"gathering the answer of {n:,} positions on the client (save_to= keeps it "
                 f"on disk instead)")


def block_bytes(kind: str, game: Any, rules: Any, size: int) -> int:
    """Bytes a block of ``size`` positions takes at its peak (an estimate):
    a state byte and 2 of remoteness a position, the rules, and a frontier
    of 1/64 of the block with its predecessors (generated and routed)."""
    if kind == "police":
        fixed = game._table_bytes()
        preds = max(len(game.police_moves), len(game.thief_moves)) + 1
    elif kind == "source":
        fixed, preds = 0, max(int(rules.max_predecessors), 1)
    else:
        fixed, preds = 0, BatchRules.max_predecessors
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
    """Solve every position of a game on a Dask cluster, the positions split across its workers.

    Parameters
    ----------
    game : PoliceThief, batch game or callable
        A :class:`grundy.PoliceThief` board; a batch game with
        ``n_positions``, ``primitive(codes)``, ``moves(codes)`` and
        ``predecessors(codes)`` (its positions are 0..n_positions-1); or a
        picklable function of no arguments returning a compiled
        ``MoveSource``.
    client : dask.distributed.Client, optional
        The cluster (default: the current client, ``distributed.default_client()``).
    partitions : int, optional
        Blocks of positions (default: one a worker), spread over the
        workers round robin; each is a contiguous range of position numbers.
    misere : bool, default False
        A position with no move (and no primitive value) is a WIN (normally
        a LOSS).  Not for police and thief.
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
        every quarter second (done: the positions decided).

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
    distributed = dask_distributed()
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
    kind, spec, n, client_rules = game_spec(game)
    if misere and kind == "police":
        raise ValueError("misere=True: police and thief has no misère form (a board's "
                         "players never run out of moves to lose by)")
    stats = SolveStats() if stats is None else stats
    stats.n_positions = n
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
        self.token = secrets.token_bytes(16)     # what a stream between its blocks begins with
        self.futures: list[Any] = []
        self.actors: list[Any] = []
        self.homes: list[str] = []           # the worker of each block
        self.bounds: list[int] = []
        self.addresses: list[str | None] = []   # where each block listens, if it does
        self.next_check = 0.0

    def solve(self, kind: str, spec: Any, n: int, client_rules: Any, payload: bytes,
              partitions: int | None, misere: bool, max_memory: int | None,
              save_to: str | None, progress: Progress) -> Solution | SavedBlocks:
        stats = self.stats
        workers = sorted(self._workers().items())
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
                summaries = self._wait(self._calls("summary", setup), setup)
                self.addresses = self._wait(self._calls("listen", setup), setup)
                self._wait(self._calls("set_peers", setup, self.actors, self.addresses),
                           setup)
            else:
                summaries = []
            t1 = time.perf_counter()
            stats.setup_seconds = t1 - t0
            with reporting(progress, "solving (distributed)", "positions") as report:
                if blocks:
                    stats.levels = self._pass(WIN_LOSS, n, report)
                    if any(ties for _, ties in summaries):
                        stats.tie_levels = self._pass(TIES, n, report)
                    self._collect_stats()
                if report is not None:
                    report(n, n)
            t2 = time.perf_counter()
            stats.solve_seconds = t2 - t1
            if max(stats.levels, stats.tie_levels) - 1 > NARROW_MAX:
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
        return solution_of(kind, spec, client_rules, *arrays)

    # -- setting up

    def _check_memory(self, kind: str, spec: Any, client_rules: Any, size: int,
                      workers: list[tuple[str, Any]], max_memory: int | None, n: int,
                      save_to: str | None) -> None:
        per_block = block_bytes(kind, spec, client_rules, size)
        counts: dict[str, int] = {}
        for home in self.homes:
            counts[home] = counts.get(home, 0) + 1
        if max_memory is None and counts:
            free = self.client.run(worker_memory, workers=list(counts))
        for address, info in workers:
            if address not in counts:
                continue
            limit = None
            if max_memory is None:
                # Below Dask's pause (80%) and terminate (95%) thresholds.
                dask_limit = int(0.8 * (info.get("memory_limit") or 0))
                limit = min(free[address], dask_limit) if dask_limit > 0 else free[address]
            what = (f"the worker {address}, holding {counts[address]} block(s) of up to "
                    f"{size:,} positions,")
            check_memory(counts[address] * per_block, max_memory, what, limit=limit)
        if save_to is None:
            _check_gather(n, 2, size)            # before the solve, at the narrow width

    def _start(self, payload: bytes, misere: bool) -> None:
        client = self.client
        for k, home in enumerate(self.homes):
            self.futures.append(client.submit(
                Block, self.solve_id, k, payload, self.bounds, misere, self.token, actor=True,
                workers=[home], allow_other_workers=False, pure=False,
                key=f"grundy-block-{k}-{self.solve_id}"))
        self._wait_futures(self.futures, "while setting up the blocks")
        self.actors = [f.result() for f in self.futures]

    # -- the levels

    def _pass(self, phase: str, n: int, report: Any) -> int:
        """Run a pass on every block (the blocks run its levels among
        themselves); returns how many levels decided something.  Meanwhile
        the client reports progress and looks at the workers."""
        what = f"during the {phase} pass"
        runs = self._calls("run", what, phase)
        before = self.stats.levels          # the win/loss levels, in the tie pass

        def watch() -> None:
            levels, decided = self._wait([self._call(0, "progress", what)], what)[0]
            if phase == WIN_LOSS:           # how far the solve got, should it fail
                self.stats.levels = levels
            else:
                self.stats.tie_levels = levels - before
            if report is not None:
                report(decided, n)

        levels = self._wait(runs, what, watch)
        return int(levels[0])

    def _collect_stats(self) -> None:
        """The blocks' records of each level, added up into the stats."""
        stats = self.stats
        records = self._wait(self._calls("records", "after the solve"), "after the solve")
        stats.streams = sum(r[0]["streams"] for r in records if r)
        for level in zip(*records):
            messages = sum(r["messages"] for r in level)
            sent = sum(r["bytes"] for r in level)
            stats.level_states.append(level[0]["states"])
            stats.level_routed.append(sum(r["routed"] for r in level))
            stats.level_messages.append(messages)
            stats.level_bytes.append(sent)
            stats.level_compute.append(max(r["compute"] for r in level))
            stats.level_send.append(max(r["send"] for r in level))
            stats.work_seconds += sum(r["compute"] for r in level)
            stats.messages += messages
            stats.bytes += sent

    def _workers(self) -> dict[str, Any]:
        """The scheduler's workers: address -> their information.

        (The client keeps the scheduler's answer in one place that a periodic
        update of its own, without the workers, may overwrite between the
        fetch and the read: an empty answer is asked again.)"""
        for _ in range(100):
            try:
                info = self.client.scheduler_info(n_workers=-1)
            except TypeError:                   # a distributed without n_workers=
                info = self.client.scheduler_info()
            if info.get("workers"):
                return dict(info["workers"])
            time.sleep(0.01)
        return {}

    def _call(self, k: int, method: str, what: str, *args: Any) -> Any:
        """Call ``method`` of block k's actor (a future of its result);
        WorkerLostError if its worker is gone."""
        try:
            return getattr(self.actors[k], method)(*args)
        except (RuntimeError, OSError):     # Dask's words for an actor that is gone
            self._lost(k, what)

    def _calls(self, method: str, what: str, *args: Any) -> list[Any]:
        """:meth:`_call` on every block."""
        return [self._call(k, method, what, *args) for k in range(len(self.actors))]

    def _wait(self, calls: list[Any], what: str,
              meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """The results of actor calls, looking at the workers while waiting
        (and calling ``meanwhile()`` between two looks).  Every call is
        watched, so that an error in any block is raised at once (the
        others may be waiting for that block's messages)."""
        out: list[Any] = [None] * len(calls)
        pending = list(range(len(calls)))
        next_look = time.monotonic() + _POLL
        while pending:
            try:
                out[pending[0]] = self._result(calls[pending[0]], what,
                                               _POLL if len(pending) == 1 else _STEP)
                pending.pop(0)
            except (TimeoutError, asyncio.TimeoutError):
                pass
            for i in pending[1:]:
                if calls[i].done():
                    out[i] = self._result(calls[i], what)
                    pending.remove(i)
            if pending and time.monotonic() >= next_look:
                next_look = time.monotonic() + _POLL
                self._check_alive(what)
                if meanwhile is not None:
                    meanwhile()
        return out

    def _result(self, call: Any, what: str, timeout: float | None = None) -> Any:
        """An actor call's result (TimeoutError if not there within
        ``timeout``); the error of its block, or WorkerLostError."""
        try:
            return call.result(timeout=timeout)
        except (TimeoutError, asyncio.TimeoutError):
            raise
        except (RuntimeError, OSError):
            # Dask's word for an actor whose worker is gone: say which block
            # was lost (once the scheduler knows), else re-raise.
            end = time.monotonic() + 10.0
            while time.monotonic() < end:
                self._check_alive(what, force=True)
                time.sleep(_POLL)
            raise

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
        alive = self._workers()
        for k, home in enumerate(self.homes):
            if home not in alive:
                self._lost(k, what)

    def _lost(self, k: int, what: str) -> NoReturn:
        home = self.homes[k]
        raise WorkerLostError(
            f"the worker {home} holding the positions {self.bounds[k]:,}..{self.bounds[k + 1] - 1:,} "
            f"(block {k}) was lost {what}: the distributed solve stops (run it again "
            f"on the workers there are)", worker=home)

    # -- the answer

    def _gather(self, n: int, rem_type: type[np.integer[Any]]
                ) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The answer, block by block, read straight into its final arrays
        from the blocks' streams; through Dask's calls for a block without
        one, or once a stream could not be opened (the client may not reach
        the workers' ports)."""
        _check_gather(n, np.dtype(rem_type).itemsize,
                      max((b - a for a, b in zip(self.bounds, self.bounds[1:])), default=0))
        outcome = np.empty(n, dtype=np.int8)
        remoteness = np.empty(n, dtype=rem_type)
        what = "while gathering the answer"
        direct = True
        for k in range(len(self.actors)):
            lo, hi = self.bounds[k], self.bounds[k + 1]
            address = self.addresses[k] if k < len(self.addresses) else None
            if direct and address is not None:
                try:
                    transport.fetch(address, self.token, [outcome[lo:hi], remoteness[lo:hi]],
                                    timeout=_FETCH_TIMEOUT)
                    continue
                except OSError:
                    direct = False
            o, r = self._wait([self._call(k, "arrays", what)], what)[0]
            outcome[lo:hi] = o
            remoteness[lo:hi] = r
            del o, r
        return outcome, remoteness

    def _save(self, directory: str, kind: str, n: int, rem_type: type[np.integer[Any]]
              ) -> SavedBlocks:
        os.makedirs(directory, exist_ok=True)
        names = [f"part-{k:05d}.npz" for k in range(len(self.homes))]
        futures = [self.client.submit(block_save, self.solve_id, k,
                                      os.path.join(directory, names[k]), workers=[home],
                                      allow_other_workers=False, pure=False,
                                      key=f"grundy-save-{k}-{self.solve_id}")
                   for k, home in enumerate(self.homes)]
        self._wait_futures(futures, "while saving the answer")
        for f in futures:
            f.result()
        index = {"format": "grundy-blocks", "version": 1, "kind": kind, "n_positions": n,
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
            alive = set(self._workers())
            live = [h for h in homes if h in alive]
            if live:
                self.client.run(release, self.solve_id, workers=live, on_error="ignore")
        except Exception:               # pragma: no cover - the cluster is going away
            pass
        self.actors = []
        try:
            if self.futures:
                self.client.cancel(self.futures, force=True)
        except Exception:               # pragma: no cover
            pass
        self.futures = []
