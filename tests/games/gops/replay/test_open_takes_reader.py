"""The reader of ``[OpenTakes "each"]`` (every bidder takes a prize from the open row,
strongest first; one take per seat after the bids): good records read to the rules
engine's rounds and scores, hostile ones give their problems at the exact take (line and
column), and stored games come back from ``gops export`` (.gops) as written."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.bots import BOTS
from gops_records.games.gops.cards import SEATS
from gops_records.games.gops.export import iter_records
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import Game, OpenTakes, RuleProfile, TieRule
from gops_records.games.gops.simulate import play_game, record_of

HEAD = ('[A "Alice"]\n[B "Bruno"]\n[TieRule "discard"]\n[Cards "5"]\n[OpenPrizes "3"]\n'
        '[OpenTakes "each"]\n\n')
#: docs/notation.md's worked game (rounds only; line 8 is round 1).
WORKED = ["1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦ 4♦", "2. (2♦ 3♦) 4♣ 4♠ - -", "3. () 5♣ A♠ 2♦ A♦",
          "4. () A♣ 3♠ - -", "5. () 2♣ 5♠ - -"]
PROFILE = RuleProfile(5, 2, TieRule.DISCARD, open_prizes=3, open_takes=OpenTakes.EACH)


def _text(rounds: list[str], result: str = "*") -> str:
    return HEAD + "\n".join(rounds) + f"\n{result}\n"


def _problems(rounds: list[str]) -> list[tuple[str, int, int]]:
    (report,) = read_reports(_text(rounds))
    return [(p.code, p.line, p.column) for p in report.problems]


def test_the_worked_game_reads_as_the_rules_engine_plays_it():
    (report,) = read_reports(_text(WORKED, "7-5"))
    assert report.valid, report.problems
    assert report.profile == PROFILE
    game = Game(PROFILE)
    for revealed, bids, takes in (((4, 1, 5), (3, 2), (5, 4)), ((2, 3), (4, 4), (None, None)),
                                  ((), (5, 1), (2, 1)), ((), (1, 3), (None, None)),
                                  ((), (2, 5), (None, None))):
        game.play_round(revealed, bids, takes)
    assert report.rounds == tuple(game.history)
    assert report.outcome.scores == (7, 5) and report.outcome.unclaimed == 3
    assert report.rounds[0].takes == (5, 4) and report.rounds[1].discarded == 3


@pytest.mark.parametrize("profile", [
    RuleProfile(open_prizes=3, open_takes=OpenTakes.EACH),
    RuleProfile(cards=7, open_prizes=2, players=3, tie_rule=TieRule.DISCARD,
                open_takes=OpenTakes.EACH),
    RuleProfile(cards=6, open_prizes=6, players=4, open_takes=OpenTakes.EACH)],
    ids=["13c-2p", "7c-3p-discard", "6c-4p"])
def test_simulated_games_read_valid_with_the_engines_scores(profile):
    rng = random.Random(7)
    games = [play_game(profile, [BOTS[b] for b in list(BOTS)[:profile.players]], rng)
             for _ in range(5)]
    seats = {seat: f"Player {seat}" for seat in SEATS[:profile.players]}
    reports = read_reports("\n".join(write_game(record_of(g, seats)) for g in games))
    for report, game in zip(reports, games, strict=True):
        assert report.valid, report.problems
        assert report.rounds == tuple(game.history)
        assert report.outcome.scores == tuple(game.scores)
        assert report.outcome.unclaimed == game.unclaimed


@pytest.mark.parametrize(("rounds", "expected"), [
    # a take on a shared (top) bid: at the take, line 9 column 18
    ([WORKED[0], "2. (2♦ 3♦) 4♣ 4♠ 2♦ -"], [("take-mismatch", 9, 18)]),
    # the stronger bidder wrote - where it chose: at its take
    (["1. (4♦ A♦ 5♦) 3♣ 2♠ - 4♦"], [("take-mismatch", 8, 21)]),
    # the weaker bidder takes what the stronger took first
    (["1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦ 5♦"], [("prize-not-in-row", 8, 24)]),
    # a prize not in the row at all
    (["1. (4♦ A♦ 5♦) 3♣ 2♠ 2♦ 4♦"], [("prize-not-in-row", 8, 21)]),
    # a take from an empty row (round 3 empties it; round 4 has nothing left)
    (WORKED[:3] + ["4. () A♣ 3♠ - 3♦"], [("take-mismatch", 11, 15)]),
    # one take for two seats: at the round
    (["1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦"], [("take-mismatch", 8, 1)]),
    # a take in clubs: prizes are diamonds
    (["1. (4♦ A♦ 5♦) 3♣ 2♠ 5♣ 4♦"], [("wrong-suit", 8, 21)]),
])
def test_hostile_takes_are_found_at_the_take(rounds, expected):
    assert _problems(rounds) == expected


def test_a_wrong_take_agrees_with_the_rules_engine():
    game = Game(PROFILE)
    codes = [p.code for p in game.problems((4, 1, 5), (3, 2), (5, 5))]
    assert codes == [code for code, _, _ in _problems(["1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦ 5♦"])]


def test_the_takes_of_the_winner_reading_are_still_one_prize():
    text = _text(WORKED).replace('[OpenTakes "each"]\n', "")
    (report,) = read_reports(text)
    assert {p.code for p in report.problems} >= {"bid-count"}


def test_stored_games_come_back_from_the_gops_export(tmp_path: Path):
    rng = random.Random(3)
    profile = RuleProfile(cards=7, open_prizes=3, players=3, tie_rule=TieRule.DISCARD,
                          open_takes=OpenTakes.EACH)
    records = [record_of(play_game(profile, [BOTS[b] for b in list(BOTS)[:3]], rng),
                         {"Event": "Club", "Round": str(i), "A": "Ann", "B": "Bob",
                          "C": "Cid"}) for i in range(1, 5)]
    records.append(record_of(play_game(PROFILE, [BOTS["prize"]] * 2, rng)))
    source = tmp_path / "each.gops"
    source.write_text("\n".join(write_game(r) for r in records))
    db = tmp_path / "db.duckdb"
    summary = import_paths([source], db)
    assert (summary.games_new, summary.games_rejected) == (5, 0)
    with reading(db) as con:
        back = list(iter_records(con))
        stored = con.execute("SELECT count(*), count(DISTINCT game_id) FROM round_takes"
                             ).fetchone()
    assert [write_game(r) for r in back] == [write_game(r) for r in records]
    assert stored == (4 * 7 + 5, 5)
    again = tmp_path / "again.duckdb"
    (tmp_path / "out.gops").write_text("\n".join(write_game(r) for r in back))
    assert import_paths([tmp_path / "out.gops"], again).games_duplicate == 0
    with reading(db) as a, reading(again) as b:
        query = "SELECT game_id, round_no, takes FROM round_takes ORDER BY ALL"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


def test_games_differing_only_in_takes_get_different_ids(tmp_path: Path):
    one = _text(WORKED)
    other = one.replace("3. () 5♣ A♠ 2♦ A♦", "3. () 5♣ A♠ A♦ 2♦")
    (tmp_path / "g.gops").write_text(one + "\n" + other)
    summary = import_paths([tmp_path / "g.gops"], tmp_path / "db.duckdb")
    assert (summary.games_new, summary.games_duplicate) == (2, 0)


def test_the_game_viewer_shows_every_take_and_the_stored_score(tmp_path: Path):
    """The Game viewer rebuilds a stored game's rounds: every seat's take and a running
    score that ends at the stored result (docs/notation.md's worked game, 7-5)."""
    from gops_records.games.gops.analytics import game_detail
    from gops_records.games.gops.analytics.games import variant_rounds

    source = tmp_path / "worked.gops"
    source.write_text(_text(WORKED, "7-5"))
    db = tmp_path / "db.duckdb"
    assert import_paths([source], db).games_new == 1
    with reading(db) as con:
        ((game_id,),) = con.execute("SELECT game_id FROM games").fetchall()
        detail = game_detail(con, game_id)
    assert detail.profile == PROFILE
    assert [r.takes for r in detail.results][:3] == [(5, 4), (None, None), (2, 1)]
    assert detail.header["scores"] == [7, 5]
    game = Game(PROFILE)
    for result in detail.results:
        game.play_round(result.revealed, result.bids, result.takes)
    assert tuple(game.scores) == (7, 5)
    table = variant_rounds(detail)
    assert table["score"].to_list()[-1] == "7-5"


def test_a_csv_export_refuses_games_whose_takes_it_cannot_carry(tmp_path: Path):
    """A round log has no column for every bidder's take: a CSV export of such a game
    would not read back, so it is refused before any file is written; .gops carries it."""
    from gops_records.core.export_target import ExportError
    from gops_records.games.gops.export import export_gops

    (tmp_path / "worked.gops").write_text(_text(WORKED, "7-5"))
    db = tmp_path / "db.duckdb"
    import_paths([tmp_path / "worked.gops"], db)
    out = tmp_path / "out.csv"
    with pytest.raises(ExportError, match=r"1 of the selected games was played with "
                                          r"\[OpenTakes \"each\"\].*--format gops"):
        export_gops(db, out, "csv")
    assert not out.exists()
    assert export_gops(db, tmp_path / "out.gops", "gops").games == 1
