"""How a game's rounds read in a table, for the classic game and both variants.

One place for the round-by-round reading that `gops replay` prints
(gops_records/games/gops/replay_table.py) and the dashboard's Game viewer shows
(:func:`gops_records.games.gops.analytics.games.variant_rounds`), so the two never disagree:

- classic games and bids of several cards: the prize revealed, the pool on offer (carried
  cards first) and its value, each bid (a bid of several cards as its cards and strength,
  ``9♣+4♣ = 13``, each seat's cards in its suit as the canonical writer spells them), who
  took the pool or what a tie did with it, and the running score;
- open prizes, which have no pool: the prizes the top-up revealed, the row on offer, each
  bid, the prize taken and by whom, under the discard rule the prize a tie set aside, and
  the running score.

Everything read comes from the engine's :class:`RoundResult` values (the replay's, or the
store's rounds read back into them); nothing here applies the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gops_records.games.gops.cards import Seat, card_text, rank_name
from gops_records.games.gops.rules import RoundResult, RuleProfile, TieRule

#: Stands in :func:`columns` for the bid columns, one per seat in seat order.
BIDS = "bids"
#: The columns of a game of one prize a round (classic, or bids of several cards).
POOL_COLUMNS = ("round", "prize", "pool", "value", BIDS, "taken by", "score")
#: The columns of a game of open prizes.
ROW_COLUMNS = ("round", "revealed", "row", BIDS, "taken", "by", "set aside", "score")


def columns(profile: RuleProfile) -> tuple[str, ...]:
    """The columns of the game's round table, in order (:data:`BIDS`: one per seat)."""
    return POOL_COLUMNS if profile.open_prizes is None else ROW_COLUMNS


def rules_text(profile: RuleProfile) -> str:
    """The rules a game is played under, in words: cards, tie rule, prize order, variant."""
    text = (f"{profile.cards} cards, tie rule {profile.tie_rule.value}, "
            f"prizes {profile.prize_order.value}")
    if profile.bid_cards > 1:
        text += f", bids of {profile.bid_cards} cards ({profile.rounds} rounds)"
    if profile.open_prizes is not None:
        text += f", open prizes (a row of {profile.open_prizes})"
    return text


def bid_text(r: RoundResult, seat: int) -> str:
    """A seat's bid: its card (``J``), or its cards and strength (``9♣+4♣ = 13``)."""
    cards = r.cards[seat] if r.cards else (r.bids[seat],)
    if len(cards) <= 1:
        return rank_name(r.bids[seat])
    suit = Seat.at(seat).suit
    return "+".join(card_text(c, suit) for c in cards) + f" = {r.bids[seat]}"


def tie_text(profile: RuleProfile, r: RoundResult) -> str:
    """What a tied round did with what was on offer."""
    if r.round_no >= profile.rounds:
        return "tie: unclaimed"
    if profile.open_prizes is not None:
        return "tie: row stays" if profile.tie_rule is TieRule.CARRY else "tie: set aside"
    return "tie: carried" if profile.tie_rule is TieRule.CARRY else "tie: unclaimed"


@dataclass(frozen=True, slots=True)
class RoundCells:
    """One played round as its table reads: ``cells`` maps each column of :func:`columns`
    but :data:`BIDS` to its text (``round`` and ``value`` to numbers); ``bids`` holds the
    bids' texts in seat order."""

    cells: dict[str, str | int]
    bids: tuple[str, ...]

    def row(self, names: Sequence[str]) -> list[str | int]:
        """The cells in the order of ``names`` (:func:`columns`), the bids at :data:`BIDS`."""
        out: list[str | int] = []
        for name in names:
            out.extend(self.bids if name == BIDS else (self.cells[name],))
        return out


def read_rounds(profile: RuleProfile, rounds: Sequence[RoundResult],
                players: Sequence[str]) -> list[RoundCells]:
    """The played ``rounds`` (in order) as their table reads, the running score summed
    over them; ``players`` names the seats."""
    running = [0] * len(players)
    out = []
    for r in rounds:
        running = [score + gain for score, gain in zip(running, r.gains, strict=False)]
        by = players[r.winner] if r.winner is not None else tie_text(profile, r)
        taken = rank_name(r.taken) if r.taken else "-"
        if r.takes:  # every bidder takes ([OpenTakes "each"]): each seat's take, in order
            taken = " ".join(rank_name(t) if t else "-" for t in r.takes)
            takers = [players[s] for s, t in enumerate(r.takes) if t]
            by = ", ".join(takers) if takers else (by if r.winner is None else "-")
        cells: dict[str, str | int] = {"round": r.round_no, "score": "-".join(map(str, running))}
        if profile.open_prizes is None:
            cells |= {"prize": rank_name(r.prize),
                      "pool": "+".join(rank_name(c) for c in r.pool_cards),
                      "value": r.pool_value, "taken by": by}
        else:
            cells |= {"revealed": "(" + " ".join(rank_name(c) for c in r.revealed) + ")",
                      "row": " ".join(rank_name(c) for c in r.pool_cards),
                      "taken": taken, "by": by,
                      "set aside": rank_name(r.discarded) if r.discarded else ""}
        out.append(RoundCells(cells, tuple(bid_text(r, s) for s in range(len(players)))))
    return out
