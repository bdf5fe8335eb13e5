"""The games a distributed solve takes, and their rules as a block asks for them.

Three kinds, each sent to the workers as a picklable spec:

- ``"police"``: a :class:`grundy.PoliceThief` board; each worker builds the
  compiled rules from it;
- ``"source"``: a picklable function of no arguments building a compiled
  ``MoveSource`` (a compiled source itself cannot be pickled);
- ``"batch"``: a batch game whose positions are numbered 0..n-1, with the
  attribute ``n_positions`` and the methods ``primitive(codes)``,
  ``moves(codes)`` and ``predecessors(codes) -> (offsets, codes)`` (every
  position with a move to ``codes[i]``, once per move).

On a worker the rules answer two questions, with the engine's block kernel
(``grundy._core.blocks``): the initial state bytes of a block, and the
predecessors of a block's frontier routed to their blocks.  Every array a
batch game returns is checked, and a bad one is refused naming the method.

Examples
--------
>>> import grundy
>>> kind, spec, n, rules = game_spec(grundy.PoliceThief(["P.ET"]))
>>> kind, n
('police', 32)
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import Int64Array, check_count, shorten
from grundy._core import blocks as _blocks
from grundy._core.source import MoveSource
from grundy.engine.explore import int64_array
from grundy.games.police import PoliceThief

__all__ = ["game_spec", "rules_of", "SourceRules", "BatchRules", "BATCH_METHODS"]

BATCH = 1 << 16            # codes per call of a batch game's rules
BATCH_METHODS = ("n_positions", "primitive", "moves", "predecessors")


def game_spec(game: Any) -> tuple[str, Any, int, Any]:
    """(kind, what the workers get, number of positions, the client's own
    rules: a source, or None) of a game given to :func:`grundy.distributed.solve`."""
    if isinstance(game, PoliceThief):
        return "police", game, game.n_positions, None
    if isinstance(game, MoveSource):
        raise TypeError(f"a compiled MoveSource ({shorten(game)}) cannot be sent to the "
                        f"workers: pass a function of no arguments that builds it, such as "
                        f"functools.partial({type(game).__name__}, ...)")
    has = [hasattr(game, m) if m == "n_positions" else callable(getattr(game, m, None))
           for m in BATCH_METHODS]
    if all(has):
        n_positions = game.n_positions
        if callable(n_positions):
            raise TypeError(f"n_positions of {shorten(game)} is a method: in the batch "
                            f"protocol it is an attribute (or property), the number of "
                            f"positions, as everywhere in grundy")
        return "batch", game, check_count(n_positions, "n_positions"), None
    if any(has) or callable(getattr(game, "start", None)):
        missing = ", ".join(m if m == "n_positions" else f"{m}()"
                            for m, h in zip(BATCH_METHODS, has) if not h)
        hint = (" (parents() is now called predecessors())"
                if callable(getattr(game, "parents", None)) else "")
        raise TypeError(f"a batch game solved on a cluster needs n_positions, "
                        f"primitive(codes), moves(codes) and predecessors(codes); "
                        f"{shorten(game)} has no {missing}{hint}")
    if callable(game):
        source = game()
        if not isinstance(source, MoveSource):
            raise TypeError(f"the source factory {shorten(game)} returned {shorten(source)}, "
                            f"not a MoveSource (a compiled game)")
        return "source", game, int(source.n_positions), source
    raise TypeError(f"expected a PoliceThief board, a batch game with predecessors() or a "
                    f"function building a MoveSource, got {shorten(game)}")


class SourceRules:
    """A compiled game's rules, for a block (the kernel calls the source)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.max_predecessors = max(int(source.max_predecessors), 1)

    def initial(self, lo: int, hi: int, misere: bool
                ) -> tuple[npt.NDArray[np.uint8], Int64Array, Int64Array]:
        return _blocks.initial_states(self.source, lo, hi, misere)

    def level(self, block: Any, frontier: Int64Array, level: int, ties: bool
              ) -> tuple[Int64Array, list[Any], int]:
        """One level of a block: see ``grundy._core.blocks.level_source``."""
        return _blocks.level_source(
            self.source, block.state, block.many_ids, block.many_left, block.rem, frontier,
            block.lo, block.bounds, level, ties, block.wide)


class BatchRules:
    """A batch game's rules, for a block: in batches, every array checked."""

    max_predecessors = 16           # an allowance for the memory estimate only

    def __init__(self, game: Any, n: int) -> None:
        self.game = game
        self.n = n

    def _csr(self, result: Any, method: str, k: int) -> tuple[Int64Array, Int64Array]:
        if not (isinstance(result, tuple) and len(result) == 2):
            raise TypeError(f"{method}(codes) must return (offsets, codes), got "
                            f"{shorten(result)}")
        offsets = int64_array(result[0], f"{method}(codes): offsets", k + 1)
        ids = int64_array(result[1], f"{method}(codes): codes")
        if offsets[0] != 0 or offsets[-1] != len(ids) or (np.diff(offsets) < 0).any():
            raise ValueError(f"{method}(codes): offsets must start at 0, never decrease and "
                             f"end at {len(ids)} (the number of codes), got "
                             f"{shorten(offsets.tolist())}")
        bad = np.flatnonzero((ids < 0) | (ids >= self.n))
        if bad.size:
            raise ValueError(f"{method}(codes) gave the code {int(ids[bad[0]])}, outside the "
                             f"positions 0..{self.n - 1} of n_positions")
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

    def initial(self, lo: int, hi: int, misere: bool
                ) -> tuple[npt.NDArray[np.uint8], Int64Array, Int64Array]:
        """The block's state bytes and its counters kept aside (those of
        positions with MANY moves), batch by batch: beside the state bytes,
        only a batch's primitive values and move counts are held."""
        state = np.empty(hi - lo, dtype=np.uint8)
        ids: list[Int64Array] = [np.zeros(0, np.int64)]
        left: list[Int64Array] = [np.zeros(0, np.int64)]
        for a in range(lo, hi, BATCH):
            b = min(hi, a + BATCH)
            codes = np.arange(a, b, dtype=np.int64)
            labels = self.primitive(codes)
            degree = np.zeros(b - a, dtype=np.int64)
            open_ = np.flatnonzero(labels == 0)
            if open_.size:
                offsets, _ = self.moves(codes[open_])
                degree[open_] = np.diff(offsets)
            part, many, counts = _blocks.initial_from(labels, degree, misere)
            state[a - lo:b - lo] = part
            ids.append(many + (a - lo))
            left.append(counts)
        return state, np.concatenate(ids), np.concatenate(left)

    def level(self, block: Any, frontier: Int64Array, level: int, ties: bool
              ) -> tuple[Int64Array, list[Any], int]:
        """One level of a block: the predecessors of its frontier asked of the
        game in batches, then ``grundy._core.blocks.level_given``."""
        decided: list[Int64Array] = []
        parts: list[list[Any]] = []
        routed = 0
        for a in range(0, len(frontier), BATCH):
            part = frontier[a:a + BATCH]
            offsets, preds = self._csr(self.game.predecessors(part + block.lo), "predecessors",
                                       len(part))
            routed += len(preds)
            now, arrays = _blocks.level_given(block.state, block.many_ids, block.many_left,
                                              block.rem, part, offsets, preds, block.lo,
                                              block.bounds, level, ties, block.wide)
            decided.append(now)
            parts.append(arrays)
        dtype = np.int64 if block.wide else np.uint32
        blocks = len(block.bounds) - 1
        return (np.concatenate(decided) if decided else np.zeros(0, np.int64),
                [np.concatenate([p[j] for p in parts]) if parts else np.zeros(0, dtype)
                 for j in range(blocks)], routed)


def rules_of(kind: str, game: Any, n: int) -> SourceRules | BatchRules:
    """The rules of a game spec, built where they run (on a worker)."""
    if kind == "police":
        return SourceRules(game.move_source())
    if kind == "source":
        source = game()
        if not isinstance(source, MoveSource) or source.n_positions != n:
            raise ValueError(f"the source factory built {shorten(source)} on a worker, not "
                             f"the MoveSource of {n:,} positions it built on the client")
        return SourceRules(source)
    return BatchRules(game, n)
