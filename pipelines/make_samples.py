"""Regenerate the bundled sample records in data/samples/, deterministically.

A few club evenings played by the simulator's named bots (one .gops file per evening:
two- and three-player games, carry and discard tie rules), and one file of deliberately
broken records for the import quarantine. Every file is checked after it is written:
the evenings must validate cleanly, and each broken record must fail with exactly the
code its defect is meant to produce.

    python -m gops_records.pipelines.make_samples            # rewrite data/samples/
    python -m gops_records.pipelines.make_samples --check    # regenerate in memory and compare
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
from pathlib import Path

from gops_records.core.clubs import tag_date
from gops_records.games.gops.notation import read_reports, write_game
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import (
    CLUBS,
    BrokenRecord,
    Evening,
    broken_records,
    play_evening,
)

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
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


def build() -> tuple[dict[str, str], list[BrokenRecord]]:
    """The sample files (name -> text) and the broken records of the quarantine file."""
    files: dict[str, str] = {}
    for index, evening in enumerate(EVENINGS):
        records = list(play_evening(evening, random.Random(f"samples/{SEED}/{index}")))
        files[file_name(evening)] = "\n".join(
            r.text if isinstance(r, BrokenRecord) else write_game(r) for r in records)
    club = _CLUB["Thursday Club"]
    broken = broken_records(BROKEN_COUNT, SEED, RuleProfile(), tags={
        "Event": club.event, "Site": club.site,
        "Date": tag_date(dt.date(2026, 1, 29))})
    files[BROKEN_FILE] = "\n".join(b.text for b in broken)
    return files, broken


def check(folder: Path, broken: list[BrokenRecord]) -> list[str]:
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
    if len(reports) != len(broken):
        problems.append(f"{path.name}: {len(reports)} records, expected {len(broken)}")
    for number, (report, intended) in enumerate(zip(reports, broken, strict=False), start=1):
        # a result the replay could not check is said beside the defect, not instead of it
        codes = {p.code for p in report.problems} - {"result-unchecked"}
        if codes != {intended.code}:
            problems.append(f"{path.name}: record {number} ({intended.defect}) fails with "
                            f"{sorted(codes)}, expected only {intended.code}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SAMPLES, help="folder to write")
    parser.add_argument("--check", action="store_true",
                        help="only compare the folder with a fresh build; write nothing")
    args = parser.parse_args(argv)
    files, broken = build()
    if args.check:
        stale = [name for name, text in files.items()
                 if not (args.out / name).exists()
                 or (args.out / name).read_text(encoding="utf-8") != text]
        extra = sorted({p.name for p in args.out.glob("*.gops")} - set(files))
        for name in stale:
            print(f"{args.out / name}: differs from a fresh build", file=sys.stderr)
        for name in extra:
            print(f"{args.out / name}: not made by this script", file=sys.stderr)
        if stale or extra:
            return 1
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (args.out / name).write_text(text, encoding="utf-8", newline="\n")
    problems = check(args.out, broken)
    for problem in problems:
        print(problem, file=sys.stderr)
    games = sum(e.games for e in EVENINGS)
    print(f"{args.out}: {len(EVENINGS)} evenings, {games} games, "
          f"{len(broken)} broken records in {BROKEN_FILE}"
          + ("" if not problems else f"; {len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
