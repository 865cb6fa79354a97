"""Checking whole record files: what ``gops validate`` reports, game by game.

The file is read window by window by the one reading core (:mod:`gops_records.games.gops.replay`);
each window gives a frame of verdicts, one row per game, whose columns are the keys of
``gops validate --json`` (:data:`VERDICT_COLUMNS`, a contract with users' scripts), and,
for the readable report, each problem as ``file:line:col: code: message`` with the
offending line and a caret under the column.

Round logs (CSV, JSON Lines) are read by the importer's own reading
(:func:`gops_records.games.gops.roundlogs.round_log_games`), so ``gops validate`` says of them
exactly what ``gops import`` stores; a round log that cannot be read at all is one
invalid record (``game`` null), as it is one reject.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass

import polars as pl

from gops_records.core.problems import Problem
from gops_records.games.gops.replay.chunks import CHUNK_BYTES, read_file, record_body
from gops_records.games.gops.replay.frames import ChunkGames, LongGame, errors_column
from gops_records.games.gops.roundlogs import RoundLogError, round_log_games, round_log_kind

#: The keys of every object ``gops validate --json`` prints, in order.
VERDICT_COLUMNS = ("source", "game", "line", "players", "valid", "finished", "rounds",
                   "scores", "unclaimed", "winner", "errors")
#: Characters of a long source line shown around the column a problem points at.
ECHO_CHARS = 100
#: Games turned into JSON at a time by :meth:`Checked.json_lines`.
JSON_SLICE_ROWS = 5_000


@dataclass
class Checked:
    """One window's verdicts (games numbered in the file) and its readable report lines."""

    verdicts: pl.DataFrame
    report: list[str]

    @property
    def games(self) -> int:
        return self.verdicts.height

    @property
    def invalid(self) -> int:
        return int((~self.verdicts["valid"]).sum())

    def json_lines(self) -> Iterator[str]:
        """The window's games as JSON Lines (one object per game), a few thousand games
        at a time: a window of many small broken games would otherwise hold every row as
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


def _finish(games: ChunkGames, readable: bool) -> Checked:
    """In a worker: the verdicts of a window's games and, if asked, its report lines."""
    verdicts = games.verdicts()
    report: list[str] = []
    if readable and len(games.invalid_games):
        problems = games.problems(games.invalid_games)
        report = problem_lines(games.source, [p for g in games.invalid_games.tolist()
                                              for p in problems[g]], _line_reader(games))
    return Checked(verdicts, report)


def problem_lines(source: str, problems: list[Problem], text_of_line, caret: bool = True,
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


def _line_reader(games: ChunkGames):
    """A function giving the text of a file line inside the window (None outside it)."""
    if isinstance(games, LongGame):
        lines = games.kept.splitlines()
        return lambda n: lines[n - 1 - games.line_offset] if 0 < n - games.line_offset <= \
            len(lines) else None
    tokens = games.rep.tokens
    if tokens.spans is not None:
        return lambda n: None
    starts = tokens.line_starts

    @functools.lru_cache(maxsize=64)  # problems come in file order: a line is read once
    def text(n: int) -> str | None:
        local = n - games.line_offset
        if not 1 <= local <= len(starts):
            return None
        begin = int(starts[local - 1])
        end = int(starts[local]) if local < len(starts) else len(tokens.data)
        raw = bytes(tokens.data[begin:min(end, begin + 64 * ECHO_CHARS * 4)])
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    return text


def check_source(data: bytes, source: str, encoding: str = "utf-8", *,
                 readable: bool = False, workers: int | None = None,
                 full_hands=None, notes: list[str] | None = None) -> Iterator[Checked]:
    """Every record of a file's bytes, as ``gops import`` reads the file: a round log
    when ``source`` names one (.csv, .jsonl, .ndjson), Gin Rummy hands or sheets for
    .gin / .ginsheet (:func:`gops_records.games.gin.checking.check_gin_bytes`: sheets checked
    against ``full_hands``, notes added to ``notes``), else ``.gops`` records. Raises
    DecodeError on bytes that are not text in ``encoding``."""
    from gops_records.games.gin.checking import check_gin_bytes, gin_kind

    if gin_kind(source):
        yield from check_gin_bytes(data, source, encoding, readable=readable, full=full_hands,
                                   notes=notes)
        return
    kind = round_log_kind(source)
    if kind is None:
        yield from check_bytes(data, source, encoding, readable=readable, workers=workers)
    else:
        yield from check_round_log(data, source, kind, encoding, readable=readable)


def check_round_log(data: bytes, source: str, kind: str, encoding: str = "utf-8", *,
                    readable: bool = False) -> Iterator[Checked]:
    """A round log's games (``kind`` 'csv' or 'jsonl'), through the importer's reading;
    a file that is not a round log at all gives one invalid record. Raises DecodeError."""
    try:
        games = round_log_games(data, kind, source, encoding)
    except RoundLogError as exc:
        problem = Problem(exc.code, str(exc), exc.line, 1)
        yield Checked(whole_file_verdict(source, problem),
                      problem_lines(source, [problem], lambda n: None) if readable else [])
        return
    if games is None:
        return
    lines = data.decode(encoding, "replace").lstrip("\ufeff").split("\n")

    def text_of_line(n: int) -> str | None:
        return lines[n - 1].rstrip("\r") if 1 <= n <= len(lines) else None

    checked = _finish(games, readable=False)
    if readable and len(games.invalid_games):
        problems = games.problems(games.invalid_games)
        checked.report = problem_lines(source, [p for g in games.invalid_games.tolist()
                                                for p in problems[g]], text_of_line,
                                       caret=False)
    yield checked


def whole_file_verdict(source: str, problem: Problem) -> pl.DataFrame:
    """The verdict row of a file that could not be read as records at all: one invalid
    record with no game number (as its reject has no ``source_game``)."""
    return pl.DataFrame({
        "source": [source], "game": pl.Series([None], dtype=pl.Int64),
        "line": [problem.line], "players": pl.Series([[]], dtype=pl.List(pl.String)),
        "valid": [False], "finished": [False], "rounds": [0],
        "scores": pl.Series([[]], dtype=pl.List(pl.Int64)),
        "unclaimed": pl.Series([None], dtype=pl.Int64),
        "winner": pl.Series([None], dtype=pl.String), "errors": errors_column([[problem]]),
    }).cast({"line": pl.Int64, "rounds": pl.Int64})


def check_bytes(data: bytes, source: str, encoding: str = "utf-8", *,
                readable: bool = False, workers: int | None = None,
                chunk_bytes: int = CHUNK_BYTES) -> Iterator[Checked]:
    """Every game of a ``.gops`` file's bytes, window by window, games numbered in the
    file. Raises DecodeError on bytes that are not text in ``encoding``."""
    body = record_body(data, encoding, source)
    done = 0
    finish = functools.partial(_finish, readable=readable)
    for window in read_file(body, source, finish, workers=workers, chunk_bytes=chunk_bytes):
        checked: Checked = window.payload
        if done:
            checked.verdicts = checked.verdicts.with_columns(pl.col("game") + done)
        done += window.games
        yield checked
