"""Writes games as canonical .gops text.

Canonical means: known tags in a fixed order (Event, Site, Date, Round, Match, A..D,
TieRule, Cards, PrizeOrder, BidCards, OpenPrizes, Result), then other tags in their
original order; one numbered round per line with every suit written (D, who bids from a
second pack, keeps the suit the record gave, if any), a bid of several cards joined by
``+`` (``9♣+4♣``), an open-prize round as its revealed prizes in parentheses, the bids
and the prize taken or ``-`` (``(8♦ 3♦ K♦) 9♣ 7♠ K♦``; where every bidder chooses, one
take per seat: ``(8♦ 3♦ K♦) 9♣ 7♠ K♦ 8♦``); comments in braces after their
round; then the terminator on a line of its own and a blank line between games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gops_records.games.gops.cards import Seat, Suit, card_text
from gops_records.games.gops.notation.model import (
    TAG_NAMES,
    Bid,
    CardToken,
    GameRecord,
    RoundRecord,
)
from gops_records.games.gops.notation.tokens import WHITESPACE

_BLANK_LINES = re.compile("\n(?:[" + re.escape(WHITESPACE.replace("\n", "")) + "]*\n)+")


def escape(value: str) -> str:
    """A tag value as written between quotes (newlines become spaces)."""
    value = value.replace("\r", " ").replace("\n", " ")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_result(result: tuple[int, ...] | None) -> str:
    return "*" if result is None else "-".join(str(x) for x in result)


def _card(card: CardToken, suit: Suit | None) -> str:
    return card_text(card.rank, suit if suit is not None else card.suit)


def _bid(bid: Bid, suit: Suit | None) -> str:
    return "+".join(_card(card, suit) for card in bid.cards)


def round_cards(rnd: RoundRecord) -> str:
    """A round's cards in canonical form, without its number or comment."""
    bids = [_bid(bid, Seat.at(seat).suit if seat < 4 else None)
            for seat, bid in enumerate(rnd.bids)]
    if rnd.revealed is None:
        prize = [_card(rnd.prize, Suit.DIAMONDS)] if rnd.prize is not None else []
        return " ".join(prize + bids)
    shown = "(" + " ".join(_card(c, Suit.DIAMONDS) for c in rnd.revealed) + ")"
    takes = rnd.takes if rnd.takes is not None else (rnd.prize,)
    taken = [_card(t, Suit.DIAMONDS) if t is not None else "-" for t in takes]
    return " ".join([shown, *bids, *taken])


def _comment(text: str) -> str:
    """A round's comment: in braces, or after ``;`` when it holds a brace (a ``;`` comment
    can), so the reader reads back the same text. Only a comment of several lines cannot
    always be written as is: a brace comment holds no brace and no blank line, so its
    ``{`` and ``}`` become ``(`` and ``)`` and its blank lines are dropped."""
    if "\n" not in text:
        return "; " + text if "{" in text or "}" in text else "{" + text + "}"
    text = _BLANK_LINES.sub("\n", text)
    return "{" + text.replace("{", "(").replace("}", ")") + "}"


def write_game(game: GameRecord) -> str:
    """One game as canonical text, ending in a newline."""
    lines = []
    ordered = TAG_NAMES.ordered(game.tags.items())
    lines += [f'[{name} "{escape(value)}"]' for name, value in ordered]
    if ordered:
        lines.append("")
    for number, rnd in enumerate(game.rounds, start=1):
        line = f"{number}. " + round_cards(rnd)
        if rnd.comment:
            line += " " + _comment(rnd.comment)
        lines.append(line)
    lines.append(format_result(game.result))
    return "\n".join(lines) + "\n"


def write_games(games: Iterable[GameRecord]) -> str:
    """Several games as one canonical file."""
    return "\n".join(write_game(g) for g in games)
