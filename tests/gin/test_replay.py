"""Located problems of the .gin replay: the issue's codes, each at its token."""

from __future__ import annotations

from pathlib import Path

import pytest

from gops_records.gin.replay import read_hands

EXAMPLE = (Path(__file__).parent / "issue_example.gin").read_text("utf-8")


def first(text):
    (report,) = read_hands(text)
    assert report.problems, "expected a problem"
    p = report.problems[0]
    return p.code, p.line, p.column


@pytest.mark.parametrize(("old", "new", "code", "line", "column"), [
    ('[Runs "circular"]', '[Runs "wrap"]', "tag-value", 4, 15),
    ("3. A s:K♦ K♣", "3. B s:K♦ K♣", "turn-order", 6, 4),
    ("2. B pass", "2. B pass 3. A pass", "first-turn", 5, 27),
    ("3. A s:K♦ K♣", "3. A p K♣", "first-turn", 6, 6),
    ("4. B s:8♦ Q♣", "4. B s:K♦ Q♣", "card-seen", 6, 21),
    ("4. B s:8♦ Q♣", "4. B p:Q♣ J♠", "pile-top", 6, 21),
    ("4. B s:8♦ Q♣", "4. B p:K♣ K♣", "discard-just-taken", 6, 26),
    ("4. B s:8♦ Q♣", "4. B s:8♦ 2♦", "card-not-in-hand", 6, 26),
    ("(4♠ 5♠ 6♠)", "(4♠ 5♠ 7♠)", "card-not-in-hand", 7, 27),
    ("6♣ knock", "6♣ gin", "out-kind", 7, 14),
    ("0-26", "0-25", "result-mismatch", 9, 1),
    ("B off 7♠ 9♦", "B off 7♠ 9♦ A♠", "layoff", 8, 6),
])
def test_a_problem_is_reported_at_its_token(old, new, code, line, column):
    text = EXAMPLE.replace('[Upcard "7♦"]', '[Upcard "7♦"] [Runs "circular"]')
    assert old in text
    assert first(text.replace(old, new)) == (code, line, column)


def test_knock_limits():
    over = EXAMPLE.replace('[Upcard "7♦"]', '[Upcard "A♦"]')
    assert first(over)[0] == "knock-forbidden"
    assert first(EXAMPLE.replace('[Upcard "7♦"]', '[Upcard "A♥"]'))[0] == "knock-forbidden"


def test_a_deal_with_nine_cards():
    text = EXAMPLE.replace("4♠ 5♠ 9♣", "5♠ 9♣")
    assert first(text)[:2] == ("deal", 2)


def test_an_unfinished_hand_with_points_is_incomplete():
    text = EXAMPLE.split("7. A")[0] + "0-26\n"
    assert first(text)[0] == "incomplete"
    (report,) = read_hands(EXAMPLE.split("7. A")[0] + "*\n")
    assert report.valid and not report.finished
