"""The Players page's bidding frames against the window-function query they replaced.

``gops_records.games.gops.analytics.bidding`` used to compute each bid's hand facts with a DuckDB
window over the player's rounds (cards spent and prizes shown before the bid, as running
bit masks) and to group the bids in SQL. It now fetches the bids and does both in numpy,
because the window was most of a Players pick at 1,000,000 games. The old query is kept
here, verbatim, as the reference: on simulated games of every shape (2-4 players, 9 and
13 cards, both tie rules, fixed prize orders, unfinished games)
the grouped bids, the cluster sums and every frame must come out the same, both as the
loader keeps them (``player_bid_groups``, read when the filters keep all of a player's
games) and as computed from the bids (any other filter).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from gops_records.core.importer import import_paths
from gops_records.core.store.db import run
from gops_records.games.gops.analytics import ALL_GAMES, Filters, bidding, list_events, list_players
from gops_records.games.gops.analytics.filters import games_cte
from gops_records.games.gops.hand_facts import cluster_frame, group_frame
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.simulate import write_simulation

# -- the reference: the query as it was (commit 15312f7), placeholders named ----------------


def _reference_hands(f: Filters, player: str) -> tuple[str, list]:
    scope, params = games_cte(f, "g.game_id, g.cards")
    sql = f"""{scope},
    seats AS (
        SELECT p.game_id, (ascii(p.seat) - 65)::UTINYINT AS seat_no, fg.cards,
               TRUE AS sampled  -- the design effect reads every game (it read 5,000 once)
        FROM game_players p JOIN fg USING (game_id) WHERE p.player = ?
    ),
    pb AS (
        SELECT r.game_id, s.seat_no, r.round_no,
               CASE s.seat_no WHEN 0 THEN r.bid_a WHEN 1 THEN r.bid_b
                              WHEN 2 THEN r.bid_c ELSE r.bid_d END AS bid,
               r.prize, r.carried_in, r.pool_value, s.cards, s.sampled
        FROM rounds r JOIN seats s USING (game_id)
    ),
    masks AS (
        SELECT *,
               sum(1::BIGINT << bid) OVER w - (1::BIGINT << bid) AS spent,
               sum(1::BIGINT << prize) OVER w - (1::BIGINT << prize) AS shown
        FROM pb
        WINDOW w AS (PARTITION BY game_id, seat_no ORDER BY round_no)
    ),
    hb AS MATERIALIZED (
        SELECT game_id, round_no, bid, prize, carried_in, pool_value, cards,
               cards - round_no + 1 AS hand_size,
               cards - round_no + 1 = 1 AS forced,
               bid - 1 - bit_count(spent & ((1::BIGINT << bid) - 1)) AS below_bid,
               prize - 1 - bit_count(shown & ((1::BIGINT << prize) - 1)) AS below_prize,
               (spent >> prize) & 1 = 0 AS has_prize,
               prize < cards AND (spent >> (prize + 1)) & 1 = 0 AS has_prize1,
               ceil(3.0 * round_no / cards)::INTEGER AS phase, sampled
        FROM masks
    )"""
    return sql, [*params, player]


_REFERENCE_GROUPS = """
    SELECT prize::INTEGER AS prize, bid::INTEGER AS bid, phase, forced, has_prize,
           has_prize1, below_bid = hand_size - 1 AS highest, below_bid = 0 AS lowest,
           carried_in > 0 AS carried,
           CASE WHEN NOT forced
                THEN least((below_prize * $b) // (hand_size - 1), $b - 1)::INTEGER + 1
           END AS prize_rel_rank,
           CASE WHEN NOT forced
                THEN least((below_bid * $b) // (hand_size - 1), $b - 1)::INTEGER + 1
           END AS bid_rel_rank,
           count(*) AS n, sum(pool_value)::BIGINT AS pool_sum,
           sum(360360 // hand_size)::BIGINT AS uniform_sum
    FROM hb GROUP BY ALL"""

_REFERENCE_CLUSTERS = """,
    per_game AS (
        SELECT game_id,
               CASE WHEN GROUPING(phase) = 0 THEN phase
                    WHEN GROUPING(carried) = 0 THEN 10 + carried::INTEGER ELSE 0 END AS part,
               count(*) FILTER (has_prize) AS n_exact,
               count(*) FILTER (has_prize AND bid = prize) AS k_exact,
               count(*) FILTER (has_prize1) AS n_plus,
               count(*) FILTER (has_prize1 AND bid = prize + 1) AS k_plus,
               count(*) AS n_all,
               count(*) FILTER (below_bid = hand_size - 1) AS k_high,
               count(*) FILTER (below_bid = 0) AS k_low
        FROM (SELECT *, carried_in > 0 AS carried FROM hb WHERE sampled AND NOT forced)
        GROUP BY GROUPING SETS ((game_id, phase), (game_id), (game_id, carried))
    )
    SELECT part, {sums} FROM per_game GROUP BY part"""

_PAIRS = {"exact_prize": ("n_exact", "k_exact"), "prize_plus_one": ("n_plus", "k_plus"),
          "highest_remaining": ("n_all", "k_high"), "lowest_remaining": ("n_all", "k_low")}


def _reference_sums() -> str:
    out = []
    for habit, (n, k) in _PAIRS.items():
        out += [f"sum({k})::BIGINT AS k_{habit}", f"sum({n})::BIGINT AS n_{habit}",
                f"sum({k} * {k})::BIGINT AS kk_{habit}", f"sum({n} * {n})::BIGINT AS nn_{habit}",
                f"sum({k} * {n})::BIGINT AS kn_{habit}",
                f"count(*) FILTER ({n} > 0) AS games_{habit}"]
    return ", ".join(out)


def reference(con: duckdb.DuckDBPyConnection, f: Filters, player: str, buckets: int
              ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The grouped bids and the per-part cluster sums, as the window query made them."""
    hands, params = _reference_hands(f, player)
    named = {f"p{i}": v for i, v in enumerate(params)}
    sql = hands
    for i in range(len(params)):  # positional ? -> $p0, $p1, ... so $b can be named too
        sql = sql.replace("?", f"$p{i}", 1)
    groups = con.sql(f"WITH {sql} {_REFERENCE_GROUPS}", params={**named, "b": buckets}).pl()
    clusters = run(con, f"WITH {hands}{_REFERENCE_CLUSTERS.format(sums=_reference_sums())}",
                   params)
    return groups, clusters


# -- the comparison ------------------------------------------------------------------------


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(frame.columns, nulls_last=True)


def _clusters_by_part(frame: pl.DataFrame) -> dict[int, dict]:
    """Part -> its sums, with parts that have no bids left out (all sums zero)."""
    out = {}
    for row in frame.iter_rows(named=True):
        part = row.pop("part")
        if any(row.values()):
            out[part] = row
    return out


def _live(con: duckdb.DuckDBPyConnection, f: Filters, player: str, buckets: int
          ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The groups and cluster sums computed from the bids, never read as stored."""
    facts = bidding._read_facts(con, f, player)
    return group_frame(facts, buckets).drop("who"), cluster_frame(facts).drop("who")


def assert_same(con: duckdb.DuckDBPyConnection, f: Filters, player: str, buckets: int = 5
                ) -> None:
    ref_groups, ref_clusters = reference(con, f, player, buckets)
    groups, clusters = bidding._groups_and_clusters(con, f, player, buckets)
    live_groups, live_clusters = _live(con, f, player, buckets)
    assert groups.schema == ref_groups.schema == live_groups.schema
    assert _sorted(groups).equals(_sorted(ref_groups)), (player, f)
    assert groups.equals(live_groups), (player, f)  # stored or not: the same, in key order
    assert _sorted(bidding._groups(con, f, player, buckets)).equals(_sorted(ref_groups))
    assert _clusters_by_part(clusters) == _clusters_by_part(ref_clusters), (player, f)
    assert _clusters_by_part(live_clusters) == _clusters_by_part(ref_clusters), (player, f)
    # every frame the page shows, from the reference groups through the same summing code
    frames = bidding.player_bidding(con, f, player, buckets)
    expected = {
        "bid_heatmap": bidding._heatmap(ref_groups),
        "bid_minus_prize": bidding._minus(ref_groups),
        "relative_bids": bidding._relative(ref_groups),
        "bid_habits": bidding._habit_table(bidding._habit_counts(ref_groups), ref_clusters),
        "carry_effect": bidding._carry_table(bidding._carry(ref_groups), ref_clusters),
    }
    for name, frame in expected.items():
        assert frames[name].equals(frame), (name, player, f)


def _simulated(tmp: Path, name: str, games: int, seed: int, **rules) -> Path:
    path = tmp / f"{name}.gops"
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, RuleProfile(**rules))
    db = tmp / f"{name}.duckdb"
    import_paths([path], db)
    return db


SHAPES = {
    "two-carry": {"games": 80, "seed": 21},
    "three-discard": {"games": 50, "seed": 22, "players": 3, "tie_rule": "discard"},
    "four-nine-cards": {"games": 40, "seed": 23, "players": 4, "cards": 9},
    "ascending": {"games": 40, "seed": 24, "prize_order": "ascending", "cards": 7},
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def shaped_db(request, tmp_path_factory) -> Path:
    return _simulated(tmp_path_factory.mktemp("bidref"), request.param,
                      **SHAPES[request.param])


def test_every_player_and_filter_as_the_window_query_said(shaped_db):
    con = duckdb.connect(str(shaped_db), read_only=True)
    try:
        players = list_players(con, ALL_GAMES)
        event = list_events(con)[0]
        for player in players:
            assert_same(con, ALL_GAMES, player)
        for player in players[:3]:
            assert_same(con, Filters(events=(event,)), player, buckets=3)
            assert_same(con, ALL_GAMES, player, buckets=1)
        assert_same(con, ALL_GAMES, "Nobody")
    finally:
        con.close()


def test_the_hand_checked_club_games(con):
    """The analytics conftest's games: 3 and 4 cards, 2-4 players, an unfinished game."""
    for player in ("Ann", "Bob", "Cid", "Dee"):
        for f in (ALL_GAMES, Filters(tie_rule="discard"), Filters(events=("Club",))):
            assert_same(con, f, player)
            assert_same(con, f, player, buckets=2)


def test_one_player_in_two_seats(tmp_path):
    """A record may seat one name twice: each seat's bids follow that seat's own hand, and
    the game is one cluster for the design effect."""
    text = ('[Event "Twice"] [Date "2026.03.01"] [A "Ann"] [B "Ann"] [Cards "3"]\n'
            "1. 2 A 3 2. 3 3 2 3. A 2 A\n4-2\n\n"
            '[Event "Twice"] [Date "2026.03.02"] [A "Ann"] [B "Bob"] [Cards "3"]\n'
            "1. 3 3 2 2. A 2 A 3. 2 A 3\n4-2\n")
    (tmp_path / "twice.gops").write_text(text, encoding="utf-8")
    db = tmp_path / "twice.duckdb"
    summary = import_paths([tmp_path / "twice.gops"], db)
    assert summary.games_new == 2, summary.as_dict()
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert_same(con, ALL_GAMES, "Ann")
        assert int(bidding.player_bidding(con, ALL_GAMES, "Ann")["bid_heatmap"]["count"]
                   .sum()) == 9
    finally:
        con.close()
