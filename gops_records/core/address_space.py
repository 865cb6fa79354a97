"""What the libraries under gops reserve of the address space, kept small.

Reserved address space is not memory in use, but a ``ulimit -v`` (RLIMIT_AS) counts it,
and an import of the bundled samples reserved 2.9 GB for 0.27 GB resident (a 3 GB cap
aborted a 30,000-game import). Most of it was reserved by libraries at their start-up:

- pyarrow's default pool, mimalloc, reserves a 1 GiB arena on its first allocation:
  the system allocator instead (``ARROW_DEFAULT_MEMORY_POOL``);
- glibc gives each thread that allocates its own arena of 64 MiB reserved, and DuckDB,
  polars and their allocators start about twenty threads: two arenas
  (``MALLOC_ARENA_MAX``, read by glibc when a process starts, so set here for worker
  processes, and ``mallopt`` for this one);
- OpenBLAS starts a thread per core with its buffers; gops does no large linear
  algebra (``OPENBLAS_NUM_THREADS``).

:func:`apply` runs when ``gops_records`` is imported, before numpy, pyarrow or polars are:
each library reads its setting when it is loaded. A value already in the environment is
kept (the user's choice wins). A process that loaded those libraries before importing
``gops_records`` keeps what they reserved.
"""

from __future__ import annotations

import ctypes
import os
import sys

#: The settings, as environment variables (children inherit them).
SETTINGS = {
    "ARROW_DEFAULT_MEMORY_POOL": "system",
    "MALLOC_ARENA_MAX": "2",
    "OPENBLAS_NUM_THREADS": "1",
}
_M_ARENA_MAX = -8  # glibc's mallopt parameter


def apply() -> None:
    """Set :data:`SETTINGS` where the environment does not already say otherwise."""
    for name, value in SETTINGS.items():
        os.environ.setdefault(name, value)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None)
            libc.mallopt(_M_ARENA_MAX, int(os.environ["MALLOC_ARENA_MAX"]))
        except (OSError, AttributeError, ValueError):
            pass  # not glibc (musl has no arenas), or a value glibc would not take
