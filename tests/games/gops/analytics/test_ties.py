"""Tie figures of the club database, counted by hand (see conftest for the games)."""

from __future__ import annotations

import pytest

from gops_records.core.stats import wilson
from gops_records.games.gops.analytics import (
    Filters,
    final_ties,
    tie_streaks,
    tie_summary,
    ties_by_pair,
    ties_by_round,
)

CLUSTERED = ["rate", "ci_low", "ci_high", "games", "design_effect"]


def test_tie_summary_by_rule_and_overall(con):
    out = tie_summary(con, Filters())
    assert out.columns == ["tie_rule", "rounds", "ties", *CLUSTERED]
    rows = {r["tie_rule"]: (r["rounds"], r["ties"]) for r in out.iter_rows(named=True)}
    # carry: G1 (1 tie), G2 (2), G4 (1), G5 (1) over 4+4+4+2 rounds; discard: G3 (2), G6 (1).
    assert rows == {"carry": (14, 5), "discard": (7, 3), "all": (21, 8)}
    assert out["tie_rule"].to_list()[-1] == "all"
    last = out.row(-1, named=True)
    assert last["rate"] == pytest.approx(8 / 21)
    # per game (ties, rounds): (1,4) (2,4) (2,4) (1,4) (1,2) (1,3): the games differ less
    # than independent rounds would (cluster variance 0.0029 < binomial 0.0112), so the
    # design effect is held at 1 and the interval is Wilson's: never narrower than that.
    assert last["games"] == 6 and last["design_effect"] == 1.0
    assert (last["ci_low"], last["ci_high"]) == pytest.approx(wilson(8, 21))


def test_tie_summary_follows_filters(con):
    out = tie_summary(con, Filters(events=("Club",), finished_only=True))
    rows = {r["tie_rule"]: (r["rounds"], r["ties"]) for r in out.iter_rows(named=True)}
    assert rows == {"carry": (8, 3), "discard": (4, 2), "all": (12, 5)}


def test_ties_by_round(con):
    out = ties_by_round(con, Filters())
    assert out.columns == ["round_no", "rounds", "ties", *CLUSTERED]
    assert out.select("round_no", "rounds", "ties", "games").rows() == [
        (1, 6, 5, 6), (2, 6, 1, 6), (3, 5, 1, 5), (4, 4, 1, 4)]
    assert out["rate"].to_list()[0] == pytest.approx(5 / 6)
    # one trial per game: the design effect is G / (G - 1) exactly
    assert out["design_effect"].to_list()[:3] == pytest.approx([6 / 5, 6 / 5, 5 / 4])


def _pairs(out) -> dict[tuple[str, str], tuple[int, int]]:
    return {(r["player"], r["opponent"]): (r["rounds"], r["ties"])
            for r in out.iter_rows(named=True)}


def test_ties_by_pair_counts_only_players_sharing_the_top_bid(con):
    out = ties_by_pair(con, Filters())
    assert out.columns == ["player", "opponent", "rounds", "ties", *CLUSTERED]
    got = _pairs(out)
    # G4 round 3: Ann and Bob both bid 2 but Cid's 3 is higher, so no tie between them.
    expected = {("Ann", "Bob"): (15, 5), ("Ann", "Cid"): (11, 2), ("Bob", "Cid"): (9, 1),
                ("Ann", "Dee"): (3, 0), ("Bob", "Dee"): (3, 0), ("Cid", "Dee"): (3, 0)}
    for (p, o), value in expected.items():
        assert got[(p, o)] == value
        assert got[(o, p)] == value
    assert len(got) == 12
    assert out.row(0, named=True)["rounds"] == 15  # most rounds first
    games = {(r["player"], r["opponent"]): r["games"] for r in out.iter_rows(named=True)}
    assert games[("Ann", "Bob")] == games[("Bob", "Ann")] == 4  # G1, G2, G4, G6
    assert games[("Cid", "Dee")] == 1


def test_ties_by_pair_with_filter(con):
    out = ties_by_pair(con, Filters(finished_only=True, n_players=2))
    got = _pairs(out)
    assert got == {("Ann", "Bob"): (8, 3), ("Bob", "Ann"): (8, 3),
                   ("Ann", "Cid"): (4, 2), ("Cid", "Ann"): (4, 2)}


def test_tie_streaks(con):
    # Lone ties: G1 r1, G4 r1, G5 r1, G6 r1; runs of two: G2 r1-2, G3 r3-4.
    assert tie_streaks(con, Filters()).rows() == [(1, 4), (2, 2)]
    assert tie_streaks(con, Filters(tie_rule="discard")).rows() == [(1, 1), (2, 1)]


def test_final_ties(con):
    out = final_ties(con, Filters())
    assert out["games"] == 5 and out["games_ending_on_tie"] == 1  # only G3 ends on a tie
    assert out["rate"] == pytest.approx(0.2)
    assert out["ci"] == pytest.approx(wilson(1, 5))
    assert out["mean_unclaimed"] == pytest.approx((7 + 1) / 5)
    assert out["mean_pool_left"] == pytest.approx(4.0)
    carry = final_ties(con, Filters(tie_rule="carry"))
    assert (carry["games"], carry["games_ending_on_tie"], carry["mean_pool_left"]) == (3, 0, None)


def test_final_ties_without_reading_rounds_agrees_with_reading_them(tmp_path):
    """Carry games of one prize a round that ended on a tie left their last pool unclaimed:
    final_ties takes it from games.unclaimed in one pass over the games, the same as
    reading the last rounds."""
    import duckdb

    from gops_records.core.importer import import_paths
    from gops_records.games.gops.analytics.ties import _final_ties_reading_rounds
    from gops_records.games.gops.notation import write_games
    from gops_records.games.gops.rules import RuleProfile
    from gops_records.games.gops.simulate import simulate

    records = [*simulate(80, 11), *simulate(20, 12, RuleProfile(cards=5, players=3))]
    (tmp_path / "c.gops").write_text(write_games(records), encoding="utf-8")
    import_paths([tmp_path / "c.gops"], tmp_path / "c.duckdb")
    with duckdb.connect(str(tmp_path / "c.duckdb"), read_only=True) as con:
        players = con.sql("SELECT DISTINCT player FROM game_players ORDER BY 1").fetchall()
        some = tuple(p for (p,) in players[:4])
        for f in (Filters(), Filters(players=some), Filters(n_players=3)):
            got = final_ties(con, f)
            assert got["games_ending_on_tie"] > 0, f
            read = _final_ties_reading_rounds(con, f)
            assert (got["games"], got["games_ending_on_tie"], got["mean_unclaimed"],
                    got["mean_pool_left"]) == (read["games"], read["ending_on_tie"],
                                               read["mean_unclaimed"], read["mean_pool_left"])


def test_tie_streaks_of_any_masks_count_the_runs_of_tied_rounds():
    """Runs counted from the masks' bits at once, against reading each mask's binary
    digits (every 13-round mask, some several times, and the full 16 bits)."""
    import random
    import re
    from collections import Counter

    import polars as pl

    from gops_records.games.gops.analytics import tie_streaks_of

    rng = random.Random(5)
    masks = [*range(1 << 13), 0xFFFF, 0x8001, 0x7FFF]
    games = [rng.randrange(1, 40) for _ in masks]
    shapes = pl.DataFrame({"part": "ties", "tie_rule": "carry", "rounds_played": 13, "ties": 0,
                           "tie_mask": masks, "games": games},
                          schema_overrides={"tie_mask": pl.Int32})
    expected: Counter[int] = Counter()
    for mask, n in zip(masks, games, strict=True):
        for run in re.findall("1+", bin(mask)):
            expected[len(run)] += n
    assert tie_streaks_of(shapes).rows() == sorted(expected.items())
    other = shapes.with_columns(pl.lit("carried").alias("part"))  # another part: no runs
    assert tie_streaks_of(other).height == 0
