# Stubs of the compiled module grundy._core.csr (see csr.pyx).
import numpy as np
import numpy.typing as npt

def check_csr(indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64]) -> None: ...
def edges_to_csr(src: npt.NDArray[np.int64], dst: npt.NDArray[np.int64],
                 n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
def reverse(indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64],
            threads: int = ...) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

from grundy._core.source import MoveSource

class CSRSource(MoveSource):
    def __init__(self, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64],
                 labels: npt.NDArray[np.int8] | None = ..., *, threads: int = ...,
                 check: bool = ...) -> None: ...
