"""Stores holding dates Python's ``datetime.date`` cannot (issue 21): year 0, years before
Christ, years past 9999, DuckDB's infinities, NULL. An earlier gops stored
``[Date "0000.01.01"]`` as a year-0 date, and anyone can write any date with SQL, so the
tests put such dates in with SQL (the readers may refuse them today)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb

#: Dates a DuckDB DATE holds and Python cannot, as DuckDB reads them; None is NULL.
ODD_DATES: tuple[str | None, ...] = (
    "0000-01-01", "-0044-03-15", "10000-01-01", "infinity", "-infinity",
    "5881580-07-10", "5877642-06-25 (BC)", None)

#: DuckDB's DATE in days from 1970-01-01: its first and last finite day; one further on
#: each side is -infinity and infinity.
FIRST_DAY, LAST_DAY = -2147483646, 2147483646
EPOCH = dt.date(1970, 1, 1)


def python_date(days: int) -> dt.date | None:
    """The date ``days`` after 1970-01-01 when Python can hold it, else None."""
    try:
        return EPOCH + dt.timedelta(days=days)
    except OverflowError:
        return None


def renamed(text: str, prefix: str) -> str:
    """Records whose Event tags start with ``prefix``: the same games under new ids."""
    return re.sub(r'\[Event "', f'[Event "{prefix}', text)


def set_odd_dates(db: Path, prefix: str, dates: tuple[str | None, ...] = ODD_DATES) -> int:
    """Give the stored games (Gops and Gin) whose event starts with ``prefix`` the
    ``dates`` in turn (by id); returns how many games were changed."""
    con = duckdb.connect(str(db))
    try:
        changed = 0
        for table, hands in (("games", None), ("gin_games", "gin_hands")):
            ids = [r[0] for r in con.execute(
                f"SELECT game_id FROM {table} WHERE starts_with(event, ?) ORDER BY game_id",
                [prefix]).fetchall()]
            for i, game_id in enumerate(ids):
                date = dates[i % len(dates)]
                for t in filter(None, (table, hands)):
                    con.execute(f"UPDATE {t} SET date = ?::DATE WHERE game_id = ?",
                                [date, game_id])
            changed += len(ids)
        return changed
    finally:
        con.close()
