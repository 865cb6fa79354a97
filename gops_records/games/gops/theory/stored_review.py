"""Reviewing stored games: read them from the database, review them with the tablebase
beside it, keep the tablebase and the reviewed bids (for the pages that must not solve).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from gops_records.games.gops.report import GameReport
from gops_records.games.gops.theory import review_store
from gops_records.games.gops.theory.position import Objective
from gops_records.games.gops.theory.review import (
    GameReview,
    ReviewUnsupported,
    default_rounds,
    review_game,
)
from gops_records.games.gops.theory.tablebase import beside, tablebase


def stored_reports(db: Path | str | None, game_ids: list[int]) -> list[GameReport]:
    """The stored games ``game_ids``, replayed, in that order."""
    from gops_records.core.games_query import GameFilter
    from gops_records.core.store.db import reading
    from gops_records.games.gops.export import iter_records
    from gops_records.games.gops.validate import validate_game

    with reading(db) as con:
        return [validate_game(next(iter_records(con, GameFilter(game_ids=(gid,)))))
                for gid in game_ids]


def review_stored(db: Path | str, game_id: int, objective: Objective = Objective.POINTS,
                  rounds: int | None = None) -> GameReview | ReviewUnsupported:
    """Review one stored game with the tablebase beside ``db``; the review (or why it
    cannot be reviewed). A review kept by an earlier one is read back at once; else the
    tablebase and the review are saved when the folder can be written."""
    rounds = default_rounds(objective) if rounds is None else rounds
    folder = beside(Path(db))
    kept = review_store.kept_review(folder, objective, rounds, game_id)
    if kept is not None:  # reviewed before: no solver loaded
        return kept
    (report,) = stored_reports(db, [game_id])
    store = tablebase(folder)
    try:
        review = review_game(report, objective, rounds, store)
    except ReviewUnsupported as exc:
        return exc
    with contextlib.suppress(OSError):  # a read-only folder: reviewed, not kept
        store.save()
        review_store.keep(folder, objective, rounds, {game_id: review})
    return review
