"""The rules engine: resolution, ties, typed errors, profiles, and random legal games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gops.errors import (
    CardNotInHand,
    GameOver,
    IllegalRound,
    PrizeOrderBroken,
    PrizeRepeated,
    RuleError,
    UnknownCard,
    WrongBidCount,
)
from gops_records.games.gops.rules import (
    Game,
    PrizeOrder,
    RuleProfile,
    TieRule,
    play_game,
    resolve,
    winner_of,
)

CARRY = RuleProfile(tie_rule=TieRule.CARRY)
DISCARD = RuleProfile(tie_rule=TieRule.DISCARD)


def snapshot(game: Game) -> tuple:
    """Everything a failed play_round must leave untouched."""
    return (game.round_no, list(game.hands), game.revealed, list(game.pool), game.carried,
            [list(c) for c in game.captured], list(game.scores), game.unclaimed,
            len(game.history))


# -- the worked example and whole games ------------------------------------------------


def test_worked_example_from_the_rules():
    game = Game()
    first = game.play_round(8, (9, 9))
    assert first.tie and first.winner is None
    assert game.pool == [8] and game.carried == 8
    assert game.scores == [0, 0] and game.unclaimed == 0
    second = game.play_round(5, (7, 11))
    assert second.winner == 1
    assert second.pool_cards == (8, 5) and second.carried_in == 8 and second.pool_value == 13
    assert game.scores == [0, 13]  # the J itself scores nothing
    assert game.captured == [[], [8, 5]]
    assert game.pool == [] and game.carried == 0
    assert game.hand(0) == [1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13]
    assert game.hand(1) == [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 13]
    assert game.prizes_left() == [1, 2, 3, 4, 6, 7, 9, 10, 11, 12, 13]


def test_whole_game_carry(club_game):
    prizes, bids = club_game
    game = play_game(CARRY, prizes, bids)
    out = game.outcome()
    assert out.scores == (45, 46)
    assert out.unclaimed == 0
    assert out.winner == 1 and out.finished and not out.is_draw
    assert game.hand(0) == [] and game.hand(1) == [] and game.prizes_left() == []
    assert sorted(game.captured[0]) == [4, 7, 10, 11, 13]
    assert [r.winner for r in game.history] == [None, 1, 0, 1, 1, 1, 0, 0, 1, None, 0, 1, 1]


def test_whole_game_discard(club_game):
    prizes, bids = club_game
    out = play_game(DISCARD, prizes, bids).outcome()
    # the tied 8 (round 1) and J (round 10) are set aside; the rounds after them win less
    assert out.scores == (34, 38)
    assert out.unclaimed == 8 + 11
    assert out.winner == 1


def test_carry_accumulates_repeated_ties():
    game = Game(RuleProfile(cards=5))
    game.play_round(3, (1, 1))
    game.play_round(5, (2, 2))
    assert game.pool == [3, 5] and game.carried == 8
    third = game.play_round(1, (4, 3))
    assert third.pool_cards == (3, 5, 1) and third.carried_in == 8 and third.winner == 0
    assert game.scores == [9, 0]


def test_discard_sets_the_pool_aside_at_once():
    game = Game(RuleProfile(cards=5, tie_rule="discard"))
    game.play_round(3, (1, 1))
    assert game.pool == [] and game.carried == 0 and game.unclaimed == 3
    second = game.play_round(5, (2, 3))
    assert second.pool_cards == (5,) and second.carried_in == 0
    assert game.scores == [0, 5] and game.unclaimed == 3


@pytest.mark.parametrize("rule", ["carry", "discard"])
def test_tie_in_last_round_leaves_pool_unclaimed(rule):
    game = Game(RuleProfile(cards=4, tie_rule=rule))
    game.play_round(1, (4, 3))  # A takes 1
    game.play_round(2, (3, 4))  # B takes 2
    game.play_round(3, (1, 1))  # tie: carried (carry) or set aside (discard)
    last = game.play_round(4, (2, 2))  # tie in the last round
    assert last.tie
    assert last.pool_cards == ((3, 4) if rule == "carry" else (4,))
    assert game.is_over
    assert game.pool == [] and game.carried == 0
    assert game.scores == [1, 2]
    assert game.unclaimed == 7  # 3 + 4 under both rules
    assert game.outcome().winner == 1


@pytest.mark.parametrize("rule", ["carry", "discard"])
def test_three_players_shared_top_bid_is_a_tie_even_with_a_unique_lower_bid(rule):
    game = Game(RuleProfile(cards=5, players=3, tie_rule=rule))
    r = game.play_round(4, (5, 5, 1))  # C's 1 is the only unique bid: still a tie
    assert r.tie
    assert game.scores == [0, 0, 0]
    if rule == "carry":
        assert game.carried == 4 and game.unclaimed == 0
    else:
        assert game.carried == 0 and game.unclaimed == 4
    r = game.play_round(2, (1, 2, 3))
    assert r.winner == 2
    assert game.scores == [0, 0, 6 if rule == "carry" else 2]


def test_four_players_shared_top_bid_with_unique_lower_bids():
    game = Game(RuleProfile(cards=4, players=4))
    assert game.play_round(3, (4, 1, 4, 2)).tie
    r = game.play_round(1, (3, 4, 1, 1))
    assert r.winner == 1 and r.pool_value == 4
    r = game.play_round(4, (1, 2, 2, 4))
    assert r.winner == 3
    assert game.scores == [0, 4, 0, 4]


def test_three_player_game_with_fixed_ascending_prizes():
    profile = RuleProfile(5, 3, TieRule.DISCARD, PrizeOrder.ASCENDING)
    game = play_game(profile, [1, 2, 3, 4, 5],
                     [(5, 5, 1), (1, 2, 5), (4, 4, 2), (2, 3, 4), (3, 1, 3)])
    out = game.outcome()
    assert out.scores == (0, 0, 6) and out.unclaimed == 1 + 3 + 5 and out.winner == 2


def test_draw_43_43_with_5_unclaimed():
    prizes = [13, 12, 11, 7, 1, 2, 3, 4, 6, 8, 9, 10, 5]
    a = [13, 12, 11, 10, 1, 2, 3, 4, 6, 7, 8, 9, 5]
    b = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 5]
    out = play_game(CARRY, prizes, list(zip(a, b, strict=True))).outcome()
    assert out.scores == (43, 43)
    assert out.unclaimed == 5
    assert out.winner is None and out.is_draw and out.finished


@pytest.mark.parametrize("rule", ["carry", "discard"])
def test_one_card_game(rule):
    game = Game(RuleProfile(cards=1, tie_rule=rule))
    assert not game.is_over
    r = game.play_round(1, (1, 1))
    assert r.tie and game.is_over
    out = game.outcome()
    assert out.scores == (0, 0) and out.unclaimed == 1 and out.is_draw
    with pytest.raises(GameOver):
        game.play_round(1, (1, 1))


def test_two_card_game():
    game = Game(RuleProfile(cards=2))
    game.play_round(2, (2, 1))
    assert not game.is_over
    game.play_round(1, (1, 2))
    out = game.outcome()
    assert game.is_over and out.scores == (2, 1) and out.unclaimed == 0 and out.winner == 0


def test_outcome_of_unfinished_game_has_no_winner():
    game = Game()
    game.play_round(13, (13, 1))
    out = game.outcome()
    assert out.scores == (13, 0) and not out.finished
    assert out.winner is None and not out.is_draw


def test_resolve_and_winner_of():
    assert resolve((3, 7)) == 1
    assert resolve((7, 7)) is None
    assert resolve((9, 9, 1)) is None
    assert resolve((2, 9, 1, 3)) == 1
    assert resolve([1, 2, 2, 13]) == 3
    assert winner_of((43, 43)) is None
    assert winner_of((45, 46)) == 1


# -- typed errors, state unchanged -----------------------------------------------------


def _started() -> Game:
    game = Game(RuleProfile(cards=5))
    game.play_round(3, (2, 4))
    game.play_round(5, (1, 1))  # tie: 5 carried
    return game


@pytest.mark.parametrize(
    ("prize", "bids", "error", "code", "seat", "card"),
    [
        (6, (3, 3), UnknownCard, "unknown-card", None, 6),  # prize outside a 5-card suit
        (0, (3, 3), UnknownCard, "unknown-card", None, 0),
        (1, (3, 6), UnknownCard, "unknown-card", 1, 6),  # bid outside the suit
        (1, (2, 3), CardNotInHand, "card-not-in-hand", 0, 2),  # A spent the 2 in round 1
        (1, (3, 1), CardNotInHand, "card-not-in-hand", 1, 1),  # B spent the A in round 2
        (3, (3, 3), PrizeRepeated, "prize-repeated", None, 3),
        (1, (3,), WrongBidCount, "bid-count", None, None),
        (1, (3, 3, 2), WrongBidCount, "bid-count", None, None),
        (1, (), WrongBidCount, "bid-count", None, None),
    ],
)
def test_illegal_round_raises_typed_error_and_leaves_state_unchanged(
        prize, bids, error, code, seat, card):
    game = _started()
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.play_round(prize, bids)
    exc = info.value
    assert isinstance(exc, IllegalRound) and isinstance(exc, ValueError)
    assert exc.code == code and exc.seat == seat and exc.card == card
    assert exc.message == str(exc) and exc.message
    assert snapshot(game) == before
    # the game goes on normally afterwards
    game.play_round(1, (3, 3))
    assert game.round_no == 3


def test_error_messages_name_what_is_wrong():
    game = _started()
    with pytest.raises(CardNotInHand, match=r"A bids 2, already spent"):
        game.play_round(1, (2, 3))
    with pytest.raises(PrizeRepeated, match=r"prize 5 was already revealed"):
        game.play_round(5, (3, 3))
    with pytest.raises(WrongBidCount, match=r"round 3 has 1 bid; 2 players need 2"):
        game.play_round(1, (3,))
    with pytest.raises(UnknownCard, match=r"B bids 6, which is not in a 5-card suit"):
        game.play_round(1, (3, 6))


@pytest.mark.parametrize(
    ("order", "good", "bad", "message"),
    [
        ("ascending", [1, 2], 4, "prize order is ascending: round 3 reveals 3, not 4"),
        ("descending", [5, 4], 1, "prize order is descending: round 3 reveals 3, not A"),
    ],
)
def test_prize_order_broken(order, good, bad, message):
    game = Game(RuleProfile(cards=5, prize_order=order))
    game.play_round(good[0], (1, 2))
    game.play_round(good[1], (2, 1))
    before = snapshot(game)
    with pytest.raises(PrizeOrderBroken) as info:
        game.play_round(bad, (3, 3))
    assert info.value.code == "prize-order" and info.value.card == bad
    assert str(info.value) == message
    assert snapshot(game) == before
    game.play_round(3, (3, 3))


def test_game_over_after_n_rounds():
    game = Game(RuleProfile(cards=2))
    game.play_round(1, (1, 2))
    game.play_round(2, (2, 1))
    before = snapshot(game)
    with pytest.raises(GameOver) as info:
        game.play_round(1, (1, 1))
    assert info.value.code == "too-many-rounds"
    assert snapshot(game) == before


def test_problems_lists_every_problem_without_raising():
    game = _started()
    found = game.problems(3, (2, 1))
    assert [p.code for p in found] == ["prize-repeated", "card-not-in-hand", "card-not-in-hand"]
    assert [p.seat for p in found] == [None, 0, 1]
    assert game.problems(1, (3, 3)) == []
    assert game.round_no == 2


# -- rule profiles ---------------------------------------------------------------------


def test_default_profile_is_the_club_game():
    p = RuleProfile()
    assert (p.cards, p.players, p.tie_rule, p.prize_order) == (13, 2, "carry", "shuffled")
    assert p.total_points == 91
    assert RuleProfile(cards=1).total_points == 1
    assert p.fixed_prize(1) is None
    assert RuleProfile(prize_order="ascending").fixed_prize(4) == 4
    assert RuleProfile(cards=5, prize_order="descending").fixed_prize(1) == 5


def test_profile_accepts_strings_for_enums():
    p = RuleProfile(cards=4, players=4, tie_rule="discard", prize_order="descending")
    assert p.tie_rule is TieRule.DISCARD and p.prize_order is PrizeOrder.DESCENDING


@pytest.mark.parametrize(
    "kwargs",
    [{"cards": 0}, {"cards": 14}, {"cards": -1}, {"players": 1}, {"players": 5},
     {"tie_rule": "split"}, {"prize_order": "random"}],
)
def test_profile_bounds_raise_rule_error(kwargs):
    with pytest.raises(RuleError):
        RuleProfile(**kwargs)


@pytest.mark.parametrize("cards", [1, 13])
@pytest.mark.parametrize("players", [2, 4])
def test_profile_bounds_are_inclusive(cards, players):
    game = Game(RuleProfile(cards=cards, players=players))
    assert len(game.hands) == players and game.hand(players - 1) == list(range(1, cards + 1))


# -- property tests --------------------------------------------------------------------


@st.composite
def legal_games(draw, orders=(PrizeOrder.SHUFFLED,)):
    n = draw(st.integers(1, 13))
    players = draw(st.integers(2, 4))
    rule = draw(st.sampled_from(TieRule))
    order = draw(st.sampled_from(orders))
    if order is PrizeOrder.ASCENDING:
        prizes = list(range(1, n + 1))
    elif order is PrizeOrder.DESCENDING:
        prizes = list(range(n, 0, -1))
    else:
        prizes = draw(st.permutations(range(1, n + 1)))
    hands = [draw(st.permutations(range(1, n + 1))) for _ in range(players)]
    bids = [tuple(h[i] for h in hands) for i in range(n)]
    return RuleProfile(n, players, rule, order), prizes, bids


def reference_scores(profile, prizes, bids):
    """A second, deliberately naive model of the rules to compare the engine with."""
    scores = [0] * profile.players
    pool = 0
    for number, (prize, round_bids) in enumerate(zip(prizes, bids, strict=True), start=1):
        pool += prize
        top = max(round_bids)
        winners = [seat for seat, bid in enumerate(round_bids) if bid == top]
        if len(winners) == 1:
            scores[winners[0]] += pool
            pool = 0
        elif profile.tie_rule == "discard" or number == len(prizes):
            pool = 0
    return scores


@settings(max_examples=300, deadline=None)
@given(legal_games(orders=tuple(PrizeOrder)))
def test_random_legal_games(case):
    profile, prizes, bids = case
    n = profile.cards
    game = Game(profile)
    spent: list[set[int]] = [set() for _ in range(profile.players)]
    for number, (prize, round_bids) in enumerate(zip(prizes, bids, strict=True), start=1):
        assert not game.is_over
        # a spent card is refused, and the refusal changes nothing
        for seat in range(profile.players):
            if spent[seat]:
                reused = list(round_bids)
                reused[seat] = min(spent[seat])
                before = snapshot(game)
                with pytest.raises(CardNotInHand):
                    game.play_round(prize, reused)
                assert snapshot(game) == before
        game.play_round(prize, round_bids)
        for seat, bid in enumerate(round_bids):
            assert bid not in spent[seat]
            spent[seat].add(bid)
            assert bid not in game.hand(seat)
        # points are conserved at every step: scored + unclaimed + on offer + still hidden
        assert (sum(game.scores) + game.unclaimed + game.carried + sum(game.prizes_left())
                == profile.total_points)
        assert game.round_no == number
    assert game.is_over and game.round_no == n
    out = game.outcome()
    assert sum(out.scores) + out.unclaimed == n * (n + 1) // 2
    assert out.finished and game.pool == [] and game.carried == 0
    assert all(game.hand(s) == [] for s in range(profile.players))
    assert list(out.scores) == reference_scores(profile, prizes, bids)
    assert out.winner == winner_of(out.scores)
    for seat in range(profile.players):
        assert sum(game.captured[seat]) == out.scores[seat]
    with pytest.raises(GameOver):
        game.play_round(1, bids[0])
