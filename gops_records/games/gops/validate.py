"""Validation by replay: every problem of a game, from the one reading core.

Text is read and checked by :func:`gops_records.games.gops.reading.read_reports` (and, a chunk
at a time, by the importer and ``gops validate``). :func:`validate_game` checks a
record that was not read from text (a round log's game, a record built in Python)
by the same replay, through tokens made of the record; problems the record already
carries (from its own source) are kept.
"""

from __future__ import annotations

from gops_records.core.problems import Problem
from gops_records.games.gops.notation.model import GameRecord
from gops_records.games.gops.report import GameReport

__all__ = ["GameReport", "validate_game", "validate_games"]


def validate_games(records: list[GameRecord]) -> list[GameReport]:
    """Replay ``records`` and collect every problem of each, sorted by position."""
    from gops_records.games.gops.replay import replay_tokens
    from gops_records.games.gops.replay.records import record_tokens
    from gops_records.games.gops.replay.reports import game_reports

    if not records:
        return []
    rep = replay_tokens(record_tokens(records))
    reports = game_reports(rep)
    out = []
    for record, report in zip(records, reports, strict=True):
        seen: set[tuple[str, int, int, str]] = set()
        merged: list[Problem] = []
        for p in sorted([*record.problems, *report.problems], key=lambda p: (p.line, p.column)):
            key = (p.code, p.line, p.column, p.message)
            if key not in seen:
                seen.add(key)
                merged.append(p)
        found = GameReport(record, report.profile, report.rounds, report.outcome,
                           tuple(merged), report.first_skipped)
        out.append(found)
    return out


def validate_game(record: GameRecord) -> GameReport:
    """Replay one record (see :func:`validate_games`)."""
    return validate_games([record])[0]
