"""Scouting made faster says what it said before: each rewritten step against the code it
replaced, kept here verbatim as the reference.

- the situations: built from the stored rounds in numpy, against the DuckDB window query
  (commit 15312f7) on games of every shape (2-4 players, 9 and 13 cards, both tie rules,
  fixed prize orders, ``--vs``, a cut to the most recent games);
- the encoding: looked up by the hand's bit mask, against sorting each hand's cards into
  codes, bit for bit on random boards of every deck size;
- the assignment (the batched Hungarian method): the same plan as the textbook loop on
  tables full of ties (the tie-breaking decides which of two equal cards is bid);
- the cross-validation (folds predicted in one pass, leave-one-out normalisers summed per
  group of equal rows): the same probabilities and models, bit for bit;
- the counter's simulations (equal situations planned once): the same games, gains,
  intervals, shares and fold exploits;
- the saddlepoint tail of a habit's p-value: its bisection stops once it stops changing;
- the speed-ups of issue 12, each bit for bit: the leave-one-out's groups (one sort, not
  np.unique), equal planning states grouped by one integer key, the pool-size buckets
  (thresholds counted, not np.select), the predictions (a zero column for the cards not
  held, no mask), the counter's margins (flat gathers), the habits' counts (one running
  count of the hand) and the chart's sums (one bincount, not np.add.at).
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import duckdb
import numpy as np
import pytest

from gops_records.core.importer import import_paths
from gops_records.games.gops.analytics import ALL_GAMES, list_players
from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.scouting import counter
from gops_records.games.gops.scouting import model as scout_model
from gops_records.games.gops.scouting.counter import assign_max, counter_strategy
from gops_records.games.gops.scouting.evaluate import HeldOut, game_folds, held_out
from gops_records.games.gops.scouting.features import Situations, situation_masks
from gops_records.games.gops.scouting.habits import saddlepoint_tail
from gops_records.games.gops.scouting.model import (
    N_CODES,
    VIEWS,
    Board,
    Encoded,
    OpponentModel,
    ViewTable,
    buckets,
    encode,
    view_codes,
)
from gops_records.games.gops.scouting.report import profile_of
from gops_records.games.gops.simulate import write_simulation

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


def reference_assign_max(gain: np.ndarray | list) -> np.ndarray:
    """For each row the column it gets in a maximum-total assignment (-1: none).

    ``gain`` is one (n, m) table or a batch (B, n, m) of them, solved together: the
    Hungarian method (shortest augmenting paths with potentials, O(n^2 m)), each step
    done for every table of the batch at once, started from the row reduction. A
    wider-than-tall table is transposed.
    """
    g = np.asarray(gain, dtype=float)
    single = g.ndim == 2
    if single:
        g = g[None]
    batch, n, m = g.shape
    if n > m:
        cols = reference_assign_max(g.transpose(0, 2, 1))
        out = np.full((batch, n), -1, dtype=np.int64)
        b, j = np.nonzero(cols >= 0)
        out[b, cols[b, j]] = j
        return out[0] if single else out
    cost = -g
    # Start from the row reduction: u_i = min_j cost_ij, v = 0 (feasible), and match each
    # row to its cheapest column where no earlier row took it (a tight edge); only the
    # rows left free need a search for an augmenting path.
    u = np.zeros((batch, n + 1))
    u[:, 1:] = cost.min(axis=2)
    v = np.zeros((batch, m + 1))
    p = np.zeros((batch, m + 1), dtype=np.int64)   # p[:, j]: the row matched to column j
    way = np.zeros((batch, m + 1), dtype=np.int64)
    best = np.argmin(cost, axis=2)                                  # (batch, n)
    key = (np.arange(batch)[:, None] * m + best).ravel()
    first = np.zeros(batch * n, dtype=bool)
    first[np.unique(key, return_index=True)[1]] = True
    first = first.reshape(batch, n)
    b, i = np.nonzero(first)
    p[b, best[b, i] + 1] = i + 1
    for i in range(1, n + 1):
        p[:, 0] = i
        j0 = np.zeros(batch, dtype=np.int64)
        minv = np.full((batch, m + 1), np.inf)
        used = np.zeros((batch, m + 1), dtype=bool)
        active = np.flatnonzero(~first[:, i - 1])
        while len(active):
            a = active
            used[a, j0[a]] = True
            i0 = p[a, j0[a]]
            cur = cost[a, i0 - 1, :] - u[a, i0][:, None] - v[a, 1:]
            free = ~used[a, 1:]
            mv = minv[a, 1:]
            better = free & (cur < mv)
            minv[a, 1:] = np.where(better, cur, mv)
            way[a, 1:] = np.where(better, j0[a][:, None], way[a, 1:])
            candidates = np.where(free, minv[a, 1:], np.inf)
            j1 = np.argmin(candidates, axis=1) + 1
            delta = candidates[np.arange(len(a)), j1 - 1]
            in_tree = used[a]
            r, c = np.nonzero(in_tree)
            u[a[r], p[a[r], c]] += delta[r]
            v[a] -= np.where(in_tree, delta[:, None], 0.0)
            minv[a] -= np.where(in_tree, 0.0, delta[:, None])
            j0[a] = j1
            active = a[p[a, j1] != 0]
        going = np.flatnonzero(j0)
        while len(going):
            j1 = way[going, j0[going]]
            p[going, j0[going]] = p[going, j1]
            j0[going] = j1
            going = going[j1 != 0]
    out = np.full((batch, n), -1, dtype=np.int64)
    b, j = np.nonzero(p[:, 1:])
    out[b, p[b, j + 1] - 1] = j
    return out[0] if single else out


def reference_fit(s: Situations, enc: Encoded, rows: np.ndarray | None = None) -> OpponentModel:
    """OpponentModel.fit as it was: each bid's leave-one-out normaliser summed on its own."""
    at = np.arange(len(s)) if rows is None else np.flatnonzero(rows)
    weight = None if rows is None else np.asarray(rows, dtype=float)
    col = s.bid[at] - 1
    size = enc.hand_size[at]
    bucket = enc.bucket[at]
    tables = {}
    scores = [1.0 / size]
    for view in VIEWS:
        chosen = enc.codes[view][at, col]
        share = enc.uniform[view]
        uniform = share.sum(axis=0) if weight is None else np.einsum("i,ij->j", weight, share)
        table = ViewTable.fit(view, chosen, bucket, uniform)
        tables[view] = table
        scores.append(table.loo_chosen(chosen, enc.mult[view][at, col], bucket,
                                       enc.present[view], size, at))
    likelihood = np.column_stack(scores)
    return OpponentModel(tables, scout_model._em_weights(likelihood), len(at))


def reference_held_out(s: Situations, folds: int, seed: int, enc: Encoded) -> HeldOut:
    """held_out as it was: each fold fitted, then its games taken out and predicted."""
    k = max(2, min(folds, s.games))
    fold_of_game = game_folds(s.games, k, seed)
    fold = fold_of_game[s.game]
    probs = np.zeros(s.hand.shape)
    models = []
    for f in range(k):
        test = fold == f
        model = reference_fit(s, enc, rows=~test)
        probs[test] = model.predict(enc.take(test, fitting=False))
        models.append(model)
    return HeldOut(probs, k, fold_of_game, models)


def reference_bidder_call(self, table, rows, rng):
    """CounterBidder.__call__ as it was: every game planned, none shared."""
    hand = table.hands[rows, 0]
    size = hand.sum(axis=1)
    if int(size[0]) == 1:
        choice = np.argmax(hand, axis=1) + 1
    else:
        gain, cards, current = counter.margin_tables(self.models, self.model_of_game[rows],
                                                     table, rows)
        plan = reference_assign_max(gain)
        choice = cards[np.arange(len(rows)), np.argmax(plan == current[:, None], axis=1)]
    lowest = np.argmax(hand, axis=1) + 1
    highest = MAX_RANK - np.argmax(hand[:, ::-1], axis=1)
    kind = counter.kinds(choice, table.prize[rows], lowest, highest, size)
    np.add.at(self.tally, (self.model_of_game[rows], kind), 1)
    return choice


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
    s = Situations.from_frame(situation_masks(sim_con, "Anna de Vries"))
    board = Board.of(s)
    assert_same_encoding(encode(board), reference_encode(board))


# -- the assignment, the cross-validation and the counter's simulations -----------------------


def _tables(rng: np.random.Generator) -> list[np.ndarray]:
    """Batches of gain tables of every size, many with ties (small integers, equal rows,
    equal columns: the counter meets equal rows whenever the opponent holds no card
    between two of its cards), square, wide and tall."""
    out = []
    for n in range(1, 14):
        out += [rng.integers(0, 3, (150, n, n)).astype(float),
                rng.integers(-2, 2, (100, n, n + 2)).astype(float),
                rng.integers(0, 4, (100, n + 1, n)).astype(float),
                rng.random((100, n, n)),
                np.repeat(rng.random((60, n, 1)), n, axis=2),
                np.repeat(rng.random((60, 1, n)), n, axis=1)]
    return out


def test_the_assignment_as_the_textbook_loop_made_it():
    for gain in _tables(np.random.default_rng(8)):
        assert np.array_equal(assign_max(gain), reference_assign_max(gain)), gain.shape
    one = np.array([[1.0, 2.0], [3.0, 1.0]])
    assert assign_max(one).tolist() == reference_assign_max(one).tolist() == [1, 0]


@pytest.fixture(scope="module")
def studied(sim_db) -> dict[str, tuple[Situations, Encoded, object]]:
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        out = {}
        for name in ("Bruno Keller", "Anna de Vries", "Greta Olsen"):
            frame = situation_masks(con, name)
            if frame.height:
                s = Situations.from_frame(frame)
                out[name] = (s, encode(Board.of(s)), profile_of(frame))
        return out
    finally:
        con.close()


def test_cross_validation_as_fold_by_fold(studied):
    for s, enc, _ in studied.values():
        for folds, seed in ((5, 0), (3, 7), (2, 1)):
            new, old = held_out(s, folds, seed, enc), reference_held_out(s, folds, seed, enc)
            assert np.array_equal(new.probs, old.probs)              # bit for bit
            assert np.array_equal(new.fold_of_game, old.fold_of_game)
            for a, b in zip(new.models, old.models, strict=True):
                assert np.array_equal(a.mixture, b.mixture)
                for view in VIEWS:
                    assert np.array_equal(a.tables[view].freq, b.tables[view].freq)
            full = OpponentModel.fit(s, enc)
            assert np.array_equal(full.mixture, reference_fit(s, enc).mixture)


def test_counter_simulations_as_before(studied, monkeypatch):
    for s, enc, profile in studied.values():
        cv = held_out(s, 5, 3, enc)
        model = OpponentModel.fit(s, enc)
        new = counter_strategy(model, profile, 120, 3, cv.models, fold_games=40)
        with monkeypatch.context() as m:
            m.setattr(counter.CounterBidder, "__call__", reference_bidder_call)
            old = counter_strategy(model, profile, 120, 3, cv.models, fold_games=40)
        assert new == old            # every gain, interval, share and fold exploit exactly
        assert new.fold_exploits == old.fold_exploits and new.played == old.played


def test_situations_of_a_player_in_two_seats(tmp_path):
    """A record may seat one name twice: the situations follow the first seat, and the
    other seat counts as an opponent, as the window query had it."""
    text = ('[Event "Twice"] [Date "2026.03.01"] [A "Ann"] [B "Ann"] [Cards "3"]\n'
            "1. 2 A 3 2. 3 3 2 3. A 2 A\n4-2\n\n"
            '[Event "Twice"] [Date "2026.03.02"] [A "Bob"] [B "Ann"] [C "Ann"] [Cards "3"]\n'
            "1. 3 3 2 A 2. A 2 A 3 3. 2 A 3 2\n3-2-1\n")
    (tmp_path / "twice.gops").write_text(text, encoding="utf-8")
    db = tmp_path / "twice.duckdb"
    summary = import_paths([tmp_path / "twice.gops"], db)
    assert summary.games_new == 2, summary.as_dict()
    con = duckdb.connect(str(db), read_only=True)
    try:
        for player, vs in (("Ann", None), ("Ann", "Bob"), ("Bob", "Ann")):
            params = {"player": player, "vs": vs, "max_games": 5000}
            expected = con.sql(REFERENCE_SQL, params=params).pl()
            assert expected.height
            assert situation_masks(con, player, vs).equals(expected), (player, vs)
    finally:
        con.close()


def reference_saddlepoint_tail(k: int, values: np.ndarray, counts: np.ndarray) -> float:
    """P(X >= k) for X the sum of ``counts[i]`` Bernoulli(``values[i]``): the Lugannani-Rice
    saddlepoint formula with Daniels' continuity correction for a lattice variable.

    K(t) = sum m log(1 - p + p e^t) is the cumulant generating function; t solves
    K'(t) = k - 1/2, w = sign(t) sqrt(2 (t (k - 1/2) - K(t))), u = 2 sinh(t / 2)
    sqrt(K''(t)), and P(X >= k) ~ 1 - Phi(w) + phi(w) (1/u - 1/w).
    """
    sure = int(counts[values >= 1].sum())
    keep = (values > 0) & (values < 1)
    p, m = values[keep], counts[keep].astype(float)
    k -= sure
    if k <= 0:
        return 1.0
    if k > m.sum():
        return 0.0
    x = k - 0.5
    mean, var = float((m * p).sum()), float((m * p * (1 - p)).sum())

    def slope(t: float) -> float:  # K'(t), increasing in t
        e = p * math.exp(t)
        return float((m * e / (1 - p + e)).sum())

    lo, hi = -1.0, 1.0
    while slope(lo) > x:
        lo *= 2
    while slope(hi) < x:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if slope(mid) < x else (lo, mid)
    t = (lo + hi) / 2
    e = p * math.exp(t)
    cgf = float((m * np.log1p(p * math.expm1(t))).sum())
    curvature = float((m * e * (1 - p) / (1 - p + e) ** 2).sum())
    w2 = 2 * (t * x - cgf)
    if abs(t) < 1e-4 or w2 <= 0:  # at the mean: the normal, continuity-corrected
        return float(0.5 * math.erfc((x - mean) / math.sqrt(2 * var)))
    w = math.copysign(math.sqrt(w2), t)
    u = 2 * math.sinh(t / 2) * math.sqrt(curvature)
    tail = 0.5 * math.erfc(w / math.sqrt(2))
    density = math.exp(-w * w / 2) / math.sqrt(2 * math.pi)
    return float(min(1.0, max(0.0, tail + density * (1 / u - 1 / w))))


def test_the_saddlepoint_tail_stops_where_it_stopped_changing():
    """The bisection ends once a step leaves it where it was; the tail is the one the
    100 steps gave (a habit's p-value beyond EXACT_UP_TO situations)."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        values = np.unique(np.round(rng.random(rng.integers(1, 6)), 3))
        counts = rng.integers(1, 3000, len(values))
        k = int(rng.integers(0, counts.sum() + 2))
        assert saddlepoint_tail(k, values, counts) == reference_saddlepoint_tail(
            k, values, counts)


# -- the speed-ups of issue 12 (each against the code it replaced) ------------------------------


def reference_present_groups(bucket: np.ndarray, present: np.ndarray):
    """PresentGroups.of as it was: a BLAS product for the key, np.unique's stable sort."""
    powers = np.left_shift(1, np.arange(present.shape[1])).astype(float)
    key = (present @ powers).astype(np.int64) + (bucket.astype(np.int64) << present.shape[1])
    _, first, group = np.unique(key, return_index=True, return_inverse=True)
    return group.reshape(-1), present[first], bucket[first]


def test_leave_one_out_groups_as_np_unique_made_them(studied):
    for _, enc, _ in studied.values():
        for view in VIEWS:
            got = scout_model.PresentGroups.of(enc.bucket, enc.present[view])
            group, present, bucket = reference_present_groups(enc.bucket, enc.present[view])
            assert got.group.dtype == group.dtype and np.array_equal(got.group, group)
            assert np.array_equal(got.present, present) and np.array_equal(got.bucket, bucket)
            assert len(np.unique(group)) < len(group)       # some bids do share a group


def test_key_groups_and_same_rows_group_as_np_unique():
    rng = np.random.default_rng(12)
    for size in (0, 1, 2, 50, 3000):
        key = rng.integers(0, max(size // 3, 1), size)
        first, group = scout_model.key_groups(key)
        _, expected = np.unique(key, return_inverse=True)
        assert np.array_equal(group, expected.reshape(-1))
        assert np.array_equal(key[first], np.unique(key))     # one member of each group
        columns = [rng.integers(0, 3, size), rng.integers(0, 1 << 13, size) // 4096,
                   rng.integers(0, 1 << 40, size) // (1 << 39), rng.integers(0, 2, size)]
        rows = np.stack(columns, axis=1) if size else np.zeros((0, 4), dtype=np.int64)
        first, group = counter.same_rows(columns)
        _, index, expected = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        assert np.array_equal(group, expected.reshape(-1))      # 60 bits of key: no overflow
        assert np.array_equal(rows[first], rows[index])
    # columns whose radix product passes 2^62 are ranked down first: still exact
    wide = [rng.integers(0, 1 << 40, 400) // (1 << 38) for _ in range(4)]
    wide.insert(1, rng.integers(0, 1 << 40, 400))
    rows = np.stack(wide, axis=1)
    first, group = counter.same_rows(wide)
    _, expected = np.unique(rows, axis=0, return_inverse=True)
    assert np.array_equal(group, expected.reshape(-1))
    assert np.array_equal(rows[first], np.unique(rows, axis=0))


def reference_buckets(prize_index, prizes_left, pool_value, cards):
    third = np.minimum(2, (3 * prize_index) // np.maximum(prizes_left, 1))
    size = np.select([pool_value < np.ceil(cards / 2), pool_value < np.ceil(0.75 * cards),
                      pool_value <= cards], [0, 1, 2], default=3)
    return 4 * third + size


def test_buckets_as_np_select_made_them():
    rng = np.random.default_rng(4)
    cards = rng.integers(1, MAX_RANK + 1, 5000)
    pool = rng.integers(0, 100, 5000)
    left = rng.integers(1, MAX_RANK + 1, 5000)
    index = rng.integers(0, MAX_RANK, 5000) % left
    got, expected = buckets(index, left, pool, cards), reference_buckets(index, left, pool, cards)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)
    assert set(np.unique(got % 4)) == {0, 1, 2, 3}


def reference_predict(stack, enc: Encoded, model: np.ndarray) -> np.ndarray:
    """ModelStack.predict as it was: each view's frequencies read with the code clipped
    by the hand mask, the cards not held masked out."""
    hand = enc.hand
    w = stack.mixture[model]
    out = w[:, :1] * hand / enc.hand_size[:, None]
    row = (model * scout_model.N_BUCKETS + enc.bucket)[:, None]
    for k, view in enumerate(VIEWS, start=1):
        freq = stack.freq[view][:, :, 1:]                 # without the zero column
        weights = freq.reshape(-1).take(row * N_CODES[view] + enc.codes[view])
        per_card = np.where(hand, weights, 0.0)
        if view != "offset":
            per_card /= np.maximum(enc.mult[view], 1)
        z = per_card.sum(axis=1, keepdims=True)
        uniform = hand / hand.sum(axis=1, keepdims=True)
        out += w[:, k:k + 1] * np.where(z > 0, per_card / np.where(z > 0, z, 1.0), uniform)
    return out


def test_predictions_as_the_masked_reads_made_them(studied):
    for s, enc, _ in studied.values():
        cv = held_out(s, 5, 0, enc)
        stack = scout_model.ModelStack.of(cv.models)
        fold = np.arange(len(s)) % len(cv.models)
        assert np.array_equal(stack.predict(enc, fold), reference_predict(stack, enc, fold))
        for board in (_random_boards(random.Random(3), 13, 400),
                      _random_boards(random.Random(4), 7, 400)):
            small = encode(board, fitting=False)
            which = np.arange(len(small)) % len(cv.models)
            assert np.array_equal(stack.predict(small, which),
                                  reference_predict(stack, small, which))


def reference_margin_tables(models, model, table, rows):
    """margin_tables as it was: the cumulative probabilities read with take_along_axis."""
    count = len(rows)
    n = table.profile.cards
    prize, pool = table.prize[rows], table.pool_value[rows]
    left = table.upcoming[rows].copy()
    left[np.arange(count), prize - 1] = True
    h = int(left[0].sum()) if count else 0
    prizes = np.nonzero(left)[1].reshape(count, h) + 1
    current = np.argmax(prizes == prize[:, None], axis=1)
    values = np.where(np.arange(h)[None, :] == current[:, None], pool[:, None], prizes)
    opponent = np.repeat(table.hands[rows, 1], h, axis=0)
    board = Board(opponent, prizes.ravel(), values.ravel(), np.full(count * h, n),
                  np.tile(np.arange(h), count), np.full(count * h, h))
    probs = models.predict(encode(board, fitting=False), np.repeat(model, h))
    probs = probs.reshape(count, h, MAX_RANK)
    cum = np.cumsum(probs, axis=2)
    cards = np.nonzero(table.hands[rows, 0])[1].reshape(count, h) + 1
    at = np.broadcast_to(cards[:, None, :], (count, h, h))
    below = np.where(at >= 2, np.take_along_axis(cum, np.maximum(at - 2, 0), axis=2), 0.0)
    tie = np.take_along_axis(probs, at - 1, axis=2)
    above = cum[:, :, -1:] - below - tie
    margin = values[:, :, None] * (below - above)
    return margin.transpose(0, 2, 1), cards, current


def reference_bidder_before_issue_12(self, table, rows, rng):
    """CounterBidder.__call__ with equal situations found by np.unique over rows and
    planned by the old margin tables and assignment."""
    hand = table.hands[rows, 0]
    size = hand.sum(axis=1)
    if int(size[0]) == 1:
        choice = np.argmax(hand, axis=1) + 1
    else:
        state = np.concatenate([self.model_of_game[rows][:, None], table.prize[rows][:, None],
                                table.pool_value[rows][:, None],
                                np.packbits(table.hands[rows], axis=2).reshape(len(rows), -1),
                                np.packbits(table.upcoming[rows], axis=1)], axis=1)
        _, first, same = np.unique(state, axis=0, return_index=True, return_inverse=True)
        once = rows[first]
        gain, cards, current = reference_margin_tables(self.models, self.model_of_game[once],
                                                       table, once)
        plan = reference_assign_max(gain)
        planned = cards[np.arange(len(once)), np.argmax(plan == current[:, None], axis=1)]
        choice = planned[same.reshape(-1)]
    lowest = np.argmax(hand, axis=1) + 1
    highest = MAX_RANK - np.argmax(hand[:, ::-1], axis=1)
    kind = counter.kinds(choice, table.prize[rows], lowest, highest, size)
    np.add.at(self.tally, (self.model_of_game[rows], kind), 1)
    return choice


def test_counter_simulations_as_before_issue_12(studied, monkeypatch):
    for s, enc, profile in studied.values():
        cv = held_out(s, 5, 1, enc)
        model = OpponentModel.fit(s, enc)
        new = counter_strategy(model, profile, 150, 1, cv.models, fold_games=50)
        with monkeypatch.context() as m:
            m.setattr(counter.CounterBidder, "__call__", reference_bidder_before_issue_12)
            old = counter_strategy(model, profile, 150, 1, cv.models, fold_games=50)
        assert new == old and new.played == old.played
        assert new.played                                   # the counter did plan and bid


def reference_bid_counts(s: Situations):
    """The habits' counts as they were: each test's cards counted over the hand."""
    ranks = np.arange(1, MAX_RANK + 1)[None, :]
    prize = s.prize[:, None]

    def count(test):
        return (s.hand & test(ranks)).sum(axis=1)

    index = np.cumsum(s.hand, axis=1)[np.arange(len(s)), s.bid - 1] - 1
    return (count(lambda r: r > prize), count(lambda r: r < prize),
            count(lambda r: np.abs(r - prize) <= 1), index)


def test_habit_counts_as_counted_over_the_hand(studied):
    from gops_records.games.gops.scouting.habits import _Bids
    for s, _, _ in studied.values():
        b = _Bids.of(s)
        above, below, near, index = reference_bid_counts(s)
        assert np.array_equal(b.size - b.upto(s.prize), above)
        assert np.array_equal(b.upto(s.prize - 1), below)
        assert np.array_equal(b.upto(s.prize + 1) - b.upto(s.prize - 2), near)
        assert b.index.dtype == index.dtype and np.array_equal(b.index, index)


def test_predicted_bids_summed_as_np_add_at(studied):
    from gops_records.games.gops.scouting.report import predicted_bid_by_prize
    for s, enc, _ in studied.values():
        model = OpponentModel.fit(s, enc)
        got = predicted_bid_by_prize(model, s, encoded=enc)
        n = int(s.cards.max())
        probs = model.predict(enc)[:, :n]
        sums = np.zeros((n + 1, n))
        np.add.at(sums, s.prize, probs)
        counts = np.bincount(s.prize, minlength=n + 1)[1:n + 1]
        seen = np.flatnonzero(counts) + 1
        expected = (sums[seen] / counts[seen - 1][:, None]).ravel()
        assert np.array_equal(got["probability"].to_numpy(), expected)   # bit for bit
