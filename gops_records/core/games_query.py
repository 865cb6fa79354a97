"""Finding stored games: which games a filter selects (``gops games``, ``gops export``,
``gops replay`` by id), and a game named by its id or its reference.

A game's id is a 64-bit number (19 or 20 digits), which spreadsheets turn into
``1.23457E+19`` and lose. Its *reference* (:func:`gops_records.games.gops.analytics.games.game_ref`,
the one rule the dashboard uses too) is ``g`` and the first 8 hex digits of the id: text
no spreadsheet reads as a number, short enough to read out (``g3f2a9c01``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import date

import duckdb

from gops_records.core.dates import date_bounds, known_rows
from gops_records.core.errors import GopsError
from gops_records.core.store.db import scalar
from gops_records.games.gops.analytics.games import game_ref, parse_game_ids

__all__ = ["GameFilter", "GameNotFound", "StoredGame", "UnknownEvent", "UnknownPlayer",
           "check_events", "check_players", "close_ids", "find_games", "game_ref", "id_matches",
           "resolve_game", "shown_date"]

#: A game reference as a user may type it: g and 4 to 16 hex digits of the id.
REF_PATTERN = re.compile(r"g([0-9a-f]{4,16})", re.IGNORECASE)


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

    Names match exactly. A date filter leaves out games without a full date (and those
    whose stored date Python cannot hold: :mod:`gops_records.core.dates`).
    """

    players: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    date_from: date | None = None
    date_to: date | None = None
    game_ids: tuple[int, ...] = ()

    def where(self) -> tuple[str, list]:
        """A SQL condition on ``games g`` and its parameters."""
        conditions, params = ["TRUE"], []
        if self.players:
            conditions.append("EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = "
                              "g.game_id AND list_contains(?::VARCHAR[], p.player))")
            params.append(list(self.players))
        if self.events:
            conditions.append("list_contains(?::VARCHAR[], g.event)")
            params.append(list(self.events))
        dated, bounds = date_bounds("g.date", self.date_from, self.date_to)
        conditions += dated
        params += bounds
        if self.game_ids:
            conditions.append("list_contains(?::UBIGINT[], g.game_id)")
            params.append(list(self.game_ids))
        return " AND ".join(conditions), params


def check_players(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> None:
    """Raise :class:`UnknownPlayer` naming close matches for a name without games.

    Uses the same rule as ``gops scout``
    (:func:`gops_records.games.gops.scouting.features.check_player`):
    difflib's close matches among the recorded names."""
    from gops_records.games.gops.scouting.features import ScoutError, check_player

    for name in names:
        try:
            check_player(con, name)
        except ScoutError as exc:
            raise UnknownPlayer(str(exc)) from None


def check_events(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> None:
    """Raise :class:`UnknownEvent` naming close matches for an event no game has."""
    if not names:
        return
    events = [r[0] for r in con.execute(
        "SELECT DISTINCT event FROM games WHERE event IS NOT NULL").fetchall()]
    for name in names:
        if name not in events:
            close = difflib.get_close_matches(name, events, n=3, cutoff=0.5) or [
                e for e in events if e.lower() == name.lower()]
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else (
                f"; {len(events)} events are recorded (gops games lists their games)")
            raise UnknownEvent(f"no stored game has the event {name!r}{hint}")


def shown_date(day: date | None, text: str | None) -> str:
    """A stored date as the CLI prints it: ``2026-12-03`` (a date, never a time), else
    the ``Date`` tag as written (``2026.12.??``), else empty."""
    return day.isoformat() if day is not None else (text or "")


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

    @property
    def ref(self) -> str:
        return game_ref(self.game_id)

    @property
    def shown_date(self) -> str:
        """The date as the CLI prints it (:func:`shown_date`)."""
        return shown_date(self.date, self.date_text)

    def as_json(self) -> dict:
        """The object ``gops games --json`` prints (``game_id`` as a number, ``date`` as
        YYYY-MM-DD or null, ``winner`` a name or null: a draw, or unfinished)."""
        return {"game_id": self.game_id, "game_ref": self.ref,
                "date": self.date.isoformat() if self.date else None,
                "date_text": self.date_text, "event": self.event, "site": self.site,
                "round": self.round, "match": self.match, "players": list(self.players),
                "scores": list(self.scores), "finished": self.finished, "result": self.result,
                "winner": self.winner, "source": self.source, "source_game": self.source_game}


def find_games(con: duckdb.DuckDBPyConnection, selection: GameFilter | None = None,
               limit: int | None = None) -> tuple[list[StoredGame], int]:
    """The selected games, newest date first (undated last; one day's games in file
    order), the first ``limit`` of them (all when None), and how many the filter selects.
    A stored date Python cannot hold reads as None (:mod:`gops_records.core.dates`)."""
    selection = selection or GameFilter()
    check_players(con, selection.players)
    check_events(con, selection.events)
    where, params = selection.where()
    total = scalar(con, f"SELECT count(*) FROM games g WHERE {where}", params)
    page = f"LIMIT {int(limit)}" if limit is not None else ""
    rows = con.execute(f"""
        WITH sel AS MATERIALIZED (
            SELECT g.game_id, g.date, g.date_text, g.event, g.site, g.round, g.match,
                   g.finished, g.result, g.winner, g.source, g.source_game,
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
               sel.source, sel.source_game
        FROM sel JOIN seats USING (game_id) ORDER BY sel.n""", params).fetchall()
    games = [StoredGame(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], tuple(r[7]),
                        tuple(int(x) for x in r[8]), bool(r[9]), r[10], r[11], r[12],
                        int(r[13])) for r in rows]
    return games, total


def looks_like_game(text: str) -> bool:
    """Whether ``text`` may name a stored game: a decimal id, 16 hex digits, a reference."""
    value = text.strip()
    return bool(parse_game_ids(value)) or REF_PATTERN.fullmatch(value) is not None


def id_matches(con: duckdb.DuckDBPyConnection, text: str, table: str = "games",
               column: str = "game_id", limit: int = 3) -> list[int]:
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


def close_ids(con: duckdb.DuckDBPyConnection, text: str, table: str = "games",
              column: str = "game_id") -> list[str]:
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


def resolve_game(con: duckdb.DuckDBPyConnection, text: str) -> int:
    """The id of the stored game ``text`` names (:func:`id_matches`: its id or its
    reference, unique among the stored games). Raises :class:`GameNotFound`."""
    found = id_matches(con, text)
    if len(found) > 1:
        raise GameNotFound(f"{text!r} names several games; give more of its hex digits")
    if found:
        return found[0]
    close = close_ids(con, text)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    what = "reference" if REF_PATTERN.fullmatch(text.strip()) else "id"
    raise GameNotFound(f"no stored game has the {what} {text!r}{hint} (gops games lists "
                       "them)")
