"""A small hand-written Gin Rummy database for the Gin pages' tests (figures worked out by
hand in test_gin_pages.py and tests/games/gin/test_gin_analytics.py), from
tests/games/gin/gin_club.gin:
docs/gin.md's worked game and the issue's undercut hands.

- ``Alice v Bruno``, game 1 (2026-03-05): hand 1, Bruno takes the upcard 6♣ and goes gin
  (25 + Alice's 35 = 60); hand 2, Alice draws Q♦ for big gin (50 + Bruno's 79 = 129): the
  game to Alice, 129 - 60 + 100 + 20 x (1 - 1) = 169, no blitz. The match stays undecided.
- ``Undercut`` (2026-03-12): the issue's hand, Alice knocks with 2 (limit 7), Bruno lays
  off and keeps A♠: undercut, 26 to Bruno. ``Equal`` (2026-03-12, another event): the same
  with 2♠ for A♠: 2 against 2 undercuts, 25. Both games unfinished.
Bruno deals every hand.
"""

from __future__ import annotations

from pathlib import Path

from gops_records.core.importer import import_paths

#: The records (tests/games/gin/gin_club.gin, shared with the analytics tests).
RECORDS = Path(__file__).resolve().parents[1] / "games" / "gin" / "gin_club.gin"


def build_gin_db(folder: Path) -> Path:
    """The records imported into ``folder/gin.duckdb`` (checked to store every hand)."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "gin.duckdb"
    summary = import_paths([RECORDS], db)
    assert summary.games_new == 4 and summary.games_rejected == 0, summary
    return db
