"""Regenerate the bundled Gin Rummy samples in gops_records/samples/, deterministically.

Three Thursday evenings of full hands (``.gin``, six games to 100 each), one Friday evening
kept only as score sheets (``.ginsheet``: the evening's hands imported into a scratch
database and written with ``gops export --format ginsheet``), and ``quarantine-demo.gin``,
ten deliberately broken hands, one of each defect. Each is what a ``gops simulate --game
gin`` command makes (docs/gin.md#the-bundled-samples); every file is checked after it is
written: the evenings validate cleanly, each broken hand fails with exactly its code.

    python -m gops_records.pipelines.make_gin_samples          # rewrite the Gin samples
    python -m gops_records.pipelines.make_gin_samples --check  # regenerate and compare
"""

from __future__ import annotations

import datetime as dt
import io
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gops_records.pipelines.samples import SAMPLES, SampleSet  # noqa: F401 (tests read SAMPLES)
from gops_records.pipelines.samples import main as run

from gops_records.core.games_query import GameFilter
from gops_records.core.importer import import_paths
from gops_records.games.gin.checking import read_gin_source
from gops_records.games.gin.export import export_gin
from gops_records.games.gin.simulate import Budget, GinDefect, write_simulation

BROKEN_FILE = "quarantine-demo.gin"
SHEET_FILE = "2026-01-16-gin-society.ginsheet"


@dataclass(frozen=True, slots=True)
class GinEvening:
    """A sample evening: its file and the simulate arguments that play it."""

    name: str
    seed: int
    start: dt.date
    games: int = 6


#: The full-hand evenings: `gops simulate --game gin -n 6 --seed S --start D`.
EVENINGS: tuple[GinEvening, ...] = (
    GinEvening("2026-01-15-thursday-club-gin.gin", 1, dt.date(2026, 1, 12)),
    GinEvening("2026-01-22-thursday-club-gin.gin", 2, dt.date(2026, 1, 19)),
    GinEvening("2026-01-29-thursday-club-gin.gin", 3, dt.date(2026, 1, 26)),
)
#: The sheets: the Gin Society's Friday of `-n 14 --seed 5 --start 2026-01-12`.
SHEET_EVENING = GinEvening("two-evenings.gin", 5, dt.date(2026, 1, 12), games=14)
SHEET_EVENT = "Gin Society"
#: The broken hands: `-n 0 --broken 10 --seed 4 --start 2026-01-12`.
BROKEN_SEED, BROKEN_COUNT = 4, len(GinDefect)


def _simulated(evening: GinEvening, broken: int = 0) -> str:
    out = io.StringIO()
    write_simulation(out, Budget(games=evening.games), evening.seed, broken=broken,
                     start=evening.start)
    return out.getvalue()


def _sheets() -> str:
    with tempfile.TemporaryDirectory() as scratch:
        hands = Path(scratch) / SHEET_EVENING.name
        hands.write_text(_simulated(SHEET_EVENING), encoding="utf-8", newline="\n")
        db = Path(scratch) / "sheets.duckdb"
        import_paths([hands], db)
        sheets = Path(scratch) / SHEET_FILE
        export_gin(db, sheets, "ginsheet", GameFilter(events=(SHEET_EVENT,)))
        return sheets.read_text(encoding="utf-8")


def build() -> dict[str, str]:
    """The Gin sample files, name -> text."""
    files = {e.name: _simulated(e) for e in EVENINGS}
    files[SHEET_FILE] = _sheets()
    files[BROKEN_FILE] = _simulated(GinEvening(BROKEN_FILE, BROKEN_SEED,
                                               dt.date(2026, 1, 12), games=0), BROKEN_COUNT)
    return files


def check(folder: Path) -> list[str]:
    """What is wrong with the Gin samples in ``folder`` (empty when all is as intended)."""
    problems = []
    for name in [*(e.name for e in EVENINGS), SHEET_FILE]:
        path = folder / name
        records = [r for b in read_gin_source(path.read_text("utf-8"), str(path))
                   for r in b.records]
        bad = [r for r in records if r.problems]
        if not records or bad:
            problems.append(f"{name}: {len(records)} records, {len(bad)} invalid")
    path = folder / BROKEN_FILE
    records = [r for b in read_gin_source(path.read_text("utf-8"), str(path))
               for r in b.records]
    codes = sorted(p.code for r in records for p in r.problems)
    expected = sorted(d.code for d in GinDefect)
    if codes != expected:
        problems.append(f"{BROKEN_FILE}: codes {codes}, expected one each of {expected}")
    return problems


def summary(folder: Path) -> str:
    return (f"{folder}: {len(EVENINGS)} Gin evenings of full hands, {SHEET_FILE}, "
            f"{BROKEN_COUNT} broken hands in {BROKEN_FILE}")


GIN_SAMPLES = SampleSet(build, check, summary, (".gin", ".ginsheet"))


def main(argv: list[str] | None = None) -> int:
    return run(GIN_SAMPLES, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
