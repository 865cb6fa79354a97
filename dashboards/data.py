"""Cached, read-only data access for the dashboard, shared by every game's pages.

Every read goes through one :class:`~gops_records.core.store.db.SharedReader` per database: the
reads share a read-only DuckDB connection, kept between interactions (a page then reads warm
data) and closed within a tenth of a second once `gops import` asks for the file, or after
20 s unused. While an import holds the file, reads wait for it (lock retries with
backoff). Results are cached with ``st.cache_data`` for five minutes; the cache key
includes a stamp of the database files (size and modification time), so a page shows
newly imported games on the next interaction instead of waiting for the ttl, and a
player, an evening or a game looked at before shows at once.

The read functions are made by one factory, :func:`cached_read`: a game's
``standings(view)`` is its ``standings(con, view.filters)`` on the shared connection,
cached on the view. Each game's reads are in its folder (``dashboards/<game>/data.py``);
here are only the database-wide ones of the Data quality page.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import streamlit as st

from gops_records.core import import_log
from gops_records.core import rejects as quarantine_lib
from gops_records.core.store.db import SharedReader

TTL_SECONDS = 300
MAX_ENTRIES = 128
LOCK_WAIT_SECONDS = 8.0

#: (size, mtime_ns) of the database file, of its write-ahead log and of a lake's commits
#: folder (a Parquet lake is a folder: each build adds a file to ``_commits``).
Stamp = tuple[int, int, int, int, int, int]
T = TypeVar("T")


def stamp(db: str | Path) -> Stamp:
    """A cheap fingerprint of the database files: changes whenever an import commits."""
    out: list[int] = []
    for path in (Path(db), Path(f"{db}.wal"), Path(db) / "_commits"):
        try:
            info = os.stat(path)
            out += [info.st_size, info.st_mtime_ns]
        except (FileNotFoundError, NotADirectoryError):  # no such file (a db has no _commits)
            out += [-1, -1]
    return tuple(out)  # type: ignore[return-value]


@dataclass(frozen=True)
class View:
    """What a page looks at: the database (and its stamp) and its game's filters.

    Hashable by value, so it is the cache key of every read. ``filters`` is the filter of
    the page's game (hashable; its class called with no arguments keeps everything), or
    ``None`` where no filter applies.
    """

    db: str
    stamp: Stamp
    filters: Hashable | None = None

    @classmethod
    def of(cls, db: str | Path, filters: Hashable | None = None) -> View:
        return cls(str(db), stamp(db), filters)

    @property
    def unfiltered(self) -> View:
        """The same database with an empty filter of the same game (for lists the
        filters do not apply to)."""
        return View(self.db, self.stamp, None if self.filters is None else type(self.filters)())

    def with_filters(self, filters: Hashable | None) -> View:
        return View(self.db, self.stamp, filters)


#: Where app.py keeps the view of this run (the page's game's sidebar makes it).
VIEW_KEY = "gops_view"


def current_view() -> View:
    """The view the entry script (app.py) set up for this run: the database and the
    filters of the page's game (its sidebar's)."""
    view = st.session_state.get(VIEW_KEY)
    if not isinstance(view, View):
        raise RuntimeError("no dashboard view in this session: start the dashboard with "
                           "`gops dashboard`, which runs dashboards/app.py")
    return view


_readers: dict[str, SharedReader] = {}
_readers_lock = threading.Lock()


def reader(db: str) -> SharedReader:
    """The process's shared reader of ``db`` (made on first use)."""
    with _readers_lock:
        if db not in _readers:
            _readers[db] = SharedReader(db, timeout=LOCK_WAIT_SECONDS)
        return _readers[db]


def _read(db: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(con, *args, **kwargs)`` on the shared read-only connection (let go once idle)."""
    with reader(db).read() as con:
        return fn(con, *args, **kwargs)


def cached_read(query: Callable[..., T], *, filtered: bool = True, name: str | None = None,
                ttl: float = TTL_SECONDS, max_entries: int = MAX_ENTRIES
                ) -> Callable[..., T]:
    """A dashboard read of ``query``: ``read(view, *args)`` runs ``query(con, view.filters,
    *args)`` (``query(con, *args)`` when not ``filtered``) on the shared connection, cached
    on the view and the arguments.

    An unfiltered read is cached on ``view.unfiltered``, so every filter shares one entry.
    ``name`` (default: the query's) keeps each read's cache apart: Streamlit keys a cache
    by the function's qualified name and source, which every read made here shares.
    """
    label = name or query.__name__

    def cached(view: View, *args: Any, **kwargs: Any) -> T:
        pre = (view.filters,) if filtered else ()
        return _read(view.db, query, *pre, *args, **kwargs)

    cached.__name__ = cached.__qualname__ = f"cached_read[{label}]"
    cached_fn = st.cache_data(ttl=ttl, max_entries=max_entries, show_spinner=False)(cached)

    def read(view: View, *args: Any, **kwargs: Any) -> T:
        return cached_fn(view if filtered else view.unfiltered, *args, **kwargs)

    read.__name__ = read.__qualname__ = label
    read.__doc__ = (f"``{query.__module__}.{query.__name__}`` on the view"
                    f"{'' if filtered else ' (filters do not apply)'}, cached.\n\n"
                    f"{query.__doc__ or ''}")
    read.cached = cached_fn  # type: ignore[attr-defined]  (its .clear() empties the cache)
    return read


# -- data quality: database-wide (filters do not apply) -----------------------------------

#: Every ``gops import`` run, newest first.
imports = cached_read(import_log.list_imports, filtered=False, name="imports")
#: Every file read, under its latest name.
source_files = cached_read(import_log.list_source_files, filtered=False, name="source_files")

# -- the quarantine with its resolutions (what `gops rejects` lists; filters do not apply) --

#: ``quarantine(view, limit=200)``: the newest quarantined records
#: (:class:`gops_records.core.rejects.Reject`, open or resolved by `gops rejects --recheck`).
quarantine = cached_read(quarantine_lib.list_rejects, filtered=False, name="quarantine")
#: ``quarantine_counts(view)``: records kept, open, resolved, and rejections counted.
quarantine_counts = cached_read(quarantine_lib.counts, filtered=False, name="quarantine_counts")
