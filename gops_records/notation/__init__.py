"""The .gops record notation: a lenient parser with spans, and a canonical writer."""

from gops_records.notation.model import (
    KNOWN_TAGS,
    PLAYER_TAGS,
    CardToken,
    GameRecord,
    Problem,
    RoundRecord,
    Span,
)
from gops_records.notation.parser import iter_games, parse
from gops_records.notation.writer import format_result, write_game, write_games

__all__ = [
    "KNOWN_TAGS", "PLAYER_TAGS", "CardToken", "GameRecord", "Problem", "RoundRecord", "Span",
    "iter_games", "parse", "format_result", "write_game", "write_games",
]
