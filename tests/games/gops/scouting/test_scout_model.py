"""The opponent model: proper distributions, the multiplicities and the stacked path equal to
plain definitions, and recovery of simple bidders."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gops_records.games.gops.scouting.features import Situations, situation_frame
from gops_records.games.gops.scouting.model import (
    VIEWS,
    Board,
    ModelStack,
    OpponentModel,
    _multiplicity,
    buckets,
    encode,
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


def random_boards(rng: random.Random, count: int) -> Board:
    rows = []
    for _ in range(count):
        n = 13
        size = rng.randint(1, n)
        hand = sorted(rng.sample(range(1, n + 1), size))
        prizes = sorted(rng.sample(range(1, n + 1), size))
        prize = rng.choice(prizes)
        upcoming = [p for p in prizes if p != prize]
        rows.append(Board.single(prize, prize + rng.choice([0, 0, 5, 11]), hand, upcoming, n))
    return Board(*(np.concatenate([getattr(b, f) for b in rows])
                   for f in ("hand", "prize", "pool_value", "cards", "prize_index",
                             "prizes_left")))


def test_multiplicity_is_the_count_of_cards_sharing_a_code():
    board = random_boards(random.Random(5), 300)
    for view, codes in view_codes(board).items():
        same = (codes[:, :, None] == codes[:, None, :]) & (codes[:, None, :] >= 0)
        plain = np.where(codes >= 0, same.sum(axis=2), 0)
        assert np.array_equal(_multiplicity(codes), plain), view


def test_a_stack_predicts_each_row_with_its_own_model(fitted):
    models = [model for _, model in fitted.values()]
    board = random_boards(random.Random(3), 200)
    enc = encode(board)
    which = np.arange(200) % len(models)
    stacked = ModelStack.of(models).predict(enc, which)
    for i, model in enumerate(models):
        alone = model.predict(board)
        assert np.allclose(stacked[which == i], alone[which == i], atol=1e-12)
    one = models[0].distribution(6, 6, [2, 6, 9], [1, 13], 13)
    assert list(one) == [2, 6, 9] and sum(one.values()) == pytest.approx(1.0)


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


def test_leave_one_out_scores_each_bid_with_its_own_count_taken_out(fitted):
    """The O(n) leave-one-out equals refitting the counts without the bid, bid by bid."""
    from gops_records.games.gops.scouting.model import (
        BUCKET_PRIOR,
        GLOBAL_PRIOR,
        ViewTable,
        _card_probs,
    )
    s, _ = fitted[RANDOM]
    enc = encode(Board.of(s))
    rows = np.arange(len(s))
    for view in VIEWS:
        codes = enc.codes[view]
        chosen = codes[rows, s.bid - 1]
        table = ViewTable.fit(view, chosen, enc.bucket, enc.uniform[view].sum(axis=0))
        fast = table.loo_chosen(chosen, enc.mult[view][rows, s.bid - 1], enc.bucket,
                                enc.present[view], s.hand_size)
        for i in random.Random(view).sample(range(len(s)), 25):
            counts = table.counts.copy()
            counts[enc.bucket[i], chosen[i]] -= 1
            overall = (counts.sum(axis=0) + GLOBAL_PRIOR * table.uniform) / (
                counts.sum() + GLOBAL_PRIOR)
            weights = np.where(codes[i] >= 0, (counts[enc.bucket[i]] + BUCKET_PRIOR * overall)[
                np.maximum(codes[i], 0)], 0.0)
            plain = _card_probs(weights[None], enc.mult[view][i:i + 1], s.hand[i:i + 1])
            assert fast[i] == pytest.approx(plain[0, s.bid[i] - 1], rel=1e-9)


def test_em_steps_match_the_textbook_form():
    from gops_records.games.gops.scouting.model import _em_weights
    lik = np.random.default_rng(2).random((500, 4))
    w = np.full(4, 0.25)
    for _ in range(60):
        joint = lik * w
        resp = joint / joint.sum(axis=1, keepdims=True)
        w = (resp.sum(axis=0) + 1.0) / (500 + 4)
    assert _em_weights(lik) == pytest.approx(w, rel=1e-10)
