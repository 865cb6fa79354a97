"""Typed errors of the Gin Rummy engine and notation, each with a stable code.

The codes are those of issue 14's validation list; the replay reports them with a line
and column, the engine raises them. All derive from
:class:`gops_records.core.errors.ProblemError`, as every game's do
(:mod:`gops_records.games.gops.errors` has the same shape).
"""

from __future__ import annotations

from gops_records.core.errors import ProblemError


class GinError(ProblemError):
    """Base of every Gin Rummy problem; ``code`` is stable, the message says what to fix,
    ``card`` is the card it is about when there is one (the replay locates it)."""

    code = "gin"


class GinSyntaxError(GinError):
    code = "syntax"


class TagValueError(GinError):
    """A tag whose value cannot be used (``[Runs "wrap"]``, ``[Dealer "C"]``)."""

    code = "tag-value"


class DealError(GinError):
    """A deal that is not 10 + 10 + the upcard, all different."""

    code = "deal"


class IllegalTurn(GinError):
    """A turn or response the rules forbid."""

    code = "illegal-turn"


class TurnOrder(IllegalTurn):
    code = "turn-order"


class FirstTurn(IllegalTurn):
    """A pass after the first offer of the upcard, or a draw the first turn forbids."""

    code = "first-turn"


class CardSeen(IllegalTurn):
    """A stock draw naming a card already dealt, drawn or shown."""

    code = "card-seen"


class PileTop(IllegalTurn):
    """A pile draw naming another card than the pile's top."""

    code = "pile-top"


class CardNotInHand(IllegalTurn):
    code = "card-not-in-hand"


class DiscardJustTaken(IllegalTurn):
    code = "discard-just-taken"


class KnockForbidden(IllegalTurn):
    """A knock when the upcard was an ace (only gin or big gin go out then)."""

    code = "knock-forbidden"


class KnockOverLimit(IllegalTurn):
    code = "knock-over-limit"


class NotAMeld(IllegalTurn):
    code = "not-a-meld"


class SpreadError(IllegalTurn):
    """A spread whose cards are not exactly the hand (a card missing, extra or twice)."""

    code = "spread"


class OutKind(IllegalTurn):
    """``gin`` with deadwood, ``knock`` without, ``biggin`` after a discard."""

    code = "out-kind"


class LayoffError(IllegalTurn):
    """A layoff that fits none of the knocker's melds, or any layoff on gin."""

    code = "layoff"


class WallError(IllegalTurn):
    """A turn after the hand ended (drawn at two stock cards, or someone out)."""

    code = "wall"


class GameError(GinError):
    """A hand added to a game or match that is already over."""

    code = "after-game-end"
