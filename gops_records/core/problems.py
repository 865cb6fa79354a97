"""What is wrong with a record, and where: the values every game's reader reports.

A :class:`Problem` has a stable code (the string ``gops validate`` prints and scripts branch
on), a message for people and the line and column it points at; a :class:`Span` is where a
piece of text sits. Every notation of every game reports through these two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Span(NamedTuple):
    """Where a piece of text sits: 1-based line and column, 0-based offsets [start, end).

    A named tuple rather than a dataclass: a large file has millions of them.
    """

    line: int
    column: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record: a stable code, a message, and where it is."""

    code: str
    message: str
    line: int
    column: int
    round: int | None = None
    text: str = ""

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "line": self.line,
                "column": self.column, "round": self.round}
