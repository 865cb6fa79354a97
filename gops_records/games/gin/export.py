"""Exporting stored Gin Rummy records: full hands as ``.gin``, games as ``.ginsheet`` (the
game's part ``exports``: :data:`gops_records.games.gin.exports.FORMATS`).

``gin`` writes every selected full hand as its canonical record (``gin_hands.raw_text``),
in import order: importing the export gives back the same hands (same ``hand_id``: the
id is computed from the canonical record).

``ginsheet`` writes every selected game of ``gin_games`` as a score sheet: one line per
hand of it (hands 1 to ``gin_games.hands``; a full record's hand is written as its sheet
line: dealer, upcard rank, who went out and how, both deadwoods, the points), the running
totals after ``=``, and the game score (``*`` while unfinished). Its tags are the game's
sheet tags (``Event``, ``Site``, ``Date``, ``Match``, ``Game``, ``A``, ``B``, ``Runs``).
Importing it gives back the same games (same ``game_id``), its lines checked against the
stored full hands.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import duckdb

from gops_records.core.export import STDOUT, ExportSummary
from gops_records.core.export_target import check_target, writing
from gops_records.core.games_query import GameFilter, resolved
from gops_records.core.store.db import reading, resolve_db
from gops_records.games.gin.games import gin_where
from gops_records.games.gin.rules import Seat
from gops_records.games.gin.sheet import SHEET_TAGS, SheetLine, SheetOut, SheetRecord, write_sheet

#: Rows fetched at a time.
BATCH_ROWS = 10_000
_OUT = {"knock": SheetOut.KNOCK, "undercut": SheetOut.KNOCK, "gin": SheetOut.GIN,
        "big_gin": SheetOut.BIG_GIN, "draw": SheetOut.DRAW}
#: The full hands' format (games/gin/exports.py declares both), else score sheets.
GIN = "gin"


def export_gin(db: str | Path | None, out: str | Path, fmt: str,
               selection: GameFilter | None = None, *,
               stdout: TextIO | None = None) -> ExportSummary:
    """Write the selected Gin Rummy hands (``gin``) or games (``ginsheet``) of ``db`` to
    ``out`` (``-``: ``stdout``). ``games`` counts the records written, ``rounds`` their
    turns (hands) or lines (sheets). The :class:`gops_records.core.export.Exporter` of the
    Gin Rummy formats."""
    selection = selection or GameFilter()
    to_stdout = str(out) == STDOUT
    database = resolve_db(db)
    if not to_stdout:
        target = check_target(Path(out), database, f"a {fmt} export writes one file")
    with reading(db, merged=False) as con:  # a backup: the names as stored
        con.execute("SET enable_progress_bar = false")  # stdout is the command's
        selection = resolved(con, selection, "gin")  # names as typed, and their aliases'
        write = _write_hands if fmt == GIN else _write_sheets
        if to_stdout:
            counts = write(con, stdout or sys.stdout, selection)
        else:
            with writing(Path(out), database, target, "\n") as f:
                counts = write(con, f, selection)
    return ExportSummary(fmt, STDOUT if to_stdout else Path(out), *counts)


def _write_hands(con: duckdb.DuckDBPyConnection, f: TextIO, selection: GameFilter
                 ) -> tuple[int, int]:
    where, params = gin_where(selection, "h")
    hands = turns = 0
    result = con.execute(f"SELECT raw_text, turns FROM gin_hands h WHERE recorded = 'full' "
                         f"AND {where} ORDER BY import_id, source, source_record", params)
    while rows := result.fetchmany(BATCH_ROWS):
        for text, count in rows:
            f.write(("\n" if hands else "") + text)
            hands += 1
            turns += count or 0
    return hands, turns


def _write_sheets(con: duckdb.DuckDBPyConnection, f: TextIO, selection: GameFilter
                  ) -> tuple[int, int]:
    where, params = gin_where(selection, "g")
    games = con.execute(f"SELECT game_id, tags, finished, winner_seat, game_score "
                        f"FROM gin_games g WHERE {where} "
                        "ORDER BY import_id, source, source_line, match, game_no",
                        params).fetchall()
    result = con.execute(f"""
        SELECT game_id, dealer, upcard_rank, outcome, out_seat, out_deadwood,
               opponent_deadwood, winner_seat, points
        FROM gin_hands h JOIN (SELECT game_id, hands FROM gin_games g WHERE {where}) g
             USING (game_id)
        WHERE h.finished AND h.hand_no <= g.hands ORDER BY game_id, hand_no""", params)
    lines: dict[int, list[SheetLine]] = {}
    totals: dict[int, tuple[int, int]] = {}
    while rows := result.fetchmany(BATCH_ROWS):
        for key, dealer, upcard, outcome, out, deadwood, opponent, winner, points in rows:
            kind = _OUT[outcome]
            scores = (0, 0) if winner is None else \
                (points, 0) if winner == "A" else (0, points)
            before = totals.get(key, (0, 0))
            totals[key] = (before[0] + scores[0], before[1] + scores[1])
            lines.setdefault(key, []).append(SheetLine(
                Seat(dealer), upcard, kind, scores, Seat(out) if out else None,
                deadwood if kind is SheetOut.KNOCK else None, opponent, totals[key]))
    for i, (key, tags, finished, winner, score) in enumerate(games):
        kept = tuple((t["key"], t["value"]) for t in tags if t["key"] in SHEET_TAGS)
        result_pair = None if not finished else \
            (score, 0) if winner == "A" else (0, score)
        sheet = SheetRecord(kept, tuple(lines.get(key, ())), result_pair)
        f.write(("\n" if i else "") + write_sheet(sheet))
    return len(games), sum(len(lines.get(g[0], ())) for g in games)
