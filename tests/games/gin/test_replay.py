"""Located problems of the .gin replay: the issue's codes, each at its token."""

from __future__ import annotations

from pathlib import Path

import pytest

from gops_records.games.gin.replay import read_hands

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


DRAWN = (Path(__file__).parent / "drawn_hand.gin").read_text("utf-8")


@pytest.mark.parametrize(("old", "new", "code", "line", "column"), [
    # the card that breaks the meld, not the meld's first card: 2♦ in (J♦ Q♦ 2♦)
    ("(J♦ Q♦ K♦) 2♦", "(J♦ Q♦ 2♦) K♦", "not-a-meld", 7, 49),
    ("(4♠ 5♠ 6♠) (9♣ 9♥ 9♠)", "(4♠ 5♠ 6♠ 9♣) (9♥ 9♠)", "not-a-meld", 7, 30),
    # B's own meld in the answer: 2♥ breaks (8♥ 8♣ 2♥)
    ("(8♥ 8♣ 8♦) (2♥ 3♥ 4♥ 5♥)", "(8♥ 8♣ 2♥) (8♦ 3♥ 4♥ 5♥)", "not-a-meld", 8, 23),
    # a card missing from the spread, a card twice
    ("(J♦ Q♦ K♦) 2♦", "(J♦ Q♦ K♦)", "spread", 7, 14),
    ("(J♦ Q♦ K♦) 2♦", "(J♦ Q♦ K♦) 2♦ 2♦", "spread", 7, 14),
    # deadwood 32 against the limit 7
    ("(J♦ Q♦ K♦) 2♦", "J♦ Q♦ K♦ 2♦", "knock-over-limit", 7, 14),
    # a card the reader cannot read, a draw the reader does not know
    ("3. A s:K♦", "3. A s:Z♦", "syntax", 6, 8),
    ("3. A s:K♦", "3. A x:K♦", "syntax", 6, 6),
    # a required tag left out: reported at the hand's first token
    ('[Upcard "7♦"]', "", "tag-value", 1, 1),
    # a turn after the answer to going out
    ("A♠ {undercut: 1 against 2}", "A♠ {undercut: 1 against 2}\n8. B s:3♣ 3♣", "wall", 9, 1),
])
def test_more_problems_are_reported_at_their_token(old, new, code, line, column):
    assert old in EXAMPLE
    report = read_hands(EXAMPLE.replace(old, new))[0]
    assert (report.problems[0].code, report.problems[0].line,
            report.problems[0].column) == (code, line, column), report.problems
    assert not report.finished


def test_the_missing_tag_is_named():
    (report,) = read_hands(EXAMPLE.replace('[Upcard "7♦"]', ""))
    assert [p.message for p in report.problems] == ["the [Upcard] tag is missing"]


def test_a_turn_after_the_stock_reached_two_is_the_wall():
    (report,) = read_hands(DRAWN)
    assert report.valid and report.result.outcome == "draw" and report.result.stock_left == 2
    lines = DRAWN.splitlines()
    end = lines.index("0-0")
    text = "\n".join(lines[:end] + ["53. A s:Q♣ Q♣"] + lines[end:]) + "\n"
    (report,) = read_hands(text)
    p = report.problems[0]
    assert (p.code, p.line, p.column) == ("wall", end + 1, 1)
    assert "2 cards" in p.message
