# Stubs of the compiled module grundy._core.loopy (see loopy.pyx).
import numpy as np
import numpy.typing as npt

def loopy_grundy(indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64],
                 value: npt.NDArray[np.int64]) -> int: ...
