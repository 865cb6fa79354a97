"""The opponent model: proper distributions, the fast path equal to the array path, and
recovery of simple bidders."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gops_records.scouting.features import Situations, situation_frame
from gops_records.scouting.model import (
    VIEWS,
    Board,
    FastModel,
    OpponentModel,
    buckets,
    view_codes,
)

PRIZE, PLUS_ONE, RANDOM = "Bruno Keller", "Clara Nowak", "Anna de Vries"


@pytest.fixture(scope="module")
def fitted(sim_db) -> dict[str, tuple[Situations, OpponentModel]]:
    import duckdb
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        out = {}
        for name in (PRIZE, PLUS_ONE, RANDOM):
            s = Situations.from_frame(situation_frame(con, name))
            out[name] = (s, OpponentModel.fit(s))
        return out
    finally:
        con.close()


def test_codes_on_a_hand_checked_situation():
    # hand 2, 5, 7, 9, 12; prize 7, prizes left 3, 7, 8, 10, 13 (7 has index 1 of 5)
    board = Board.single(7, 7, [2, 5, 7, 9, 12], [3, 8, 10, 13], 13)
    codes = view_codes(board)
    held = [1, 4, 6, 8, 11]
    assert [codes["offset"][0, i] - 12 for i in held] == [-5, -2, 0, 2, 5]
    # lowest (0), 2nd lowest (2), 3rd lowest (4), 2nd highest (3), highest (1)
    assert [codes["position"][0, i] for i in held] == [0, 2, 4, 3, 1]
    # with four cards the third is the 2nd highest (that name comes before 3rd lowest)
    four = view_codes(Board.single(7, 7, [2, 5, 7, 9], [3, 8, 10], 13))["position"][0]
    assert [four[i] for i in (1, 4, 6, 8)] == [0, 2, 3, 1]
    # card index minus the prize's index (1): -1, 0, 1, 2, 3
    assert [codes["matched"][0, i] - 3 for i in held] == [-1, 0, 1, 2, 3]
    assert all(codes[v][0, i] == -1 for v in VIEWS for i in range(13) if i not in held)


def test_buckets():
    # 4 * prize third (index * 3 // left) + pool size (1-6, 7-9, 10-13, 14+ for 13 cards)
    got = buckets(np.array([0, 4, 4, 5, 12, 12, 2]), np.array([13, 13, 13, 13, 13, 13, 3]),
                  np.array([6, 7, 9, 10, 13, 14, 3]), np.array([13, 13, 13, 13, 13, 13, 3]))
    assert got.tolist() == [0, 1, 1, 6, 10, 11, 10]


def test_probabilities_are_distributions_over_the_hand(fitted):
    for s, model in fitted.values():
        probs = model.predict(Board.of(s))
        assert np.allclose(probs.sum(axis=1), 1.0)
        assert np.all(probs[~s.hand] == 0) and np.all(probs[s.hand] > 0)


def test_fast_path_matches_the_array_path(fitted):
    rng = random.Random(3)
    for _, model in fitted.values():
        fast = FastModel(model)
        for _ in range(200):
            n = 13
            size = rng.randint(1, n)
            hand = sorted(rng.sample(range(1, n + 1), size))
            prizes = sorted(rng.sample(range(1, n + 1), size))
            prize = rng.choice(prizes)
            upcoming = [p for p in prizes if p != prize]
            pool = prize + rng.choice([0, 0, 5, 11])
            want = model.predict(Board.single(prize, pool, hand, upcoming, n))[0]
            got = fast.probs(prize, pool, hand, sum(p < prize for p in upcoming), size, n)
            assert got == pytest.approx([want[c - 1] for c in hand], abs=1e-12)
            one = model.distribution(prize, pool, hand, upcoming, n)
            assert list(one) == hand and sum(one.values()) == pytest.approx(1.0)


def test_prize_bidders_are_read_by_their_offset(fitted):
    for name, offset in ((PRIZE, 0), (PLUS_ONE, 1)):
        s, model = fitted[name]
        assert model.main_view() in ("offset", "matched")
        assert model.mixture[0] < 0.05                      # little weight left to chance
        # with a full hand, the most likely card for prize 6 is 6 (+1)
        probs = model.predict(Board.single(6, 6, range(1, 14), [1, 2, 3, 4, 5, 7, 8, 9, 10, 11,
                                                                12, 13], 13))[0]
        assert int(np.argmax(probs)) + 1 == 6 + offset
        assert probs[6 + offset - 1] > 0.9


def test_random_bidder_is_read_as_close_to_uniform(fitted):
    s, model = fitted[RANDOM]
    probs = model.predict(Board.of(s))
    uniform = s.hand / s.hand_size[:, None]
    # total variation distance from uniform play stays small on every situation
    assert np.abs(probs - uniform).sum(axis=1).max() / 2 < 0.2


def test_em_weights_sum_to_one(fitted):
    for _, model in fitted.values():
        assert model.mixture.sum() == pytest.approx(1.0)
        assert np.all(model.mixture > 0)
