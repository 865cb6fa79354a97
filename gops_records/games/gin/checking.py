"""Reading Gin Rummy files as ``gops validate`` and ``gops import`` both read them.

A ``.gin`` file holds full hands, a ``.ginsheet`` file score sheets. Each record (a hand,
a sheet) comes back as a :class:`GinRecord` with every problem it has: its own (the
reader's, the replay's or the sheet's checks) and those found between records of the file
(:func:`gops_records.games.gin.grouping.group_hands` for hands, placed in games and matches by
their ``Match``, ``Game``, ``Hand`` tags; :func:`sheet_check.check_matches` for sheets).
What is between records follows two readings (docs/gin.md):

- a hand without a ``Match`` tag stands alone: it is not placed in a game;
- a game with a hand (or a match with a game) missing is not an error of the hands
  that are there: the game is just not scored (a note says so), as the missing hands may
  be in another file.

Sheets are checked against the full hands of the same game known to the reading
(:class:`sheet_check.FullHands`: the ``.gin`` files read before in the same command, and
for an import the stored hands), so a command reads ``.gin`` files before ``.ginsheet``.

A big ``.gin`` file is read in windows of about :data:`WINDOW_HANDS` hands, cut only
right after a line that is a terminator alone and between two matches, so that each
window parses exactly as the whole file would (:func:`hand_windows`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePath

import polars as pl

from gops_records.core.problems import Problem
from gops_records.core.sources import decode
from gops_records.core.verdicts import Checked, problem_lines
from gops_records.games.gin.grouping import Grouping, group_hands
from gops_records.games.gin.replay import HandReport, read_hands
from gops_records.games.gin.sheet import parse_sheets
from gops_records.games.gin.sheet_check import FullHands, SheetReport, check_matches, check_sheet

#: The Gin Rummy record files, by suffix, and the kind each is read as.
GIN_KINDS = {".gin": "gin", ".ginsheet": "ginsheet"}
#: Hands read at a time from a big ``.gin`` file (a window ends between two matches).
WINDOW_HANDS = 2_000
#: The keys of every object ``gops validate --json`` prints for a hand, in order.
HAND_VERDICT_KEYS = ("source", "record", "kind", "line", "players", "match", "game", "hand",
                     "valid", "finished", "outcome", "scores", "winner", "turns", "errors")
#: The keys of every object ``gops validate --json`` prints for a sheet, in order.
SHEET_VERDICT_KEYS = ("source", "record", "kind", "line", "players", "match", "game",
                      "hands", "valid", "finished", "totals", "scores", "winner", "errors")


def gin_kind(source: str | PurePath) -> str | None:
    """``gin`` or ``ginsheet`` for a Gin Rummy file's name, else None."""
    return GIN_KINDS.get(PurePath(str(source)).suffix.lower())


@dataclass(frozen=True, slots=True)
class GinRecord:
    """One hand or sheet of a file, as validated and imported.

    ``position`` counts records in the file from 1; ``line`` is the file line of its
    first token; ``problems`` are every problem, at file lines."""

    kind: str                      # 'hand' | 'sheet'
    position: int
    line: int
    report: HandReport | SheetReport
    problems: tuple[Problem, ...]
    raw_text: str
    line_offset: int = 0           # file line = the record's own line + this

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass
class GinBatch:
    """The records of one window of a file, and the games its hands make."""

    source: str
    kind: str                      # 'gin' | 'ginsheet'
    records: list[GinRecord]
    grouping: Grouping | None = None
    notes: list[str] = field(default_factory=list)
    #: where in the file's text the batch ends (characters), for a progress bar
    end: int = 0

    @property
    def invalid(self) -> int:
        return sum(not r.valid for r in self.records)


_TERMINATOR_LINE = re.compile(r"^[ \t]*(?:\d+-\d+|\*)[ \t]*\r?$", re.M)
_SKIPPED = re.compile(r'\[\s*[A-Za-z][\w-]*\s+"[^"\n]*"\s*\]|\{[^}]*\}?|;[^\n]*')
_MATCH = re.compile(r'\[\s*Match\s+"([^"\n]*)"\s*\]', re.I)


def hand_windows(text: str, size: int = WINDOW_HANDS) -> Iterator[tuple[int, str]]:
    """``(line offset, text)`` of windows of about ``size`` hands each.

    A window ends right after a line holding a terminator alone, outside any comment,
    where the hands before and after it have different ``Match`` tags: the reader starts a
    new hand after a terminator, so each window reads exactly as in the whole text."""
    if len(text) < 64 * size:  # a small file is one window
        yield 0, text
        return
    comments = [(m.start(), m.end()) for m in _SKIPPED.finditer(text) if m.group()[0] != "["]
    starts = [c[0] for c in comments]

    def in_comment(pos: int) -> bool:
        i = bisect.bisect_right(starts, pos) - 1
        return i >= 0 and comments[i][0] <= pos < comments[i][1]

    matches = [(m.start(), m.group(1)) for m in _MATCH.finditer(text)]
    match_at = [m[0] for m in matches]

    def match_before(pos: int) -> str | None:
        i = bisect.bisect_right(match_at, pos) - 1
        return matches[i][1] if i >= 0 else None

    ends = [m.end() + 1 for m in _TERMINATOR_LINE.finditer(text) if not in_comment(m.start())]
    begin, hands, lines = 0, 0, 0
    for i, end in enumerate(ends):
        hands += 1
        if hands < size or i + 1 >= len(ends) or end >= len(text):
            continue
        match = match_before(end)
        if match is not None and match == match_before(ends[i + 1]) and hands < 4 * size:
            continue  # the next hand is of the same match (unless the window grows too big)
        chunk = text[begin:end]
        yield lines, chunk
        lines += chunk.count("\n")
        begin, hands = end, 0
    if begin < len(text):
        yield lines, text[begin:]


def _shift(problem: Problem, lines: int) -> Problem:
    return problem if not lines else Problem(problem.code, problem.message,
                                             problem.line + lines, problem.column,
                                             problem.round)


def _slice(text: str, start, end) -> str:
    """A record's text from its first token to its terminator (the rest if unterminated)."""
    begin = start.start if start is not None else 0
    return text[begin:end.end if end is not None else len(text)]


def read_gin(text: str, source: str, full: FullHands | None = None,
             window: int = WINDOW_HANDS) -> Iterator[GinBatch]:
    """The hands of a ``.gin`` text, window by window, numbered in the file."""
    done = end = 0
    for lines, chunk in hand_windows(text, window):
        batch = _gin_window(chunk, source, lines, done, full)
        done += len(batch.records)
        end += len(chunk)
        batch.end = end
        yield batch


def _gin_window(text: str, source: str, lines: int, done: int,
                full: FullHands | None) -> GinBatch:
    reports = read_hands(text)
    grouping = group_hands(r for r in reports if r.record.tag("Match") is not None)
    between: dict[int, list[Problem]] = {}
    notes: list[str] = []
    for found in grouping.problems:
        problem = _shift(found.problem, lines)
        if problem.code == "incomplete":  # hands missing: the game is not scored
            notes.append(f"{source}:{problem.line}: {problem.message}: that game is not "
                         "scored")
            continue
        between.setdefault(id(found.report), []).append(problem)
    records = []
    for i, report in enumerate(reports, 1):
        record = report.record
        problems = tuple(_shift(p, lines) for p in report.problems) + \
            tuple(between.get(id(report), ()))
        line = (record.span.line if record.span is not None else 1) + lines
        records.append(GinRecord("hand", done + i, line, report, problems,
                                 _slice(text, record.span, record.result_span), lines))
        if full is not None and not problems:
            full.add(report, source, lines)
    return GinBatch(source, "gin", records, grouping, notes)


def read_ginsheet(text: str, source: str, full: FullHands | None = None) -> GinBatch:
    """The sheets of a ``.ginsheet`` text, each checked, then checked against each other."""
    reports = [check_sheet(parsed, full) for parsed in parse_sheets(text)]
    between = check_matches(reports)
    records = []
    for i, report in enumerate(reports):
        record = report.record
        line = record.span.line if record.span is not None else 1
        records.append(GinRecord("sheet", i + 1, line, report,
                                 report.problems + tuple(between.get(i, ())),
                                 _slice(text, record.span, record.result_span)))
    return GinBatch(source, "ginsheet", records, end=len(text))


def read_gin_source(text: str, source: str, full: FullHands | None = None
                    ) -> Iterator[GinBatch]:
    """A Gin Rummy file's records, by its kind (``source``'s suffix)."""
    if gin_kind(source) == "ginsheet":
        yield read_ginsheet(text, source, full)
    else:
        yield from read_gin(text, source, full)


# -- what gops validate prints ---------------------------------------------------------------


def _errors(problems: tuple[Problem, ...], number: str) -> list[dict]:
    return [{"code": p.code, "message": p.message, "line": p.line, "column": p.column,
             number: p.round} for p in problems]


def verdict(record: GinRecord, source: str) -> dict:
    """The object ``gops validate --json`` prints for a hand or a sheet."""
    report = record.report
    tags = dict(report.record.tags)
    players = [tags.get("A"), tags.get("B")]
    names = {"A": tags.get("A"), "B": tags.get("B")}
    if isinstance(report, HandReport):
        result = report.result if record.valid else None
        return {"source": source, "record": record.position, "kind": "hand",
                "line": record.line, "players": players, "match": tags.get("Match"),
                "game": tags.get("Game"), "hand": tags.get("Hand"), "valid": record.valid,
                "finished": result is not None,
                "outcome": result.outcome.value if result else None,
                "scores": list(result.scores) if result else None,
                "winner": (names[result.winner.value] or result.winner.value)
                if result is not None and result.winner is not None else None,
                "turns": len(report.record.turns),
                "errors": _errors(record.problems, "turn")}
    score = report.score if record.valid else None
    game = report.game
    return {"source": source, "record": record.position, "kind": "sheet",
            "line": record.line, "players": players, "match": tags.get("Match"),
            "game": tags.get("Game"), "hands": len(report.record.lines),
            "valid": record.valid, "finished": score is not None,
            "totals": list(game.totals) if game is not None and record.valid else None,
            "scores": list(score.scores) if score else None,
            "winner": (names[score.winner.value] or score.winner.value) if score else None,
            "errors": _errors(record.problems, "hand")}


def verdict_frame(batch: GinBatch) -> pl.DataFrame:
    """The batch's verdicts, one row per record (the keys of :func:`verdict`)."""
    rows = [verdict(r, batch.source) for r in batch.records]
    keys = SHEET_VERDICT_KEYS if batch.kind == "ginsheet" else HAND_VERDICT_KEYS
    number = "hand" if batch.kind == "ginsheet" else "turn"
    errors = pl.List(pl.Struct({"code": pl.String, "message": pl.String, "line": pl.Int64,
                                "column": pl.Int64, number: pl.Int64}))
    schema = {k: pl.String for k in keys} | {
        "record": pl.Int64, "line": pl.Int64, "players": pl.List(pl.String),
        "valid": pl.Boolean, "finished": pl.Boolean, "scores": pl.List(pl.Int64),
        "turns": pl.Int64, "hands": pl.Int64, "totals": pl.List(pl.Int64), "errors": errors}
    return pl.DataFrame(rows, schema={k: schema[k] for k in keys})


def check_gin_bytes(data: bytes, source: str, encoding: str = "utf-8", *,
                    readable: bool = False, full: FullHands | None = None,
                    notes: list[str] | None = None) -> Iterator[Checked]:
    """``gops validate`` of a Gin Rummy file: :class:`gops_records.core.verdicts.Checked`
    verdicts (:func:`verdict`) and, if ``readable``, each problem as
    ``file:line:col: code: message`` with its line and a caret. Raises DecodeError."""
    text = decode(data, encoding, source)
    lines = text.split("\n")

    def text_of_line(n: int) -> str | None:
        return lines[n - 1].rstrip("\r") if 1 <= n <= len(lines) else None

    for batch in read_gin_source(text, source, full):
        if notes is not None:
            notes.extend(batch.notes)
        report = problem_lines(source, [p for r in batch.records for p in r.problems],
                               text_of_line) if readable else []
        yield Checked(verdict_frame(batch), report)
