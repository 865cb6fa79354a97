"""`gops replay` of Gin Rummy (the game's part ``replay``): a file's hand or sheet (.gin,
.ginsheet), or a stored game or hand, turn by turn or hand by hand.

Follows :class:`gops_records.core.replay_lookup.GameReplay`. A file is read as `gops
validate` reads it, so the problems shown are the same; a stored game is its score sheet
as `gops export --format ginsheet` writes it, and a stored full hand its record as `gops
export --format gin` writes it.
"""

from __future__ import annotations

import io
from pathlib import Path

import duckdb

from gops_records.core.game_refs import game_ref
from gops_records.core.games_query import GameFilter, shown_date
from gops_records.core.replay_lookup import Found, Replay, ReplayError
from gops_records.core.sources import read_text, source_name
from gops_records.core.store.db import reading, resolve_db
from gops_records.games.gin.checking import GinRecord, gin_kind, read_gin_source
from gops_records.games.gin.export import export_gin
from gops_records.games.gin.games import (
    StoredHand,
    find_gin_games,
    game_hands,
    gin_close,
    gin_matches,
    stored_hand,
)
from gops_records.games.gin.render import render


class _GinReplay:
    stored_noun = "Gin Rummy game or hand"

    def replay_file(self, path: Path, number: int, encoding: str) -> Replay:
        """Record ``number`` (1-based) of a Gin Rummy file."""
        text = read_text(path, encoding)
        source = source_name(path)
        records = [r for batch in read_gin_source(text, source) for r in batch.records]
        noun = "sheet" if gin_kind(path) == "ginsheet" else "hand"
        if 1 <= number <= len(records):
            record = records[number - 1]
            return Replay(render(record, f"{source} {noun} {number}"), record.valid)
        if not records:
            raise ReplayError(f"{source} holds no {noun}s")
        raise ReplayError(f"{source} has {len(records)} {noun}{'s' * (len(records) != 1)}; "
                          f"there is no {noun} {number}")

    def find(self, con: duckdb.DuckDBPyConnection, text: str) -> list[Found]:
        return [Found("gin", what, found) for what, found in gin_matches(con, text)]

    def close(self, con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
        return gin_close(con, text)

    def replay_stored(self, db: Path | None, found: Found) -> Replay:
        """A stored Gin Rummy game (its score sheet) or full hand (turn by turn)."""
        if found.what == "game":
            return _replay_game(db, found.id, None)
        with reading(db) as con:
            hand = stored_hand(con, found.id)
        if hand.recorded != "full":
            if hand.game_id is None:
                raise ReplayError(f"Gin Rummy hand {hand.ref} is a score-sheet line of no "
                                  "stored game (its sheet has no Match tag): there is no "
                                  "turn to replay")
            return _replay_game(db, hand.game_id, hand)
        record = _stored_record(hand.raw_text, "stored.gin")
        place = ", ".join(bit for bit in (
            hand.event, shown_date(hand.date, hand.date_text), hand.match and f"match "
            f"{hand.match}", hand.game_no and f"game {hand.game_no}",
            hand.hand_no and f"hand {hand.hand_no}") if bit)
        title = (f"Gin Rummy hand {hand.ref} ({hand.hand_id}) in {resolve_db(db)}, first "
                 f"imported from {hand.source} hand {hand.source_record}"
                 + (f"; {place}" if place else ""))
        text = render(record, title, at_line=False)
        if hand.game_id is not None:
            with reading(db) as con:
                hands = game_hands(con, hand.game_id)
            if len(hands) > 1:
                text += f"\n\nIts game: gops replay {game_ref(hand.game_id)}"
        return Replay(text, record.valid)


def _replay_game(db: Path | None, game_id: int, via: StoredHand | None) -> Replay:
    """A stored game's score sheet, hand by hand, and the references of its full hands."""
    selection = GameFilter(game_ids=(game_id,))
    with reading(db) as con:
        (game,), _ = find_gin_games(con, selection)
        hands = game_hands(con, game_id)
    sheet = io.StringIO()
    export_gin(db, "-", "ginsheet", selection, stdout=sheet)
    notes = () if via is None else (
        f"Gin Rummy hand {via.ref} is kept as a line of a score sheet (hand {via.hand_no}): "
        "its game is replayed",)
    record = _stored_record(sheet.getvalue(), "stored.ginsheet")
    place = ", ".join(bit for bit in (game.event, game.shown_date) if bit)
    title = (f"Gin Rummy game {game.ref} ({game.game_id}) in {resolve_db(db)}, first "
             f"imported from {game.source}" + (f"; {place}" if place else ""))
    text = render(record, title, at_line=False)
    full = [f"hand {n} {game_ref(h)}" for n, h, recorded in hands if recorded == "full"]
    if full:
        text += (f"\n\nIts hands in full (gops replay REF replays one turn by turn): "
                 f"{', '.join(full)}")
    return Replay(text, record.valid, notes)


def _stored_record(text: str, source: str) -> GinRecord:
    """The one record of a stored hand's or game's text, read as a file of its kind."""
    (record,) = [r for batch in read_gin_source(text, source) for r in batch.records]
    return record


#: The part ``replay`` (plugin.py).
REPLAY = _GinReplay()
