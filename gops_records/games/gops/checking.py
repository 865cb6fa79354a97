"""Checking Gops files: what ``gops validate`` reports of ``.gops`` records and round logs.

A ``.gops`` file is read window by window by the one reading core
(:mod:`gops_records.games.gops.replay`); each window gives a frame of verdicts, one row per
game, whose columns are the keys of ``gops validate --json`` (:data:`VERDICT_COLUMNS`, a
contract with users' scripts), and, for the readable report, each problem as
``file:line:col: code: message`` with the offending line and a caret under the column.

Round logs (CSV, JSON Lines) are read by the importer's own reading
(:func:`gops_records.games.gops.roundlogs.round_log_games`), so ``gops validate`` says of them
exactly what ``gops import`` stores; a round log that cannot be read at all is one
invalid record (``game`` null), as it is one reject.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import polars as pl

from gops_records.core.problems import Problem
from gops_records.core.store.frames import errors_column
from gops_records.core.verdicts import ECHO_CHARS, Checked, problem_lines
from gops_records.games.gops.replay.chunks import (
    CHECK_PARALLEL_FROM,
    CHUNK_BYTES,
    read_file,
    record_body,
)
from gops_records.games.gops.replay.frames import ChunkGames, LongGame
from gops_records.games.gops.roundlogs import RoundLogError, round_log_games

#: The keys of every object ``gops validate --json`` prints, in order.
VERDICT_COLUMNS = ("source", "game", "line", "players", "valid", "finished", "rounds",
                   "scores", "unclaimed", "winner", "errors")


def _finish(games: ChunkGames, readable: bool) -> Checked:
    """In a worker: the verdicts of a window's games and, if asked, its report lines."""
    verdicts = games.verdicts()
    report: list[str] = []
    if readable and len(games.invalid_games):
        problems = games.problems(games.invalid_games)
        report = problem_lines(games.source, [p for g in games.invalid_games.tolist()
                                              for p in problems[g]], _line_reader(games))
    return Checked(verdicts, report)


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
    for window in read_file(body, source, finish, workers=workers, chunk_bytes=chunk_bytes,
                            parallel_from=CHECK_PARALLEL_FROM):
        checked: Checked = window.payload
        if done:
            checked.verdicts = checked.verdicts.with_columns(pl.col("game") + done)
        done += window.games
        yield checked
