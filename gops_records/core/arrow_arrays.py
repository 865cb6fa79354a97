"""Arrow arrays made from numpy buffers without ``pyarrow.array``.

``pyarrow.array`` imports pandas on its first call whenever pandas is installed (to
check whether its input is a pandas object): 1.2 CPU-seconds at the start of every
process that builds a column, each reader worker included. These build the same
arrays from the buffers directly.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def numeric(values: np.ndarray) -> pa.Array:
    """A numeric (or boolean-free) Arrow array of ``values``, without nulls."""
    data = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(data.dtype), len(data),
                                 [None, pa.py_buffer(data)])
