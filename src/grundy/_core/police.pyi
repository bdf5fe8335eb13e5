# Stubs of the compiled module grundy._core.police (see police.pyx).
import numpy as np
import numpy.typing as npt

from grundy._core.source import MoveSource

class PoliceThiefSource(MoveSource):
    def __init__(self, pol_next: npt.NDArray[np.int64], thf_next: npt.NDArray[np.int64],
                 pol_pred: npt.NDArray[np.int64], thf_pred: npt.NDArray[np.int64],
                 exits: npt.NDArray[np.uint8], passing: bool) -> None: ...
