"""The players and events of every game, with their counts and dates (``gops players``,
``gops events``), and the names that are probably one (the Data quality page).

Names are read as the connection shows them: on a read-only connection a stored alias has
already merged its names (:mod:`gops_records.core.store.aliases`), so the counts are the
merged ones and a pair joined by an alias is no longer offered. Each game says where its
names are (its registry part ``names``); this module names no game.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import date

import duckdb

from gops_records.core.names import NameKind, NearDuplicate, near_duplicates
from gops_records.core.store.aliases import game_names

__all__ = ["NameRow", "Suggestion", "list_names", "merge_suggestions"]


@dataclass(frozen=True, slots=True)
class NameRow:
    """One name of one game: how many games it has, its first and last known dates."""

    name: str
    game: str
    games: int
    first: date | None
    last: date | None

    def as_json(self) -> dict:
        return {"name": self.name, "game": self.game, "games": self.games,
                "first": self.first.isoformat() if self.first else None,
                "last": self.last.isoformat() if self.last else None}


def list_names(con: duckdb.DuckDBPyConnection, kind: NameKind, game: str | None = None
               ) -> list[NameRow]:
    """Every ``kind`` name of every game (or of ``game``), most games first, then by name
    and game. A game counts once for a name however many seats it holds."""
    rows: list[NameRow] = []
    for g, names in game_names():
        if game is not None and g.name != game:
            continue
        for name, games, first, last in con.execute(
                f"SELECT name, count(DISTINCT game_id), min(date), max(date) "
                f"FROM ({names.source(kind)}) WHERE name IS NOT NULL GROUP BY name").fetchall():
            rows.append(NameRow(name, g.name, int(games), first, last))
    rows.sort(key=lambda r: (-r.games, r.name, r.game))
    return rows


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A pair of names that are probably one, and the command that merges them."""

    kind: NameKind
    pair: NearDuplicate

    @property
    def command(self) -> str:
        """``gops alias OTHER NAME``: show the less played spelling as the other."""
        return f"gops alias {shlex.quote(self.pair.other)} {shlex.quote(self.pair.name)}"

    def as_json(self) -> dict:
        return {"kind": str(self.kind), **self.pair.as_json(), "command": self.command}


def merge_suggestions(con: duckdb.DuckDBPyConnection) -> list[Suggestion]:
    """Near-duplicate players, then events, across every game
    (:func:`gops_records.core.names.near_duplicates`), counted in games."""
    out: list[Suggestion] = []
    for kind in NameKind:
        counts: dict[str, int] = {}
        for row in list_names(con, kind):
            counts[row.name] = counts.get(row.name, 0) + row.games
        out += [Suggestion(kind, pair) for pair in near_duplicates(counts)]
    return out
