"""Checking whole record files quickly: what `gops validate` reports, game by game.

Valid plain games are checked many at once by the import's fast path
(:mod:`gops_records.fastpath`); every other game goes through the exact parser and
validator there, so each problem keeps its exact code, line and column. The fast path
is tested to accept exactly the games the exact path accepts, with the same values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import polars as pl

from gops_records.fastpath import record_body, record_frames
from gops_records.notation import iter_games
from gops_records.notation.model import Problem
from gops_records.validate import GameReport, validate_game


@dataclass(frozen=True, slots=True)
class GameCheck:
    """One game's verdict: the fields of `gops validate --json`, and its problems."""

    game: int
    line: int
    players: list[str]
    finished: bool
    rounds: int
    scores: list[int]
    unclaimed: int | None
    winner: str | None
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_json(self, source: str) -> dict:
        """The object `gops validate --json` prints (its keys are a contract)."""
        return {
            "source": source, "game": self.game, "line": self.line, "players": self.players,
            "valid": self.valid, "finished": self.finished, "rounds": self.rounds,
            "scores": self.scores, "unclaimed": self.unclaimed, "winner": self.winner,
            "errors": [p.as_dict() for p in self.problems],
        }

    @classmethod
    def of_report(cls, report: GameReport, game: int) -> GameCheck:
        """From the exact path's report (used for single games and tests)."""
        return cls(game, report.record.line, report.players, report.finished,
                   len(report.record.rounds), list(report.outcome.scores), report.unclaimed,
                   report.winner, report.problems)


def check_records(data: bytes, source: str, encoding: str = "utf-8") -> Iterator[GameCheck]:
    """Every game of a .gops file's bytes, in file order. Raises DecodeError on bad bytes."""
    body = record_body(data, encoding, source)
    for chunk in record_frames(body, source):
        frames = chunk.frames()
        checks = list(_valid_games(frames["games"], frames["game_players"]))
        checks += [_rejected(row) for row in frames["rejects"].iter_rows(named=True)]
        checks.sort(key=lambda c: c.game)
        yield from checks


def _valid_games(games: pl.DataFrame, players: pl.DataFrame) -> Iterator[GameCheck]:
    if not games.height:
        return
    seats = (players.unique(["game_id", "seat"], keep="first").sort("seat")
             .group_by("game_id").agg("player", "score"))
    rows = games.select("game_id", "source_game", "source_line", "finished",
                        "rounds_played", "unclaimed", "winner").join(seats, on="game_id",
                                                                     how="left")
    for r in rows.iter_rows(named=True):
        yield GameCheck(r["source_game"], r["source_line"], r["player"], r["finished"],
                        r["rounds_played"], r["score"], r["unclaimed"], r["winner"], ())


def _rejected(row: dict) -> GameCheck:
    """A rejected game: its problems as the file places them, its replay from its text."""
    problems = tuple(Problem(e["code"], e["message"], e["line"], e["column"], e["round"])
                     for e in row["errors"])
    records = list(iter_games(row["raw_text"]))
    if not records:  # pragma: no cover - a reject always holds a game's text
        return GameCheck(row["source_game"], row["source_line"], [], False, 0, [], None, None,
                         problems)
    check = GameCheck.of_report(validate_game(records[0]), row["source_game"])
    return GameCheck(check.game, row["source_line"], check.players, check.finished,
                     check.rounds, check.scores, check.unclaimed, check.winner, problems)
