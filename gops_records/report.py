"""A replayed game as Python values, and the one JSON form of a game's verdict.

:func:`game_json` is the object ``gops validate --json`` prints for a game (its keys
are a contract with users' scripts); :class:`GameReport` is what the replay says about
one game: its record, the rules it was played under, the rounds played, the outcome and
every problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from gops_records.notation.model import GameRecord, Problem
from gops_records.rules import Outcome, RoundResult, RuleProfile


def game_json(source: str, game: int, line: int, players: list[str], finished: bool,
              rounds: int, scores: list[int], unclaimed: int | None, winner: str | None,
              problems: list[Problem] | tuple[Problem, ...]) -> dict:
    """The object `gops validate --json` prints for one game (its keys are a contract).

    An invalid game has no winner and no unclaimed points: ``scores`` are then what the
    rounds without a problem gave.
    """
    valid = not problems
    return {
        "source": source, "game": game, "line": line, "players": players, "valid": valid,
        "finished": finished, "rounds": rounds, "scores": scores,
        "unclaimed": unclaimed if valid and finished else None,
        "winner": winner if valid and finished else None,
        "errors": [p.as_dict() for p in problems],
    }


@dataclass(frozen=True, slots=True)
class GameReport:
    """A replayed game: its record and profile, what happened, and what is wrong.

    ``first_skipped`` is the first round the replay skipped for a problem (0: none).
    """

    record: GameRecord
    profile: RuleProfile
    rounds: tuple[RoundResult, ...]
    outcome: Outcome
    problems: tuple[Problem, ...]
    first_skipped: int = 0

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def finished(self) -> bool:
        """All N rounds are written (more than N too: the extra ones are problems)."""
        return len(self.record.rounds) >= self.profile.cards

    @property
    def players(self) -> list[str]:
        return self.record.players

    @property
    def winner(self) -> str | None:
        """The winner's name; None for a draw, an unfinished or an invalid game."""
        if not (self.valid and self.finished) or self.outcome.winner is None:
            return None
        return self.players[self.outcome.winner]

    @property
    def unclaimed(self) -> int | None:
        return self.outcome.unclaimed if self.finished and self.valid else None

    def as_json(self, source: str, game_no: int) -> dict:
        """The object `gops validate --json` prints for this game."""
        return game_json(source, game_no, self.record.line, self.players, self.finished,
                         len(self.record.rounds), list(self.outcome.scores), self.unclaimed,
                         self.winner, self.problems)
