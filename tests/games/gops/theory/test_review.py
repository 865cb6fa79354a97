"""The review: bid costs on hand-checked games, their independence from the equilibrium
the LP returns, the tablebase read back instead of solved, and `gops review`'s JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gops_records.cli.app import app
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.theory import bid_cost, matrix_game
from gops_records.games.gops.theory.matrix_game import Solution
from gops_records.games.gops.theory.position import Objective
from gops_records.games.gops.theory.review import (
    ReviewUnsupported,
    accuracy,
    player_evenings,
    review_game,
    review_games,
)
from gops_records.games.gops.theory.tablebase import Tablebase, forget

# Two cards: prize 2 first. A's 1 against B's 2 then A's 2 against B's 1 nets A -1; A's 2
# weakly dominates A's 1 (matrix [[0, -1], [1, 0]], value 0 at A 2 / B 2), so A's 1
# costs 1 point and B's 2 nothing.
TWO_CARDS = """[A "Ann"]
[B "Bob"]
[Date "2026.11.26"]
[Cards "2"]
[TieRule "carry"]

1. 2 A 2
2. A 2 A
1-2
"""

FOUR_CARDS = """[A "Ann"]
[B "Bob"]
[Date "2026.11.{day}"]
[Cards "4"]
[TieRule "{rule}"]

1. 3 A 4
2. 4 4 3
3. A 2 A
4. 2 3 2
{result}
"""


def _report(text: str):
    (report,) = read_reports(text)
    assert report.valid, report.problems
    return report


def test_a_dominated_bid_costs_and_an_equilibrium_bid_is_free() -> None:
    review = review_game(_report(TWO_CARDS))
    first, last = review.rounds
    a, b = first.bids
    assert (a.card, b.card) == (1, 2)
    assert a.cost == pytest.approx(1.0) and a.probability == 0.0
    assert b.cost == 0.0 and b.probability == pytest.approx(1.0)
    assert first.value == pytest.approx(0.0) and first.prize_value == pytest.approx(0.0)
    assert [bid.cost for bid in last.bids] == [0.0, 0.0]  # one card each: forced
    assert not any(bid.choice for bid in last.bids)
    assert review.accuracy("B") == 100.0 and review.accuracy("A") < 100.0
    assert review.costliest() == [a]


def test_costs_under_the_win_objective_are_win_chance() -> None:
    review = review_game(_report(TWO_CARDS), Objective.WIN)
    a, b = review.rounds[0].bids
    # the equilibrium (A 2, B 2) draws (0); A's 1 against B's 2 loses 2 to 1: a draw
    # turned into a loss, cost 1
    assert a.cost == pytest.approx(1.0)
    assert b.cost == 0.0


def test_cost_does_not_depend_on_the_equilibrium_returned() -> None:
    # Row 0 guarantees 1; B's optimal set is every mix (row 1 earns y0 <= 1). Against
    # B's equilibrium (1, 0) row 1 would look free; the cost is the worst case: 1.
    grid = np.array([[1.0, 1.0], [1.0, 0.0]])
    for col_mix in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)):
        sol = Solution(1.0, (1.0, 0.0), col_mix)
        assert bid_cost.row_costs(grid, sol) == pytest.approx((0.0, 1.0))
    assert bid_cost.col_costs(grid, matrix_game.solve_lp(grid)) == (0.0, 0.0)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.data())
def test_costs_are_zero_on_the_support_positive_off_it_and_order_free(m, n, data) -> None:
    grid = np.array(data.draw(st.lists(st.lists(st.integers(-3, 3), min_size=n, max_size=n),
                                       min_size=m, max_size=m)), dtype=float)
    sol = matrix_game.solve_lp(grid)
    rows = bid_cost.row_costs(grid, sol)
    cols = bid_cost.col_costs(grid, sol)
    assert min(rows) >= 0 and min(cols) >= 0
    for i, p in enumerate(sol.row_mix):
        if p > 1e-9:
            assert rows[i] == 0.0
        # playing a row with a cost earns at most v - cost against some equilibrium of B
    # the same game with its rows and columns reversed: another LP run, maybe another
    # equilibrium, the same costs
    flipped = grid[::-1, ::-1].copy()
    sol2 = matrix_game.solve_lp(flipped)
    assert bid_cost.row_costs(flipped, sol2)[::-1] == pytest.approx(rows, abs=1e-6)
    assert bid_cost.col_costs(flipped, sol2)[::-1] == pytest.approx(cols, abs=1e-6)


def test_accuracy_is_lichess_shaped() -> None:
    from gops_records.games.gops.theory.position import Setting, TieRule

    s = Setting(13, TieRule.CARRY, Objective.POINTS)
    assert accuracy(s, 0.0) == 100.0
    assert 50 < accuracy(s, 12.0) < 60  # 13% of the deck's 91 points
    assert accuracy(s, 91.0) == 0.0


@pytest.mark.parametrize("text, why", [
    ('[Cards "4"]\n[C "Cy"]\n\n1. 2 A 2 3\n*\n', "3 players"),
    ('[Cards "4"]\n[BidCards "2"]\n\n1. 2 A+2 3+4\n*\n', "bids of 2 cards"),
    ('[Cards "4"]\n[OpenPrizes "2"]\n\n1. 2 3 A 2\n*\n', "open prizes"),
])
def test_variants_the_solver_does_not_cover_are_refused_plainly(text, why) -> None:
    (report,) = read_reports(text)
    with pytest.raises(ReviewUnsupported, match=why):
        review_game(report)


def test_a_second_review_reads_the_tablebase_and_solves_nothing(tmp_path) -> None:
    report = _report(FOUR_CARDS.format(day=26, rule="carry", result="7-3"))
    forget()
    first = Tablebase(tmp_path)
    one = review_game(report, Objective.WIN, 4, first)
    setting = one.setting
    assert first.loaded[setting] == 0 and first.solved(setting) > 0
    assert first.save() == first.solved(setting) + first.loaded[setting] > 0
    assert first.path(setting).exists() and first.solved(setting) == 0
    second = Tablebase(tmp_path)  # a new process: nothing in memory
    (two,) = review_games([report], Objective.WIN, 4, second)
    assert second.loaded[setting] > 0
    assert second.solved(setting) == 0
    assert two == one


def test_the_in_process_layer_keeps_one_solver(tmp_path) -> None:
    from gops_records.games.gops.theory.tablebase import solver_for

    report = _report(FOUR_CARDS.format(day=26, rule="discard", result="7-3"))
    forget()
    review = review_game(report, Objective.POINTS, 4)
    assert solver_for(review.setting) is solver_for(review.setting)


def test_player_evenings_count_bids_of_choice() -> None:
    reports = [_report(FOUR_CARDS.format(day=d, rule="carry", result="7-3")) for d in (26, 26, 27)]
    reviews = [review_game(r, Objective.POINTS, 4) for r in reports]
    evenings = player_evenings(reviews, "Ann")
    assert [e.date for e in evenings] == ["2026.11.26", "2026.11.27"]
    assert [(e.games, e.bids) for e in evenings] == [(2, 6), (1, 3)]
    assert evenings[0].low is not None and evenings[0].low <= evenings[0].mean_cost


def test_gops_review_json_keys(tmp_path) -> None:
    path = tmp_path / "evening.gops"
    path.write_text(TWO_CARDS + "\n" + FOUR_CARDS.format(day=26, rule="carry", result="7-3"))
    result = CliRunner().invoke(app, ["review", str(path), "--json", "--player", "Ann",
                                      "--tablebase", str(tmp_path / "tb"), "--rounds", "4"],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"games", "player"}
    game = out["games"][0]
    assert set(game) == {"ref", "players", "date", "cards", "tie_rule", "objective", "order",
                         "rounds_played", "first_round", "accuracy", "mean_cost",
                         "bids_of_choice", "costliest", "rounds"}
    assert set(game["rounds"][0]) == {"round", "prize", "pool", "lead", "hand_a", "hand_b",
                                      "prizes_left", "value", "prize_value", "mix_a", "mix_b",
                                      "bids"}
    assert set(game["rounds"][0]["bids"][0]) == {"round", "seat", "player", "card", "cost",
                                                 "accuracy", "probability", "choice"}
    assert game["rounds"][0]["bids"][0]["cost"] == pytest.approx(1.0)
    assert set(out["player"][0]) == {"player", "date", "games", "bids", "mean_cost", "low",
                                     "high"}
    assert out["player"][0]["games"] == 2


def test_gops_review_refuses_a_variant_with_a_message(tmp_path) -> None:
    path = tmp_path / "three.gops"
    path.write_text('[Cards "4"]\n[C "Cy"]\n\n1. 2 A 2 3\n*\n')
    result = CliRunner().invoke(app, ["review", str(path), "--tablebase", str(tmp_path)],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 2
    assert "3 players" in result.stderr


def test_gops_review_of_a_stored_reference_and_of_a_players_games(tmp_path) -> None:
    from gops_records.core.game_refs import game_ref
    from gops_records.core.importer import import_paths
    from gops_records.core.store.db import reading
    from gops_records.games.gops.theory import review_store
    from gops_records.games.gops.theory.tablebase import beside

    records = tmp_path / "club.gops"
    records.write_text("\n".join(FOUR_CARDS.format(day=d, rule="carry", result="7-3")
                                 for d in (26, 27)))
    db = tmp_path / "club.duckdb"
    import_paths([records], db)
    with reading(db) as con:
        ids = sorted(g for (g,) in con.execute("SELECT game_id FROM games").fetchall())
    runner, env = CliRunner(), {"COLUMNS": "250"}
    one = runner.invoke(app, ["review", game_ref(ids[0]), "--db", str(db), "--json",
                              "--rounds", "4"], env=env)
    assert one.exit_code == 0, one.output
    (game,) = json.loads(one.stdout)["games"]
    assert game["ref"] == game_ref(ids[0]) and game["first_round"] == 1
    both = runner.invoke(app, ["review", "--player", "Bob", "--db", str(db), "--rounds", "4"],
                         env=env)
    assert both.exit_code == 0, both.output
    assert "Bob: mean cost per bid of choice" in both.stdout
    assert "2026.11.26" in both.stdout and "2026.11.27" in both.stdout
    kept = review_store.read(beside(db), Objective.POINTS, 4)
    assert sorted(kept["game_id"].unique().to_list()) == ids
    assert kept.height == 2 * 2 * 4  # two games, two seats, four rounds
    missing = runner.invoke(app, ["review", "g0000", "--db", str(db)], env=env)
    assert missing.exit_code == 2 and "gops: error:" in missing.stderr


def test_the_commands_defaults_are_the_librarys() -> None:
    import importlib

    from gops_records.games.gops.theory import review as library

    command = importlib.import_module("gops_records.games.gops.commands.review")

    assert (command.DEFAULT_ROUNDS, command.MAX_ROUNDS) == (library.DEFAULT_ROUNDS,
                                                           library.MAX_ROUNDS)
    assert library.default_rounds(Objective.POINTS) == 8


def test_a_long_game_is_analysed_from_the_round_k_cards_are_left() -> None:
    import random

    from gops_records.games.gops.notation import write_games
    from gops_records.games.gops.rules import RuleProfile
    from gops_records.games.gops.simulate import Personality, Player, simulate_game

    record = simulate_game(RuleProfile(), [Player("Ann", Personality.RANDOM),
                                           Player("Bob", Personality.PRIZE)], random.Random(1))
    report = _report(write_games([record]))
    review = review_game(report, Objective.POINTS, 5)
    assert review.first_round == 9 and [r.round_no for r in review.rounds] == [9, 10, 11, 12, 13]
    first, *rest = review.rounds
    assert first.value is None and first.prize_value is not None  # the prize that came only
    assert all(r.value is not None for r in rest)
    assert len(first.hand_a) == 5 and all(b.cost >= 0 for b in review.bids)
    # a whole game (at most K cards) has the start's value: 0 by symmetry
    whole = review_game(_report(TWO_CARDS), Objective.POINTS, 8)
    assert whole.first_round == 1 and whole.rounds[0].value == pytest.approx(0.0)


def test_a_kept_review_reads_back_equal(tmp_path) -> None:
    from gops_records.games.gops.theory import review_store

    review = review_game(_report(FOUR_CARDS.format(day=26, rule="carry", result="7-3")),
                         Objective.WIN, 4)
    assert review_store.from_json(review_store.to_json(review)) == review
    review_store.keep(tmp_path, Objective.WIN, 4, {7: review})
    assert review_store.kept_review(tmp_path, Objective.WIN, 4, 7) == review
    assert review_store.kept_review(tmp_path, Objective.WIN, 4, 8) is None
    assert review_store.kept_review(tmp_path, Objective.POINTS, 4, 7) is None
