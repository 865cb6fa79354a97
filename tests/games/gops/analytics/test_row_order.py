"""The figures that read players do not depend on the order the rows are stored in:
ties_by_pair, list_players and overview give the same answer on a copy whose
``game_players`` rows are rewritten in another order (they once zipped the rows by
position; they now read the games' own seat columns)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import duckdb
import pytest

import gops_records.games.gops.analytics as a
import gops_records.games.gops.analytics.ties as ties
from gops_records.core.importer import import_paths
from gops_records.games.gops.notation import write_games
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import simulate

PROFILES = [RuleProfile(), RuleProfile(players=3), RuleProfile(players=4, tie_rule=TieRule.DISCARD),
            RuleProfile(bid_cards=2), RuleProfile(open_prizes=3), RuleProfile(cards=6)]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Simulated games of every kind, imported in two imports (the second repeats some)."""
    folder = tmp_path_factory.mktemp("order")
    records = [r for i, p in enumerate(PROFILES) for r in simulate(12, 40 + i, p)]
    first, second = records[: len(records) // 2], records[len(records) // 3:]
    (folder / "one.gops").write_text(write_games(first), encoding="utf-8")
    (folder / "two.gops").write_text(write_games(second), encoding="utf-8")
    db = folder / "order.duckdb"
    import_paths([folder / "one.gops"], db)
    summary = import_paths([folder / "two.gops"], db)
    assert summary.games_duplicate > 0 and summary.games_new > 0
    return db


def _filters(con: duckdb.DuckDBPyConnection) -> list[a.Filters]:
    players = a.list_players(con)
    events = a.list_events(con)
    last = a.date_range(con)[1]
    return [a.Filters(), a.Filters(events=(events[0],)), a.Filters(players=(players[1],)),
            a.Filters(players=tuple(players[:2]), n_players=2),
            a.Filters(date_from=last - dt.timedelta(days=30), date_to=last),
            a.Filters(variant="bid-cards-2"), a.Filters(n_players=4)]


def _reordered(stored: Path, tmp_path: Path, order: str) -> Path:
    """A copy of ``stored`` whose game_players rows are rewritten in ``order``."""
    copy = tmp_path / "reordered.duckdb"
    shutil.copy(stored, copy)
    with duckdb.connect(str(copy)) as con:
        con.execute(f"CREATE TEMP TABLE seats AS SELECT * FROM game_players ORDER BY {order}")
        con.execute("DELETE FROM game_players")
        con.execute("INSERT INTO game_players SELECT * FROM seats")
    return copy


#: The orders the seat rows are rewritten in: shuffled, and two games' rows swapped with
#: every other row in place.
ORDERS = ["hash(game_id), seat DESC",
          "CASE WHEN rowid IN (0, 1) THEN rowid + 8 WHEN rowid IN (8, 9) THEN rowid - 8 "
          "ELSE rowid END"]


@pytest.mark.parametrize("order", ORDERS)
def test_rows_in_another_order_give_the_same_pairs(stored, tmp_path, order):
    copy = _reordered(stored, tmp_path, order)
    with duckdb.connect(str(stored), read_only=True) as con:
        expected = {f: ties.ties_by_pair(con, f) for f in _filters(con)}
    with duckdb.connect(str(copy), read_only=True) as other:
        for f, want in expected.items():
            assert ties.ties_by_pair(other, f).equals(want), f
    assert any(want.height > 3 for want in expected.values())


@pytest.mark.parametrize("order", ORDERS)
def test_rows_in_another_order_give_the_same_players(stored, tmp_path, order):
    copy = _reordered(stored, tmp_path, order)
    with duckdb.connect(str(stored), read_only=True) as con:
        events = a.list_events(con)
        wide = [*_filters(con), a.Filters(events=tuple(events[1:])),
                a.Filters(events=(events[0],), n_players=3)]
        expected = {f: (a.list_players(con, f), a.overview(con, f)) for f in wide}
    with duckdb.connect(str(copy), read_only=True) as other:
        for f, (players, overview) in expected.items():
            assert a.list_players(other, f) == players, f
            assert a.overview(other, f) == overview, f
    assert any(len(p) > 4 for p, _ in expected.values())
