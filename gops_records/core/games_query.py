"""Finding stored records, for every game: the filters ``gops games``, ``gops export`` and
``gops replay`` share, a record named by its id or its reference, and the protocol of a
game's listing (the registry's part ``games``).

The ids and references themselves are :mod:`gops_records.core.game_refs`'s. Each game
reads a :class:`GameFilter` against its own tables (e.g. the Gops ``games``, the Gin Rummy
``gin_games``) in its part ``games``.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Protocol

import duckdb

from gops_records.core.errors import GopsError
from gops_records.core.game_refs import REF_PATTERN, game_ref, parse_game_ids
from gops_records.core.store.db import scalar

__all__ = ["GameFilter", "GameListing", "GameNotFound", "Listed", "UnknownEvent",
           "UnknownPlayer", "aligned", "close_ids", "id_matches", "resolved", "shown_date"]


class GameNotFound(GopsError, LookupError):
    """No stored game has the id or reference asked for (or a reference names several)."""

    code = "no-game"


class UnknownPlayer(GopsError, LookupError):
    """A filter names a player who has no recorded games."""

    code = "no-player"


class UnknownEvent(GopsError, LookupError):
    """A filter names an event no stored game has."""

    code = "no-event"


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games to select: all given conditions hold (a list matches any of its names).

    Names match as stored: :func:`resolved` turns names as typed into the stored
    spellings first (case, accents and spacing ignored; an alias's names included). A
    date filter leaves out games without a full date (and those whose stored date Python
    cannot hold: :mod:`gops_records.core.dates`). Each game turns it into SQL on its own
    tables.
    """

    players: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    date_from: date | None = None
    date_to: date | None = None
    game_ids: tuple[int, ...] = ()


def resolved(con: duckdb.DuckDBPyConnection, selection: GameFilter, game: str) -> GameFilter:
    """``selection`` with its player and event names as ``game`` stores them: every stored
    spelling a typed name names (:func:`gops_records.core.names.name_key`), and those an
    alias joins to it (:func:`gops_records.core.store.aliases.resolve_typed`), so the filter
    works on merged views and stored tables alike. UnknownPlayer / UnknownEvent, with the
    close names, for a name nothing stored has."""
    from gops_records.core.names import NameKind, UnknownName
    from gops_records.core.store.aliases import resolve_typed

    found: dict[NameKind, tuple[str, ...]] = {}
    for kind, typed, error in ((NameKind.PLAYER, selection.players, UnknownPlayer),
                               (NameKind.EVENT, selection.events, UnknownEvent)):
        try:
            found[kind] = resolve_typed(con, kind, typed, game=game) if typed else ()
        except UnknownName as exc:
            raise error(str(exc)) from None
    return replace(selection, players=found[NameKind.PLAYER], events=found[NameKind.EVENT])


def shown_date(day: date | None, text: str | None) -> str:
    """A stored date as the CLI prints it: ``2026-12-03`` (a date, never a time), else
    the ``Date`` tag as written (``2026.12.??``), else empty."""
    return day.isoformat() if day is not None else (text or "")


def aligned(rows: Sequence[Sequence[str]]) -> str:
    """Rows of cells as left-aligned columns two spaces apart (``gops games``' tables)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                     .rstrip() for row in rows)


class Listed(Protocol):
    """A stored game as ``gops games`` lists it."""

    @property
    def ref(self) -> str: ...

    def as_json(self) -> dict: ...


class GameListing(Protocol):
    """A game's part ``games``: its stored games for ``gops games --game NAME``."""

    def find(self, con: duckdb.DuckDBPyConnection, selection: GameFilter,
             limit: int | None) -> tuple[Sequence[Listed], int]:
        """The selected games, newest first, at most ``limit`` (None: all), and how many the
        filter selects; UnknownPlayer / UnknownEvent for a name no stored game has."""

    def stored(self, con: duckdb.DuckDBPyConnection) -> int:
        """How many games of this game are stored."""

    def table(self, found: Sequence[Listed]) -> str:
        """The games as aligned columns."""

    def summary(self, found: Sequence[Listed], total: int) -> str:
        """The line under the table: how many, and what to do next."""


def id_matches(con: duckdb.DuckDBPyConnection, text: str, table: str, column: str,
               limit: int = 3) -> list[int]:
    """The ids of ``table``'s ``column`` that ``text`` names: its id (decimal, or 16 hex
    digits as schema version 1 wrote it) or a reference (``g`` and at least 4 of its hex
    digits), at most ``limit`` of them. The one rule for every stored kind of record."""
    value = text.strip()
    ref = REF_PATTERN.fullmatch(value)
    if ref is not None:
        return [int(r[0]) for r in con.execute(
            f"SELECT {column} FROM {table} WHERE starts_with(format('{{:016x}}', {column}), ?) "
            f"LIMIT {int(limit)}", [ref.group(1).lower()]).fetchall()]
    return [game_id for game_id in parse_game_ids(value)
            if scalar(con, f"SELECT count(*) FROM {table} WHERE {column} = ?", [game_id])]


def close_ids(con: duckdb.DuckDBPyConnection, text: str, table: str,
              column: str) -> list[str]:
    """References (for a reference) or ids (for a decimal id) of ``table`` close to
    ``text``, for a "did you mean" when :func:`id_matches` finds nothing."""
    value = text.strip()
    ref = REF_PATTERN.fullmatch(value)
    if ref is not None:
        ids = [r[0] for r in con.execute(
            f"SELECT {column} FROM {table} WHERE starts_with(format('{{:016x}}', {column}), ?) "
            "LIMIT 200", [ref.group(1).lower()[:2]]).fetchall()]
        cut = {f"g{int(i):016x}"[:len(value)]: game_ref(i) for i in ids}
        return [cut[c] for c in difflib.get_close_matches(value.lower(), cut, n=3,
                                                           cutoff=0.7)]
    if value.isdecimal():
        ids = [str(r[0]) for r in con.execute(
            f"SELECT {column} FROM {table} WHERE starts_with({column}::VARCHAR, ?) LIMIT 50",
            [value[:6]]).fetchall()]
        return difflib.get_close_matches(value, ids, n=1, cutoff=0.8)
    return []
