"""Defaults of the simulator (:mod:`gops_records.games.gops.simulate`) that ``gops simulate --help``
shows, in a module that imports nothing heavy, so that every `gops` start need not load
the simulator (and the record writer and polars it imports)."""

from __future__ import annotations

import datetime as dt

#: The day the first week of simulated club evenings starts from (a Monday).
DEFAULT_START = dt.date(2025, 1, 6)
