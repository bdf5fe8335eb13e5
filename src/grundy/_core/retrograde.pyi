# Stubs of the compiled module grundy._core.retrograde (see retrograde.pyx).
from collections.abc import Callable
from typing import Literal

import numpy as np
import numpy.typing as npt

from grundy._core.source import MoveSource

_Remoteness = npt.NDArray[np.uint16] | npt.NDArray[np.int32]

MAX_THREADS: int

def check_threads(threads: int) -> None: ...
def queue_bytes(n_ids: int) -> int: ...
def solve(src: MoveSource, state: npt.NDArray[np.uint8], remoteness: _Remoteness,
          misere: bool = ..., max_queue_bytes: int = ...,
          progress: Callable[[int, int], object] | None = ..., threads: int = ...
          ) -> Literal["ok", "overflow", "memory limit"]: ...
def best_moves(src: MoveSource, outcome: npt.NDArray[np.int8], remoteness: _Remoteness,
               start: int, stop: int, move: npt.NDArray[np.int64], threads: int = ...,
               wide: npt.NDArray[np.int64] | None = ...) -> None: ...
def widen(outcome: npt.NDArray[np.int8], remoteness: _Remoteness, out: npt.NDArray[np.int64],
          threads: int = ...) -> None: ...
def first_optimal(outcome: npt.NDArray[np.int8], remoteness: _Remoteness,
                  codes: npt.NDArray[np.int64], offsets: npt.NDArray[np.int64],
                  children: npt.NDArray[np.int64], move: npt.NDArray[np.int64]) -> None: ...
