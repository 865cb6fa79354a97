"""A replayed game as Python values: :class:`GameReport` is what the replay says about one
game (its record, the rules it was played under, the rounds played, the outcome and every
problem). What ``gops validate --json`` prints is built in one place only:
:data:`gops_records.games.gops.checking.VERDICT_COLUMNS`, from the replay's arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

from gops_records.core.problems import Problem
from gops_records.games.gops.notation.model import GameRecord
from gops_records.games.gops.rules import Outcome, RoundResult, RuleProfile


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
        """All rounds are written (more too: the extra ones are problems)."""
        return len(self.record.rounds) >= self.profile.rounds

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
