"""Stored dates as Python reads them: the one rule for a ``DATE`` column leaving DuckDB.

A DuckDB ``DATE`` holds years -5877641 to 5881580 and ``±infinity``; Python's
``datetime.date`` holds 0001-01-01 to 9999-12-31. Out of that range DuckDB hands Python a
text (``'0001-01-01 (BC)'`` for year 0) and an infinity as ``date.max`` or ``date.min``,
and polars holds the date but cannot show it: a list mixing dates and texts cannot be
sorted, and every page failed. A store can hold such a date: an earlier gops stored
``[Date "0000.01.01"]`` as year 0, and anyone can write any date with SQL.

So every query behind the pages, ``gops games`` and the analytics reads a stored date
through :func:`known_date`: a date Python cannot hold counts as unknown, as a partly
unknown ``2026.11.??`` does. Such a game is undated: listed after the dated ones, in no
evening, left out by a date bound; its ``date_text`` still says what was written.
"""

from __future__ import annotations

import datetime as dt

import duckdb

#: The first and last date Python can hold; a stored date outside them is unknown.
FIRST, LAST = dt.date.min, dt.date.max
_FIRST, _LAST = f"DATE '{FIRST.isoformat()}'", f"DATE '{LAST.isoformat()}'"


def known_date(column: str) -> str:
    """SQL: ``column`` (a DATE) when Python can hold it, else NULL."""
    return f"CASE WHEN {column} BETWEEN {_FIRST} AND {_LAST} THEN {column} END"


def holds_unknown_dates(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether ``table`` holds a ``date`` Python cannot hold. Row-group statistics answer
    for a store without one (about 1 ms at 675,000 games) without reading its dates."""
    ((odd,),) = con.execute(f"SELECT count(*) FROM {table} "
                            f"WHERE date < {_FIRST} OR date > {_LAST}").fetchall()
    return odd > 0


def known_rows(table: str, where: str = "TRUE", alias: str = "t",
               con: duckdb.DuckDBPyConnection | None = None) -> str:
    """SQL to write after ``FROM`` in place of ``table alias WHERE where``: the rows
    ``where`` keeps, with ``alias.date`` as :func:`known_date` reads it.

    ``where`` is read on the stored columns, so a date bound (:func:`date_bounds`) still
    skips row groups by their statistics; reading the date costs a CASE a row only where a
    query uses it. Given ``con``, a ``table`` that holds no unknown date is read as it is
    (a top-N by date keeps its shortcut: 4 ms against 20 at 675,000 games).
    """
    if con is not None and not holds_unknown_dates(con, table):
        return f"{table} {alias} WHERE {where}"
    return (f"(SELECT * REPLACE ({known_date(f'{alias}.date')} AS date) "
            f"FROM {table} {alias} WHERE {where}) {alias}")


def date_bounds(column: str, date_from: dt.date | None, date_to: dt.date | None
                ) -> tuple[list[str], list]:
    """SQL conditions on the DATE ``column`` keeping known dates from ``date_from`` to
    ``date_to`` (either may be None: no bound), and their parameters. An unknown date (NULL,
    or out of Python's range) is left out by any bound, whether ``column`` is the stored
    date or the date :func:`known_date` reads."""
    parts: list[str] = []
    params: list = []
    if date_from is not None:
        parts.append(f"{column} BETWEEN ? AND {_LAST}")
        params.append(date_from)
    if date_to is not None:
        parts.append(f"{column} BETWEEN {_FIRST} AND ?")
        params.append(date_to)
    return parts, params
