"""Hand-made record files and database snapshots shared by the import and export tests.

The games are hand-checked: CLUB is the 13-card carry-over game of the club evening
(A 45, B 46: the 8 tied in round 1 goes with the 5 to B in round 2), SMALL a 3-card
game (2-4: A takes the 2, B the 3 and the ace).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gops_records.core.store.db import reading
from gops_records.core.store.schema import tables

RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
CLUB_PRIZES = [8, 5, 13, 2, 12, 3, 10, 7, 1, 11, 4, 9, 6]
CLUB_A = [9, 7, 13, 1, 11, 2, 12, 10, 3, 8, 6, 5, 4]
CLUB_B = [9, 11, 12, 2, 13, 3, 10, 1, 4, 8, 5, 6, 7]

SMALL = """[Event "Club"]
[A "Ann"]
[B "Bob"]
[Cards "3"]

1. 2D 3C AS
2. 3D AC 2S
3. AD 2C 3S
2-4
"""


def rank(value: int) -> str:
    return RANKS.get(value, str(value))


def club_game(number: int = 1, *, event: str = "Night", result: bool = True,
              extra_tags: str = "") -> str:
    """The club game as canonical-looking text, told apart by ``[Round "number"]``."""
    rounds = "\n".join(f"{i}. {rank(p)}D {rank(a)}C {rank(b)}S"
                       for i, (p, a, b) in enumerate(zip(CLUB_PRIZES, CLUB_A, CLUB_B,
                                                         strict=True), start=1))
    return (f'[Event "{event}"]\n[Round "{number}"]\n[A "Alice"]\n[B "Bruno"]\n'
            f'[TieRule "carry"]\n{extra_tags}\n{rounds}\n{"45-46" if result else "*"}\n')


def write_club_games(path: Path, count: int, *, event: str = "Night") -> Path:
    """``count`` distinct valid games in one .gops file."""
    path.write_text("\n".join(club_game(i, event=event) for i in range(1, count + 1)),
                    encoding="utf-8")
    return path


def counts(db: Path) -> dict[str, int]:
    """Rows per table."""
    with reading(db) as con:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in tables()}


#: Columns that time the work (``imports`` has its own), left out of a :func:`snapshot`.
TIMINGS = {"scout_reports": "seconds"}


def snapshot(db: Path) -> dict[str, list[str]]:
    """Every row of every table, sorted, for exact before/after comparisons (without the
    columns in :data:`TIMINGS`)."""
    def rows(t: str) -> list[str]:
        columns = f"* EXCLUDE ({TIMINGS[t]})" if t in TIMINGS else "*"
        return sorted(map(repr, con.execute(f"SELECT {columns} FROM {t}").fetchall()))

    with reading(db) as con:
        return {t: rows(t) for t in tables()}


def run_python(code: str, **kwargs) -> subprocess.Popen:
    """Start ``python -c code`` (with the test's interpreter) and return the process."""
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)
