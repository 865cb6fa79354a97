"""Exporting stored Gops games: canonical .gops records, CSV round logs, Parquet tables
(the game's part ``exports``: :data:`gops_records.games.gops.exports.FORMATS`).

Every format can be imported again (.gops and CSV by ``gops import``), and the games
come back with the same ``game_id``: the id is computed from the tags and cards (see
docs/schema.md), which both formats carry. CSV carries the known tags only (the round
log columns); other tags are dropped, and a game that had some gets a new id when its
CSV is imported. Games of the two variants are written in the round log's columns for
them (docs/import.md): a bid of several cards as ``9+4``, an open-prize round's revealed
prizes in ``revealed`` and the prize taken in ``prize`` (``-`` for none); games read with
``[OpenTakes "each"]`` have no round-log columns for every bidder's take, so a CSV
export of them is refused before anything is written (``.gops`` carries them). Beside the
``game`` column (the 19-20 digit id, which spreadsheets
mangle into ``1.23E+19``) CSV has ``game_ref``, the game's reference as text
(:func:`gops_records.core.game_refs.game_ref`: ``g`` and 8 hex digits, as the dashboard
shows it); the import reads it as the mark of a gops export. A free-text cell that a
spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR) or that starts
with ``'`` gets a ``'`` before it (:func:`gops_records.games.gops.roundlogs.escape_cell`); the round
log reader undoes it in a file with ``game_ref``.
Parquet is one file per table (games, game_players, rounds, bids) in a folder, written
by DuckDB's COPY. ``.gops`` and CSV may go to stdout (``out`` is ``-``).

Exports read through a short-lived read-only connection, so they can run while the
dashboard is open.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import duckdb

from gops_records.core.export import STDOUT, ExportSummary
from gops_records.core.export_target import (
    ExportError,
    check_parquet_folder,
    check_target,
    replacing,
    writing,
)
from gops_records.core.game_refs import game_ref
from gops_records.core.games_query import GameFilter, resolved
from gops_records.core.store.db import reading, resolve_db, scalar
from gops_records.games.gops.games import gops_where
from gops_records.games.gops.notation import (
    BidToken,
    CardToken,
    GameRecord,
    RoundRecord,
    write_game,
)
from gops_records.games.gops.roundlogs import (
    BID_JOIN,
    COLUMNS,
    ESCAPE,
    EXPORT_MARK,
    FORMULA_STARTS,
    FREE_TEXT_COLUMNS,
    NO_PRIZE,
)

__all__ = ["CSV_COLUMNS", "csv_query", "export_gops", "iter_records"]

#: The format names this module writes (games/gops/exports.py declares them).
GOPS, CSV, PARQUET = "gops", "csv", "parquet"

#: Rows fetched at a time from DuckDB (bounded memory for big databases).
BATCH_ROWS = 50_000
#: The tables a Parquet export writes, one file each.
PARQUET_TABLES = ("games", "game_players", "rounds", "bids")
#: Which tag each CSV column carries.
CSV_TAG_OF = {
    "player_a": "A", "player_b": "B", "player_c": "C", "player_d": "D", "event": "Event",
    "site": "Site", "date": "Date", "event_round": "Round", "match": "Match",
    "best_of": "BestOf",
    "tie_rule": "TieRule", "cards": "Cards", "prize_order": "PrizeOrder",
    "bid_cards": "BidCards", "open_prizes": "OpenPrizes",
}
#: The CSV export's columns: the import's, with the game's reference beside its id.
CSV_COLUMNS = (COLUMNS[0], EXPORT_MARK, *COLUMNS[1:])
_ORDER = "g.import_id, g.source, g.source_game"
_CHILD_ORDER = {"game_players": "game_id, seat", "rounds": "game_id, round_no",
                "bids": "game_id, round_no, seat"}


def export_gops(db: str | Path | None, out: str | Path, fmt: str,
                selection: GameFilter | None = None, *,
                stdout: TextIO | None = None) -> ExportSummary:
    """Write the selected games of ``db`` to ``out`` (a file; a folder for Parquet; ``-``
    for ``stdout``, default ``sys.stdout``, in the text formats): the
    :class:`gops_records.core.export.Exporter` of the Gops formats.

    Raises UnknownPlayer (with close matches) for a player filter naming nobody stored."""
    selection = selection or GameFilter()
    to_stdout = str(out) == STDOUT
    out = STDOUT if to_stdout else Path(out)
    database = resolve_db(db)
    if to_stdout:
        if fmt == PARQUET:
            raise ExportError("a Parquet export writes a folder of files, not to stdout: "
                              "give --out a folder")
    elif fmt == PARQUET:
        check_parquet_folder(out, database, [f"{t}.parquet" for t in PARQUET_TABLES])
    else:
        target = check_target(out, database, f"a {fmt} export writes one file")
    with reading(db, merged=False) as con:  # a backup: the names as stored
        con.execute("SET enable_progress_bar = false")  # stdout is the command's
        selection = resolved(con, selection, "gops")  # names as typed, and their aliases'
        where, params = gops_where(selection)
        games = scalar(con, f"SELECT count(*) FROM games g WHERE {where}", params)
        rounds = scalar(con, "SELECT count(*) FROM rounds r SEMI JOIN "
                             f"(SELECT game_id FROM games g WHERE {where}) USING (game_id)",
                        params)
        if fmt == CSV:
            _refuse_takes_in_csv(con, where, params)
        if fmt == PARQUET:
            _write_parquet(con, out, database, selection)
        else:
            write = _write_gops if fmt == GOPS else _write_csv
            if to_stdout:
                write(con, stdout or sys.stdout, selection)
            else:
                newline = "\n" if fmt == GOPS else ""
                with writing(out, database, target, newline) as f:
                    write(con, f, selection)
    return ExportSummary(fmt, out, games, rounds)


def _selected(where: str) -> str:
    """CTE ``sel``: the selected games, numbered ``n`` in import order."""
    return (f"WITH sel AS (SELECT g.*, row_number() OVER (ORDER BY {_ORDER}) AS n "
            f"FROM games g WHERE {where}) ")


#: A round's bids as a list in seat order (rounds ``r`` of games ``sel``), each the list
#: of its cards.
_SEAT_BIDS = "list_slice([r.cards_a, r.cards_b, r.cards_c, r.cards_d], 1, sel.n_players)"


def _takes(takes: list[int | None] | None) -> tuple[CardToken | None, ...] | None:
    """Each seat's take as written (``[OpenTakes "each"]``; None for other games)."""
    if takes is None:
        return None
    return tuple(CardToken(t) if t else None for t in takes)


def _bid(cards: list[int]) -> CardToken | BidToken:
    tokens = tuple(map(CardToken, cards))
    return tokens[0] if len(tokens) == 1 else BidToken(tokens)


def iter_records(con: duckdb.DuckDBPyConnection, selection: GameFilter | None = None,
                 batch_rows: int = BATCH_ROWS) -> Iterator[GameRecord]:
    """The selected games rebuilt as records (tags, rounds, comments, result), in the order
    they were imported; one query, streamed ``batch_rows`` rounds at a time."""
    where, params = gops_where(selection or GameFilter())
    result = con.execute(
        _selected(where) + "SELECT sel.n, CASE WHEN coalesce(r.round_no, 1) = 1 THEN sel.tags "
        f"END, sel.result, r.prize, {_SEAT_BIDS}, r.comment, r.revealed, r.taken, t.takes "
        "FROM sel LEFT JOIN rounds r USING (game_id) "
        "LEFT JOIN round_takes t ON t.game_id = r.game_id AND t.round_no = r.round_no "
        "ORDER BY sel.n, r.round_no", params)
    current, tags, points, rounds = None, {}, None, []
    while rows := result.fetchmany(batch_rows):
        for n, game_tags, result_text, prize, bids, comment, revealed, taken, takes in rows:
            if n != current:
                if current is not None:
                    yield GameRecord(tags, tuple(rounds), points)
                current, rounds = n, []
                tags = {t["key"]: t["value"] for t in game_tags}
                points = tuple(int(x) for x in result_text.split("-")) if result_text else None
            if prize is None:
                continue
            if revealed is None:
                rounds.append(RoundRecord(CardToken(prize), tuple(map(_bid, bids)), comment))
            else:  # an open-prize round: what its top-up revealed, and the prize taken
                rounds.append(RoundRecord(CardToken(taken) if taken else None,
                                          tuple(map(_bid, bids)), comment,
                                          revealed=tuple(map(CardToken, revealed)),
                                          takes=_takes(takes)))
    if current is not None:
        yield GameRecord(tags, tuple(rounds), points)


def _write_gops(con: duckdb.DuckDBPyConnection, f: TextIO, selection: GameFilter) -> None:
    for i, record in enumerate(iter_records(con, selection)):
        f.write(("\n" if i else "") + write_game(record))


def csv_query(where: str) -> str:
    """SELECT of the round-log rows (the import's columns, in order: the CSV adds game_ref
    after the first) of games ``g`` matching
    ``where``: one row per round, cards as numbers, tags in their columns."""
    expr = {"game": "sel.game_id", "round": "r.round_no", "comment": "r.comment",
            # an open-prize round: the prize taken, '-' when nobody took one
            "prize": f"CASE WHEN sel.open_prizes IS NULL THEN r.prize::VARCHAR "
                     f"ELSE coalesce(r.taken::VARCHAR, '{NO_PRIZE}') END",
            "revealed": "array_to_string(r.revealed, ' ')"}
    # a bid of several cards as its cards joined by '+' (9+4); a classic bid its card
    expr |= {f"bid_{s}": f"CASE WHEN sel.bid_cards > 1 THEN array_to_string(r.cards_{s}, "
                         f"'{BID_JOIN}') ELSE r.bid_{s}::VARCHAR END" for s in "abcd"}
    expr |= {column: f"tag(sel.tags, '{tag}')" for column, tag in CSV_TAG_OF.items()}
    # a cell a spreadsheet would run as a formula, escaped (roundlogs.escape_cell)
    expr |= {column: _escaped(expr[column]) for column in FREE_TEXT_COLUMNS}
    select = ", ".join(f'{expr[c]} AS "{c}"' for c in COLUMNS)
    return (_selected(where) + f"SELECT {select} FROM sel JOIN rounds r USING (game_id) "
            "ORDER BY sel.n, r.round_no")


def _refuse_takes_in_csv(con: duckdb.DuckDBPyConnection, where: str, params: list) -> None:
    """A round log has no column for every bidder's take (``[OpenTakes "each"]``): a CSV
    export of such games would not read back, so it is refused before anything is written."""
    each = scalar(con, "SELECT count(DISTINCT game_id) FROM round_takes SEMI JOIN "
                       f"(SELECT game_id FROM games g WHERE {where}) USING (game_id)", params)
    if each:
        raise ExportError(
            f"{each} of the selected games {'was' if each == 1 else 'were'} played with "
            "[OpenTakes \"each\"] (every bidder takes a prize); a CSV round log has no "
            "column for those takes, so it could not give the games back: export them with "
            "--format gops, or leave them out with a filter")


def _escaped(sql: str) -> str:
    """SQL of :func:`gops_records.games.gops.roundlogs.escape_cell` applied to the text ``sql``."""
    starts = ", ".join("'" + c.replace("'", "''") + "'" for c in (*FORMULA_STARTS, ESCAPE))
    quote = ESCAPE.replace("'", "''")
    return f"CASE WHEN left({sql}, 1) IN ({starts}) THEN '{quote}' || {sql} ELSE {sql} END"


def _write_csv(con: duckdb.DuckDBPyConnection, f: TextIO, selection: GameFilter) -> None:
    where, params = gops_where(selection)
    result = con.execute(csv_query(where), params)
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    while rows := result.fetchmany(BATCH_ROWS):  # game_ref beside each row's game id
        writer.writerows((row[0], game_ref(row[0]), *row[1:]) for row in rows)


def _write_parquet(con: duckdb.DuckDBPyConnection, out: Path, db: Path,
                   selection: GameFilter) -> None:
    where, params = gops_where(selection)
    out.mkdir(parents=True, exist_ok=True)
    for table in PARQUET_TABLES:
        rows = (f"SELECT g.* FROM games g WHERE {where} ORDER BY {_ORDER}" if table == "games"
                else f"SELECT t.* FROM {table} t SEMI JOIN (SELECT game_id FROM games g "
                     f"WHERE {where}) USING (game_id) ORDER BY {_CHILD_ORDER[table]}")
        with replacing(out / f"{table}.parquet", db) as tmp:
            path = str(tmp).replace("'", "''")
            con.execute(f"COPY ({rows}) TO '{path}' (FORMAT parquet)", params)
