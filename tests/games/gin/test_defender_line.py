"""The defender's line of a ``.gin`` hand: with no meld of their own, the deadwood may come
before or after ``off ...`` (issue 22); both read as the same hand, written canonically."""

from __future__ import annotations

from gops_records.games.gin.notation import parse_hands, write_hand
from gops_records.games.gin.replay import read_hands

HAND = """[A "Joost"] [B "Mia"] [Dealer "B"]
[DealA "4♠ 5♠ 6♠ 9♣ 9♥ 9♠ J♦ Q♦ K♦ 10♥"]
[DealB "7♠ 8♠ K♣ Q♥ 2♣ 5♥ A♦ 3♣ 10♣ 4♦"]
[Upcard "7♦"]
1. A p:7♦ 10♥ knock (4♠ 5♠ 6♠) (9♣ 9♥ 9♠) (J♦ Q♦ K♦) 7♦
   {ANSWER}
38-0
"""
DEADWOOD = "K♣ Q♥ 2♣ 5♥ A♦ 3♣ 10♣ 4♦"
LAYOFFS_FIRST = f"B off 7♠ 8♠ - {DEADWOOD}"  # the canonical form
DEADWOOD_FIRST = f"B {DEADWOOD} off 7♠ 8♠"


def report(answer: str):
    (found,) = read_hands(HAND.replace("{ANSWER}", answer))
    return found


def test_deadwood_before_off_reads_as_the_same_hand():
    first, canonical = report(DEADWOOD_FIRST), report(LAYOFFS_FIRST)
    assert first.problems == () and canonical.problems == (), first.problems
    assert first.record == canonical.record
    r = first.record.response
    assert (r.layoffs, r.melds, r.unmatched) == \
        (canonical.record.response.layoffs, (), canonical.record.response.unmatched)
    assert len(r.layoffs) == 2 and len(r.unmatched) == 8
    assert first.result.scores == canonical.result.scores == (38, 0)


def test_the_writer_keeps_its_canonical_form():
    written = write_hand(report(DEADWOOD_FIRST).record)
    assert f"   {LAYOFFS_FIRST}\n" in written
    assert DEADWOOD_FIRST not in written
    (again,) = parse_hands(written)
    assert again.problems == () and again.record == report(DEADWOOD_FIRST).record


def test_a_comment_between_the_deadwood_and_off_is_kept():
    found = report(f"B {DEADWOOD} {{no melds}} off 7♠ 8♠")
    assert found.problems == ()
    assert found.record.response.comments == ("no melds",)
    assert found.record.response.layoffs == report(LAYOFFS_FIRST).record.response.layoffs


def test_a_layoff_that_fits_nothing_is_located_after_off_in_either_order():
    # 2♣ laid off fits no meld of the knocker: the layoff problem is at the off word
    bad = report("B K♣ Q♥ 5♥ A♦ 3♣ 10♣ 4♦ off 7♠ 8♠ 2♣")
    assert [p.code for p in bad.problems] == ["layoff"]
    line = HAND.replace("{ANSWER}", "").splitlines().index("   ") + 1
    assert (bad.problems[0].line, bad.problems[0].column) == \
        (line, 1 + len("   B K♣ Q♥ 5♥ A♦ 3♣ 10♣ 4♦ "))


def test_off_after_the_defenders_own_melds_is_refused_with_advice():
    text = HAND.replace("{ANSWER}", "B (7♠ 8♠ 9♠) K♣ off 7♠")
    (parsed,) = parse_hands(text)
    messages = [p.message for p in parsed.problems]
    assert len(messages) == 1, messages
    assert "before the melds" in messages[0]
    assert "one answer" not in messages[0]
