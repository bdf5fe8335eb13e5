"""A block of positions on a Dask worker: the engine's block kernel, a level
at a time, the levels run among the blocks themselves.

Each block is a Dask *actor* holding the state bytes and remoteness of the
positions lo..hi-1 (never sent anywhere until the end).  :meth:`Block.run`
runs a pass (win/loss, or ties): every level, the block routes the
predecessors of its frontier to their blocks (one message to each other
block, with the size of its frontier, on a direct stream where it can:
:mod:`grundy.distributed.transport`), waits for every other block's
message of the level, and applies what it received (the compiled
``grundy._core.blocks``).  Every block learns how many positions the level
decided in all, so all stop together, at the first level that decides
none, without the client in between.
"""
from __future__ import annotations

import asyncio
import os
import pickle
import threading
import time
import uuid
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import Int64Array
from grundy._core import blocks as _blocks
from grundy.distributed import transport
from grundy.distributed.games import rules_of
from grundy.engine.driver import NARROW_MAX

__all__ = ["Block", "block_save", "release", "worker_memory"]

WIN_LOSS, TIES = "win/loss", "tie"
_PHASES = (WIN_LOSS, TIES)            # their numbers in the messages of the streams
# A level of fewer positions is computed in the event loop's own thread (a
# few milliseconds): handing it to the actor's thread would cost more, the
# two threads taking turns at the GIL.  A larger one runs in the actor's
# thread, so that the event loop stays free to receive.
INLINE = 1 << 16

# The blocks of each solve living in this process, by solve id (for their
# release, whatever happened to the solve).
_LIVE: dict[str, list[Block]] = {}
_LIVE_LOCK = threading.Lock()


class Block:
    """The positions lo..hi-1 of a solve, on one worker (a Dask actor).

    Parameters
    ----------
    solve_id : str
        The solve it belongs to.
    index : int
        Its number: it holds ``bounds[index]..bounds[index + 1] - 1``.
    payload : bytes
        The pickled ``(kind, game spec, number of positions)``.
    bounds : list of int
        Where every block of the solve starts (and the last one ends).
    misere : bool
        A position with no move is a WIN.
    token : bytes, default b""
        The solve's secret, which a stream from another block must begin
        with (empty: the blocks talk through Dask's calls only).

    Examples
    --------
    >>> import grundy
    >>> payload = pickle.dumps(("police", grundy.PoliceThief(["P.ET"]), 32))
    >>> block = Block("example", 0, payload, [0, 32], False)     # one block: all of it
    >>> block.summary()
    (14, 0)
    >>> block.close()
    """

    def __init__(self, solve_id: str, index: int, payload: bytes, bounds: list[int],
                 misere: bool, token: bytes = b"") -> None:
        kind, game, n = pickle.loads(payload)
        self.solve_id = solve_id
        self.index = index
        self.bounds = np.array(bounds, dtype=np.int64)
        self.lo, self.hi = bounds[index], bounds[index + 1]
        self.rules = rules_of(kind, game, n)
        self.state: npt.NDArray[np.uint8] | None
        self.state, self.many_ids, self.many_left = self.rules.initial(self.lo, self.hi, misere)
        self.rem: npt.NDArray[Any] = np.zeros(self.hi - self.lo, dtype=np.uint16)
        # Messages hold local numbers << 1: uint32 while every block has fewer
        # than 2^31 positions.
        self.wide = int(np.max(np.diff(self.bounds))) >= 1 << 31
        self.counts = (int(np.count_nonzero(self.state >= 254)),
                       int(np.count_nonzero(self.state == 253)))
        self.peers: list[Any] = []
        self.token = token
        self.listener: transport.Listener | None = None
        self.addresses: list[str | None] = []       # the other blocks' streams, if any
        self.streams: dict[int, Any] = {}          # block -> our stream to it (None: calls)
        # (phase, level) -> [(sender, routed array, the sender's frontier size)]
        self.inbox: dict[tuple[str, int], list[tuple[int, Any, int]]] = {}
        self.arrived: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closed = False
        self.levels: list[dict[str, Any]] = []   # what each level did, for the stats
        self.decided = 0                          # positions decided in all, so far
        try:                    # the actor's own thread (None: asyncio's, off a worker)
            from distributed import get_worker

            self.executor: Any = get_worker().executors["actor"]
        except (ImportError, ValueError):
            self.executor = None
        with _LIVE_LOCK:
            _LIVE.setdefault(solve_id, []).append(self)

    # -- called by the client

    def summary(self) -> tuple[int, int]:
        """(positions decided by rule as a WIN or LOSS, positions that are TIEs)."""
        return self.counts

    async def listen(self) -> str | None:
        """Open this block's port for the other blocks' messages; returns
        its ``host:port``, or None (the others then use Dask's calls)."""
        if not self.token:
            return None
        self.loop = asyncio.get_running_loop()
        self.listener = transport.Listener(self.token, self._delivered,
                                           lambda: list(self.arrays()))
        return await self.listener.start()

    def set_peers(self, peers: list[Any], addresses: list[str | None] | None = None) -> None:
        """The actors of every block, in block order (this one included),
        and the addresses they listen on (None where they do not)."""
        self.peers = peers
        self.addresses = list(addresses) if addresses is not None else [None] * len(peers)

    async def progress(self) -> tuple[int, int]:
        """(levels done, positions decided in all so far), for the client."""
        return len(self.levels), self.decided

    async def records(self) -> list[dict[str, Any]]:
        """What each level did here (and in all), for the solve's stats."""
        return self.levels

    async def run(self, phase: str) -> int:
        """Run the levels of a pass with the other blocks until a level
        decides nothing anywhere; returns how many levels decided something."""
        self.loop = asyncio.get_running_loop()
        if self.arrived is None:
            self.arrived = asyncio.Event()
        ties = phase == TIES
        await self._connect()
        decided: Int64Array = _blocks.known(self._live(), ties)    # level 0: known by rule
        received: list[tuple[int, Any, int]] = []
        sending: Any = None
        level = 0
        while True:
            # One step in the actor's thread: the frontier of this level (what
            # this block settled itself, and what the others sent), and the
            # predecessors of the frontier: this block's settled now, the
            # others routed to their blocks.
            t0 = time.perf_counter()
            messages = [array for _, array, _ in received]
            work = len(decided) + sum(len(m) for m in messages)
            if work < INLINE:
                frontier, decided, arrays, routed = self._step(decided, messages, level, ties)
            else:
                frontier, decided, arrays, routed = await self._compute(
                    self._step, decided, messages, level, ties)
            t1 = time.perf_counter()
            if sending is not None:
                await sending               # the last level's messages (long arrived)
            sends = [self._send(j, phase, level + 1, arrays[j], len(frontier))
                     for j in range(len(self.peers)) if j != self.index]
            sending = asyncio.ensure_future(asyncio.gather(*sends)) if sends else None
            received = await self._received(phase, level + 1)
            total = len(frontier) + sum(count for _, _, count in received)
            if total == 0:
                if sending is not None:
                    await sending
                return level
            self.decided += total
            self.levels.append({"phase": phase, "states": total, "routed": routed,
                                "messages": len(sends), "streams": sum(
                                    1 for s in self.streams.values() if s is not None),
                                "bytes": sum(a.nbytes for j, a in enumerate(arrays)
                                             if j != self.index),
                                "compute": t1 - t0, "send": time.perf_counter() - t1})
            level += 1

    async def receive(self, phase: str, level: int, sender: int, routed: Any,
                      count: int) -> None:
        """Another block's moves for this block's positions at ``level``, and
        the size of its frontier (of level - 1)."""
        self.inbox.setdefault((phase, level), []).append((sender, routed, count))
        if self.arrived is not None:
            self.arrived.set()

    # -- the messages

    async def _delivered(self, phase: int, level: int, sender: int, routed: Any,
                         count: int) -> None:
        """A message that came on a stream."""
        await self.receive(_PHASES[phase], level, sender, routed, count)

    async def _connect(self) -> None:
        """Our streams to the blocks that listen (once a solve)."""
        for j, address in enumerate(self.addresses):
            if j != self.index and j not in self.streams:
                self.streams[j] = (await transport.connect(address, self.token)
                                   if address is not None else None)

    def _send(self, j: int, phase: str, level: int, routed: Any, count: int) -> Any:
        """Send block j its message of ``level`` (an awaitable)."""
        stream = self.streams.get(j)
        if stream is not None:
            return transport.send(stream, _PHASES.index(phase), level, self.index, routed, count)
        return self.peers[j].receive(phase, level, self.index, routed, count)

    # -- the work

    async def _compute(self, fn: Any, *args: Any) -> Any:
        """fn(*args) in the actor's thread (the event loop stays free to receive)."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def _received(self, phase: str, level: int) -> list[tuple[int, Any, int]]:
        """The messages of every other block for ``level`` (waiting for them)."""
        assert self.arrived is not None
        others = len(self.peers) - 1
        while len(self.inbox.get((phase, level), ())) < others:
            self.arrived.clear()
            if len(self.inbox.get((phase, level), ())) >= others:
                break
            await self.arrived.wait()
            self._live()
        return sorted(self.inbox.pop((phase, level), []), key=lambda m: m[0])

    def _live(self) -> npt.NDArray[np.uint8]:
        if self.closed or self.state is None:
            raise RuntimeError(f"block {self.index} of the solve {self.solve_id} was released")
        return self.state

    def _step(self, decided: Int64Array, messages: list[Any], level: int, ties: bool
              ) -> tuple[Int64Array, Int64Array, list[Any], int]:
        """The frontier of ``level``: the positions this block decided itself
        (``decided``) and those the other blocks' ``messages`` decide; then
        its predecessors for ``level + 1`` (:meth:`_level`).  Returns (the
        frontier, the positions of level + 1 decided here, the arrays for
        each block, how many predecessors there were)."""
        if messages:
            more = _blocks.apply(self._live(), self.many_ids, self.many_left, self.rem,
                                 messages, level, ties)
            if len(more):
                decided = np.concatenate([decided, more])
        return (decided, *self._level(decided, level + 1, ties))

    def _level(self, frontier: Int64Array, level: int, ties: bool
               ) -> tuple[Int64Array, list[Any], int]:
        self._live()
        if level > NARROW_MAX and self.rem.dtype == np.uint16:
            self.rem = self.rem.astype(np.int32)            # a remoteness past uint16's
        return self.rules.level(self, frontier, level, ties)

    # -- the answer

    def arrays(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The outcome (int8) and compact remoteness (0 at draws) of the block."""
        return _blocks.decode(self._live()), self.rem

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
        """Free the arrays and the peers (their handles keep actors alive),
        and wake a pass waiting for messages (it stops)."""
        self.closed = True
        self.state = None
        self.rem = np.zeros(0, dtype=np.uint16)
        self.inbox.clear()
        self.peers = []
        streams, self.streams = [s for s in self.streams.values() if s is not None], {}
        listener, self.listener = self.listener, None
        if self.loop is not None:

            def stop() -> None:             # in the event loop's thread
                if self.arrived is not None:
                    self.arrived.set()
                for stream in streams:
                    transport.close_writer(stream)
                if listener is not None:
                    listener.close()
            try:
                self.loop.call_soon_threadsafe(stop)
            except RuntimeError:            # the loop is closed: nobody waits
                pass


def _block(solve_id: str, index: int) -> Block:
    with _LIVE_LOCK:
        for block in _LIVE.get(solve_id, ()):
            if block.index == index:
                return block
    raise RuntimeError(f"block {index} of the solve {solve_id} is not on this worker (was "
                       f"the worker restarted?)")


def block_save(solve_id: str, index: int, path: str) -> str:
    """A task: write a block living on this worker to ``path``."""
    return _block(solve_id, index).save(path)


def release(solve_id: str) -> int:
    """Run on every worker at the end of a solve: free its blocks."""
    with _LIVE_LOCK:
        blocks = _LIVE.pop(solve_id, [])
    for block in blocks:
        block.close()
    return len(blocks)


def worker_memory() -> int:
    """The memory available on this worker (run there)."""
    from grundy._common import available_memory

    return available_memory()
