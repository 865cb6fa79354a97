"""`gops solve`: a position's value and both equilibrium mixes; impossible positions are
refused with a plain message and exit status 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.games.gops.theory.position import Objective, Setting, TieRule, position
from gops_records.games.gops.theory.solver import Solver

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
STATE = ["--hand-a", "1,3,5", "--hand-b", "2,3,4", "--prizes", "2,4,5"]


def run(*args: str):
    return CliRunner().invoke(app, ["solve", *args], env=ENV)


@pytest.mark.parametrize("rule", ["carry", "discard"])
@pytest.mark.parametrize("objective", ["points", "win"])
def test_the_start_is_worth_zero_with_a_game_per_prize(rule: str, objective: str) -> None:
    result = run("--cards", "3", "--tie-rule", rule, "--objective", objective, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["value"] == 0.0
    assert [g["prize"] for g in out["games"]] == [1, 2, 3]
    for game in out["games"]:
        for mix in (game["mix_a"], game["mix_b"]):
            assert [m["card"] for m in mix] == [1, 2, 3]
            assert abs(sum(m["probability"] for m in mix) - 1) < 1e-9


@pytest.mark.parametrize("objective", list(Objective))
def test_a_position_is_worth_what_the_plain_solver_says(objective: Objective) -> None:
    result = run("--cards", "5", "--tie-rule", "carry", "--objective", objective.value, *STATE,
                 "--pool", "3", "--lead", "-1", "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    setting = Setting(5, TieRule.CARRY, objective)
    expected = Solver.plain(setting).value(position(setting, [1, 3, 5], [2, 3, 4], [2, 4, 5],
                                                    3, -1))
    assert abs(out["value"] - expected) < 1e-9
    assert (out["hand_a"], out["pool"], out["lead"]) == ([1, 3, 5], 3, -1)
    assert abs(sum(g["value"] for g in out["games"]) / 3 - out["value"]) < 1e-9


def test_the_text_names_the_value_and_each_prize_game() -> None:
    result = run("--cards", "5", "--tie-rule", "carry", "--objective", "win", *STATE,
                 "--pool", "3", "--lead", "-1")
    assert result.exit_code == 0, result.stderr
    assert "value for A: +0.333333 (win minus loss)" in result.stdout
    assert "prize 5 revealed: value +1.000000" in result.stdout
    assert "  A bids  5: 100.0%" in result.stdout


def test_a_fixed_order_has_one_game() -> None:
    result = run("--cards", "4", "--tie-rule", "discard", "--objective", "points", "--order",
                 "descending", "--hand-a", "1,4", "--hand-b", "2,3", "--prizes", "1,2", "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [g["prize"] for g in out["games"]] == [2]
    # 4 beats both of B's cards: A takes 2 with it and loses 1, or takes 1 and loses 2
    assert out["value"] == pytest.approx(1.0)


@pytest.mark.parametrize(("args", "message"), [
    (["--hand-a", "1,2", "--hand-b", "1", "--prizes", "1,2"], "same size"),
    (["--hand-a", "1,2", "--hand-b", "1,2", "--prizes", "1"], "one prize is revealed a round"),
    (["--hand-a", "1,9", "--hand-b", "1,2", "--prizes", "1,2"], "every card is 1..4"),
    (["--hand-a", "2,2", "--hand-b", "1,2", "--prizes", "1,2"], "twice"),
    (["--hand-a", "1,2", "--hand-b", "1,2", "--prizes", "1,2", "--pool", "3"],
     "discard rule"),
    (["--hand-a", "1,2", "--hand-b", "1,2"], "--prizes missing"),
    (["--pool", "2"], "--pool and --lead describe a position"),
    (["--hand-a", "1;2", "--hand-b", "1,2", "--prizes", "1,2"], "separated by commas"),
    (["--hand-a", "1,2", "--hand-b", "1,2", "--prizes", "1,2", "--lead", "9"],
     "a lead is at most the points already taken"),
    (["--order", "ascending", "--hand-a", "1,2", "--hand-b", "1,2", "--prizes", "1,2"],
     "are [3, 4], not [1, 2]"),
])
def test_an_impossible_position_is_refused(args: list[str], message: str) -> None:
    result = run("--cards", "4", "--tie-rule", "discard", "--objective", "points", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("gops: error: ") and message in result.stderr
    assert result.stdout == ""


def test_a_pool_no_revealed_prizes_make_is_refused() -> None:
    result = run("--cards", "4", "--tie-rule", "carry", "--objective", "points", "--hand-a",
                 "1,2", "--hand-b", "1,2", "--prizes", "1,2", "--pool", "5")
    assert result.exit_code == 2 and "no set of the prizes revealed" in result.stderr
    ok = run("--cards", "4", "--tie-rule", "carry", "--objective", "points", "--hand-a",
             "1,2", "--hand-b", "1,2", "--prizes", "1,2", "--pool", "7")
    assert ok.exit_code == 0, ok.stderr


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(app, ["solve", "--help"], env=ENV)
    assert result.exit_code == 0 and "Example:" in result.stdout
    assert "gops solve --cards 5" in result.stdout


def test_a_hand_beyond_the_solvers_reach_is_refused_at_once() -> None:
    result = run("--cards", "9", "--tie-rule", "carry", "--objective", "win")
    assert result.exit_code == 2
    assert "at most 8 cards" in result.stderr and "theory.md" in result.stderr
