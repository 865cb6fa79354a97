"""`gops replay` of Gops (the game's part ``replay``): a game of a .gops file or a round
log (CSV, JSONL), or a stored game rebuilt as `gops export` writes it, round by round
(:func:`gops_records.games.gops.replay_table.render_replay`).

Follows :class:`gops_records.core.replay_lookup.GameReplay`. A file is read as `gops
validate` reads it, so the problems shown are the same.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from gops_records.core import registry
from gops_records.core.games_query import GameFilter
from gops_records.core.replay_lookup import Found, Replay, ReplayError
from gops_records.core.sources import read_text, source_name
from gops_records.core.store.db import reading, resolve_db
from gops_records.games.gops.export import iter_records
from gops_records.games.gops.games import game_matches, games_close
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.replay_table import render_replay
from gops_records.games.gops.roundlogs import read_round_log
from gops_records.games.gops.validate import validate_game, validate_games

#: The notations read as round logs (plugin.py); any other file is read as .gops records.
ROUND_LOGS = ("csv", "jsonl")


class _GopsReplay:
    stored_noun = "Gops game"

    def replay_file(self, path: Path, number: int, encoding: str) -> Replay:
        """Game ``number`` (1-based) of a .gops file or a round log (.csv, .jsonl)."""
        text = read_text(path, encoding)
        claimed = registry.file_kind_of(path)
        kind = claimed[1].name if claimed else None
        reports = validate_games([game.record for game in read_round_log(text, kind)]) \
            if kind in ROUND_LOGS else read_reports(text)
        count = len(reports)
        if 1 <= number <= count:
            report = reports[number - 1]
            return Replay(render_replay(report, f"{source_name(path)} game {number}"),
                          report.valid)
        if not count:
            raise ReplayError(f"{source_name(path)} holds no games")
        noun = "game" if count == 1 else "games"
        raise ReplayError(f"{source_name(path)} has {count} {noun}; there is no game "
                          f"{number}")

    def find(self, con: duckdb.DuckDBPyConnection, text: str) -> list[Found]:
        return [Found("gops", what, found) for what, found in game_matches(con, text)]

    def close(self, con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
        return games_close(con, text)

    def replay_stored(self, db: Path | None, found: Found) -> Replay:
        """A stored game, rebuilt from the database as gops export writes it."""
        with reading(db) as con:
            (record,) = iter_records(con, GameFilter(game_ids=(found.id,)))
            source, position = con.execute("SELECT source, source_game FROM games WHERE "
                                           "game_id = ?", [found.id]).fetchone()
        report = validate_game(record)
        title = (f"game {found.ref} ({found.id}) in {resolve_db(db)}, first imported from "
                 f"{source} game {position}")
        return Replay(render_replay(report, title), report.valid)


#: The part ``replay`` (plugin.py).
REPLAY = _GopsReplay()
