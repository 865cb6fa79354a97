"""The Session page's one-line summary of an evening (who won, best-of results)."""

from __future__ import annotations

import datetime as dt

import polars as pl
from gops_records.dashboards.gops.session import best_of_results, leaders, winners_line

DAY = dt.date(2026, 3, 6)


def matches(rows: list[tuple[str, str, int, str | None, int]]) -> pl.DataFrame:
    """(match, player, game_wins, best_of_winner, match_games) rows of one evening."""
    return pl.DataFrame(
        [{"event": "Club", "date": DAY, "match": m, "player": p, "game_wins": w,
          "best_of_winner": b, "match_games": g} for m, p, w, b, g in rows])


def standings(rows: list[tuple[str, int, int, int, int, int]]) -> pl.DataFrame:
    """(player, games, wins, draws, points_for, point_diff), best first."""
    return pl.DataFrame([{"player": p, "games": n, "wins": w, "draws": d, "points_for": f,
                          "point_diff": diff} for p, n, w, d, f, diff in rows])


def test_one_match_names_its_winner_and_score():
    one = matches([("1", "Ann", 2, "Ann", 3), ("1", "Bob", 1, "Ann", 3)])
    assert best_of_results(one) == "1: Ann, 2 of 3 games"
    shared = matches([("1", "Ann", 1, None, 2), ("1", "Bob", 1, None, 2)])
    assert best_of_results(shared) == "1: shared, 2 games"


def test_many_matches_are_counted_per_winner():
    many = matches([("1", "Ann", 2, "Ann", 3), ("1", "Bob", 1, "Ann", 3),
                    ("2", "Bob", 2, "Bob", 2), ("2", "Cy", 0, "Bob", 2),
                    ("3", "Ann", 2, "Ann", 3), ("3", "Cy", 1, "Ann", 3),
                    ("4", "Bob", 1, None, 2), ("4", "Cy", 1, None, 2)])
    assert best_of_results(many) == "4 matches won by Ann 2, Bob 1; 1 shared"


def test_a_shared_lead_names_every_leader():
    table = standings([("Ann", 3, 2, 0, 30, 5), ("Bob", 3, 2, 0, 28, 5),
                       ("Cy", 3, 2, 0, 40, 4), ("Dee", 3, 0, 0, 10, -14)])
    assert leaders(table)["player"].to_list() == ["Ann", "Bob"]  # Cy: same wins, less diff
    line = winners_line(table, pl.DataFrame())
    assert line == ("Ann won 2 of 3 games (30 points, +5) and Bob won 2 of 3 games "
                    "(28 points, +5) — a shared lead")
