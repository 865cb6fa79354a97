"""Cross-check with OpenSpiel's goofspiel: under the discard tie rule, two players, our
scores equal OpenSpiel's on the same prizes and bids.

OpenSpiel's conventions (checked by experiment with open-spiel 2.0.2):
- actions are 0-based: bid action a is card a+1, chance outcome i is prize i+1;
- with points_order "random" every prize is a chance outcome, revealed before the bids;
- with N >= 2 cards its last round is forced and played automatically, so a game is
  replayed by applying only the first N-1 rounds (with N = 1 the single round is played);
- returns_type "total_points" makes returns() the points each player captured.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gops.rules import RuleProfile, TieRule, play_game

pyspiel = pytest.importorskip("pyspiel")  # CI installs open-spiel: this test runs there


def openspiel_scores(prizes: list[int], bids: list[tuple[int, int]]) -> list[float]:
    n = len(prizes)
    game = pyspiel.load_game("goofspiel", {
        "num_cards": n, "points_order": "random", "returns_type": "total_points", "players": 2,
    })
    state = game.new_initial_state()
    applied = 0
    for prize, (a, b) in zip(prizes, bids, strict=True):
        if state.is_terminal():
            break
        assert state.is_chance_node()
        assert prize - 1 in [o for o, _ in state.chance_outcomes()]
        state.apply_action(prize - 1)
        assert a - 1 in state.legal_actions(0) and b - 1 in state.legal_actions(1)
        state.apply_actions([a - 1, b - 1])
        applied += 1
    assert state.is_terminal()
    assert applied == max(1, n - 1)  # the last round was auto-played
    return state.returns()


def our_scores(prizes, bids) -> list[int]:
    game = play_game(RuleProfile(cards=len(prizes), tie_rule=TieRule.DISCARD), prizes, bids)
    return list(game.outcome().scores)


def random_game(rng: random.Random, n: int) -> tuple[list[int], list[tuple[int, int]]]:
    prizes = rng.sample(range(1, n + 1), n)
    a = rng.sample(range(1, n + 1), n)
    b = rng.sample(range(1, n + 1), n)
    return prizes, list(zip(a, b, strict=True))


def test_known_game_matches(club_game):
    prizes, bids = club_game
    assert openspiel_scores(prizes, bids) == [34.0, 38.0]
    assert our_scores(prizes, bids) == [34, 38]


def test_last_round_tie_is_discarded_in_both():
    # the forced last round (A: 2, B: 2) ties; nobody takes the 3
    prizes, bids = [1, 2, 3], [(3, 1), (1, 3), (2, 2)]
    assert openspiel_scores(prizes, bids) == [1.0, 2.0]
    assert our_scores(prizes, bids) == [1, 2]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 10, 13])
def test_seeded_random_games_match(n):
    rng = random.Random(20261126 + n)
    for _ in range(60):
        prizes, bids = random_game(rng, n)
        assert openspiel_scores(prizes, bids) == our_scores(prizes, bids), (prizes, bids)


@st.composite
def games(draw):
    n = draw(st.integers(1, 13))
    prizes = draw(st.permutations(range(1, n + 1)))
    a = draw(st.permutations(range(1, n + 1)))
    b = draw(st.permutations(range(1, n + 1)))
    return list(prizes), list(zip(a, b, strict=True))


@settings(max_examples=200, deadline=None)
@given(games())
def test_hypothesis_games_match(case):
    prizes, bids = case
    assert openspiel_scores(prizes, bids) == our_scores(prizes, bids)
