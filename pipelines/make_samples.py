"""Regenerate the bundled sample records in gops_records/samples/ (package data),
deterministically.

A few club evenings played by the simulator's named bots (one .gops file per evening:
two- and three-player games, carry and discard tie rules), and one file of deliberately
broken records for the import quarantine. Every file is checked after it is written:
the evenings must validate cleanly, and each broken record must fail with exactly the
code its defect is meant to produce.

    python -m gops_records.pipelines.make_samples            # rewrite gops_records/samples/
    python -m gops_records.pipelines.make_samples --check    # regenerate in memory and compare
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from gops_records.pipelines.samples import SAMPLES, SampleSet  # noqa: F401 (tests read SAMPLES)
from gops_records.pipelines.samples import main as run

from gops_records.core.clubs import tag_date
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import (
    CLUBS,
    BrokenRecord,
    Evening,
    broken_records,
    play_evening,
)

SEED = 2026
BROKEN_FILE = "quarantine-demo.gops"
BROKEN_COUNT = 12

_CLUB = {c.event: c for c in CLUBS}


def _evening(event: str, date: str, games: int, players: int = 2,
             tie_rule: TieRule = TieRule.CARRY) -> Evening:
    club = _CLUB[event]
    return Evening(club.event, club.site, dt.date.fromisoformat(date),
                   RuleProfile(players=players, tie_rule=tie_rule), games)


#: The evenings, in date order. The Utrecht club plays the Dutch standard (discard) rule.
EVENINGS: tuple[Evening, ...] = (
    _evening("Gops Society", "2026-01-13", 84),
    _evening("Spieleabend Kreuzberg", "2026-01-14", 72),
    _evening("Thursday Club", "2026-01-15", 48, players=3, tie_rule=TieRule.DISCARD),
    _evening("Gops Society", "2026-01-20", 66),
    _evening("Thursday Club", "2026-01-22", 60, tie_rule=TieRule.DISCARD),
)


def file_name(evening: Evening) -> str:
    slug = evening.event.lower().replace(" ", "-")
    return f"{evening.date.isoformat()}-{slug}.gops"


def broken() -> list[BrokenRecord]:
    """The broken records of the quarantine file, each with its intended defect."""
    club = _CLUB["Thursday Club"]
    return broken_records(BROKEN_COUNT, SEED, RuleProfile(), tags={
        "Event": club.event, "Site": club.site,
        "Date": tag_date(dt.date(2026, 1, 29))})


def build() -> dict[str, str]:
    """The sample files, name -> text."""
    files: dict[str, str] = {}
    for index, evening in enumerate(EVENINGS):
        records = list(play_evening(evening, random.Random(f"samples/{SEED}/{index}")))
        files[file_name(evening)] = "\n".join(
            r.text if isinstance(r, BrokenRecord) else write_game(r) for r in records)
    files[BROKEN_FILE] = "\n".join(b.text for b in broken())
    return files


def check(folder: Path) -> list[str]:
    """What is wrong with the samples in ``folder`` (empty when all is as intended)."""
    problems = []
    for evening in EVENINGS:
        path = folder / file_name(evening)
        reports = read_reports(path.read_text(encoding="utf-8"))
        if len(reports) != evening.games:
            problems.append(f"{path.name}: {len(reports)} games, expected {evening.games}")
        for number, report in enumerate(reports, start=1):
            if not report.valid:
                codes = ", ".join(p.code for p in report.problems)
                problems.append(f"{path.name}: game {number} is invalid ({codes})")
    path = folder / BROKEN_FILE
    reports = read_reports(path.read_text(encoding="utf-8"))
    intended = broken()
    if len(reports) != len(intended):
        problems.append(f"{path.name}: {len(reports)} records, expected {len(intended)}")
    for number, (report, record) in enumerate(zip(reports, intended, strict=False), start=1):
        # a result the replay could not check is said beside the defect, not instead of it
        codes = {p.code for p in report.problems} - {"result-unchecked"}
        if codes != {record.code}:
            problems.append(f"{path.name}: record {number} ({record.defect}) fails with "
                            f"{sorted(codes)}, expected only {record.code}")
    return problems


def summary(folder: Path) -> str:
    games = sum(e.games for e in EVENINGS)
    return (f"{folder}: {len(EVENINGS)} evenings, {games} games, "
            f"{BROKEN_COUNT} broken records in {BROKEN_FILE}")


GOPS_SAMPLES = SampleSet(build, check, summary, (".gops",))


def main(argv: list[str] | None = None) -> int:
    return run(GOPS_SAMPLES, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
