"""The .gops record notation: the tokenizer (:mod:`.tokens`), the reader into Python
values (:mod:`.reader`), the record model with spans (:mod:`.model`) and the canonical
writer (:mod:`.writer`)."""

from gops_records.core.problems import Problem, Span
from gops_records.games.gops.notation.model import (
    KNOWN_TAGS,
    PLAYER_TAGS,
    Bid,
    BidToken,
    CardToken,
    GameRecord,
    RoundRecord,
)
from gops_records.games.gops.notation.reader import iter_games, parse, read_reports  # noqa: I001
from gops_records.games.gops.notation.writer import format_result, write_game, write_games

__all__ = [
    "KNOWN_TAGS", "PLAYER_TAGS", "Bid", "BidToken", "CardToken", "GameRecord", "Problem",
    "RoundRecord", "Span",
    "iter_games", "parse", "read_reports", "format_result", "write_game", "write_games",
]
