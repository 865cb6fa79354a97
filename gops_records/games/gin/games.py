"""Finding stored Gin Rummy games and hands (``gops games --game gin``, ``gops export``,
``gops replay``); :data:`LISTING` is the game's part ``games``.

The filters are the shared ones (:class:`gops_records.core.games_query.GameFilter`: players,
events, dates), read against the ``gin_`` tables: a player filter matches either seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import duckdb

from gops_records.core.dates import date_bounds, known_date, known_rows
from gops_records.core.game_refs import game_ref
from gops_records.core.games_query import (
    GameFilter,
    GameNotFound,
    aligned,
    close_ids,
    id_matches,
    resolved,
    shown_date,
)
from gops_records.core.store.db import scalar


def gin_where(selection: GameFilter, alias: str) -> tuple[str, list]:
    """A SQL condition on a ``gin_hands`` or ``gin_games`` row ``alias`` and its parameters."""
    conditions, params = ["TRUE"], []
    if selection.players:
        conditions.append(f"(list_contains(?::VARCHAR[], {alias}.player_a) OR "
                          f"list_contains(?::VARCHAR[], {alias}.player_b))")
        params += [list(selection.players)] * 2
    if selection.events:
        conditions.append(f"list_contains(?::VARCHAR[], {alias}.event)")
        params.append(list(selection.events))
    dated, bounds = date_bounds(f"{alias}.date", selection.date_from, selection.date_to)
    conditions += dated
    params += bounds
    if selection.game_ids:
        conditions.append(f"list_contains(?::UBIGINT[], {alias}.game_id)")
        params.append(list(selection.game_ids))
    return " AND ".join(conditions), params


@dataclass(frozen=True, slots=True)
class GinGameRow:
    """A stored Gin Rummy game as ``gops games --game gin`` lists it (seat order)."""

    game_id: int
    date: date | None
    date_text: str | None
    event: str | None
    match: str
    game_no: int
    players: tuple[str | None, str | None]
    recorded: str
    hands: int
    hands_won: tuple[int, int]
    totals: tuple[int, int]
    finished: bool
    winner: str | None
    game_score: int | None
    blitz: bool | None
    source: str

    @property
    def ref(self) -> str:
        return game_ref(self.game_id)

    @property
    def shown_date(self) -> str:
        """The date as the CLI prints it: YYYY-MM-DD, else the Date tag as written."""
        return shown_date(self.date, self.date_text)

    def as_json(self) -> dict:
        """The object ``gops games --game gin --json`` prints."""
        return {"game_id": self.game_id, "game_ref": self.ref,
                "date": self.date.isoformat() if self.date else None,
                "date_text": self.date_text, "event": self.event, "match": self.match,
                "game": self.game_no, "players": list(self.players),
                "recorded": self.recorded, "hands": self.hands,
                "hands_won": list(self.hands_won), "totals": list(self.totals),
                "finished": self.finished, "winner": self.winner,
                "game_score": self.game_score, "blitz": self.blitz, "source": self.source}


def find_gin_games(con: duckdb.DuckDBPyConnection, selection: GameFilter | None = None,
                   limit: int | None = None) -> tuple[list[GinGameRow], int]:
    """The selected games, newest date first (undated last; then match and game number),
    the first ``limit`` of them (all when None), and how many the filter selects. A stored
    date Python cannot hold reads as None (:mod:`gops_records.core.dates`)."""
    selection = resolved(con, selection or GameFilter(), "gin")  # names as typed
    where, params = gin_where(selection, "g")
    total = scalar(con, f"SELECT count(*) FROM gin_games g WHERE {where}", params)
    page = f"LIMIT {int(limit)}" if limit is not None else ""
    rows = con.execute(f"""
        SELECT game_id, date, date_text, event, match, game_no, player_a, player_b, recorded,
               hands, hands_won_a, hands_won_b, total_a, total_b, finished, winner,
               game_score, blitz, source
        FROM {known_rows('gin_games', where, 'g', con)}
        ORDER BY date DESC NULLS LAST, import_id, source, match, game_no {page}""",
                       params).fetchall()
    games = [GinGameRow(int(r[0]), r[1], r[2], r[3], r[4], int(r[5]), (r[6], r[7]), r[8],
                        int(r[9]), (int(r[10]), int(r[11])), (int(r[12]), int(r[13])),
                        bool(r[14]), r[15], r[16], r[17], r[18]) for r in rows]
    return games, total


def gin_counts(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """How many Gin Rummy hands and games are stored."""
    return (scalar(con, "SELECT count(*) FROM gin_hands"),
            scalar(con, "SELECT count(*) FROM gin_games"))


#: The stored Gin Rummy records a reference or an id may name: (what, table, id column).
GIN_RECORDS = (("game", "gin_games", "game_id"), ("hand", "gin_hands", "hand_id"))


def gin_matches(con: duckdb.DuckDBPyConnection, text: str) -> list[tuple[str, int]]:
    """The stored Gin Rummy games and hands ``text`` names (its id or reference, by the
    rule of :func:`gops_records.core.games_query.id_matches`), as ``("game" | "hand", id)``."""
    return [(what, found) for what, table, column in GIN_RECORDS
            for found in id_matches(con, text, table, column)]


def gin_close(con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
    """References or ids of stored Gin Rummy games and hands close to ``text``."""
    return [c for _, table, column in GIN_RECORDS for c in close_ids(con, text, table, column)]


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A stored Gin Rummy hand, as ``gops replay`` shows it."""

    hand_id: int
    recorded: str
    raw_text: str
    game_id: int | None
    hand_no: int | None
    source: str
    source_record: int
    date: date | None
    date_text: str | None
    event: str | None
    match: str | None
    game_no: int | None

    @property
    def ref(self) -> str:
        return game_ref(self.hand_id)


def stored_hand(con: duckdb.DuckDBPyConnection, hand_id: int) -> StoredHand:
    """The stored hand ``hand_id`` (a date Python cannot hold reads as None)."""
    row = con.execute(f"""
        SELECT hand_id, recorded, raw_text, game_id, hand_no, source, source_record,
               {known_date('date')}, date_text, event, match, game_no
        FROM gin_hands WHERE hand_id = ?""", [hand_id]).fetchone()
    if row is None:
        raise GameNotFound(f"no stored Gin Rummy hand has the id {hand_id}")
    return StoredHand(int(row[0]), *row[1:3], None if row[3] is None else int(row[3]),
                      *row[4:])


def game_hands(con: duckdb.DuckDBPyConnection, game_id: int) -> list[tuple[int, int, str]]:
    """The stored hands of a game: (hand number, hand id, ``full`` or ``sheet``)."""
    return [(int(n), int(h), r) for n, h, r in con.execute(
        "SELECT hand_no, hand_id, recorded FROM gin_hands WHERE game_id = ? ORDER BY hand_no",
        [game_id]).fetchall()]


class _Listing:
    """``gops games --game gin``: the part ``games`` of the registry
    (:class:`gops_records.core.games_query.GameListing`)."""

    def find(self, con: duckdb.DuckDBPyConnection, selection: GameFilter,
             limit: int | None) -> tuple[list[GinGameRow], int]:
        return find_gin_games(con, selection, limit)

    def stored(self, con: duckdb.DuckDBPyConnection) -> int:
        return gin_counts(con)[1]

    def table(self, found: list[GinGameRow]) -> str:
        rows = [("date", "event", "match", "game", "players", "hands won", "totals",
                 "winner", "score", "from", "ref")]
        for g in found:
            players = " v ".join(p or "?" for p in g.players)
            winner = (g.winner or "?") + (" (blitz)" if g.blitz else "") if g.finished else \
                "unfinished"
            rows.append((g.shown_date, g.event or "", g.match, str(g.game_no), players,
                         f"{g.hands_won[0]}-{g.hands_won[1]}", f"{g.totals[0]}-{g.totals[1]}",
                         winner, str(g.game_score) if g.game_score is not None else "",
                         g.recorded, g.ref))
        return aligned(rows)

    def summary(self, found: list[GinGameRow], total: int) -> str:
        noun = "Gin Rummy game" if total == 1 else "Gin Rummy games"
        return f"{total} {noun}" if len(found) == total else \
            f"the newest {len(found)} of {total} Gin Rummy games (--limit 0 shows every one)"


#: The part ``games`` (plugin.py).
LISTING = _Listing()
