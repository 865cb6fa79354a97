"""Ann's bidding in the club database, worked out round by round (see conftest).

Ann's bids, as (prize, bid) per round; the last round of each game is forced:
G1 (4 cards) (3,2) (1,4) (4,1) (2,3)      G2 (4,4) (2,1) (1,3) (3,2)
G3           (1,1) (2,2) (3,3) (4,4)      G4 (2,4) (4,1) (1,2) (3,3)
G6 (3 cards) (1,3) (3,1) (2,2)
"""

from __future__ import annotations

import pytest

from gops_records.core.stats import wilson
from gops_records.games.gops.analytics import (
    Filters,
    bid_habits,
    bid_heatmap,
    bid_minus_prize,
    carry_effect,
    player_bidding,
    relative_bids,
)

NOT_G6 = Filters(events=("Club", "Other"))  # G1-G5: leaves out the 4-player game


def test_bid_heatmap_counts_and_row_shares(con):
    out = bid_heatmap(con, NOT_G6, "Ann")
    assert out.columns == ["prize", "bid", "count", "row_share"]
    assert out.select("prize", "bid", "count").rows() == [
        (1, 1, 1), (1, 2, 1), (1, 3, 1), (1, 4, 1),
        (2, 1, 1), (2, 2, 1), (2, 3, 1), (2, 4, 1),
        (3, 2, 2), (3, 3, 2),
        (4, 1, 2), (4, 4, 2),
    ]
    assert out["row_share"].to_list() == [0.25] * 8 + [0.5] * 4


def test_bid_heatmap_follows_filters(con):
    out = bid_heatmap(con, Filters(tie_rule="discard", n_players=2), "Ann")  # G3 only
    assert out.rows() == [(1, 1, 1, 1.0), (2, 2, 1, 1.0), (3, 3, 1, 1.0), (4, 4, 1, 1.0)]
    assert bid_heatmap(con, Filters(), "Nobody").height == 0


def test_bid_minus_prize(con):
    out = bid_minus_prize(con, NOT_G6, "Ann")
    assert out.rows() == [(1, 4, 1.5), (2, 4, 0.5), (3, 4, -0.5), (4, 4, -1.5)]


def test_relative_bids_in_two_halves(con):
    # Unforced bids only: 14. Rank fractions, e.g. G1 r1: prize 3 is 3rd of {1,2,3,4} (2/3),
    # bid 2 is 2nd of {1,2,3,4} (1/3); G1 r2: prize 1 lowest of {1,2,4}, bid 4 highest of {1,3,4}.
    out = relative_bids(con, Filters(), "Ann", buckets=2)
    assert out.columns == ["prize_rel_rank", "bid_rel_rank", "count"]
    assert out.rows() == [(1, 1, 4), (1, 2, 4), (2, 1, 5), (2, 2, 1)]


def test_relative_bids_in_fifths(con):
    out = relative_bids(con, Filters(), "Ann")
    assert out.rows() == [(1, 1, 4), (1, 5, 3), (2, 5, 1), (3, 1, 1), (4, 2, 1), (5, 1, 3),
                          (5, 5, 1)]
    with pytest.raises(ValueError, match="buckets"):
        relative_bids(con, Filters(), "Ann", buckets=0)


def test_bid_habits(con):
    out = bid_habits(con, Filters(), "Ann")
    assert out.columns == ["habit", "phase", "k", "n", "rate", "ci_low", "ci_high", "uniform",
                           "design_effect"]
    got = {(r["habit"], r["phase"]): (r["k"], r["n"]) for r in out.iter_rows(named=True)}
    assert len(got) == 16
    # exact_prize counts only rounds where Ann still held the prize's card.
    assert got[("exact_prize", "all")] == (4, 9)
    assert got[("prize_plus_one", "all")] == (1, 9)      # G4 r3: prize 1, bid 2
    assert got[("highest_remaining", "all")] == (5, 14)
    assert got[("lowest_remaining", "all")] == (8, 14)
    # Thirds of a 4-card game: round 1 early, 2 middle, 3 late (4 is forced); 3 cards: 1, 2, 3.
    assert got[("exact_prize", "early")] == (2, 5)
    assert got[("exact_prize", "middle")] == (1, 3)
    assert got[("exact_prize", "late")] == (1, 1)
    assert got[("prize_plus_one", "early")] == (0, 4)
    assert got[("prize_plus_one", "middle")] == (0, 2)
    assert got[("prize_plus_one", "late")] == (1, 3)
    assert got[("highest_remaining", "early")] == (3, 5)
    assert got[("highest_remaining", "middle")] == (1, 5)
    assert got[("highest_remaining", "late")] == (1, 4)
    assert got[("lowest_remaining", "early")] == (1, 5)
    assert got[("lowest_remaining", "middle")] == (4, 5)
    assert got[("lowest_remaining", "late")] == (3, 4)
    row = out.row(0, named=True)
    assert (row["habit"], row["phase"]) == ("exact_prize", "all")
    assert row["rate"] == pytest.approx(4 / 9)
    # game-clustered: never narrower than Wilson's
    assert row["design_effect"] >= 1.0
    low, high = wilson(4, 9)
    assert row["ci_low"] <= low + 1e-12 and row["ci_high"] >= high - 1e-12


def test_bid_habits_of_a_player_without_bids(con):
    out = bid_habits(con, Filters(events=("Four",)), "Nobody")
    assert out.height == 16
    assert out["n"].sum() == 0
    assert out["rate"].null_count() == 16


def test_carry_effect(con):
    out = carry_effect(con, Filters(), "Ann")
    assert out.columns[:7] == ["pool", "n", "mean_bid", "mean_bid_minus_prize", "rate_highest",
                               "ci_low", "ci_high"]
    carried, single = out.rows(named=True)
    # Carried pools (unforced): G1 r2 (bid 4, prize 1), G2 r2 (1, 2), G2 r3 (3, 1), G4 r2 (1, 4).
    assert carried["pool"] == "carried pool"
    assert (carried["n"], carried["mean_bid"], carried["mean_bid_minus_prize"]) == (4, 2.25, 0.25)
    assert carried["rate_highest"] == 0.5
    assert carried["design_effect"] >= 1.0
    low, high = wilson(2, 4)
    assert carried["ci_low"] <= low + 1e-12 and carried["ci_high"] >= high - 1e-12
    assert single["pool"] == "single prize"
    assert single["n"] == 10
    assert single["mean_bid"] == pytest.approx(2.3)
    assert single["mean_bid_minus_prize"] == pytest.approx(-0.1)
    assert single["rate_highest"] == pytest.approx(0.3)


def test_carry_effect_without_carried_pools(con):
    out = carry_effect(con, Filters(tie_rule="discard"), "Ann")
    assert out["pool"].to_list() == ["carried pool", "single prize"]
    assert out["n"].to_list() == [0, 5]
    assert out.row(0, named=True)["rate_highest"] is None


@pytest.mark.parametrize("f", [Filters(), NOT_G6, Filters(tie_rule="discard"),
                               Filters(events=("Nowhere",))])
def test_player_bidding_matches_the_single_functions(con, f):
    together = player_bidding(con, f, "Ann", buckets=3)
    assert together["bid_heatmap"].equals(bid_heatmap(con, f, "Ann"))
    assert together["bid_minus_prize"].equals(bid_minus_prize(con, f, "Ann"))
    assert together["relative_bids"].equals(relative_bids(con, f, "Ann", buckets=3))
    assert together["bid_habits"].equals(bid_habits(con, f, "Ann"))
    assert together["carry_effect"].equals(carry_effect(con, f, "Ann"))
    # the temporary table is gone afterwards
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() == [(0,)]


def test_the_design_effect_is_measured_on_every_game(con):
    """The design effect comes from every game of the player, whether the groups are read
    as the loader kept them (no filter) or computed from the bids (a filter keeping the
    same games)."""
    import numpy as np

    from gops_records.core.stats import clustered_rate
    from gops_records.games.gops.analytics import list_events

    rows = con.sql("""SELECT b.game_id, b.round_no, r.prize, b.bid, g.cards
                      FROM bids b JOIN rounds r USING (game_id, round_no)
                      JOIN games g USING (game_id)
                      WHERE b.player = 'Ann' ORDER BY b.game_id, b.round_no""").fetchall()
    per_game: dict[int, list[int]] = {}
    spent: dict[int, set[int]] = {}
    for game, round_no, prize, bid, cards in rows:
        held = spent.setdefault(game, set())
        k_n = per_game.setdefault(game, [0, 0])
        if round_no < cards and prize not in held:     # unforced, still holds the prize
            k_n[0] += bid == prize
            k_n[1] += 1
        held.add(bid)
    ids = sorted(per_game)
    assert len(ids) == 5
    every = clustered_rate(*np.array([per_game[g] for g in ids]).T)
    full = bid_habits(con, Filters(), "Ann").row(0, named=True)  # exact_prize, all
    assert full["design_effect"] == pytest.approx(every.design_effect)
    same_games = Filters(events=tuple(list_events(con)))
    live = bid_habits(con, same_games, "Ann").row(0, named=True)
    assert (live["k"], live["n"], live["rate"]) == (full["k"], full["n"], full["rate"])
    assert live["design_effect"] == pytest.approx(every.design_effect)
    some = clustered_rate(*np.array([per_game[g] for g in ids[:3]]).T)
    assert every.design_effect != pytest.approx(some.design_effect)  # the games matter
