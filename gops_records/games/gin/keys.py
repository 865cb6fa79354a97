"""Content keys of Gin Rummy records: the ids the store keeps them under (docs/schema.md).

Like a Gops ``game_id``, a key is the first 16 hex digits of the MD5 of a key text, read
as an unsigned 64-bit number, so the same record gets the same id from any file:

- a full hand (``gin_hands.hand_id``): its canonical record (:func:`notation.write_hand`)
  without comments and with ``*`` for its points: what the hand says, not how it was laid
  out or annotated, nor whether its points were written (a valid hand can only repeat
  the replayed ones);
- a sheet line: the sheet's tags, sorted, then the line in canonical form;
- a game (``gin_games.game_id``, ``gin_hands.game_id``): its ``Event``, ``Date``,
  ``Match``, ``Game``, ``A`` and ``B`` tags, so a sheet and the full hands of one game
  share it. A record without ``Match`` or with a ``Game`` that is not a number from 1
  to 9999 belongs to no game (None).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace

from gops_records.core.values import number_of
from gops_records.games.gin.notation import HandRecord, write_hand
from gops_records.games.gin.sheet import SheetLine, write_line

#: The tags that say which game a record belongs to.
GAME_TAGS = ("Event", "Date", "Match", "Game", "A", "B")
#: The tags that say which match a record belongs to: two evenings' ``[Match "1"]`` are
#: two matches, as their games' ids differ (a match's ``A`` and ``B`` are checked instead).
MATCH_TAGS = ("Event", "Date", "Match")
_UNIT, _RECORD = "\x1f", "\x1e"


def content_id(text: str) -> int:
    """The first 16 hex digits of the text's MD5 as a number (``game_id``'s rule)."""
    return int(hashlib.md5(text.encode("utf-8", "surrogateescape")).hexdigest()[:16], 16)


def hand_key(record: HandRecord, canonical: str | None = None) -> str:
    """The key text of a full hand: its canonical record, comments left out, points ``*``.

    ``canonical`` is the record's canonical text when the caller has it already: without
    comments, the key is that text with ``*`` for its last line (the terminator)."""
    if canonical is not None and not record.comments and not any(
            t.comments for t in record.turns) and not (
            record.response is not None and record.response.comments):
        return canonical[:canonical.rstrip("\n").rfind("\n") + 1] + "*\n"
    bare = replace(record, comments=(), result=None,
                   turns=tuple(replace(t, comments=()) for t in record.turns),
                   response=replace(record.response, comments=())
                   if record.response is not None else None)
    return write_hand(bare)


def hand_id(record: HandRecord, canonical: str | None = None) -> int:
    return content_id(hand_key(record, canonical))


def sheet_line_id(tags: tuple[tuple[str, str], ...], line: SheetLine, number: int) -> int:
    """The id of a sheet's line ``number``: the sheet's tags and the line, canonical."""
    tag_text = _UNIT.join(f"{k}={v}" for k, v in sorted(tags))
    return content_id(tag_text + _RECORD + write_line(line, number))


def game_number(value: str | None) -> int | None:
    """A ``Game`` or ``Hand`` tag's number, None when it is not a number from 1 to 9999
    (the one rule: :func:`gops_records.core.values.number_of`)."""
    return number_of(value)


def match_key(tag: Callable[[str], str | None]) -> tuple[str | None, ...]:
    """Which match a record is of, from its tags (``tag``: a tag's value by name)."""
    return tuple(tag(name) for name in MATCH_TAGS)


def game_id(tags: dict[str, str]) -> int | None:
    """The id of the game a record's tags place it in; None without ``Match`` and ``Game``."""
    if tags.get("Match") is None or game_number(tags.get("Game")) is None:
        return None
    values = {**tags, "Game": str(game_number(tags.get("Game")))}
    return content_id(_UNIT.join(f"{t}={values.get(t, '')}" for t in GAME_TAGS))
