"""Pool figures of the club database, counted by hand."""

from __future__ import annotations

import datetime as dt

from gops_records.games.gops.analytics import (
    Filters,
    carried_per_game,
    largest_pools,
    pool_distribution,
    unclaimed_per_game,
)


def test_pool_distribution(con):
    out = pool_distribution(con, Filters())
    assert out.columns == ["pool_value", "pool_cards", "rounds"]
    assert out.rows() == [(1, 1, 3), (2, 1, 5), (3, 1, 5), (4, 1, 3), (4, 2, 1), (5, 2, 1),
                          (6, 2, 2), (7, 3, 1)]
    assert out["rounds"].sum() == 21


def test_largest_pools_names_who_took_them(con, game_ids):
    out = largest_pools(con, Filters(), limit=3)
    assert out.columns == ["game_id", "event", "date", "round_no", "pool_value", "pool_cards",
                           "winner"]
    assert out.select("game_id", "round_no", "pool_value", "pool_cards", "winner").rows() == [
        (game_ids["G2"], 3, 7, "4+2+1", "Ann"),
        (game_ids["G4"], 2, 6, "2+4", "Cid"),   # newer of the two 6-point pools
        (game_ids["G2"], 2, 6, "4+2", "tie"),
    ]
    assert out["date"].to_list()[1] == dt.date(2026, 2, 1)
    only_g1 = largest_pools(con, Filters(matches=("M1",), date_to=dt.date(2026, 1, 8)), limit=1)
    assert only_g1.row(0)[3:] == (3, 7, "4+2+1", "Ann")
    assert largest_pools(con, Filters(), limit=0).height == 0


def test_carried_per_game(con):
    # Carry games: G1 carried its 3, G2 its 4 and 2, G4 its 2, G5 its 2.
    assert carried_per_game(con, Filters()).rows() == [(2, 2), (3, 1), (6, 1)]
    assert carried_per_game(con, Filters(tie_rule="discard")).height == 0
    assert carried_per_game(con, Filters(players=("Ann",), tie_rule="carry")).rows() == [
        (2, 1), (3, 1), (6, 1)]


def test_carried_per_game_counts_games_without_ties_at_zero(calm_con):
    assert carried_per_game(calm_con, Filters()).rows() == [(0, 1)]
    assert unclaimed_per_game(calm_con, Filters()).rows() == [(0, 1)]
    assert pool_distribution(calm_con, Filters()).rows() == [(1, 1, 1), (2, 1, 1), (3, 1, 1)]


def test_unclaimed_per_game(con):
    assert unclaimed_per_game(con, Filters()).rows() == [(0, 3), (1, 1), (7, 1)]
    assert unclaimed_per_game(con, Filters(tie_rule="discard")).rows() == [(1, 1), (7, 1)]


def test_a_pool_left_by_a_tie_in_an_unfinished_game_counts_as_carried(tmp_path):
    """docs/analytics.md: a tie in the last recorded round of an unfinished game carries
    its pool to a round never recorded: counted in carried_per_game, in nobody's score, and
    the game has no unclaimed points (it is left out of unclaimed_per_game)."""
    import duckdb

    from gops_records.core.importer import import_paths
    from gops_records.games.gops.analytics import Filters, carried_per_game, unclaimed_per_game

    (tmp_path / "open.gops").write_text(
        '[Event "Open"] [A "Ann"] [B "Bob"] [Cards "4"] [TieRule "carry"]\n'
        "1. 3 4 2 2. 2 A A\n*\n", encoding="utf-8")
    assert import_paths([tmp_path / "open.gops"], tmp_path / "o.duckdb").games_new == 1
    con = duckdb.connect(str(tmp_path / "o.duckdb"), read_only=True)
    try:
        # round 1: Ann takes the 3; round 2 ties on the ace: the 2 waits for round 3
        assert carried_per_game(con, Filters()).rows() == [(2, 1)]
        assert unclaimed_per_game(con, Filters()).height == 0
        scores = con.sql("SELECT player, score FROM game_players ORDER BY seat").fetchall()
        assert scores == [("Ann", 3), ("Bob", 0)]
        assert con.sql("SELECT unclaimed FROM games").fetchall() == [(None,)]
    finally:
        con.close()


def test_pool_distribution_of_finished_classic_games_only(tmp_path):
    """With no filter and only finished classic games, the prizes of the deck and the
    carried rounds alone give every pool (no game is matched): the same as counting the
    rounds, and the same as a filter keeping every game."""
    import duckdb

    from gops_records.core.importer import import_paths
    from gops_records.games.gops.notation import write_games
    from gops_records.games.gops.rules import RuleProfile, TieRule
    from gops_records.games.gops.simulate import simulate

    records = [*simulate(30, 3), *simulate(10, 4, RuleProfile(cards=7, players=3)),
               *simulate(10, 5, RuleProfile(tie_rule=TieRule.DISCARD))]
    (tmp_path / "done.gops").write_text(write_games(records), encoding="utf-8")
    import_paths([tmp_path / "done.gops"], tmp_path / "d.duckdb")
    with duckdb.connect(str(tmp_path / "d.duckdb"), read_only=True) as con:
        assert con.sql("SELECT bool_and(finished) FROM games").fetchall() == [(True,)]
        counted = con.sql("SELECT pool_value::INTEGER, len(pool_cards)::INTEGER, count(*) "
                          "FROM rounds GROUP BY ALL ORDER BY ALL").fetchall()
        assert any(cards > 2 for _, cards, _ in counted)  # carried pools of several ties
        got = pool_distribution(con, Filters())
        assert got.rows() == counted
        events = tuple(r[0] for r in con.sql("SELECT DISTINCT event FROM games").fetchall())
        assert pool_distribution(con, Filters(events=events)).equals(got)


def test_largest_pools_finds_a_king_with_nothing_carried(tmp_path):
    """A pool of the highest prize alone (carried_in = bound - MAX_RANK): the rounds' scan
    that drops rounds carrying in too little keeps it."""
    import duckdb

    from gops_records.core.importer import import_paths

    names = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    rounds = " ".join(f"{i}. {names[i - 1]} {names[i - 1]} {names[i % 13]}"
                      for i in range(1, 14))
    (tmp_path / "k.gops").write_text(f'[Event "K"] [A "Ann"] [B "Bob"] [Cards "13"]\n'
                                     f"{rounds}\n*\n", encoding="utf-8")
    import_paths([tmp_path / "k.gops"], tmp_path / "k.duckdb")
    with duckdb.connect(str(tmp_path / "k.duckdb"), read_only=True) as con:
        assert con.sql("SELECT max(carried_in) FROM rounds").fetchall() == [(0,)]
        top = largest_pools(con, Filters(), limit=1)  # the bound: this game's max_pool, 13
        assert top.select("round_no", "pool_value", "pool_cards", "winner").rows() == [
            (13, 13, "13", "Ann")]
