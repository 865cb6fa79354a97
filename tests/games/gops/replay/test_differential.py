"""The production replay against the readable engine (rules.Game), on generated games
written in every layout the notation allows."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gops_records.games.gops.cards import SEATS, Seat, Suit
from gops_records.games.gops.checking import check_bytes
from gops_records.games.gops.notation import CardToken, GameRecord, RoundRecord
from gops_records.games.gops.notation.layouts import LAYOUTS, Layout, write_games_in_layout
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import Game, PrizeOrder, RuleProfile, TieRule

ALL_LAYOUTS = LAYOUTS + (
    Layout("CR-only line ends", line_end="\r", suits="letter"),
    Layout("no numbers, one line", rounds_per_line=0, numbers=False, suits="none"),
    Layout("two a line, lower case", rounds_per_line=2, lower=True, ten="T"),
)
NAMES = ("Ann", "Bob", "Carla", "Dee")


@st.composite
def games(draw) -> tuple[RuleProfile, Game, GameRecord]:
    """A game played by random legal bids, and its record (finished or not)."""
    cards = draw(st.integers(1, 13))
    players = draw(st.integers(2, 4))
    profile = RuleProfile(cards, players, draw(st.sampled_from(list(TieRule))),
                          draw(st.sampled_from(list(PrizeOrder))))
    played = draw(st.integers(0, cards))
    deck = list(range(1, cards + 1))
    shuffled = draw(st.permutations(deck))
    prizes = [profile.fixed_prize(r + 1) or shuffled[r] for r in range(cards)]
    hands = [draw(st.permutations(deck)) for _ in range(players)]
    game = Game(profile)
    for r in range(played):
        game.play_round(prizes[r], tuple(hand[r] for hand in hands))
    tags = {SEATS[s]: NAMES[s] for s in range(players) if draw(st.booleans()) or s >= 2}
    tags["TieRule"] = profile.tie_rule.value
    if cards != 13 or draw(st.booleans()):
        tags["Cards"] = str(cards)
    if profile.prize_order is not PrizeOrder.SHUFFLED:
        tags["PrizeOrder"] = profile.prize_order.value
    rounds = tuple(RoundRecord(CardToken(h.prize, Suit.DIAMONDS),
                               tuple(CardToken(b, Seat.at(s).suit) for s, b in enumerate(h.bids)))
                   for h in game.history)
    result = tuple(game.scores) if game.is_over and draw(st.booleans()) else None
    return profile, game, GameRecord(tags, rounds, result)


def _same(report, game: Game) -> None:
    assert report.valid, report.problems
    assert report.outcome.scores == tuple(game.scores)
    assert report.finished == game.is_over
    if game.is_over:
        assert report.outcome.unclaimed == game.unclaimed
    assert [(r.round_no, r.prize, r.bids, r.pool_cards, r.carried_in, r.winner)
            for r in report.rounds] == \
        [(h.round_no, h.prize, h.bids, h.pool_cards, h.carried_in, h.winner)
         for h in game.history]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=4), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_every_layout_replays_as_the_reference_engine(played, layout, seed):
    data = write_games_in_layout([record for _, _, record in played], layout, seed)
    reports = read_reports(data.decode("utf-8"))
    assert len(reports) == len(played)
    for report, (profile, game, _) in zip(reports, played, strict=True):
        assert report.profile == profile
        _same(report, game)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=2, max_size=6), st.sampled_from(ALL_LAYOUTS),
       st.integers(1, 400))
def test_windows_of_any_size_read_the_same_games(played, layout, chunk):
    data = write_games_in_layout([record for _, _, record in played], layout)
    whole = [row for c in check_bytes(data, "x", chunk_bytes=1 << 30)
             for row in c.verdicts.to_dicts()]
    cut = [row for c in check_bytes(data, "x", chunk_bytes=chunk) for row in c.verdicts.to_dicts()]
    assert cut == whole
    assert [row["scores"] for row in whole] == [game.scores for _, game, _ in played]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games().filter(lambda g: len(g[1].history) >= 2), st.data())
def test_one_bad_card_is_found_where_the_reference_engine_refuses_it(played, data):
    profile, game, record = played
    rounds = list(record.rounds)
    k = data.draw(st.integers(1, len(rounds) - 1))  # the round to spoil
    place = data.draw(st.integers(0, profile.players))  # 0: the prize
    earlier = data.draw(st.integers(0, k - 1))
    old = rounds[k]
    cards = [old.prize, *old.bids]
    cards[place] = [rounds[earlier].prize, *rounds[earlier].bids][place]
    rounds[k] = RoundRecord(cards[0], tuple(cards[1:]))
    spoiled = GameRecord(record.tags, tuple(rounds), None)
    reference = Game(profile)
    for r in rounds[:k]:
        reference.play_round(r.prize.rank, tuple(b.rank for b in r.bids))
    expected = {p.code for p in reference.problems(cards[0].rank,
                                                   tuple(c.rank for c in cards[1:]))}
    layout = data.draw(st.sampled_from(ALL_LAYOUTS))
    (report,) = read_reports(write_games_in_layout([spoiled], layout).decode("utf-8"))
    found = {p.code for p in report.problems if p.round == k + 1}
    assert expected and expected <= found
    assert not report.valid and report.winner is None
    assert [r.round_no for r in report.rounds][:k] == list(range(1, k + 1))


def test_a_simulated_file_in_every_layout_gives_the_same_games():
    from gops_records.games.gops.simulate import simulate

    records = [r for r in simulate(60, 11, RuleProfile()) if isinstance(r, GameRecord)]
    rng = random.Random(3)
    baseline = None
    for layout in ALL_LAYOUTS:
        data = write_games_in_layout(records, layout, rng.randrange(1000))
        rows = [(row["valid"], row["scores"], row["winner"]) for c in check_bytes(data, "x")
                for row in c.verdicts.to_dicts()]
        assert all(valid for valid, _, _ in rows), layout
        baseline = baseline or rows
        assert rows == baseline, layout
