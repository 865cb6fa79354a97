"""Hands grouped into games and matches: the worked game of docs/gin.md and its problems."""

from __future__ import annotations

import re
from pathlib import Path

from paths import ROOT

from gops_records.games.gin.grouping import group_hands
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.rules import Seat

DOC = (ROOT / "docs" / "gin.md").read_text("utf-8")
(GAME,) = re.findall(r"```gin-game\n(.*?)```", DOC, re.S)
HAND_1, HAND_2 = GAME.split("\n\n[Match")
HAND_2 = "[Match" + HAND_2
DRAWN = (Path(__file__).parent / "drawn_hand.gin").read_text("utf-8")


def grouped(*texts):
    return group_hands([r for t in texts for r in read_hands(t)])


def located(grouping):
    return [(g.problem.code, g.problem.line, g.problem.column) for g in grouping.problems]


def test_the_worked_game_scores_169_to_alice():
    g = grouped(GAME)
    assert g.valid, g.problems
    (match,) = g.matches
    assert match.name == "Alice-Bruno" and match.players == ("Alice", "Bruno")
    (game,) = match.games
    assert [h.result.scores for h in game.hands] == [(0, 60), (129, 0)]
    assert game.score.winner is Seat.A and game.score.points == 169
    assert game.score.hands_won == (1, 1) and not game.score.blitz
    assert match.match.games_won == (1, 0) and match.winner is None


def test_hands_are_placed_by_their_tags_not_their_order():
    g = grouped(HAND_2 + "\n" + HAND_1)
    assert g.valid and g.matches[0].games[0].score.points == 169


def test_a_second_game_won_ends_the_match_and_a_third_is_a_match_problem():
    second = GAME.replace('[Game "1"]', '[Game "2"]')
    g = grouped(GAME, second)
    assert g.valid and g.matches[0].winner is Seat.A
    assert g.matches[0].match.points == (338, 0)
    third = GAME.replace('[Game "1"]', '[Game "3"]')
    g = grouped(GAME, second, third)
    assert located(g) == [("match", 2, 1)]
    assert g.problems[0].report.record.tag("Game") == "3"
    assert g.matches[0].match.games_won == (2, 0)


def test_a_hand_after_100_is_after_game_end():
    g = grouped(GAME + "\n" + HAND_2.replace('[Hand "2"]', '[Hand "3"]'))
    assert located(g) == [("after-game-end", 34, 1)]  # hand 3's [Hand] tag
    assert g.matches[0].games[0].score.points == 169


def test_the_winner_deals_the_next_hand():
    wrong = HAND_2.replace('[Dealer "B"]', '[Dealer "A"]')
    g = grouped(HAND_1 + "\n" + wrong)
    assert located(g) == [("dealer", 20, 1)]  # hand 2's [Dealer] tag
    assert "Bruno (B) deals hand 2: Bruno (B) won hand 1" in g.problems[0].problem.message
    assert g.matches[0].games[0].score is None


def with_tags(text, hand, dealer=None):
    tags = f'[Match "Alice-Bruno"] [Game "1"] [Hand "{hand}"] [A "Alice"] [B "Bruno"]\n'
    if dealer is not None:
        text = re.sub(r'\[Dealer "."\]', f'[Dealer "{dealer}"]', text)
    return tags + re.sub(r'\[(Match|Game|Hand|A|B) "[^"]*"\]\n', "", text)


def test_a_drawn_hand_is_dealt_again_by_the_same_dealer():
    drawn = with_tags(DRAWN, 1)
    assert "[Dealer \"B\"]" in drawn
    g = grouped(drawn, with_tags(HAND_1, 2))
    assert g.valid, g.problems
    game = g.matches[0].games[0]
    assert [h.result.outcome for h in game.hands] == ["draw", "gin"] and game.score is None
    g = grouped(drawn, with_tags(HAND_1, 2, dealer="A"))
    assert located(g)[0] == ("dealer", 2, 1)  # lines count in hand 2's own text
    assert "hand 1 was drawn, Bruno (B) deals again" in g.problems[0].problem.message


def test_missing_numbers_and_tags():
    g = grouped(HAND_2)
    assert located(g) == [("incomplete", 3, 1)]
    assert g.matches[0].games[0].score is None
    g = grouped(GAME.replace('[Game "1"]', '[Game "2"]'))
    assert located(g) == [("incomplete", 2, 1)]
    g = grouped(HAND_1.replace('[Hand "1"]\n', ""))
    assert located(g) == [("tag-value", 1, 1)] and g.matches == ()
    g = grouped(HAND_1.replace('[Game "1"]', '[Game "one"]'))
    assert located(g) == [("tag-value", 2, 1)]


def test_a_hand_twice_and_a_player_changing_are_match_problems():
    g = grouped(GAME + "\n" + HAND_1)
    assert located(g) == [("match", 34, 1)]
    g = grouped(HAND_1 + "\n" + HAND_2.replace('[B "Bruno"]', '[B "Carla"]'))
    assert located(g) == [("match", 19, 1)]  # hand 2's [B] tag
