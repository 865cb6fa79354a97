"""What ``gops validate`` prints of a file, whatever its game: verdicts and report lines.

A game's reader checks a file window by window (:mod:`gops_records.core.reading`); each
window gives a :class:`Checked`: a frame of verdicts, one row per record, whose columns
are the keys of ``gops validate --json`` (a contract with users' scripts, each game's
own), and, for the readable report, each problem as ``file:line:col: code: message`` with
the offending line and a caret under the column (:func:`problem_lines`, :func:`echo`;
``gops rejects --show`` shows lines the same way).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import polars as pl

from gops_records.core.problems import Problem

#: Characters of a long source line shown around the column a problem points at.
ECHO_CHARS = 100
#: Records turned into JSON at a time by :meth:`Checked.json_lines`.
JSON_SLICE_ROWS = 5_000


@dataclass
class Checked:
    """One window's verdicts (records numbered in the file) and its readable report lines."""

    verdicts: pl.DataFrame
    report: list[str]

    @property
    def games(self) -> int:
        return self.verdicts.height

    @property
    def invalid(self) -> int:
        return int((~self.verdicts["valid"]).sum())

    def json_lines(self) -> Iterator[str]:
        """The window's records as JSON Lines (one object each), a few thousand at a
        time: a window of many small broken games would otherwise hold every row as
        Python objects at once (gigabytes for one dense line)."""
        for part in self.verdicts.iter_slices(JSON_SLICE_ROWS):
            yield "".join(json.dumps(row, ensure_ascii=False) + "\n"
                          for row in part.to_dicts())


def echo(line: str, column: int, limit: int = ECHO_CHARS) -> tuple[str, int]:
    """A source line as shown under a problem, cut to about ``limit`` characters around
    ``column``, and the column of the caret in what is shown. (Only the first few
    thousand characters of a line are read: a problem beyond them is shown without it.)"""
    if len(line) <= limit:
        return line, column
    begin = max(0, min(column - 1 - limit // 2, len(line) - limit))
    shown = ("..." if begin else "") + line[begin:begin + limit] + \
        ("..." if begin + limit < len(line) else "")
    return shown, column - begin + (3 if begin else 0)


def problem_lines(source: str, problems: list[Problem],
                  text_of_line: Callable[[int], str | None], caret: bool = True,
                  ) -> list[str]:
    """Each problem as ``file:line:col: code: message``, then the line it points at (from
    ``text_of_line``, when it gives one) with a caret under the column (``caret``: the
    column counts characters, as in ``.gops``; a round log's counts fields)."""
    report = []
    for p in problems:
        report.append(f"{source}:{p.line}:{p.column}: {p.code}: {p.message}")
        text = text_of_line(p.line)
        if text is None:
            continue
        if not caret:
            report.append("    " + echo(text, 1)[0])
        elif 1 <= p.column <= len(text) + 1:
            shown, column = echo(text, p.column)
            report.append("    " + shown)
            report.append("    " + " " * (column - 1) + "^")
    return report
