# Stubs of the compiled module grundy._core.retrograde (see retrograde.pyx).
from typing import Literal

import numpy as np
import numpy.typing as npt

def queue_bytes(n_ids: int) -> int: ...
def solve_graph(indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64],
                outcome: npt.NDArray[np.int8], remoteness: npt.NDArray[np.int64],
                move: npt.NDArray[np.int64], misere: bool = ...,
                max_queue_bytes: int = ...) -> Literal["ok", "memory limit"]: ...
