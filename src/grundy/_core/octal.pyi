# Stubs of the compiled module grundy._core.octal (see octal.pyx).
import numpy as np
import numpy.typing as npt

OPENMP: bool

def plain_extend(G: npt.NDArray[np.uint32], start: int, stop: int,
                 take0: npt.NDArray[np.int64], take1: npt.NDArray[np.int64],
                 take2: npt.NDArray[np.int64], take3: npt.NDArray[np.int64],
                 unequal: bool = ..., threads: int = ...,
                 thread_work: int = ...) -> int: ...
def sparse_extend(G: npt.NDArray[np.uint32], start: int, stop: int,
                  take0: npt.NDArray[np.int64], take1: npt.NDArray[np.int64],
                  take2: npt.NDArray[np.int64], unequal: bool, mask: int,
                  threads: int = ..., thread_work: int = ...) -> int: ...
def find_period(G: npt.NDArray[np.uint32], heaps: int, t: int,
                extra_p: int) -> tuple[int, int, int] | None: ...
