"""Game ids and references as people type them, for every game's stored records.

A record's id is a 64-bit number (19 or 20 digits), which spreadsheets turn into
``1.23457E+19`` and lose. Its *reference* (:func:`game_ref`, the one rule the CLI and the
dashboard use) is ``g`` and the first 8 hex digits of the id: text no spreadsheet reads as
a number, short enough to read out (``g3f2a9c01``). Light on purpose (no DuckDB): `gops
replay` tells a reference from a file name before it loads anything.
"""

from __future__ import annotations

import re

__all__ = ["REF_DIGITS", "REF_PATTERN", "game_ref", "looks_like_game", "parse_game_ids"]

#: Hex digits of the id a game reference keeps: 32 bits, so two games of a club's 10,000
#: share one with a chance of about 1%. The full id stays the key.
REF_DIGITS = 8
#: A game reference as a user may type it: g and 4 to 16 hex digits of the id.
REF_PATTERN = re.compile(r"g([0-9a-f]{4,16})", re.IGNORECASE)


def game_ref(game_id: int | str) -> str:
    """A short readable reference to a game: ``g`` and the first 8 of the id's 16 hex
    digits, e.g. ``g3fa9c2d1``.

    The leading letter keeps spreadsheets from reading it as a number (a 19-20 digit id
    becomes 1.2E+19 in Excel). It is for people to read and quote beside the id, which
    stays the key (see :data:`REF_DIGITS`).
    """
    return f"g{int(game_id):016x}"[: REF_DIGITS + 1]


def parse_game_ids(text: str | int) -> list[int]:
    """The game ids a link or a user may mean: the decimal number, and for 16 hex digits
    (how schema version 1 wrote ids) that reading too. Empty when it cannot be an id."""
    if isinstance(text, int):
        return [text] if 0 <= text < 1 << 64 else []
    text = text.strip()
    if not text.isascii():
        return []
    out = []
    if text.isdecimal() and int(text) < 1 << 64:
        out.append(int(text))
    if len(text) == 16 and all(c in "0123456789abcdefABCDEF" for c in text):
        out.append(int(text, 16))
    return out


def looks_like_game(text: str) -> bool:
    """Whether ``text`` may name a stored record: a decimal id, 16 hex digits, a reference."""
    value = text.strip()
    return bool(parse_game_ids(value)) or REF_PATTERN.fullmatch(value) is not None
