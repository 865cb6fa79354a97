"""The one tokenizer of both Gin Rummy notations, ``.gin`` hands and ``.ginsheet`` sheets.

Both notations share their tokens (docs/gin.md): tags ``[Name "value"]``, comments
(``{...}`` and ``; ...``), parentheses, words, and the terminator ``A-B`` or ``*``. The
readers (:mod:`gops_records.games.gin.notation`, :mod:`gops_records.games.gin.sheet`)
give the words their meaning.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gops_records.core.problems import Span
from gops_records.core.text import capped

#: The tokens of a text; the search skips the whitespace between them.
_TOKEN = re.compile(r"""
    (?P<word>[^\s(){}\[\];"]+)
  | (?P<tag>\[\s*(?P<name>[A-Za-z][\w-]*)\s+"(?P<value>[^"\n]*)"\s*\])
  | (?P<comment>\{(?P<body>[^}]*)\}|;(?P<line>[^\n]*))
  | (?P<open>\()
  | (?P<close>\))
  | (?P<bad>\S)
""", re.X)
_NEWLINE = re.compile("\n")
#: A terminator (the points in seat order, or ``*``) and a sheet line's ``A-B`` points.
RESULT = re.compile(r"(\d+)-(\d+)|\*")
#: A turn's or a sheet line's number, ``12.``.
NUMBER = re.compile(r"(\d+)\.")


class Token(NamedTuple):
    """One token: its kind (``tag comment open close word bad``), its text and span; a
    tag's name and value, a comment's text (as ``value``)."""

    kind: str
    text: str
    span: Span
    name: str = ""
    value: str = ""


def tokenize(text: str) -> list[Token]:
    """The tokens of a text with their spans, in one pass over the whole text (a
    comment in braces may span lines); each token's line is found by walking the line
    starts along with the tokens."""
    out: list[Token] = []
    append = out.append
    starts = [m.end() for m in _NEWLINE.finditer(text)]
    starts.append(len(text) + 1)
    line, line_start, upcoming = 1, 0, starts[0]
    for m in _TOKEN.finditer(text):
        start, end = m.span()
        while start >= upcoming:
            line_start = upcoming
            upcoming = starts[line]
            line += 1
        kind = m.lastgroup
        span = Span(line, start - line_start + 1, start, end)
        if kind == "tag":
            append(Token(kind, m.group(), span, m.group("name"), m.group("value")))
        elif kind == "comment":
            body = m.group("body")
            append(Token(kind, m.group(), span,
                         value=(body if body is not None else m.group("line")).strip()))
        else:
            append(Token(kind, m.group(), span))  # type: ignore[arg-type]
    return out


def points_of(match: re.Match) -> tuple[int, int] | None:
    """The points of a terminator or a sheet's ``A-B`` (each capped as .gops numbers are:
    a number of thousands of digits is a big number, not a crash), None for ``*``."""
    return None if match.group() == "*" else (capped(match.group(1)), capped(match.group(2)))
