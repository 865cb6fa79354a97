"""Archives past one machine: record files read on a Dask cluster into a Parquet lake.

:mod:`.chunk` is the unit of work (one file through the reading core into Parquet),
:mod:`.build` the driver (``gops lake build``); the lake's layout, commits and the
connection that reads it are the store's (:mod:`gops_records.core.store.lake`).
"""
