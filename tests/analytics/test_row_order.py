"""Figures whose fast path relies on how the loader orders stored rows give the same answer
when the rows are stored in another order, and the loader keeps the order they rely on.

ties_by_pair, and list_players and overview when a filter keeps many games, zip seat A's
and seat B's ``game_players`` rows with ``games`` by position (no join); a database whose
rows are in another order must fall back to the joins.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import duckdb
import pytest

import gops_records.analytics as a
import gops_records.analytics.ties as ties
from gops_records.importer import import_paths
from gops_records.notation import write_games
from gops_records.rules import RuleProfile, TieRule
from gops_records.simulate import simulate

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


def test_the_loader_keeps_players_in_the_games_order(stored, monkeypatch):
    def joined(*_):
        raise AssertionError("the positional zip found rows out of order")

    monkeypatch.setattr(ties, "_two_player_sums_joined", joined)
    with duckdb.connect(str(stored), read_only=True) as con:
        for f in _filters(con):
            assert ties.ties_by_pair(con, f).height > 0 or f.n_players == 4


@pytest.mark.parametrize("order", ["hash(game_id), seat DESC",
                                   # two games' rows swapped, every other row in place
                                   "CASE WHEN rowid IN (0, 1) THEN rowid + 8 "
                                   "WHEN rowid IN (8, 9) THEN rowid - 8 ELSE rowid END"])
def test_rows_in_another_order_give_the_same_pairs(stored, tmp_path, monkeypatch, order):
    calls = []
    real = ties._two_player_sums_joined
    monkeypatch.setattr(ties, "_two_player_sums_joined",
                        lambda con, f: calls.append(f) or real(con, f))
    copy = _reordered(stored, tmp_path, order)
    with duckdb.connect(str(stored), read_only=True) as con:
        expected = {f: ties.ties_by_pair(con, f) for f in _filters(con)}
    assert calls == []
    with duckdb.connect(str(copy), read_only=True) as other:
        for f, want in expected.items():
            assert ties.ties_by_pair(other, f).equals(want), f
    assert a.Filters() in calls  # the unfiltered zip saw the misplaced rows


@pytest.mark.parametrize("order", ["hash(game_id), seat DESC",
                                   "CASE WHEN rowid IN (0, 1) THEN rowid + 8 "
                                   "WHEN rowid IN (8, 9) THEN rowid - 8 ELSE rowid END"])
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


def test_players_of_many_kept_games_zipped_or_joined_agree(stored):
    """The zip (a filter keeping many games) and the join (few) give the same players,
    seats C and D of 3-4 player games included."""
    from gops_records.analytics import results

    with duckdb.connect(str(stored), read_only=True) as con:
        total = con.sql("SELECT count(*) FROM games").fetchall()[0][0]
        for f in _filters(con):
            if f.is_empty or f.players:
                continue
            where, params = f.games_where("g")
            kept = con.execute(f"SELECT count(*) FROM games g WHERE {where}",
                               params).fetchall()[0][0]
            if not kept:
                continue
            zipped = results._players_of(con, f, total)  # as if every game were kept
            joined = results._players_of(con, f, 1)  # as if few were
            plain = sorted(r[0] for r in con.execute(
                f"SELECT DISTINCT p.player FROM game_players p JOIN games g USING (game_id) "
                f"WHERE {where}", params).fetchall())
            assert zipped == joined == plain, f
