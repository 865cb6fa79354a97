"""Simulated play of open prizes read as every bidder choosing (``[OpenTakes "each"]``):
every bot personality plays it legally, each in turn strongest first; the record written
says each seat's take and replays through the rules engine to the same scores; the
production reader reads it back to the engine's rounds."""

from __future__ import annotations

import random

import pytest

from gops_records.games.gops.bots import BOTS
from gops_records.games.gops.cards import SEATS
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import Game, OpenTakes, RuleProfile, TieRule
from gops_records.games.gops.simulate import play_game, prize_pile, record_of

EACH = [RuleProfile(open_prizes=3, open_takes=OpenTakes.EACH),
        RuleProfile(cards=7, open_prizes=2, players=3, tie_rule=TieRule.DISCARD,
                    open_takes=OpenTakes.EACH),
        RuleProfile(cards=6, open_prizes=6, players=4, open_takes=OpenTakes.EACH)]


def replay_record(profile: RuleProfile, record) -> Game:
    """The record's rounds played through the engine's checked path (the oracle)."""
    game = Game(profile)
    for rnd in record.rounds:
        game.play_round(tuple(c.rank for c in rnd.revealed),
                        tuple(b.strength for b in rnd.bids),
                        tuple(t.rank if t is not None else None for t in rnd.takes))
    return game


@pytest.mark.parametrize("profile", EACH, ids=lambda p: f"o{p.open_prizes}-{p.players}p")
@pytest.mark.parametrize("bot", list(BOTS))
def test_every_bot_plays_every_bidder_choosing_legally(profile, bot):
    rng = random.Random(11)
    for _ in range(4):
        pile = prize_pile(profile, rng)
        game = play_game(profile, [BOTS[bot]] * profile.players, rng, prizes=pile)  # checked
        assert game.is_over and sum(game.scores) + game.unclaimed == profile.total_points
        record = record_of(game, {s: f"{bot} {s}" for s in SEATS[:profile.players]})
        assert record.tags["OpenTakes"] == "each"
        assert all(len(r.takes) == profile.players for r in record.rounds)
        assert replay_record(profile, record).scores == game.scores


def test_more_than_one_bidder_takes_in_a_round():
    game = play_game(EACH[0], [BOTS["prize"], BOTS["random"]], random.Random(3))
    first = game.history[0]
    assert first.tie or sum(t is not None for t in first.takes) == 2
    assert sum(1 for r in game.history for t in r.takes if t) == 13  # every prize taken


def test_the_record_writes_one_take_per_seat_and_the_reader_reads_it():
    game = play_game(EACH[0], [BOTS["prize"], BOTS["saver"]], random.Random(5))
    text = write_game(record_of(game))
    first = text.split("\n1. ", 1)[1].split("\n", 1)[0]
    assert len(first.split(")")[1].split()) == 2 + 2  # two bids, two takes
    (report,) = read_reports(text)
    assert report.valid, report.problems
    assert report.rounds == tuple(game.history)
    assert report.outcome.scores == tuple(game.scores)
