"""A game (manche) of hands to 100 and a match of 2 or 3 games: pure scoring, no I/O.

A game ends after the hand that brings a player to ``game_target`` (100) or more; only
one player scores in a hand, so that player leads. The leader scores
``own total - other's total + 100 + 20 x (hands won - other's hands won)``, plus the
100-point blitz when the other won no hand; the other scores 0. Hands won count
undercuts, not drawn hands (ambiguity 9). When that value is negative the other player
wins the game instead and scores its absolute value (ambiguity 8: 105 with 2 hands won
against 90 with 9 is 15 + 100 - 140 = -25, so the other player wins 25; no blitz then,
since the other won hands). A value of exactly 0 leaves the leader winner of 0 points.

The winner of a hand deals the next; a drawn hand is dealt again by the same dealer
(ambiguity 3). A match is won by the first to win two games (ambiguity 10): a third is
played only when the first two have different winners; the game points are kept too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gops_records.games.gin.errors import GameError
from gops_records.games.gin.rules import DEFAULT_PROFILE, GinProfile, HandResult, Seat


@dataclass(frozen=True, slots=True)
class GameScore:
    """A finished game: who won it, its points, and what they came from."""

    winner: Seat
    points: int
    totals: tuple[int, int]
    hands_won: tuple[int, int]
    draws: int
    blitz: bool
    reversed: bool

    @property
    def scores(self) -> tuple[int, int]:
        return (self.points, 0) if self.winner is Seat.A else (0, self.points)


def score_game(totals: tuple[int, int], hands_won: tuple[int, int], *, draws: int = 0,
               profile: GinProfile = DEFAULT_PROFILE) -> GameScore:
    """The game score of a finished game from its hand totals and hands won (A, B)."""
    if max(totals) < profile.game_target or totals[0] == totals[1]:
        raise GameError(f"a game ends when one player reaches {profile.game_target}: "
                        f"{totals[0]}-{totals[1]} is not finished")
    lead = Seat.A if totals[0] > totals[1] else Seat.B
    w, l = lead.index, lead.other.index
    value = (totals[w] - totals[l] + profile.game_bonus
             + profile.hand_bonus * (hands_won[w] - hands_won[l]))
    if value < 0:
        return GameScore(lead.other, -value, totals, hands_won, draws, False, True)
    blitz = hands_won[l] == 0
    return GameScore(lead, value + (profile.blitz_bonus if blitz else 0), totals, hands_won,
                     draws, blitz, False)


@dataclass
class GinGame:
    """The hands of one game so far; :meth:`add` takes each hand's result in order."""

    first_dealer: Seat
    profile: GinProfile = DEFAULT_PROFILE
    hands: list[HandResult] = field(default_factory=list)

    @property
    def totals(self) -> tuple[int, int]:
        return (sum(h.scores[0] for h in self.hands), sum(h.scores[1] for h in self.hands))

    @property
    def hands_won(self) -> tuple[int, int]:
        return (sum(h.winner is Seat.A for h in self.hands),
                sum(h.winner is Seat.B for h in self.hands))

    @property
    def over(self) -> bool:
        return max(self.totals) >= self.profile.game_target

    @property
    def next_dealer(self) -> Seat:
        """Who deals the next hand: the last hand's winner, the same dealer after a draw."""
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        return last.winner if last.winner is not None else last.dealer

    def add(self, result: HandResult) -> None:
        if self.over:
            raise GameError(f"the game is over at {self.totals[0]}-{self.totals[1]}: "
                            "start a new game for this hand")
        self.hands.append(result)

    def score(self) -> GameScore:
        return score_game(self.totals, self.hands_won,
                          draws=sum(h.winner is None for h in self.hands), profile=self.profile)


@dataclass
class GinMatch:
    """Games of a match: first to ``games_to_win_match`` (2) games wins."""

    profile: GinProfile = DEFAULT_PROFILE
    games: list[GameScore] = field(default_factory=list)

    @property
    def games_won(self) -> tuple[int, int]:
        return (sum(g.winner is Seat.A for g in self.games),
                sum(g.winner is Seat.B for g in self.games))

    @property
    def points(self) -> tuple[int, int]:
        return (sum(g.scores[0] for g in self.games), sum(g.scores[1] for g in self.games))

    @property
    def winner(self) -> Seat | None:
        won = self.games_won
        need = self.profile.games_to_win_match
        return Seat.A if won[0] >= need else Seat.B if won[1] >= need else None

    def add(self, game: GameScore) -> None:
        if self.winner is not None:
            raise GameError(f"the match is over ({self.games_won[0]}-{self.games_won[1]} in "
                            "games): no further game belongs to it")
        self.games.append(game)
