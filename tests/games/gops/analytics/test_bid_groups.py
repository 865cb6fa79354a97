"""The bid groups the loader keeps (store.bid_groups) are the groups of every classic game
stored, however the games arrived: over several imports, with games seen twice (in one
batch, across batches, across imports), by either way of finding new games, next to
games of the variants; and one merged row a group after each import."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from gops_records.core.importer import import_paths
from gops_records.core.store import loader
from gops_records.games.gops.analytics import ALL_GAMES, Filters, bidding, list_events, list_players
from gops_records.games.gops.analytics.bid_groups import has_stored_groups, stored_groups
from gops_records.games.gops.hand_facts import GROUP_KEYS, cluster_frame, group_frame
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.simulate import write_simulation


def _games(path: Path, games: int, seed: int, **rules) -> str:
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, RuleProfile(**rules))
    return path.read_text(encoding="utf-8")


def _assert_kept_as_computed(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert has_stored_groups(con)
        players = list_players(con, ALL_GAMES)
        assert len(players) > 4
        events = list_events(con)
        assert len(events) > 1
        for player in players:
            for f in (ALL_GAMES, Filters(events=(events[0],)), Filters(events=tuple(events))):
                groups, clusters = stored_groups(con, player, f.events)
                facts = bidding._read_facts(con, f, player)  # from the bids stored
                assert groups.equals(group_frame(facts)), (player, f)
                assert clusters.equals(cluster_frame(facts)), (player, f)
        keys = ", ".join(GROUP_KEYS)
        assert con.execute(f"SELECT count(*) FROM (SELECT player, event, {keys} FROM "
                           f"player_bid_groups GROUP BY ALL HAVING count(*) > 1)"
                           ).fetchall() == [(0,)]  # merged: one row a group
    finally:
        con.close()


@pytest.mark.parametrize("known_games", [True, False], ids=["known-ids", "anti-join"])
def test_games_seen_twice_and_several_imports(tmp_path: Path, monkeypatch, known_games):
    if not known_games:  # the loader's other way of finding new games
        monkeypatch.setattr(loader.KnownGames, "LIMIT", -1)
    first = _games(tmp_path / "a.gops", 120, 31)
    second = _games(tmp_path / "b.gops", 90, 32, players=3)
    variants = _games(tmp_path / "v.gops", 40, 33, bid_cards=2)
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "a.gops"], db, batch_games=50)
    # the next file repeats a's games (and one of its own) around new ones
    (tmp_path / "mixed.gops").write_text(first[: len(first) // 2] + "\n\n" + second + "\n\n"
                                         + second[: len(second) // 3], encoding="utf-8")
    summary = import_paths([tmp_path / "mixed.gops", tmp_path / "v.gops"], db, batch_games=40)
    assert summary.games_new == 90 + 40 and summary.games_duplicate > 60
    _assert_kept_as_computed(db)
    assert variants  # the variant games are stored and left out of the groups
    before = _summed(db)
    import_paths([tmp_path / "a.gops", tmp_path / "mixed.gops"], db, reparse=True)
    assert _summed(db) == before  # nothing new: nothing added


def _summed(db: Path) -> list:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT * EXCLUDE (import_id) FROM player_bid_groups "
                           "ORDER BY ALL").fetchall()
    finally:
        con.close()
