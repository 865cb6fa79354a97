"""Best-of-N matches (``[BestOf "N"]``): the tag's checks with their exact place and
"did you mean" fixes, how a match's games decide it (draws replayed, games after the
decision flagged), and the stored, exported and analysed matches."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.analytics.filters import ALL_GAMES
from gops_records.games.gops.analytics.matches import best_of_games, best_of_matches
from gops_records.games.gops.export import export_gops
from gops_records.games.gops.matches import MatchGame, best_of_problem, decide_match
from gops_records.games.gops.reading import read_reports

#: A 2-card game won by A (2-1), by B (1-2) and a draw (A and B take one prize each
#: is impossible with 2 cards, so a draw here is a tie of both rounds: 0-0).
A_WINS = "1. 2♦ 2♣ A♠\n2. A♦ A♣ 2♠\n2-1"
B_WINS = "1. 2♦ A♣ 2♠\n2. A♦ 2♣ A♠\n1-2"
DRAW = "1. 2♦ 2♣ 2♠\n2. A♦ A♣ A♠\n0-0"


def game(body: str, match: str = "1", best_of: str | None = "3", event: str = "Club",
         extra: str = "") -> str:
    tags = [f'[Event "{event}"]', '[Date "2026.11.26"]', f'[Match "{match}"]']
    if best_of is not None:
        tags.append(f'[BestOf "{best_of}"]')
    tags += ['[A "Alice"]', '[B "Bruno"]', '[Cards "2"]']
    return "\n".join(tags) + extra + "\n" + body + "\n"


def problems(text: str) -> list[str]:
    (report,) = read_reports(text)
    return [f"{p.line}:{p.column}: {p.code}: {p.message}" for p in report.problems]


# -- the tag ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1", "3", "5", "7", "15", " 3 "])
def test_odd_numbers_up_to_15_are_best_of_values(value):
    assert best_of_problem(value) is None


@pytest.mark.parametrize(("value", "fix"), [
    ("4", "did you mean 3 or 5?"), ("2", "did you mean 1 or 3?"), ("16", "did you mean 15?"),
    ("bo3", "did you mean 3?"), ("best of 5", "did you mean 5?"), ("Bo3", "did you mean 3?"),
])
def test_near_misses_name_the_likely_value(value, fix):
    assert best_of_problem(value).endswith(fix)


@pytest.mark.parametrize("value", ["0", "17", "99", "three", "", "3½", "٣", "1e3",
                                   "9" * 5000])
def test_hostile_values_are_refused_without_a_guess(value):
    found = best_of_problem(value)
    assert found is not None and "did you mean" not in found and len(found) < 200
    assert best_of_problem("bo" + "9" * 5000).endswith("like 3 or 5")


def test_a_good_best_of_game_is_valid():
    (report,) = read_reports(game(A_WINS))
    assert report.valid, report.problems
    assert report.record.tag("BestOf") == "3"


def test_a_bad_value_is_a_tag_value_problem_at_its_tag_and_the_game_still_replays():
    text = game(A_WINS, best_of="4")
    assert problems(text) == [
        "4:1: tag-value: BestOf '4' is an even number of games, which can end level: "
        "did you mean 3 or 5?"]
    (report,) = read_reports(text)
    assert report.outcome.scores == (2, 1)  # the rules are untouched


def test_best_of_without_a_match_tag_is_a_problem():
    text = '[A "Alice"]\n[Cards "2"] [BestOf "3"]\n' + A_WINS + "\n"
    assert problems(text) == [
        "2:13: tag-value: BestOf needs a Match tag: the games of a match are the games of "
        "one event and date with the same Match tag"]


def test_best_of_tag_names_are_case_insensitive_and_written_after_match():
    from gops_records.games.gops.notation import write_game

    (report,) = read_reports('[bestof "5"] [match "2"] [Cards "2"]\n' + A_WINS + "\n")
    assert report.valid
    assert write_game(report.record).startswith('[Match "2"]\n[BestOf "5"]\n')


# -- deciding a match ------------------------------------------------------------------------

AB = ("Alice", "Bruno")


def test_a_drawn_game_is_replayed_and_games_after_the_decision_are_flagged():
    games = [MatchGame(AB, "Alice"), MatchGame(AB, None), MatchGame(AB, "Bruno"),
             MatchGame(AB, "Alice"), MatchGame(AB, "Bruno")]
    v = decide_match(3, games)
    assert v.winner == "Alice" and v.decided_at == 4
    assert v.wins == {"Alice": 2, "Bruno": 1}
    assert v.counted == (True, False, True, True, False)
    assert v.after == (False, False, False, False, True)
    assert v.replays == (None, None, 2, None, None)


def test_an_unfinished_match_has_no_winner():
    v = decide_match(5, [MatchGame(AB, "Alice"), MatchGame(AB, "Alice")])
    assert v.winner is None and v.decided_at is None and v.needed == 3


@given(st.sampled_from([1, 3, 5, 7]),
       st.lists(st.sampled_from(["Alice", "Bruno", None]), max_size=12))
def test_a_match_is_decided_once_by_a_majority_of_counted_games(best_of, winners):
    v = decide_match(best_of, [MatchGame(AB, w) for w in winners])
    assert sum(v.wins.values()) == sum(v.counted)
    assert max(v.wins.values(), default=0) <= best_of // 2 + 1
    if v.winner is not None:
        assert v.wins[v.winner] == best_of // 2 + 1
        assert v.after == tuple(i >= v.decided_at for i in range(len(winners)))
    else:
        assert not any(v.after)
    for i, replayed in enumerate(v.replays):
        if replayed is not None:
            assert winners[replayed - 1] is None and replayed == i  # the game before


# -- stored, exported, analysed --------------------------------------------------------------


@pytest.fixture(scope="module")
def match_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("matches")
    evening = [game(A_WINS), game(DRAW), game(B_WINS), game(A_WINS), game(B_WINS),
               game(B_WINS, match="2", best_of="5"),
               game(A_WINS, match="3", best_of=None)]  # a cumulative match: no BestOf
    # the Round tag numbers the games of the evening: the same cards are other games
    evening = [text.replace("[A ", f'[Round "{i}"]\n[A ', 1)
               for i, text in enumerate(evening, start=1)]
    (folder / "evening.gops").write_text("\n".join(evening), encoding="utf-8")
    db = folder / "m.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_rejected == 0
    return db


def test_match_results_by_games(match_db: Path):
    with reading(match_db) as con:
        matches = best_of_matches(con, ALL_GAMES)
    rows = {r["match"]: r for r in matches.iter_rows(named=True)}
    assert set(rows) == {"1", "2"}  # match 3 has no BestOf
    one = rows["1"]
    assert (one["best_of"], one["games"], one["winner"], one["score"], one["decided_at"],
            one["after_decided"], one["replays"]) == (3, 5, "Alice", "Alice 2, Bruno 1", 4, 1, 1)
    two = rows["2"]
    assert (two["winner"], two["score"], two["decided_at"]) == (None, "Bruno 1, Alice 0", None)


def test_games_of_a_match_link_the_replay_to_its_draw(match_db: Path):
    with reading(match_db) as con:
        games = best_of_games(con, ALL_GAMES).filter(match="1")
        draw_id = con.execute("SELECT game_id FROM games WHERE result = '0-0'").fetchone()[0]
    assert games["game_no"].to_list() == [1, 2, 3, 4, 5]
    assert games["counted"].to_list() == [True, False, True, True, False]
    assert games["after_decided"].to_list() == [False, False, False, False, True]
    assert games["replay_of"].to_list() == [None, None, draw_id, None, None]


def test_the_limit_keeps_the_newest_matches(match_db: Path):
    with reading(match_db) as con:
        assert best_of_matches(con, ALL_GAMES, limit=1).height == 1
        assert best_of_matches(con, ALL_GAMES, limit=0).is_empty()


def test_the_gops_export_keeps_best_of_and_imports_to_the_same_games(match_db: Path,
                                                                     tmp_path: Path):
    out = tmp_path / "again.gops"
    export_gops(match_db, out, "gops")
    text = out.read_text("utf-8")
    assert text.count('[BestOf "3"]') == 5 and text.count('[BestOf "5"]') == 1
    again = tmp_path / "again.duckdb"
    import_paths([out], again)
    with reading(match_db) as a, reading(again) as b:
        assert best_of_matches(a, ALL_GAMES).equals(best_of_matches(b, ALL_GAMES))


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_round_logs_carry_best_of_and_the_csv_export_round_trips(match_db: Path,
                                                                 tmp_path: Path, kind: str):
    from gops_records.games.gops.roundlogs import round_log_games

    out = tmp_path / "again.csv"
    export_gops(match_db, out, "csv")
    header = out.read_text("utf-8").splitlines()[0].split(",")
    assert header[header.index("match") + 1] == "best_of"
    again = tmp_path / "again.duckdb"
    import_paths([out], again)
    with reading(match_db) as a, reading(again) as b:
        assert best_of_matches(a, ALL_GAMES).equals(best_of_matches(b, ALL_GAMES))
    if kind == "jsonl":  # a number or text in JSON, a bad value located at its row
        rows = ('{"game": 1, "round": 1, "prize": 2, "bid_a": 2, "bid_b": 1, "cards": 2, '
                '"match": "1", "best_of": %s}\n'
                '{"game": 1, "round": 2, "prize": 1, "bid_a": 1, "bid_b": 2, "cards": 2, '
                '"match": "1", "best_of": %s}\n')
        good = round_log_games((rows % (3, 3)).encode(), "jsonl", "log.jsonl")
        assert good.valid.tolist() == [True]
        bad = round_log_games((rows % ('"4"', '"4"')).encode(), "jsonl", "log.jsonl")
        problems = bad.problems(bad.invalid_games)[0]
        assert [(p.code, p.line) for p in problems] == [("tag-value", 1)]
        assert problems[0].message.endswith("did you mean 3 or 5?")


# -- gops games and gops replay --------------------------------------------------------------


def test_gops_games_lists_the_match_and_its_length(match_db: Path):
    import json

    from typer.testing import CliRunner

    from gops_records.cli import app

    runner = CliRunner(env={"COLUMNS": "250"})
    listed = runner.invoke(app, ["games", "--db", str(match_db), "--json"])
    assert listed.exit_code == 0, listed.output
    games = [json.loads(line) for line in listed.stdout.splitlines()] \
        if not listed.stdout.lstrip().startswith("[") else json.loads(listed.stdout)
    assert sorted(g["best_of"] or 0 for g in games) == [0, 3, 3, 3, 3, 3, 5]
    table = runner.invoke(app, ["games", "--db", str(match_db)])
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[0].split()[:4] == ["date", "event", "round", "match"]
    assert "1 (best of 3)" in table.stdout and "2 (best of 5)" in table.stdout


def test_gops_replay_names_the_match_and_its_length(tmp_path: Path):
    from typer.testing import CliRunner

    from gops_records.cli import app

    path = tmp_path / "one.gops"
    path.write_text(game(A_WINS), encoding="utf-8")
    out = CliRunner(env={"COLUMNS": "250"}).invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[0].endswith(" | match 1, best of 3")


@given(st.text(st.characters(exclude_categories=("Cs",), exclude_characters='"\\\n\r'),
               max_size=30))
def test_any_best_of_value_is_either_read_or_one_tag_value_problem_at_its_tag(value):
    text = f'[Match "1"]\n[Cards "2"] [BestOf "{value}"]\n' + A_WINS + "\n"
    (report,) = read_reports(text)
    good = best_of_problem(value) is None
    if good:
        assert report.valid, report.problems
    else:
        assert [(p.code, p.line, p.column) for p in report.problems] == [("tag-value", 2, 13)]
    assert report.outcome.scores == (2, 1)  # the rules never depend on it
