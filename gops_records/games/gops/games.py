"""Finding stored Gops games (``gops games``, ``gops export``, ``gops replay`` by id).

The filters are the shared ones (:class:`gops_records.core.games_query.GameFilter`:
players, events, dates, ids), read against the ``games`` and ``game_players`` tables. The
names are taken as people type them (:func:`gops_records.core.games_query.resolved`); a
name naming nobody is refused with the close names.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import duckdb

from gops_records.core.dates import date_bounds, known_rows
from gops_records.core.game_refs import game_ref
from gops_records.core.games_query import (
    GameFilter,
    aligned,
    close_ids,
    id_matches,
    resolved,
    shown_date,
)
from gops_records.core.store.db import scalar

__all__ = ["LISTING", "StoredGame", "find_games", "gops_where"]


def gops_where(selection: GameFilter) -> tuple[str, list]:
    """A SQL condition on ``games g`` and its parameters: every condition of ``selection``."""
    conditions, params = ["TRUE"], []
    if selection.players:
        conditions.append("EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = "
                          "g.game_id AND list_contains(?::VARCHAR[], p.player))")
        params.append(list(selection.players))
    if selection.events:
        conditions.append("list_contains(?::VARCHAR[], g.event)")
        params.append(list(selection.events))
    dated, bounds = date_bounds("g.date", selection.date_from, selection.date_to)
    conditions += dated
    params += bounds
    if selection.game_ids:
        conditions.append("list_contains(?::UBIGINT[], g.game_id)")
        params.append(list(selection.game_ids))
    return " AND ".join(conditions), params


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One stored game as ``gops games`` lists it; players and scores in seat order."""

    game_id: int
    date: date | None
    date_text: str | None
    event: str | None
    site: str | None
    round: str | None
    match: str | None
    players: tuple[str, ...]
    scores: tuple[int, ...]
    finished: bool
    result: str | None
    winner: str | None
    source: str
    source_game: int
    best_of: int | None = None

    @property
    def ref(self) -> str:
        return game_ref(self.game_id)

    @property
    def shown_date(self) -> str:
        """The date as the CLI prints it (:func:`gops_records.core.games_query.shown_date`)."""
        return shown_date(self.date, self.date_text)

    def as_json(self) -> dict:
        """The object ``gops games --json`` prints (``game_id`` as a number, ``date`` as
        YYYY-MM-DD or null, ``winner`` a name or null: a draw, or unfinished)."""
        return {"game_id": self.game_id, "game_ref": self.ref,
                "date": self.date.isoformat() if self.date else None,
                "date_text": self.date_text, "event": self.event, "site": self.site,
                "round": self.round, "match": self.match, "players": list(self.players),
                "scores": list(self.scores), "finished": self.finished, "result": self.result,
                "winner": self.winner, "source": self.source, "source_game": self.source_game,
                "best_of": self.best_of}

    @property
    def match_text(self) -> str:
        """The match as the table shows it: ``1``, or ``1 (best of 3)``."""
        if self.match is None:
            return ""
        return self.match + (f" (best of {self.best_of})" if self.best_of else "")


def find_games(con: duckdb.DuckDBPyConnection, selection: GameFilter | None = None,
               limit: int | None = None) -> tuple[list[StoredGame], int]:
    """The selected games, newest date first (undated last; one day's games in file
    order), the first ``limit`` of them (all when None), and how many the filter selects.
    A stored date Python cannot hold reads as None (:mod:`gops_records.core.dates`)."""
    selection = resolved(con, selection or GameFilter(), "gops")  # names as typed
    where, params = gops_where(selection)
    total = scalar(con, f"SELECT count(*) FROM games g WHERE {where}", params)
    page = f"LIMIT {int(limit)}" if limit is not None else ""
    rows = con.execute(f"""
        WITH sel AS MATERIALIZED (
            SELECT g.game_id, g.date, g.date_text, g.event, g.site, g.round, g.match,
                   g.finished, g.result, g.winner, g.source, g.source_game,
                   try_cast(tag(g.tags, 'BestOf') AS INTEGER) AS best_of,
                   row_number() OVER (ORDER BY g.date DESC NULLS LAST, g.import_id,
                                      g.source, g.source_game) AS n
            FROM {known_rows('games', where, 'g', con)}
            ORDER BY n {page}
        ),
        seats AS (
            SELECT p.game_id, list(p.player ORDER BY p.seat) AS players,
                   list(p.score ORDER BY p.seat) AS scores
            FROM game_players p SEMI JOIN sel USING (game_id) GROUP BY p.game_id
        )
        SELECT sel.game_id, sel.date, sel.date_text, sel.event, sel.site, sel.round,
               sel.match, seats.players, seats.scores, sel.finished, sel.result, sel.winner,
               sel.source, sel.source_game, sel.best_of
        FROM sel JOIN seats USING (game_id) ORDER BY sel.n""", params).fetchall()
    games = [StoredGame(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], tuple(r[7]),
                        tuple(int(x) for x in r[8]), bool(r[9]), r[10], r[11], r[12],
                        int(r[13]), r[14]) for r in rows]
    return games, total


def game_matches(con: duckdb.DuckDBPyConnection, text: str) -> list[tuple[str, int]]:
    """The stored games ``text`` names (its id or reference), as ``("game", id)``."""
    return [("game", game_id) for game_id in id_matches(con, text, "games", "game_id")]


def games_close(con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
    """References or ids of stored games close to ``text``."""
    return close_ids(con, text, "games", "game_id")


class _Listing:
    """``gops games`` of Gops (the default): the part ``games`` of the registry
    (:class:`gops_records.core.games_query.GameListing`)."""

    def find(self, con: duckdb.DuckDBPyConnection, selection: GameFilter,
             limit: int | None) -> tuple[list[StoredGame], int]:
        return find_games(con, selection, limit)

    def stored(self, con: duckdb.DuckDBPyConnection) -> int:
        return scalar(con, "SELECT count(*) FROM games")

    def table(self, found: list[StoredGame]) -> str:
        rows = [("date", "event", "round", "players", "result", "winner", "game", "id")]
        for g in found:
            rows.append((g.shown_date, g.event or "", g.round or "", " v ".join(g.players),
                         g.result or "*", g.winner or ("draw" if g.finished else ""), g.ref,
                         str(g.game_id)))
        if any(g.best_of for g in found):  # best-of matches: say which match and its N
            rows = [(*row[:3], "match" if i == 0 else found[i - 1].match_text, *row[3:])
                    for i, row in enumerate(rows)]
        return aligned(rows)

    def summary(self, found: list[StoredGame], total: int) -> str:
        noun = "game" if total == 1 else "games"
        shown = f"{total} {noun}" if len(found) == total else \
            f"the newest {len(found)} of {total} games (--limit 0 shows every one)"
        return shown + (f"; gops replay {found[0].ref} replays one" if found else
                        " match these filters")


#: The part ``games`` (plugin.py).
LISTING = _Listing()
