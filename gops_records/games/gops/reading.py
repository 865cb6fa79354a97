"""Reading ``.gops`` text into Python values: :class:`GameRecord` for what each game says,
:class:`GameReport` for what its replay found.

The reader is lenient: it never raises on bad input. Every problem of a game (syntax,
tags, rules, results) is attached to the game it belongs to. It is the same reading
as ``gops validate`` and ``gops import``: one tokenizer and one replay
(:mod:`gops_records.games.gops.replay`), here turned into objects.

Grammar, informally::

    file   := game*
    game   := tag* round* terminator
    tag    := '[' Name '"' value '"' ']'
    round  := [number '.'] prize bid{players}
    card   := rank [suit]        rank: A 2..10 T J Q K   suit: D C S H ♦ ♣ ♠ ♥
    terminator := points ('-' points)+ | '*'
    comments '{...}' and ';...' may stand between any two tokens.
"""

from __future__ import annotations

from collections.abc import Iterator

from gops_records.games.gops.notation.model import GameRecord
from gops_records.games.gops.report import GameReport


def read_reports(text: str | bytes) -> list[GameReport]:
    """Every game of ``text``, read, checked and replayed, in file order."""
    from gops_records.games.gops.replay import read_chunk
    from gops_records.games.gops.replay.reports import game_reports

    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return game_reports(read_chunk(data))


def parse(text: str | bytes) -> list[GameRecord]:
    """Every game in ``text``, in file order, with its problems attached."""
    return [report.record for report in read_reports(text)]


def iter_games(text: str | bytes) -> Iterator[GameRecord]:
    """The games of ``text`` one after another (see :func:`parse`)."""
    yield from parse(text)
