"""Writing games in the layouts the notation allows, as people and other programs write
them: several rounds a line or a whole game on one, no round numbers, suit letters or no
suits, lower case and ``T``, comments, CRLF or CR line ends, a byte order mark.

The reader must give the same games whatever the layout; the tests and the benchmarks
write the same games in every :data:`LAYOUTS` entry to hold it to that.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from gops_records.games.gops.cards import Seat, Suit, rank_name
from gops_records.games.gops.notation.model import (
    TAG_NAMES,
    Bid,
    CardToken,
    GameRecord,
    RoundRecord,
)
from gops_records.games.gops.notation.writer import escape, format_result

_LETTER = {Suit.DIAMONDS: "D", Suit.CLUBS: "C", Suit.SPADES: "S", Suit.HEARTS: "H"}


@dataclass(frozen=True, slots=True)
class Layout:
    """How to write games. ``rounds_per_line``: 1, 0 for a whole game on one line, or a
    range (low, high) drawn per line; ``suits``: 'symbol', 'letter' or 'none'."""

    name: str
    rounds_per_line: int | tuple[int, int] = 1
    numbers: bool = True
    suits: str = "symbol"
    lower: bool = False
    ten: str = "10"
    comment_every: int = 0
    line_end: str = "\n"
    bom: bool = False
    tags_on_one_line: bool = False


#: The layouts of the benchmarks' matrix (and of the reader's property tests).
LAYOUTS = (
    Layout("as simulated"),
    Layout("one line a game", rounds_per_line=0, tags_on_one_line=True),
    Layout("4-7 rounds a line", rounds_per_line=(4, 7)),
    Layout("suit letters", suits="letter"),
    Layout("no suits, no numbers", suits="none", numbers=False),
    Layout("lower case, T", suits="letter", lower=True, ten="T"),
    Layout("comment every third round", comment_every=3),
    Layout("CRLF and a BOM", line_end="\r\n", bom=True),
)


def _card(card: CardToken, suit: Suit | None, layout: Layout) -> str:
    rank = layout.ten if card.rank == 10 else rank_name(card.rank)
    if layout.suits == "none" or suit is None:
        text = rank
    elif layout.suits == "letter":
        text = rank + _LETTER[suit]
    else:
        text = rank + suit.symbol
    return text.lower() if layout.lower else text


def _bid(bid: Bid, suit: Suit | None, layout: Layout) -> str:
    return "+".join(_card(card, suit, layout) for card in bid.cards)


def _round(rnd: RoundRecord, layout: Layout) -> list[str]:
    """A round's cards in ``layout`` (the open-prize group as ``(`` ... ``)``)."""
    bids = [_bid(b, Seat.at(i).suit if i < 3 else (b.cards[0].suit or Suit.HEARTS), layout)
            for i, b in enumerate(rnd.bids)]
    if rnd.revealed is None:
        return [_card(rnd.prize, Suit.DIAMONDS, layout), *bids]
    shown = "(" + " ".join(_card(c, Suit.DIAMONDS, layout) for c in rnd.revealed) + ")"
    takes = rnd.takes if rnd.takes is not None else (rnd.prize,)
    return [shown, *bids, *(_card(t, Suit.DIAMONDS, layout) if t is not None else "-"
                            for t in takes)]


def write_in_layout(game: GameRecord, layout: Layout, rng: random.Random | None = None) -> str:
    """One game in ``layout`` (comments of the record are left out; the layout's own
    comments say nothing)."""
    rng = rng or random.Random(0)
    end = layout.line_end
    tags = [f'[{name} "{escape(value)}"]' for name, value in TAG_NAMES.ordered(game.tags.items())]
    lines = [" ".join(tags)] if layout.tags_on_one_line and tags else tags
    rounds = []
    for number, rnd in enumerate(game.rounds, start=1):
        text = (f"{number}. " if layout.numbers else "") + " ".join(_round(rnd, layout))
        if layout.comment_every and number % layout.comment_every == 0:
            text += " {round " + str(number) + "}"
        rounds.append(text)
    per = layout.rounds_per_line
    at = 0
    while at < len(rounds):
        size = len(rounds) if per == 0 else per if isinstance(per, int) else rng.randint(*per)
        lines.append(" ".join(rounds[at:at + size]))
        at += size
    terminator = format_result(game.result)
    if per == 0 and lines and rounds:
        lines[-1] += " " + terminator
    else:
        lines.append(terminator)
    return end.join(lines) + end


def write_games_in_layout(games: Iterable[GameRecord], layout: Layout, seed: int = 0) -> bytes:
    """Several games in ``layout``, separated by a blank line, as the bytes of a file."""
    rng = random.Random(seed)
    text = layout.line_end.join(write_in_layout(g, layout, rng) for g in games)
    data = text.encode("utf-8")
    return (b"\xef\xbb\xbf" + data) if layout.bom else data
