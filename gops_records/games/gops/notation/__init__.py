"""The .gops record notation: the tokenizer (:mod:`.tokens`), the record model with spans
(:mod:`.model`) and the canonical writer (:mod:`.writer`). Text is read into records by
the replay (:mod:`gops_records.games.gops.reading`: ``parse``, ``read_reports``), which
uses the notation and is not part of it, so the two never import each other."""

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
from gops_records.games.gops.notation.writer import format_result, write_game, write_games

__all__ = [
    "KNOWN_TAGS", "PLAYER_TAGS", "Bid", "BidToken", "CardToken", "GameRecord", "Problem",
    "RoundRecord", "Span",
    "format_result", "write_game", "write_games",
]
