"""`OpponentModel.distribution` (plain Python, one situation) gives what `predict` (numpy,
the batch path) gives, for fitted models and any situation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gops.scouting.features import Situations, studied
from gops_records.games.gops.scouting.model import Board, OpponentModel


@pytest.fixture(scope="module")
def models(sim_db) -> list[OpponentModel]:
    import duckdb

    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        return [OpponentModel.fit(Situations.from_frame(studied(con, name).frame))
                for name in ("Bruno Keller", "Clara Nowak", "Anna de Vries")]
    finally:
        con.close()


@st.composite
def situations(draw):
    cards = draw(st.integers(1, 13))
    hand = draw(st.lists(st.integers(1, cards), min_size=1, max_size=cards, unique=True))
    prizes = draw(st.permutations(list(range(1, cards + 1))))
    left = draw(st.integers(1, cards))
    prize, upcoming = prizes[0], sorted(prizes[1:left])
    pool = prize + draw(st.sampled_from([0, 0, 0, 1, 5, 12, 30]))
    return prize, pool, hand, upcoming, cards


@settings(max_examples=300, deadline=None)
@given(situation=situations(), which=st.integers(0, 2))
def test_one_situation_as_the_batch_predicts_it(models, situation, which):
    prize, pool, hand, upcoming, cards = situation
    model = models[which]
    got = model.distribution(prize, pool, hand, upcoming, cards)
    batch = model.predict(Board.single(prize, pool, hand, upcoming, cards))[0]
    assert list(got) == list(hand)
    assert np.allclose([got[c] for c in hand], batch[np.asarray(hand) - 1], rtol=1e-12,
                       atol=1e-15)
    assert sum(got.values()) == pytest.approx(1.0)
