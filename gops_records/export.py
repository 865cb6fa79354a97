"""Exporting stored games: canonical .gops records, CSV round logs, Parquet tables.

Every format can be imported again (.gops and CSV by ``gops import``), and the games
come back with the same ``game_id``: the id is computed from the tags and cards (see
docs/schema.md), which both formats carry. CSV carries the known tags only (the round
log columns); other tags are dropped, and a game that had some gets a new id when its
CSV is imported. Parquet is one file per table (games, game_players, rounds, bids) in
a folder, written by DuckDB's COPY.

Exports read through a short-lived read-only connection, so they can run while the
dashboard is open.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from pathlib import Path

import duckdb
import polars as pl

from gops_records.errors import GopsError
from gops_records.notation import CardToken, GameRecord, RoundRecord, write_game
from gops_records.roundlogs import COLUMNS
from gops_records.store.db import reading, scalar

#: Games rebuilt and written per chunk (bounded memory for big databases).
CHUNK_GAMES = 20_000
#: The tables a Parquet export writes, one file each.
PARQUET_TABLES = ("games", "game_players", "rounds", "bids")
#: Which tag each CSV column carries.
CSV_TAG_OF = {
    "player_a": "A", "player_b": "B", "player_c": "C", "player_d": "D", "event": "Event",
    "site": "Site", "date": "Date", "event_round": "Round", "match": "Match",
    "tie_rule": "TieRule", "cards": "Cards", "prize_order": "PrizeOrder",
}
_ORDER = "g.import_id, g.source, g.source_game"


class ExportFormat(StrEnum):
    GOPS = "gops"
    CSV = "csv"
    PARQUET = "parquet"


class ExportError(GopsError):
    """An export that cannot be written (e.g. the output exists as the wrong kind)."""

    code = "export"


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games to export: all given conditions hold (a list matches any of its names).

    Names match exactly. A date filter leaves out games without a full date.
    """

    players: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    date_from: date | None = None
    date_to: date | None = None

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
        if self.date_from:
            conditions.append("g.date >= ?")
            params.append(self.date_from)
        if self.date_to:
            conditions.append("g.date <= ?")
            params.append(self.date_to)
        return " AND ".join(conditions), params


@dataclass(frozen=True, slots=True)
class ExportSummary:
    format: ExportFormat
    out: Path
    games: int
    rounds: int

    def as_dict(self) -> dict:
        return {"format": self.format.value, "out": str(self.out), "games": self.games,
                "rounds": self.rounds}


def export_games(db: str | Path | None, out: str | Path, fmt: ExportFormat | str,
                 selection: GameFilter | None = None) -> ExportSummary:
    """Write the selected games of ``db`` to ``out`` (a file; a folder for Parquet)."""
    fmt, out, selection = ExportFormat(fmt), Path(out), selection or GameFilter()
    if fmt is ExportFormat.PARQUET:
        if out.exists() and not out.is_dir():
            raise ExportError(f"{out} is a file; a Parquet export writes a folder")
    elif out.is_dir():
        raise ExportError(f"{out} is a folder; a {fmt.value} export writes one file")
    writer = {ExportFormat.GOPS: _write_gops, ExportFormat.CSV: _write_csv,
              ExportFormat.PARQUET: _write_parquet}[fmt]
    where, params = selection.where()
    with reading(db) as con:
        games = scalar(con, f"SELECT count(*) FROM games g WHERE {where}", params)
        rounds = scalar(con, "SELECT count(*) FROM rounds r SEMI JOIN "
                             f"(SELECT game_id FROM games g WHERE {where}) USING (game_id)",
                        params)
        out.parent.mkdir(parents=True, exist_ok=True)
        writer(con, out, selection)
    return ExportSummary(fmt, out, games, rounds)


def iter_records(con: duckdb.DuckDBPyConnection, selection: GameFilter | None = None,
                 chunk: int = CHUNK_GAMES) -> Iterator[GameRecord]:
    """The selected games rebuilt as records (tags, rounds, comments, result), in the order
    they were imported; ``chunk`` games are read at a time."""
    where, params = (selection or GameFilter()).where()
    ids = [r[0] for r in con.execute(f"SELECT g.game_id FROM games g WHERE {where} "
                                     f"ORDER BY {_ORDER}", params).fetchall()]
    for start in range(0, len(ids), chunk):
        yield from _records(con, ids[start:start + chunk])


def _records(con: duckdb.DuckDBPyConnection, ids: list[str]) -> Iterator[GameRecord]:
    con.register("export_ids", pl.DataFrame({"game_id": ids, "n": range(len(ids))},
                                            schema={"game_id": pl.String, "n": pl.Int64}))
    try:
        games = con.execute(
            "SELECT g.game_id, g.tags, g.result FROM games g JOIN export_ids USING (game_id) "
            "ORDER BY n").fetchall()
        rounds: dict[str, list[RoundRecord]] = {}
        for game_id, prize, bids, comment in con.execute(
                "SELECT r.game_id, r.prize, list(b.bid ORDER BY b.seat), any_value(r.comment) "
                "FROM rounds r SEMI JOIN export_ids USING (game_id) "
                "JOIN bids b USING (game_id, round_no) "
                "GROUP BY r.game_id, r.round_no, r.prize ORDER BY r.game_id, r.round_no"
        ).fetchall():
            rounds.setdefault(game_id, []).append(
                RoundRecord(CardToken(prize), tuple(CardToken(b) for b in bids), comment))
    finally:
        con.unregister("export_ids")
    for game_id, tags, result in games:
        points = tuple(int(x) for x in result.split("-")) if result else None
        yield GameRecord(dict(tags), tuple(rounds.get(game_id, ())), points)


@contextmanager
def _replacing(out: Path) -> Iterator[Path]:
    """A temporary path next to ``out`` that becomes ``out`` only when writing succeeded."""
    tmp = out.with_name(out.name + ".tmp")
    try:
        yield tmp
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def _write_gops(con: duckdb.DuckDBPyConnection, out: Path, selection: GameFilter) -> None:
    with _replacing(out) as tmp, tmp.open("w", encoding="utf-8", newline="\n") as f:
        for i, record in enumerate(iter_records(con, selection)):
            f.write(("\n" if i else "") + write_game(record))


def csv_query(where: str) -> str:
    """SELECT of the round-log rows (the import's columns, in order) of games ``g`` matching
    ``where``: one row per round, cards as numbers, tags in their columns."""
    expr = {"game": "g.game_id", "round": "r.round_no", "prize": "r.prize",
            "comment": "any_value(r.comment)"}
    expr |= {f"bid_{s}": f"max(b.bid) FILTER (WHERE b.seat = '{s.upper()}')" for s in "abcd"}
    expr |= {column: f"any_value(g.tags['{tag}'])" for column, tag in CSV_TAG_OF.items()}
    select = ", ".join(f'{expr[c]} AS "{c}"' for c in COLUMNS)
    return (f"SELECT {select} FROM games g JOIN rounds r USING (game_id) "
            f"JOIN bids b USING (game_id, round_no) WHERE {where} "
            f"GROUP BY {_ORDER}, g.game_id, r.round_no, r.prize ORDER BY {_ORDER}, r.round_no")


def _write_csv(con: duckdb.DuckDBPyConnection, out: Path, selection: GameFilter) -> None:
    where, params = selection.where()
    result = con.execute(csv_query(where), params)
    with _replacing(out) as tmp, tmp.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        while rows := result.fetchmany(50_000):
            writer.writerows(rows)


def _write_parquet(con: duckdb.DuckDBPyConnection, out: Path, selection: GameFilter) -> None:
    where, params = selection.where()
    out.mkdir(parents=True, exist_ok=True)
    for table in PARQUET_TABLES:
        rows = (f"SELECT g.* FROM games g WHERE {where} ORDER BY {_ORDER}" if table == "games"
                else f"SELECT t.* FROM {table} t SEMI JOIN (SELECT game_id FROM games g "
                     f"WHERE {where}) USING (game_id) ORDER BY ALL")
        with _replacing(out / f"{table}.parquet") as tmp:
            path = str(tmp).replace("'", "''")
            con.execute(f"COPY ({rows}) TO '{path}' (FORMAT parquet)", params)
