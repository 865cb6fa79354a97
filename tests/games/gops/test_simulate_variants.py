"""Simulated play of the two variants: every bot personality plays bids of several cards
and open prizes legally and in character, the records validate, broken records of the
variants fail with exactly their code, and `gops simulate --bid-cards/--open-prizes`."""

from __future__ import annotations

import itertools
import random

import pytest
from typer.testing import CliRunner

from gops_records.cli.app import app
from gops_records.games.gops.bots import BOTS, Situation, nearest_sum
from gops_records.games.gops.cards import SEATS
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import broken_records, play_game, record_of

VARIANTS = [RuleProfile(bid_cards=2), RuleProfile(bid_cards=3, players=3),
            RuleProfile(cards=7, bid_cards=2, players=4, tie_rule=TieRule.DISCARD),
            RuleProfile(open_prizes=3), RuleProfile(open_prizes=2, players=3,
                                                    tie_rule=TieRule.DISCARD),
            RuleProfile(cards=6, open_prizes=6, players=4)]


@pytest.mark.parametrize("profile", VARIANTS, ids=lambda p: f"k{p.bid_cards}-o{p.open_prizes}"
                         f"-{p.players}p-{p.tie_rule.value}")
@pytest.mark.parametrize("bot", list(BOTS))
def test_every_bot_plays_both_variants_legally(profile, bot):
    rng = random.Random(7)
    for _ in range(5):
        game = play_game(profile, [BOTS[bot]] * profile.players, rng)
        assert game.is_over and len(game.history) == profile.rounds
        seats = {seat: f"{bot} {seat}" for seat in SEATS[:profile.players]}
        (report,) = read_reports(write_game(record_of(game, seats)))
        assert report.valid, report.problems
        assert report.outcome.scores == tuple(game.scores)


def test_the_prize_bot_bids_the_cards_nearest_the_prize():
    rng = random.Random(1)
    game = play_game(RuleProfile(bid_cards=2), [BOTS["prize"], BOTS["random"]], rng)
    hand = tuple(range(1, 14))
    for r in game.history:
        best = min(abs(sum(pair) - r.prize) for pair in itertools.combinations(hand, 2))
        assert abs(r.bids[0] - r.prize) == best
        hand = tuple(c for c in hand if c not in r.cards[0])
    assert game.history[0].bids[0] == game.history[0].prize or game.history[0].prize == 1
    hand = (1, 2, 9, 13)
    assert nearest_sum(hand, 2, 12) == (2, 9)
    assert nearest_sum(hand, 3, 30) == (2, 9, 13)
    assert nearest_sum(hand, 2, 0) == (1, 2)


def test_bids_of_several_cards_follow_each_personality():
    profile = RuleProfile(bid_cards=2)
    hand = tuple(range(1, 14))
    s = Situation(13, (13,), 13, 0, 1, hand, (hand,), tuple(range(1, 13)), (0, 0), 0, profile)
    rng = random.Random(0)
    assert sum(BOTS["prize"].bid_cards(s, rng)) == 13
    assert sum(BOTS["prize-plus-one"].bid_cards(s, rng)) == 14
    assert BOTS["chaser"].bid_cards(s, rng) == (12, 13)  # a big pool: its two highest
    low = s._replace(prize=1, pool=(1,), pool_value=1, upcoming=tuple(range(2, 14)))
    assert BOTS["saver"].bid_cards(low, rng) == (1, 2)  # a low prize: its lowest
    assert max(BOTS["chaser"].bid_cards(low, rng)) <= 4
    for name in BOTS:
        cards = BOTS[name].bid_cards(low, rng)
        assert len(cards) == 2 == len(set(cards)) and set(cards) <= set(hand)


def test_the_winner_of_an_open_round_takes_the_best_prize_of_the_row():
    rng = random.Random(3)
    game = play_game(RuleProfile(open_prizes=3, tie_rule=TieRule.DISCARD),
                     [BOTS["prize"], BOTS["random"]], rng)
    takes = [r for r in game.history if r.winner is not None]
    assert takes and all(r.taken == max(r.pool_cards) for r in takes)
    assert all(r.discarded == r.pool_cards[-1] for r in game.history if r.winner is None)
    assert sum(game.scores) + game.unclaimed == 91


@pytest.mark.parametrize("profile", VARIANTS[:2] + VARIANTS[3:5],
                         ids=["bids-2", "bids-3", "open-3", "open-2"])
def test_broken_records_of_the_variants_fail_with_exactly_their_code(profile):
    records = broken_records(30, 5, profile)
    kinds = {b.defect for b in records}
    assert all(b.defect.fits(profile) for b in records)
    assert len(kinds) >= (5 if profile.is_open else 9)
    for broken in records:
        (report,) = read_reports(broken.text)
        assert {p.code for p in report.problems} - {"result-unchecked"} == {broken.code}, \
            (broken.defect, report.problems)


def test_gops_simulate_plays_the_variants():
    runner = CliRunner()
    for options, tag in ((["--bid-cards", "2"], '[BidCards "2"]'),
                         (["--open-prizes", "4", "--players", "3"], '[OpenPrizes "4"]')):
        out = runner.invoke(app, ["simulate", "-n", "4", "--seed", "3", *options])
        assert out.exit_code == 0, out.output
        text = out.stdout
        assert text.count(tag) == 4
        reports = read_reports(text)
        assert len(reports) == 4 and all(r.valid and r.finished for r in reports)


@pytest.mark.parametrize(("options", "message"), [
    (["--bid-cards", "2", "--open-prizes", "3"], "do not combine"),
    (["--cards", "2", "--bid-cards", "3"], "cannot bid 3 cards"),
    (["--cards", "4", "--open-prizes", "5"], "open prizes must be 2..4"),
    (["--cards", "5", "--bid-cards", "2", "--broken", "1"], "at least 3 rounds"),
])
def test_gops_simulate_refuses_what_cannot_be_played(options, message):
    out = CliRunner().invoke(app, ["simulate", "-n", "1", *options])
    assert out.exit_code == 2 and message in out.output


def test_every_pair_of_personalities_ties_and_wins_in_the_variants():
    rng = random.Random(11)
    outcomes = set()
    for a, b in itertools.product(BOTS, repeat=2):
        for profile in (VARIANTS[0], VARIANTS[3]):
            game = play_game(profile, [BOTS[a], BOTS[b]], rng)
            outcomes |= {r.winner for r in game.history}
    assert outcomes == {None, 0, 1}
