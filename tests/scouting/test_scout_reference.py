"""Scouting made faster says what it said before: each rewritten step against the code it
replaced, kept here verbatim as the reference.

- the situations: built from the stored rounds in numpy, against the DuckDB window query
  (commit 15312f7) on games of every shape (2-4 players, 9 and 13 cards, both tie rules,
  fixed prize orders, ``--vs``, a cut to the most recent games);
- the encoding: looked up by the hand's bit mask, against sorting each hand's cards into
  codes, bit for bit on random boards of every deck size.
"""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import numpy as np
import pytest

from gops_records.analytics import ALL_GAMES, list_players
from gops_records.importer import import_paths
from gops_records.rules import RuleProfile
from gops_records.scouting import model as scout_model
from gops_records.scouting.features import situation_masks
from gops_records.scouting.model import N_CODES, Board, Encoded, buckets, encode, view_codes
from gops_records.simulate import write_simulation

# -- the references (commit 15312f7) ------------------------------------------------------------

REFERENCE_SQL = """
WITH mine AS (
    SELECT gp.game_id, min(gp.seat) AS my_seat
    FROM game_players gp
    WHERE gp.player = $player
      AND ($vs IS NULL OR gp.game_id IN (SELECT game_id FROM game_players
                                         WHERE player = $vs AND player <> $player))
    GROUP BY gp.game_id
),
g AS (
    SELECT g.game_id, g.cards, g.tie_rule, g.n_players, g.prize_order, g.date, mine.my_seat,
           ((1::INTEGER << g.cards) - 1) << 1 AS deck
    FROM games g JOIN mine ON mine.game_id = g.game_id
    ORDER BY g.date DESC NULLS LAST, g.game_id
    LIMIT $max_games
),
r AS (
    SELECT r.game_id, r.round_no, r.prize, r.pool_value, r.carried_in,
           r.bid_a, r.bid_b, r.bid_c, r.bid_d,
           bit_or(1::INTEGER << r.prize) OVER upto AS revealed,
           coalesce(bit_or(1::INTEGER << r.bid_a) OVER before, 0) AS spent_a,
           coalesce(bit_or(1::INTEGER << r.bid_b) OVER before, 0) AS spent_b,
           coalesce(bit_or(1::INTEGER << r.bid_c) OVER before, 0) AS spent_c,
           coalesce(bit_or(1::INTEGER << r.bid_d) OVER before, 0) AS spent_d,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'A') OVER before, 0)
               AS score_a,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'B') OVER before, 0)
               AS score_b,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'C') OVER before, 0)
               AS score_c,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'D') OVER before, 0)
               AS score_d
    FROM rounds r SEMI JOIN g ON g.game_id = r.game_id
    WINDOW upto AS (PARTITION BY r.game_id ORDER BY r.round_no ROWS UNBOUNDED PRECEDING),
           before AS (PARTITION BY r.game_id ORDER BY r.round_no
                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
SELECT r.game_id, g.date, r.round_no, g.my_seat AS seat, g.cards, g.tie_rule, g.n_players,
       g.prize_order, r.prize, r.pool_value, r.carried_in,
       CASE g.my_seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b WHEN 'C' THEN r.bid_c
                      ELSE r.bid_d END AS bid,
       (g.deck & ~CASE g.my_seat WHEN 'A' THEN r.spent_a WHEN 'B' THEN r.spent_b
                                 WHEN 'C' THEN r.spent_c ELSE r.spent_d END)::SMALLINT
           AS hand_mask,
       (g.deck & ~r.revealed)::SMALLINT AS upcoming_mask,
       (g.deck & ~CASE WHEN g.my_seat = 'A' THEN r.spent_b ELSE r.spent_a END)::SMALLINT
           AS opp_1,
       (g.deck & ~CASE WHEN g.n_players < 3 THEN NULL
                       WHEN g.my_seat IN ('A', 'B') THEN r.spent_c ELSE r.spent_b END)::SMALLINT
           AS opp_2,
       (g.deck & ~CASE WHEN g.n_players < 4 THEN NULL
                       WHEN g.my_seat = 'D' THEN r.spent_c ELSE r.spent_d END)::SMALLINT
           AS opp_3,
       (CASE g.my_seat WHEN 'A' THEN r.score_a WHEN 'B' THEN r.score_b WHEN 'C' THEN r.score_c
                       ELSE r.score_d END
        - greatest(
                    CASE WHEN g.my_seat <> 'A' THEN r.score_a END,
                    CASE WHEN g.my_seat <> 'B' THEN r.score_b END,
                    CASE WHEN g.my_seat <> 'C' AND g.n_players > 2 THEN r.score_c END,
                    CASE WHEN g.my_seat <> 'D' AND g.n_players > 3 THEN r.score_d END
        ))::INTEGER AS score_diff
FROM r JOIN g ON g.game_id = r.game_id
ORDER BY g.date NULLS FIRST, r.game_id, r.round_no
"""


def reference_encode(board: Board, fitting: bool = True) -> Encoded:
    """encode() as it was: every hand's cards sorted into codes, then counted."""
    codes = view_codes(board)
    bucket = buckets(board.prize_index, board.prizes_left, board.pool_value, board.cards)
    size = board.hand.sum(axis=1)
    rows = np.arange(len(bucket))[:, None]
    mult, present, uniform = {}, {}, {}
    for view, c in codes.items():
        if view == "offset":
            mult[view] = (c >= 0).astype(float)
            if not fitting:
                continue
        hist = scout_model._histogram(c, N_CODES[view])
        mult[view] = np.where(c >= 0, hist[rows, np.maximum(c, 0)], 0.0)
        if fitting:
            present[view] = (hist > 0).astype(float)
            uniform[view] = hist / np.maximum(size, 1)[:, None]
    return Encoded(board.hand, bucket, size, codes, mult, present, uniform)


# -- databases of every shape -------------------------------------------------------------------

SHAPES = {
    "two-carry": (120, 31, {}),
    "three-discard": (60, 32, {"players": 3, "tie_rule": "discard"}),
    "four-nine-cards": (40, 33, {"players": 4, "cards": 9}),
    "descending-five": (60, 34, {"prize_order": "descending", "cards": 5}),
}


@pytest.fixture(scope="module", params=sorted(SHAPES))
def shaped_db(request, tmp_path_factory) -> Path:
    games, seed, rules = SHAPES[request.param]
    tmp = tmp_path_factory.mktemp("scoutref")
    path = tmp / "games.gops"
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, RuleProfile(**rules))
    db = tmp / "games.duckdb"
    import_paths([path], db)
    return db


def test_situations_as_the_window_query_built_them(shaped_db):
    con = duckdb.connect(str(shaped_db), read_only=True)
    try:
        players = list_players(con, ALL_GAMES)
        for player in players:
            for vs, cut in ((None, 5000), (None, 3), (players[0], 5000), (players[-1], 2)):
                if vs == player:
                    continue
                params = {"player": player, "vs": vs, "max_games": cut}
                expected = con.sql(REFERENCE_SQL, params=params).pl()
                got = situation_masks(con, player, vs, cut)
                assert got.schema == expected.schema
                assert got.equals(expected), (player, vs, cut)
    finally:
        con.close()


def _random_boards(rng: random.Random, n: int, count: int) -> Board:
    rows = []
    for _ in range(count):
        size = rng.randint(1, n)
        hand = sorted(rng.sample(range(1, n + 1), size))
        prizes = sorted(rng.sample(range(1, n + 1), size))
        prize = rng.choice(prizes)
        rows.append(Board.single(prize, prize + rng.choice([0, 0, 3, 11, 30]), hand,
                                 [p for p in prizes if p != prize], n))
    return Board(*(np.concatenate([getattr(b, f) for b in rows])
                   for f in ("hand", "prize", "pool_value", "cards", "prize_index",
                             "prizes_left")))


def assert_same_encoding(a: Encoded, b: Encoded) -> None:
    assert np.array_equal(a.hand, b.hand)
    for name in ("bucket", "hand_size"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    for name in ("codes", "mult", "present", "uniform"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.keys() == y.keys(), name
        for view in x:
            assert x[view].dtype == y[view].dtype, (name, view)
            assert np.array_equal(x[view], y[view]), (name, view)   # bit for bit


@pytest.mark.parametrize("cards", [1, 2, 5, 9, 13])
def test_encoding_bit_for_bit(cards):
    board = _random_boards(random.Random(cards), cards, 600)
    for fitting in (True, False):
        assert_same_encoding(encode(board, fitting), reference_encode(board, fitting))


def test_encoding_of_recorded_situations(sim_con):
    from gops_records.scouting.features import Situations
    s = Situations.from_frame(situation_masks(sim_con, "Anna de Vries"))
    board = Board.of(s)
    assert_same_encoding(encode(board), reference_encode(board))
