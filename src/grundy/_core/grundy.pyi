# Stubs of the compiled module grundy._core.grundy (see grundy.pyx).
import numpy as np
import numpy.typing as npt

def dag_grundy(indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64],
               value: npt.NDArray[np.int64]) -> npt.NDArray[np.int64] | None: ...
def sums_grundy(order: npt.NDArray[np.int64], first: int, option_ptr: npt.NDArray[np.int64],
                component_ptr: npt.NDArray[np.int64], components: npt.NDArray[np.int64],
                value: npt.NDArray[np.int64]) -> None: ...
def topological_order(first: int, indptr: npt.NDArray[np.int64], indices: npt.NDArray[np.int64]
                      ) -> tuple[npt.NDArray[np.int64], None] | tuple[None, npt.NDArray[np.int64]]: ...
