"""Validation by replay: every problem code with its exact line, column and round."""

from __future__ import annotations

import re

import pytest
from paths import ROOT

from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import parse, read_reports
from gops_records.games.gops.replay.problems import CODES as ALL_CODES
from gops_records.games.gops.report import GameReport
from gops_records.games.gops.rules import PrizeOrder, TieRule
from gops_records.games.gops.validate import validate_game


def check(text: str) -> GameReport:
    (report,) = read_reports(text)
    return report


def where(report: GameReport) -> list[tuple[str, int, int, int | None]]:
    return [(p.code, p.line, p.column, p.round) for p in report.problems]


# -- valid games -----------------------------------------------------------------------


def test_club_file_is_valid(data_dir):
    reports = read_reports((data_dir / "club.gops").read_text("utf-8"))
    assert [r.valid for r in reports] == [True] * 5
    assert [r.outcome.scores for r in reports] == [(45, 46), (45, 46), (0, 0, 6), (13, 12),
                                                   (43, 43)]
    assert [r.winner for r in reports] == ["Bruno", "B", "Cy", None, None]
    assert [r.unclaimed for r in reports] == [0, 0, 9, None, 5]
    assert [r.finished for r in reports] == [True, True, True, False, True]
    assert reports[2].profile.cards == 5 and reports[2].profile.players == 3
    assert reports[2].profile.tie_rule is TieRule.DISCARD
    assert reports[2].profile.prize_order is PrizeOrder.ASCENDING
    assert reports[3].outcome.finished is False
    assert reports[4].outcome.is_draw


def test_unfinished_game_with_star_is_valid():
    report = check("1. K♦ K♣ A♠\n2. Q♦ A♣ Q♠\n*")
    assert report.valid and not report.finished
    assert report.outcome.scores == (13, 12)
    assert report.unclaimed is None and report.winner is None


def test_profile_values_are_read_leniently():
    report = check('[tierule " Discard "] [CARDS " 05 "] [PrizeOrder "DESCENDING"]\n*')
    assert report.problems == ()
    profile = report.profile
    assert (profile.cards, profile.tie_rule, profile.prize_order) == (5, "discard", "descending")


def test_a_record_built_in_python_is_checked_by_the_same_replay():
    (record,) = parse("1. 8 9 9 2. 8 7 J *")
    assert [(p.code, p.line, p.column) for p in validate_game(record).problems] == \
        [(p.code, p.line, p.column) for p in check("1. 8 9 9 2. 8 7 J *").problems]


@pytest.mark.parametrize("date", ["2026.11.26", "2026.??.??", "????.??.??", "2026.02.??",
                                  "2024.02.29", "????.02.29", "2026.??.31",
                                  "1999.12.31"])
def test_good_dates(date):
    assert check(f'[Date "{date}"]\n*').valid


# -- every code, at its exact place ----------------------------------------------------


def test_syntax_bad_token():
    report = check("[A \"Ann\"]\n1. 8♦ 9♣ 9♠\n2. 5♦ 7x J♠ 3. K♦ K♣ Q♠\n*")
    # 7x stands where A's card stands: it is the one problem, and J♠ stays B's bid
    assert where(report) == [("syntax", 3, 7, 2)]
    assert report.problems[0].message == ("'7x' is not a card: ranks are A 2-10 J Q K, "
                                          "suits D C S H")
    # a word that cannot be a card is skipped, and then the round is a card short
    report = check("[A \"Ann\"]\n1. 8♦ 9♣ 9♠\n2. 5♦ (x) 7♣ J♠\n*")
    assert where(report) == [("syntax", 3, 7, 2)]


def test_syntax_missing_terminator_mid_file_and_at_end():
    first, second = parse('[A "Ann"]\n1. 8 9 9\n[A "Bob"]\n1. 8 9 9\n')
    assert where(validate_game(first)) == [("syntax", 3, 1, 1)]
    assert where(validate_game(second)) == [("syntax", 4, 9, 1)]


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ('[TieRule "split"]', "TieRule 'split' is not carry or discard"),
        ('[Cards "14"]', "Cards '14' is not a number of cards from 1 to 13"),
        ('[Cards "0"]', "Cards '0' is not a number of cards from 1 to 13"),
        ('[Cards "five"]', "Cards 'five' is not a number of cards from 1 to 13"),
        ('[PrizeOrder "random"]',
         "PrizeOrder 'random' is not shuffled, ascending or descending"),
        ('[Date "26.11.2026"]',
         "Date '26.11.2026' is not YYYY.MM.DD (write ?? for unknown parts)"),
        ('[Date "2026.13.01"]', "Date '2026.13.01' has no month 13 (months are 01 to 12)"),
        ('[Date "2026.11.32"]', "Date '2026.11.32' is not a date: November 2026 has 30 days"),
        ('[Date "2026.02.31"]', "Date '2026.02.31' is not a date: February 2026 has 28 days"),
        ('[Date "2027.02.29"]', "Date '2027.02.29' is not a date: February 2027 has 28 days"),
        ('[Date "????.02.30"]', "Date '????.02.30' is not a date: February has 29 days"),
        ('[Date "2026-11-26"]',
         "Date '2026-11-26' is not YYYY.MM.DD (write ?? for unknown parts)"),
        ('[Result "44:24"]', "Result '44:24' is not points like 44-24, or *"),
    ],
)
def test_tag_value(tag, message):
    report = check(f'[Event "E"]\n  {tag}\n*')
    assert where(report) == [("tag-value", 2, 3, None)]
    assert report.problems[0].message == message


def test_unreadable_tag_values_fall_back_to_the_defaults():
    report = check('[TieRule "split"] [Cards "x"] [PrizeOrder "up"]\n1. 8 9 9 *')
    assert report.profile.tie_rule is TieRule.CARRY
    assert report.profile.cards == 13 and report.profile.prize_order is PrizeOrder.SHUFFLED
    assert [p.code for p in report.problems] == ["tag-value"] * 3
    assert report.outcome.scores == (0, 0)  # the replay went on: round 1 tied and carried


def test_unknown_card():
    report = check('[Cards "5"]\n1. K♦ 2♣ 3♠\n2. 2♦ 6♣ 2♠\n*')
    assert where(report) == [("unknown-card", 2, 4, 1), ("unknown-card", 3, 7, 2)]
    assert [p.message for p in report.problems] == ["prize K is not in a 5-card suit",
                                                    "A bids 6, which is not in a 5-card suit"]


def test_wrong_suit_for_every_seat_but_d():
    report = check('[C "Cy"] [D "Dee"]\n1. 2♠ 3♥ 3♣ 3♦ 4♠\n2. 5d 6c 6s 6h 6h\n*')
    assert where(report) == [("wrong-suit", 2, 4, 1), ("wrong-suit", 2, 7, 1),
                             ("wrong-suit", 2, 10, 1), ("wrong-suit", 2, 13, 1)]
    assert [p.message for p in report.problems] == [
        "prize 2 is written as spades; prizes are diamonds",
        "A bids with clubs, but 3 is written as hearts",
        "B bids with spades, but 3 is written as clubs",
        "Cy (C) bids with hearts, but 3 is written as diamonds",
    ]


def test_card_not_in_hand():
    report = check('[Cards "3"]\n1. 2 3 A\n2. 3 3 A\n3. A 2 2\n*')
    assert where(report) == [("card-not-in-hand", 3, 6, 2), ("card-not-in-hand", 3, 8, 2)]
    assert [p.message for p in report.problems] == ["A bids 3, already spent in round 1 (line 2)",
                                                    "B bids A, already spent in round 1 (line 2)"]
    named = check('[A "Carla"] [Cards "3"]\n1. 2 3 A\n2. 3 3 A\n*')
    assert named.problems[0].message == "Carla (A) bids 3, already spent in round 1 (line 2)"


def test_prize_repeated():
    report = check("1. 8♦ 9♣ 9♠\n2. 5♦ 7♣ J♠\n3. 8♦ K♣ Q♠\n*")
    assert where(report) == [("prize-repeated", 3, 4, 3)]
    assert report.problems[0].message == "prize 8 was already revealed in round 1 (line 1)"


@pytest.mark.parametrize(
    ("order", "rounds", "expected", "message"),
    [
        ("ascending", "1. A A 2\n2. 3 2 A\n3. 2 3 3", [("prize-order", 3, 4, 2)],
         "prize order is ascending: round 2 reveals 2, not 3"),
        ("descending", "1. 3 A 2\n2. 2 2 A\n3. 2 3 3\n4. A 3 3",
         [("prize-repeated", 4, 4, 3)], "prize 2 was already revealed in round 2 (line 3)"),
        ("descending", "1. 3 A 2\n2. A 2 A", [("prize-order", 3, 4, 2)],
         "prize order is descending: round 2 reveals 2, not A"),
    ],
)
def test_prize_order(order, rounds, expected, message):
    report = check(f'[Cards "3"] [PrizeOrder "{order}"]\n{rounds}\n*')
    assert where(report)[:1] == expected
    assert report.problems[0].message == message


def test_prize_order_descending_report_position_and_skip():
    report = check('[Cards "3"] [PrizeOrder "descending"]\n1. 3 A 2\n2. A 2 A\n3. 2 3 3\n*')
    # round 2 (prize A) breaks the order and is skipped; round 3's 2 breaks it too,
    # because after a skipped round the fixed order still counts rounds as written
    assert where(report) == [("prize-order", 3, 4, 2), ("prize-order", 4, 4, 3)]


def test_too_many_rounds_is_reported_once_at_the_first_extra_round():
    report = check('[Cards "2"] [Result "2-1"]\n1. A A 2 2. 2 2 A 3. A A 2 4. 2 2 A\n2-1')
    assert where(report) == [("too-many-rounds", 2, 19, 3)]
    assert report.problems[0].message == "the game has 4 rounds; a 2-card game has 2"
    # the first N rounds were played: the game is finished, and the extra rounds do not
    # make the written result look "incomplete"
    assert report.finished and report.outcome.scores == (2, 1)
    assert report.unclaimed is None and report.winner is None  # an invalid game has neither


def test_incomplete_result_on_terminator_and_tag():
    report = check('[Event "E"]\n[Result "1-0"]\n1. A A 2\n1-0')
    assert where(report) == [("incomplete", 2, 1, None), ("incomplete", 4, 1, None)]
    assert [p.message for p in report.problems] == [
        "the game has 1 of 13 rounds, so its Result tag must be *, not 1-0",
        "the game has 1 of 13 rounds, so its result must be *, not 1-0",
    ]
    assert report.unclaimed is None and report.winner is None


def test_result_mismatch_terminator():
    report = check('[Cards "2"]\n1. 2 2 A 2. A A 2\n1-2')
    assert where(report) == [("result-mismatch", 3, 1, None)]
    assert report.problems[0].message == "result 1-2 differs from the replayed points 2-1"


def test_result_mismatch_tag_and_terminator_disagree():
    report = check('[Cards "2"] [Result "2-1"]\n1. 2 2 A 2. A A 2\n1-2')
    assert where(report) == [("result-mismatch", 3, 1, None)] * 2
    assert [p.message for p in report.problems] == [
        "result 1-2 differs from the replayed points 2-1",
        "Result tag 2-1 and terminator 1-2 disagree",
    ]


def test_result_mismatch_tag():
    report = check('[Cards "2"]\n  [Result "0-3"]\n1. 2 2 A 2. A A 2\n*')
    assert where(report) == [("result-mismatch", 2, 3, None)]
    assert report.problems[0].message == "Result tag 0-3 differs from the replayed points 2-1"


def test_result_mismatch_number_of_scores():
    report = check('[Cards "2"]\n1. 2 2 A 2. A A 2\n2-1-0')
    assert where(report) == [("result-mismatch", 3, 1, None)]
    assert report.problems[0].message == "result 2-1-0 has 3 scores; the game has 2 players"


def test_result_is_not_compared_after_an_illegal_round():
    # round 2 is illegal and skipped, so the replayed points mean nothing: no mismatch
    report = check('[Cards "2"]\n1. 2 2 A 2. A A A\n9-9')
    assert [p.code for p in report.problems] == ["card-not-in-hand", "result-unchecked"]
    assert report.problems[1].message == ("result not checked: the replay stopped at round 2, "
                                          "which has a problem")


def test_result_is_not_compared_under_an_unreadable_rule_tag():
    report = check('[Cards "2"] [TieRule "split"]\n1. 2 2 A 2. A A 2\n9-9')
    assert [p.code for p in report.problems] == ["tag-value", "result-unchecked"]


def test_problems_that_leave_the_replay_intact_do_not_hide_a_wrong_result():
    report = check('[Cards "2"] [Date "yesterday"] [Event "E"] [Event "F"]\n'
                   '1. 2 2 A 3. A A 2\n9-9')
    assert where(report) == [("tag-value", 1, 13, None), ("tag-value", 1, 44, None),
                             ("round-number", 2, 10, 2), ("result-mismatch", 3, 1, None)]


def test_result_is_not_compared_after_a_syntax_problem():
    report = check('[Cards "2"]\n1. 2 2 A 2. A A 2 ?\n9-9')
    assert [p.code for p in report.problems] == ["syntax", "result-unchecked"]


def test_bid_count():
    report = check('[Cards "3"]\n1. 2 3 2. A A 2 3. 3 2\n*')
    assert where(report) == [("bid-count", 2, 1, 1), ("bid-count", 2, 17, 3)]
    assert [p.message for p in report.problems] == ["round 1 has 1 bid; 2 players need 2",
                                                    "round 3 has 1 bid; 2 players need 2"]


def test_bid_count_of_a_last_unnumbered_round_points_at_its_prize():
    report = check("8 9 9 5 7 *")
    assert where(report) == [("bid-count", 1, 7, 2)]


def test_round_number():
    report = check("1. 8 9 9\n3. 5 7 J\n*")
    assert where(report) == [("round-number", 2, 1, 2)]


# -- many problems, many games ---------------------------------------------------------


def test_several_problems_in_one_game_are_all_reported_in_order():
    text = """\
[Cards "5"]
[TieRule "sometimes"]
[Date "yesterday"]
1. 3♦ 5♣ 4♠
2. 3♦ 5♣ 6♠ {prize again, A's 5 again, B's 6 is no card of a 5-card suit}
3. 2♥ 4♣ 3♠
4. 1♦ 2♣ 2♠
5. A♦ A♣ A♠ 6. 4♦ 3♣ 5♠
3-2
"""
    report = check(text)
    assert where(report) == [
        ("tag-value", 2, 1, None),
        ("tag-value", 3, 1, None),
        ("prize-repeated", 5, 4, 2),
        ("card-not-in-hand", 5, 7, 2),
        ("unknown-card", 5, 10, 2),
        ("wrong-suit", 6, 4, 3),
        ("syntax", 7, 4, 4),  # 1♦ is no card, but it stands in the prize's place
        ("too-many-rounds", 8, 13, 6),
    ]
    assert not report.valid


def test_illegal_round_is_skipped_and_the_replay_goes_on():
    report = check('[Cards "3"]\n1. 2 3 A\n2. 2 A 2\n3. 3 A 2\n4. A 2 3\n*')
    # round 2 repeats the prize 2 and is not played; its bids are still the cards its
    # players put down, so their use again in round 3 is reported; round 4 is one too many
    assert where(report) == [("prize-repeated", 3, 4, 2), ("card-not-in-hand", 4, 6, 3),
                             ("card-not-in-hand", 4, 8, 3), ("too-many-rounds", 5, 1, 4)]
    assert [(r.round_no, r.prize, r.bids) for r in report.rounds] == [(1, 2, (3, 1))]
    assert report.outcome.scores == (2, 0) and report.first_skipped == 2


def test_one_bad_game_does_not_stop_the_file(data_dir):
    reports = read_reports((data_dir / "broken.gops").read_text("utf-8"))
    assert [r.valid for r in reports] == [True, False, True]
    assert [r.players for r in reports] == [["Piet", "Quinn"], ["Rosa", "Sam"], ["Tess", "Uma"]]
    assert where(reports[1]) == [("prize-repeated", 11, 4, 2), ("card-not-in-hand", 11, 7, 2),
                                 ("wrong-suit", 11, 10, 2), ("result-unchecked", 13, 1, None)]
    assert reports[2].outcome.scores == (3, 2) and reports[2].unclaimed == 1
    assert reports[2].winner == "Tess"


def test_truncated_file(data_dir):
    (report,) = read_reports((data_dir / "truncated.gops").read_text("utf-8"))
    assert where(report) == [("bid-count", 7, 1, 3), ("syntax", 7, 9, 3)]
    assert not report.finished and report.outcome.scores == (0, 13)


def test_problems_as_dict():
    report = check("1. 8 9 9 2. 8 7 J *")
    assert [p.as_dict() for p in report.problems] == [
        {"code": "prize-repeated", "message": "prize 8 was already revealed in round 1 "
         "(line 1)", "line": 1,
         "column": 13, "round": 2}]


# -- the examples in docs/notation.md are true -----------------------------------------

DOC = ROOT / "docs" / "notation.md"
CODES = [code for code in ALL_CODES if code != "more-problems"]


def doc_examples() -> list[tuple[str, str, list[str]]]:
    """(section title, record, expected problem lines) for each example in the doc."""
    text = DOC.read_text("utf-8")
    section = text.split("## Validation codes", 1)[1]
    found = re.findall(r"^### (.+?)\n.*?```gops\n(.*?)```\n\n```text\n(.*?)```", section,
                       re.S | re.M)
    return [(title, record, expected.splitlines()) for title, record, expected in found]


def test_doc_has_an_example_for_every_code():
    titles = [title for title, _, _ in doc_examples()]
    assert [t for t in titles if t.startswith("`")] == [f"`{code}`" for code in CODES]


@pytest.mark.parametrize(("title", "record", "expected"), doc_examples(),
                         ids=[t for t, _, _ in doc_examples()])
def test_doc_example(title, record, expected):
    report = check(record)
    assert [f"{p.line}:{p.column}: {p.code}: {p.message}" for p in report.problems] == expected
    if title.startswith("`"):
        assert title.strip("`") in {p.code for p in report.problems}


def test_doc_canonical_example():
    text = DOC.read_text("utf-8").split("## The canonical form", 1)[1]
    messy, canonical = re.findall(r"```\n(.*?)```", text, re.S)[:2]
    (game,) = parse(messy)
    assert write_game(game) == canonical
