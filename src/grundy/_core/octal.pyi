# Stubs of the compiled module grundy._core.octal (see octal.pyx).
import numpy as np
import numpy.typing as npt

OPENMP: bool

class ExtendState:
    @property
    def upto(self) -> int: ...
    @property
    def rare_count(self) -> int: ...
    @property
    def mask(self) -> int | None: ...

def plain_extend(G: npt.NDArray[np.uint32], start: int, stop: int,
                 take0: npt.NDArray[np.int64], take1: npt.NDArray[np.int64],
                 take2: npt.NDArray[np.int64], take3: npt.NDArray[np.int64],
                 unequal: bool = ..., threads: int = ...,
                 thread_work: int = ..., *, state: ExtendState | None = ...) -> int: ...
def sparse_extend(G: npt.NDArray[np.uint32], start: int, stop: int,
                  take0: npt.NDArray[np.int64], take1: npt.NDArray[np.int64],
                  take2: npt.NDArray[np.int64], unequal: bool, mask: int,
                  threads: int = ..., thread_work: int = ..., *,
                  state: ExtendState | None = ...) -> int: ...
def find_period(G: npt.NDArray[np.uint32], heaps: int, t: int,
                extra_p: int) -> tuple[int, int, int] | None: ...
