"""`gops replay` of Gin Rummy: a file's hand or sheet (.gin, .ginsheet), or a stored game
or hand, turn by turn or hand by hand.

`gops replay` reaches these through its table of game kinds (:data:`gops_records.cli.
replay_cmd.REPLAYS`). A file is read as `gops validate` reads it, so the problems shown are
the same; a stored game is its score sheet as `gops export --format ginsheet` writes it,
and a stored full hand its record as `gops export --format gin` writes it. The libraries
are imported inside the functions (`gops` starts without them).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, fail, fail_on
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    import duckdb

    from gops_records.cli.replay_cmd import Found
    from gops_records.games.gin.checking import GinRecord
    from gops_records.games.gin.games import StoredHand


def replay_gin(path: Path, number: int, encoding: str) -> NoReturn:
    """Print record ``number`` (1-based) of a Gin Rummy file; exit 0 if valid, 1 if not."""
    from gops_records.core.sources import read_text, source_name
    from gops_records.games.gin.checking import gin_kind, read_gin_source
    from gops_records.games.gin.render import render

    try:
        text = read_text(path, encoding)
    except GopsError as exc:
        fail_on(exc)
    source = source_name(path)
    records = [r for batch in read_gin_source(text, source) for r in batch.records]
    noun = "sheet" if gin_kind(path) == "ginsheet" else "hand"
    if 1 <= number <= len(records):
        record = records[number - 1]
        typer.echo(render(record, f"{source} {noun} {number}"))
        raise typer.Exit(EXIT_OK if record.valid else EXIT_INVALID)
    if not records:
        fail(f"{source} holds no {noun}s")
    fail(f"{source} has {len(records)} {noun}{'s' * (len(records) != 1)}; there is no "
         f"{noun} {number}")


def find_gin(con: duckdb.DuckDBPyConnection, text: str) -> list[Found]:
    """The stored Gin Rummy games and hands ``text`` names."""
    from gops_records.cli.replay_cmd import Found
    from gops_records.games.gin.games import gin_matches

    return [Found("gin", what, found) for what, found in gin_matches(con, text)]


def close_gin(con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
    """References or ids of stored Gin Rummy games and hands close to ``text``."""
    from gops_records.games.gin.games import gin_close

    return gin_close(con, text)


def replay_gin_stored(db: Path | None, found: Found) -> NoReturn:
    """Replay a stored Gin Rummy game (its score sheet) or full hand (turn by turn)."""
    from gops_records.core.store.db import reading
    from gops_records.games.gin.games import game_hands, stored_hand

    if found.what == "game":
        _replay_game(db, found.id, None)
    try:
        with reading(db) as con:
            hand = stored_hand(con, found.id)
    except GopsError as exc:
        fail_on(exc)
    if hand.recorded != "full":
        if hand.game_id is None:
            fail(f"Gin Rummy hand {hand.ref} is a score-sheet line of no stored game "
                 "(its sheet has no Match tag): there is no turn to replay")
        _replay_game(db, hand.game_id, hand)
    from gops_records.core.games_query import shown_date
    from gops_records.games.gin.render import render

    record = _stored_record(hand.raw_text, "stored.gin")
    place = ", ".join(bit for bit in (
        hand.event, shown_date(hand.date, hand.date_text), hand.match and f"match "
        f"{hand.match}", hand.game_no and f"game {hand.game_no}",
        hand.hand_no and f"hand {hand.hand_no}") if bit)
    title = (f"Gin Rummy hand {hand.ref} ({hand.hand_id}) in {_db(db)}, first imported from "
             f"{hand.source} hand {hand.source_record}" + (f"; {place}" if place else ""))
    typer.echo(render(record, title, at_line=False))
    if hand.game_id is not None:
        with reading(db) as con:
            hands = game_hands(con, hand.game_id)
        if len(hands) > 1:
            typer.echo(f"\nIts game: gops replay {_ref(hand.game_id)}")
    raise typer.Exit(EXIT_OK if record.valid else EXIT_INVALID)


def _replay_game(db: Path | None, game_id: int, via: StoredHand | None) -> NoReturn:
    """A stored game's score sheet, hand by hand, and the references of its full hands."""
    import io

    from gops_records.core.games_query import GameFilter
    from gops_records.core.store.db import reading
    from gops_records.games.gin.export import export_gin
    from gops_records.games.gin.games import find_gin_games, game_hands
    from gops_records.games.gin.render import render

    selection = GameFilter(game_ids=(game_id,))
    try:
        with reading(db) as con:
            (game,), _ = find_gin_games(con, selection)
            hands = game_hands(con, game_id)
        sheet = io.StringIO()
        export_gin(db, "-", "ginsheet", selection, stdout=sheet)
    except GopsError as exc:
        fail_on(exc)
    if via is not None:
        print(f"gops: note: Gin Rummy hand {via.ref} is kept as a line of a score sheet "
              f"(hand {via.hand_no}): its game is replayed", file=sys.stderr)
    record = _stored_record(sheet.getvalue(), "stored.ginsheet")
    place = ", ".join(bit for bit in (game.event, game.shown_date) if bit)
    title = (f"Gin Rummy game {game.ref} ({game.game_id}) in {_db(db)}, first imported from "
             f"{game.source}" + (f"; {place}" if place else ""))
    typer.echo(render(record, title, at_line=False))
    full = [f"hand {n} {_ref(h)}" for n, h, recorded in hands if recorded == "full"]
    if full:
        typer.echo(f"\nIts hands in full (gops replay REF replays one turn by turn): "
                   f"{', '.join(full)}")
    raise typer.Exit(EXIT_OK if record.valid else EXIT_INVALID)


def _stored_record(text: str, source: str) -> GinRecord:
    """The one record of a stored hand's or game's text, read as a file of its kind."""
    from gops_records.games.gin.checking import read_gin_source

    (record,) = [r for batch in read_gin_source(text, source) for r in batch.records]
    return record


def _db(db: Path | None) -> Path:
    from gops_records.core.store.db import resolve_db

    return resolve_db(db)


def _ref(record_id: int) -> str:
    from gops_records.core.games_query import game_ref

    return game_ref(record_id)
