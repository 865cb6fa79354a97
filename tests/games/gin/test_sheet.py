"""Score sheets (.ginsheet): the issue's sheet, the round trip, and every check located."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paths import ROOT

from gops_records.games.gin.checking import read_gin
from gops_records.games.gin.rules import Seat
from gops_records.games.gin.sheet import (
    SheetLine,
    SheetOut,
    SheetRecord,
    parse_sheets,
    write_sheets,
)
from gops_records.games.gin.sheet_check import FullHands, check_matches, check_sheet

ISSUE_SHEET = """\
[A "Alice"] [B "Bruno"] [Match "Alice-Bruno"] [Game "1"]
1. A up 8  B knock 3 v 15  0-12  = 0-12
2. B up K  B gin v 31      0-56  = 0-68
3. B up 7  A knock 2 v 1   0-26  = 0-94   {undercut}
4. B up A  draw            0-0   = 0-94
5. B up 5  B knock 4 v 22  0-18  = 0-112
0-392 {112 - 0 + 100 + 20 x (4 - 0) = 292, blitz + 100}
"""
DOC = (ROOT / "docs" / "gin.md").read_text("utf-8")
(GAME,) = re.findall(r"```gin-game\n(.*?)```", DOC, re.S)
#: The worked game of docs/gin.md as a sheet: a gin (60 to Bruno), a big gin (129 to Alice).
GAME_SHEET = """\
[Match "Alice-Bruno"] [Game "1"] [A "Alice"] [B "Bruno"]
1. B up 6 B gin v 35 0-60
2. B up 3 A biggin v 79 129-0
169-0
"""


def check(text: str, full: FullHands | None = None):
    (parsed,) = parse_sheets(text)
    return check_sheet(parsed, full)


def located(text: str, full: FullHands | None = None) -> list[tuple[str, int, int]]:
    return [(p.code, p.line, p.column) for p in check(text, full).problems]


def test_the_issue_sheet_is_valid_and_scores_392_to_bruno_with_a_blitz():
    report = check(ISSUE_SHEET)
    assert report.valid, report.problems
    assert [r.outcome.value for r in report.results] == ["knock", "gin", "undercut", "draw",
                                                         "knock"]
    assert report.game.totals == (0, 112) and report.game.hands_won == (0, 4)
    assert report.score.winner is Seat.B and report.score.points == 392
    assert report.score.blitz and not report.score.reversed


def test_the_reader_keeps_what_each_line_says():
    (parsed,) = parse_sheets(ISSUE_SHEET)
    line = parsed.record.lines[0]
    assert line == SheetLine(Seat.A, 8, SheetOut.KNOCK, (0, 12), Seat.B, 3, 15, (0, 12))
    assert parsed.record.lines[2].comments == ("undercut",)
    assert parsed.record.lines[3].out is SheetOut.DRAW and parsed.record.lines[3].upcard == 1
    assert parsed.record.result == (0, 392)
    assert parsed.record.score_comments == ("112 - 0 + 100 + 20 x (4 - 0) = 292, blitz + 100",)


def test_canonical_writing_reads_back_equal():
    records = [p.record for p in parse_sheets(ISSUE_SHEET + "\n" + GAME_SHEET)]
    text = write_sheets(records)
    assert [p.record for p in parse_sheets(text)] == records
    assert "3. B up 7 A knock 2 v 1 0-26 = 0-94 {undercut}" in text.splitlines()
    assert write_sheets([p.record for p in parse_sheets(text)]) == text


@given(st.lists(st.tuples(st.sampled_from("AB"), st.integers(1, 13),
                          st.sampled_from(list(SheetOut)), st.sampled_from("AB"),
                          st.integers(0, 10), st.integers(0, 99), st.integers(0, 200),
                          st.booleans()), max_size=8),
       st.one_of(st.none(), st.tuples(st.integers(0, 500), st.integers(0, 500))))
def test_any_sheet_round_trips(lines, result):
    written = []
    for dealer, rank, out, seat, dead, opp, pts, totals in lines:
        draw = out is SheetOut.DRAW
        written.append(SheetLine(Seat(dealer), rank, out, (pts, 0), None if draw else Seat(seat),
                                 dead if out is SheetOut.KNOCK else None,
                                 None if draw else opp, (pts, pts) if totals else None))
    sheet = SheetRecord((("Match", "m"), ("Game", "1")), tuple(written), result)
    (parsed,) = parse_sheets(write_sheets([sheet]))
    assert parsed.problems == () and parsed.record == sheet


SMALL = """\
[Match "Alice-Bruno"] [Game "1"] [A "Alice"] [B "Bruno"]
1. A up 8 B knock 3 v 15 0-12
2. B up K B gin v 31 0-56
*
"""


@pytest.mark.parametrize(("text", "expected"), [
    (SMALL.replace("knock 3", "knok 3"), [("syntax", 2, 13)]),
    (SMALL.replace("up K", "up Z"), [("syntax", 3, 9)]),
    (SMALL.replace("0-56\n*", "0-56\n"), [("syntax", 3, 22)]),
    (SMALL.replace('[Game "1"] ', ""), [("tag-value", 1, 1)]),
    (SMALL.replace('[Game "1"]', '[Game "first"]'), [("tag-value", 1, 23)]),
    (SMALL.replace("[A ", '[Runs "wrap"] [A '), [("tag-value", 1, 34)]),
    (SMALL.replace("2. B up K", "2. A up K"), [("dealer", 3, 4)]),
    (SMALL.replace("0-12", "0-13"), [("hand-points", 2, 26)]),
    (SMALL.replace("B knock 3 v 15 0-12", "B knock 9 v 15 0-6"),
     [("knock-over-limit", 2, 19)]),
    (SMALL.replace("up 8 B knock 3 v 15 0-12", "up A B knock 1 v 15 0-14"),
     [("knock-forbidden", 2, 13)]),
    (SMALL.replace("B knock 3 v 15 0-12", "B knock 0 v 15 0-15"), [("out-kind", 2, 19)]),
    (SMALL.replace("2. B up K", "3. B up K"), [("incomplete", 3, 1)]),
    (SMALL.replace("*", "0-68"), [("incomplete", 4, 1)]),
])
def test_each_problem_is_located(text, expected):
    assert located(text) == expected


def test_running_totals_are_the_points_written_so_far():
    assert located(ISSUE_SHEET.replace("= 0-68", "= 0-69")) == [("running-total", 3, 36)]


def test_a_hand_after_100_is_after_game_end_and_the_game_score_is_checked():
    after = ISSUE_SHEET.replace("0-392", "6. B up 4 draw 0-0\n0-392")
    assert located(after) == [("after-game-end", 7, 1)]
    report = check(ISSUE_SHEET.replace("0-392", "0-292"))
    assert [(p.code, p.line, p.column) for p in report.problems] == [("game-score", 7, 1)]
    assert "+ 100 blitz = 392" in report.problems[0].message


def test_a_negative_formula_makes_the_other_player_the_winner():
    # ambiguity 8: 105 with 2 hands won against 90 with 9: 15 + 100 - 140 = -25, B wins 25
    lines = [f"{i}. B up K B gin v 0 0-25" for i in range(1, 4)]  # B: 75 in 3 hands
    lines += [f"{i}. B up K B knock 2 v 4 0-2" for i in range(4, 9)]  # B: 85 in 8 hands
    lines += ["9. B up 7 B knock 2 v 7 0-5"]  # B: 90 in 9 hands
    lines += ["10. B up K A gin v 30 55-0", "11. A up K A gin v 25 50-0"]  # A: 105 in 2
    text = '[Match "m"] [Game "1"] [A "Ann"] [B "Bob"]\n' + "\n".join(lines) + "\n0-25\n"
    report = check(text)
    assert report.valid, report.problems
    assert report.game.totals == (105, 90) and report.game.hands_won == (2, 9)
    assert report.score.reversed and report.score.winner is Seat.B
    assert report.score.points == 25 and not report.score.blitz
    (wrong,) = check(text.replace("\n0-25\n", "\n25-0\n")).problems
    assert wrong.code == "game-score"
    assert "105 - 90 + 100 + 20 x (2 - 9) = -25, so Bob (B) wins 25" in wrong.message


def test_sheets_of_a_match_a_game_twice_and_a_game_after_2_0():
    second = GAME_SHEET.replace('[Game "1"]', '[Game "2"]')
    third = GAME_SHEET.replace('[Game "1"]', '[Game "3"]')
    reports = [check(t) for t in (GAME_SHEET, second, third, second)]
    problems = check_matches(reports)
    assert sorted(problems) == [2, 3]
    assert [(p.code, p.line, p.column) for p in problems[2]] == [("match", 1, 23)]
    assert "over (2-0" in problems[2][0].message and "twice" in problems[3][0].message


def test_a_sheet_is_checked_against_the_full_hands_of_its_game():
    full = FullHands()
    (batch,) = read_gin(GAME, "club.gin", full)
    assert all(r.valid for r in batch.records)
    assert located(GAME_SHEET, full) == []
    wrong = GAME_SHEET.replace("1. B up 6", "1. B up 7")
    report = check(wrong, full)
    assert [(p.code, p.line, p.column) for p in report.problems] == [("sheet-mismatch", 2, 9)]
    assert "club.gin:1" in report.problems[0].message and "a 6, not a 7" in \
        report.problems[0].message
    other = GAME_SHEET.replace('[Match "Alice-Bruno"]', '[Match "Other"]')
    assert located(other.replace("1. B up 6", "1. B up 7"), full) == []  # not that game
