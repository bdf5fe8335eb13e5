# Stubs of the compiled module grundy._core.police (see police.pyx).
from typing import Literal

import numpy as np
import numpy.typing as npt

def solve_police(pol_pred: npt.NDArray[np.int64], pol_deg: npt.NDArray[np.int64],
                 thf_pred: npt.NDArray[np.int64], thf_deg: npt.NDArray[np.int64],
                 exits: npt.NDArray[np.uint8], passing: bool, state: npt.NDArray[np.uint8],
                 remoteness: npt.NDArray[np.uint16] | npt.NDArray[np.int32],
                 max_queue_bytes: int = ...) -> Literal["ok", "overflow", "memory limit"]: ...
def best_moves(pol_next: npt.NDArray[np.int64], thf_next: npt.NDArray[np.int64],
               exits: npt.NDArray[np.uint8], passing: bool, outcome: npt.NDArray[np.int8],
               remoteness: npt.NDArray[np.uint16] | npt.NDArray[np.int32], start: int,
               stop: int, move: npt.NDArray[np.int64]) -> None: ...
