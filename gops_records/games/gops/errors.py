"""Typed errors of the Gops rules engine, each with a stable code.

The codes are those ``gops validate`` reports; the engine raises them, the replay reports
them with a line and column. All derive from :class:`gops_records.core.errors.ProblemError`,
as every game's do (:mod:`gops_records.games.gin.errors` has the same shape).
"""

from __future__ import annotations

from gops_records.core.errors import ProblemError


class RuleError(ProblemError):
    """A rule profile that cannot be played (e.g. 14 cards or 5 players)."""

    code = "rule"


class IllegalRound(ProblemError):
    """A round that the rules forbid; ``seat`` is the bidder's index or None for the prize."""

    code = "illegal-round"

    def __init__(self, message: str, *, seat: int | None = None, card: int | None = None):
        super().__init__(message, card=card)
        self.seat = seat


class UnknownCard(IllegalRound):
    """A card whose rank is outside 1..N for the game's deck size."""

    code = "unknown-card"


class CardNotInHand(IllegalRound):
    """A bid with a card the player has already spent."""

    code = "card-not-in-hand"


class PrizeRepeated(IllegalRound):
    """A prize card that was already revealed earlier in the game."""

    code = "prize-repeated"


class PrizeOrderBroken(IllegalRound):
    """A prize that breaks a fixed (ascending or descending) prize order."""

    code = "prize-order"


class WrongBidCount(IllegalRound):
    """A round with more or fewer bids than there are players."""

    code = "bid-count"


class BidCardRepeated(IllegalRound):
    """A bid of several cards that names the same card twice."""

    code = "bid-card-repeated"


class WrongRevealCount(IllegalRound):
    """An open-prize round that reveals more or fewer prizes than the top-up allows."""

    code = "reveal-count"


class PrizeNotInRow(IllegalRound):
    """An open-prize round whose winner takes a prize that is not in the row."""

    code = "prize-not-in-row"


class TakeMismatch(IllegalRound):
    """An open-prize round that names a prize taken on a tie, or none on a win."""

    code = "take-mismatch"


class GameOver(IllegalRound):
    """A round played after all N rounds are done."""

    code = "too-many-rounds"
