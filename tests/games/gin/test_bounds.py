"""Issue 21: the readers and the store agree on every bound. A Gin ``Game`` or ``Hand`` of
32,768 or more (``3e9``, 26 digits) used to validate and then abort the import building a
16-bit column, storing nothing, not even the valid records given alongside; a sheet with
no hands validated and then raised a bare AssertionError; numbers of thousands of digits
crashed the readers. Each is now a located problem of its own record (or, for a hand that
stands alone, a tag that places it nowhere), and the other records are stored."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from gops_records.core.checking import check_source
from gops_records.core.importer import import_paths
from gops_records.core.values import MAX_NUMBER, number_of
from gops_records.games.gin.sheet import MAX_DEADWOOD

HAND = (Path(__file__).parent / "issue_example.gin").read_text("utf-8")
SHEET = """[A "Alice"] [B "Bruno"] [Match "M{i}"] [Game "{game}"]
1. B up 6 B gin v 35 0-60
2. B up 3 A biggin v 79 129-0
169-0
"""
GOOD_SHEET = SHEET.format(i="good", game=1)
HUGE = ["32768", "40000", "3000000000", "9" * 26, "9" * 5000, "10000", "0", "\u00b2",
        "\u0661", "3e9", "-1"]


def verdicts(name: str, text: str) -> list[dict]:
    out = []
    for checked in check_source(text.encode(), name, notes=[]):
        out += checked.verdicts.to_dicts()
    return out


def imported(tmp_path: Path, name: str, text: str) -> tuple[int, int, list[tuple]]:
    """Import one file: (records new, records rejected, stored (game_no, hand_no))."""
    (tmp_path / name).write_text(text, "utf-8")
    summary = import_paths([tmp_path / name], tmp_path / "t.duckdb")
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as con:
        rows = con.execute("SELECT game_no, hand_no FROM gin_hands ORDER BY ALL").fetchall()
    return summary.games_new, summary.games_rejected, rows


def codes(verdict: dict) -> list[str]:
    return [e["code"] for e in verdict["errors"]]


def test_number_of_is_ascii_digits_from_1_to_the_most() -> None:
    assert number_of("1") == 1 and number_of(str(MAX_NUMBER)) == MAX_NUMBER
    assert number_of("007") == 7
    for text in HUGE:
        assert number_of(text) is None, text


@pytest.mark.parametrize("tag", ["Game", "Hand"])
def test_a_game_or_hand_out_of_range_is_a_tag_value_problem_and_the_rest_is_stored(
        tag: str, tmp_path: Path) -> None:
    hands = [HAND.replace('[Match "Alice-Bruno"]', f'[Match "M{i}"]').replace(
        f'[{tag} "{"1" if tag == "Game" else "3"}"]', f'[{tag} "{value}"]')
        for i, value in enumerate(HUGE)]
    good = HAND.replace('[Match "Alice-Bruno"]', '[Match "good"]')
    text = "\n".join([*hands, good])
    found = verdicts("h.gin", text)
    assert [v["valid"] for v in found] == [False] * len(HUGE) + [True]
    for verdict, value in zip(found, HUGE, strict=False):
        messages = [e["message"] for e in verdict["errors"] if e["code"] == "tag-value"]
        # a value of thousands of digits is too long a tag value, and not a number either
        assert any(f"from 1 to {MAX_NUMBER}" in m for m in messages), (value, verdict)
    new, rejected, rows = imported(tmp_path, "h.gin", text)
    assert (new, rejected, rows) == (1, len(HUGE), [(1, 3)])


def test_a_hand_standing_alone_with_a_huge_game_tag_is_stored_in_no_game(
        tmp_path: Path) -> None:
    alone = HAND.replace('[Match "Alice-Bruno"] ', "").replace('[Game "1"]', '[Game "40000"]')
    assert [v["valid"] for v in verdicts("a.gin", alone)] == [True]
    assert imported(tmp_path, "a.gin", alone) == (1, 0, [(None, 3)])


def test_a_sheet_game_out_of_range_is_a_tag_value_problem(tmp_path: Path) -> None:
    text = "\n".join([*(SHEET.format(i=i, game=v) for i, v in enumerate(HUGE)), GOOD_SHEET])
    found = verdicts("s.ginsheet", text)
    assert [v["valid"] for v in found] == [False] * len(HUGE) + [True]
    assert all("tag-value" in codes(v) for v in found[:-1])
    new, rejected, rows = imported(tmp_path, "s.ginsheet", text)
    assert (new, rejected, rows) == (1, len(HUGE), [(1, 1), (1, 2)])


def test_a_deadwood_over_the_most_is_refused_by_the_sheet_reader(tmp_path: Path) -> None:
    # 40,000 deadwood would score 40,025 points and a game of 40,245: valid before, then
    # the import overflowed the 16-bit points column
    huge = ('[A "Al"] [B "Bo"] [Match "M"] [Game "1"]\n1. A up 8 B gin v 40000 0-40025\n'
            "0-40245\n")
    digits = huge.replace("40000", "9" * 5000).replace('"M"', '"D"')
    most = (f'[A "Al"] [B "Bo"] [Match "N"] [Game "1"]\n1. A up 8 B gin v {MAX_DEADWOOD} '
            f"0-{MAX_DEADWOOD + 25}\n0-{MAX_DEADWOOD + 25 + 220}\n")
    found = verdicts("d.ginsheet", "\n".join([huge, digits, most]))
    assert [v["valid"] for v in found] == [False, False, True], found
    assert codes(found[0]) == ["syntax"] and f"at most {MAX_DEADWOOD}" in \
        found[0]["errors"][0]["message"]
    assert codes(found[1]) == ["syntax"]
    assert imported(tmp_path, "d.ginsheet", "\n".join([huge, digits, most]))[:2] == (1, 2)


def test_numbers_of_thousands_of_digits_are_problems_not_crashes(tmp_path: Path) -> None:
    big = "9" * 5000
    hand = HAND.replace("0-26", f"0-{big}")
    sheet = GOOD_SHEET.replace("0-60", f"0-{big}").replace("1. B", f"{big}. B")
    assert codes(verdicts("h.gin", hand)[0]) == ["result-mismatch"]
    assert not verdicts("s.ginsheet", sheet)[0]["valid"]
    assert imported(tmp_path, "s.ginsheet", sheet + "\n" + SHEET.format(i=2, game=1))[:2] \
        == (1, 1)


@pytest.mark.parametrize("score", ["*", "0-0"])
def test_a_sheet_without_hands_is_incomplete_and_the_others_are_stored(
        score: str, tmp_path: Path) -> None:
    empty = f'[A "Al"] [B "Bo"] [Match "E"] [Game "1"]\n{score}\n'
    text = empty + "\n" + GOOD_SHEET
    found = verdicts("e.ginsheet", text)
    assert [v["valid"] for v in found] == [False, True]
    assert codes(found[0]) == ["incomplete"]
    assert "without hands" in found[0]["errors"][0]["message"]
    assert imported(tmp_path, "e.ginsheet", text) == (1, 1, [(1, 1), (1, 2)])


def test_a_sheet_holds_at_most_the_most_hands() -> None:
    lines = "\n".join(f"{n}. A up 8 draw 0-0" for n in range(1, MAX_NUMBER + 2))
    found = verdicts("l.ginsheet", f'[A "Al"] [B "Bo"] [Match "L"] [Game "1"]\n{lines}\n*\n')
    assert not found[0]["valid"]
    assert any(f"at most {MAX_NUMBER} hands" in e["message"] for e in found[0]["errors"])


@pytest.mark.parametrize(("tag", "value"), [("Cards", "40000"), ("Cards", "9" * 26),
                                            ("BidCards", "3e9"), ("OpenPrizes", "32768"),
                                            ("Cards", "\u00b2")])
def test_gops_number_tags_out_of_range_are_tag_value_problems(tag: str, value: str) -> None:
    text = f'[{tag} "{value}"]\n[Cards "2"]\n1. 2♦ 2♣ A♠\n2. A♦ A♣ 2♠\n*\n' if tag != "Cards" \
        else f'[{tag} "{value}"]\n1. 2♦ 2♣ A♠\n*\n'
    found = verdicts("g.gops", text)
    assert not found[0]["valid"] and "tag-value" in codes(found[0])
