"""Gin Rummy problem messages name the player as Gops messages do: ``Joost (A)``, the seat
letter alone when the record names nobody there (issue 22)."""

from __future__ import annotations

import re
from pathlib import Path

from paths import ROOT
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.store.db import reading
from gops_records.games.gin.checking import read_gin
from gops_records.games.gin.grouping import group_hands
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.sheet import parse_sheets
from gops_records.games.gin.sheet_check import FullHands, check_sheet

HERE = Path(__file__).parent
EXAMPLE = (HERE / "issue_example.gin").read_text("utf-8").replace(
    '[A "Alice"] [B "Bruno"]', '[A "Joost"] [B "Mia"]')
DOC = (ROOT / "docs" / "gin.md").read_text("utf-8")
(GAME,) = re.findall(r"```gin-game\n(.*?)```", DOC, re.S)
SHEET = """\
[Match "Alice-Bruno"] [Game "1"] [A "Alice"] [B "Bruno"]
1. B up 6 B gin v 35 0-60
2. B up 3 A biggin v 79 129-0
169-0
"""


def message(text: str) -> str:
    (report,) = read_hands(text)
    assert report.problems, "expected a problem"
    return report.problems[0].message


def sheet_messages(text: str, full: FullHands | None = None) -> list[str]:
    (parsed,) = parse_sheets(text)
    return [p.message for p in check_sheet(parsed, full).problems]


def test_a_card_not_held_names_the_player():
    bad = EXAMPLE.replace("4. B s:8♦ Q♣", "4. B s:8♦ 2♦")
    assert message(bad) == "Mia (B) does not hold 2♦"


def test_a_hand_without_names_keeps_the_seat_letter():
    bad = EXAMPLE.replace('[A "Joost"] [B "Mia"] ', "").replace("4. B s:8♦ Q♣", "4. B s:8♦ 2♦")
    assert message(bad) == "B does not hold 2♦"


def test_turn_order_names_both_players():
    assert message(EXAMPLE.replace("3. A s:K♦ K♣", "3. B s:K♦ K♣")) == \
        "Joost (A) is to play, not Mia (B)"


def test_a_spread_and_a_layoff_name_the_player():
    missing = EXAMPLE.replace("(J♦ Q♦ K♦) 2♦", "(J♦ Q♦ K♦)")
    assert "each card of Joost (A)'s hand once" in message(missing)
    laid = EXAMPLE.replace("B off 7♠ 9♦", "B off 7♠ 9♦ 5♣")
    assert message(laid) == "Mia (B) does not hold 5♣ (laid off)"


def test_the_dealer_of_grouped_hands_names_the_players():
    hand_1, hand_2 = GAME.split("\n\n[Match")
    wrong = "[Match" + hand_2.replace('[Dealer "B"]', '[Dealer "A"]')
    grouping = group_hands([r for t in (hand_1, wrong) for r in read_hands(t)])
    (found,) = grouping.problems
    assert found.problem.message == "Bruno (B) deals hand 2: Bruno (B) won hand 1"


def test_sheet_messages_name_the_players():
    dealer = sheet_messages(SHEET.replace("2. B up 3", "2. A up 3").replace("169-0", "*"))
    assert dealer == ["Bruno (B) deals hand 2: Bruno (B) won hand 1"]
    points = sheet_messages(SHEET.replace("0-60", "0-61").replace("169-0", "*"))
    assert points == ["Bruno (B) gin v 35 scores 0-60 (gin), not 0-61"]
    full = FullHands()
    list(read_gin(GAME, "club.gin", full))  # a generator: read it
    mismatch = sheet_messages(SHEET.replace("1. B up 6 B gin", "1. B up 6 A gin"), full)
    assert any("says Bruno (B) gin, not Alice (A) gin" in m for m in mismatch), mismatch


def test_a_reversed_game_score_names_the_winner():
    lines = [f"{i}. B up K B gin v 0 0-25" for i in range(1, 4)]
    lines += [f"{i}. B up K B knock 2 v 4 0-2" for i in range(4, 9)]
    lines += ["9. B up 7 B knock 2 v 7 0-5", "10. B up K A gin v 30 55-0",
              "11. A up K A gin v 25 50-0"]
    text = '[Match "m"] [Game "1"] [A "Ann"] [B "Bob"]\n' + "\n".join(lines) + "\n25-0\n"
    (wrong,) = sheet_messages(text)
    assert "= -25, so Bob (B) wins 25" in wrong


def test_validate_and_the_import_rejects_print_the_names(tmp_path):
    bad = tmp_path / "bad.gin"
    bad.write_text(EXAMPLE.replace("4. B s:8♦ Q♣", "4. B s:8♦ 2♦"), "utf-8")
    runner = CliRunner()
    env = {"COLUMNS": "250", "GOPS_DB": ""}
    validated = runner.invoke(app, ["validate", str(bad)], env=env)
    assert validated.exit_code == 1
    assert f"{bad}:6:26: card-not-in-hand: Mia (B) does not hold 2♦" in validated.stdout
    db = tmp_path / "t.duckdb"
    runner.invoke(app, ["import", str(bad), "--db", str(db)], env=env)
    with reading(db) as con:
        (errors,) = con.execute("SELECT errors::VARCHAR FROM rejects").fetchone()
    assert "Mia (B) does not hold 2♦" in errors
    listed = runner.invoke(app, ["rejects", "--db", str(db)], env=env)
    assert "Mia (B) does not hold 2♦" in listed.stdout or "card-not-in-hand" in listed.stdout
