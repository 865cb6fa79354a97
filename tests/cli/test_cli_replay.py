"""`gops replay`: a game round by round, its outcome, and its exit codes."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gops_records.cli import app


@pytest.fixture
def run():
    runner = CliRunner(env={"COLUMNS": "250"})

    def invoke(*args: str):
        return runner.invoke(app, [str(a) for a in args])

    return invoke


def rows(stdout: str) -> list[list[str]]:
    """The round rows of the table, split into cells."""
    return [line.split() for line in stdout.splitlines() if line[:5].strip().isdigit()]


def test_a_round_log_replays_as_its_records_do(run, data_dir, tmp_path):
    """A CSV or JSONL round log is read as the import reads it (not as .gops text): the
    same rounds and the same outcome as the .gops record it was written from."""
    db, log = tmp_path / "t.duckdb", tmp_path / "club.csv"
    assert run("import", data_dir / "club.gops", "--db", db).exit_code == 0
    assert run("export", "--format", "csv", "--out", log, "--db", db).exit_code == 0
    record = run("replay", data_dir / "club.gops")
    replayed = run("replay", log)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[0].startswith(f"{log} game 1 (line 2): Alice v Bruno")
    assert rows(replayed.stdout) == rows(record.stdout)
    assert replayed.stdout.splitlines()[-1] == record.stdout.splitlines()[-1]


def test_first_game_by_default(run, data_dir):
    path = data_dir / "club.gops"
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{path} game 1 (line 5): Alice v Bruno | 13 cards, tie rule carry, "
                        "prizes shuffled")
    assert lines[2].split() == ["round", "prize", "pool", "value", "Alice", "Bruno", "taken",
                                "by", "score"]
    table = rows(result.stdout)
    assert len(table) == 13
    # round, prize, pool on offer, its value, A's bid, B's bid, who took it, running score
    assert table[0] == ["1", "8", "8", "8", "9", "9", "tie:", "carried", "0-0"]
    assert table[1] == ["2", "5", "8+5", "13", "7", "J", "Bruno", "0-13"]
    assert table[2] == ["3", "K", "K", "13", "K", "Q", "Alice", "13-13"]
    assert table[9] == ["10", "J", "J", "11", "8", "8", "tie:", "carried", "30-31"]
    assert table[10] == ["11", "4", "J+4", "15", "6", "5", "Alice", "45-31"]
    assert table[12] == ["13", "6", "6", "6", "4", "7", "Bruno", "45-46"]
    assert lines[-1] == "Outcome: Alice 45, Bruno 46; unclaimed 0: Bruno wins"
    assert "Problems" not in result.stdout


def test_three_players_discard(run, data_dir):
    result = run("replay", data_dir / "club.gops", "--number", "3")
    assert result.exit_code == 0
    assert "Ann v Ben v Cy | 5 cards, tie rule discard, prizes ascending" in result.stdout
    assert rows(result.stdout) == [
        ["1", "A", "A", "1", "5", "5", "A", "tie:", "unclaimed", "0-0-0"],
        ["2", "2", "2", "2", "A", "2", "5", "Cy", "0-0-2"],
        ["3", "3", "3", "3", "4", "4", "2", "tie:", "unclaimed", "0-0-2"],
        ["4", "4", "4", "4", "2", "3", "4", "Cy", "0-0-6"],
        ["5", "5", "5", "5", "3", "A", "3", "tie:", "unclaimed", "0-0-6"],
    ]
    assert result.stdout.splitlines()[-1] == "Outcome: Ann 0, Ben 0, Cy 6; unclaimed 9: Cy wins"


def test_unfinished_game(run, data_dir):
    result = run("replay", data_dir / "club.gops", "-g", "4")
    assert result.exit_code == 0
    assert len(rows(result.stdout)) == 3
    assert rows(result.stdout)[2] == ["3", "9", "9", "9", "9", "9", "tie:", "carried", "13-12"]
    assert result.stdout.splitlines()[-1] == "Unfinished after 3 of 13 rounds: Alice 13, Dora 12"


def test_draw_with_a_last_round_tie(run, data_dir):
    result = run("replay", data_dir / "club.gops", "--number", "5")
    assert result.exit_code == 0
    assert rows(result.stdout)[-1] == ["13", "5", "5", "5", "5", "5", "tie:", "unclaimed",
                                       "43-43"]
    assert result.stdout.splitlines()[-1] == "Outcome: Bruno 43, Dora 43; unclaimed 5: draw"


def test_invalid_game_lists_problems_and_exits_1(run, data_dir):
    result = run("replay", data_dir / "broken.gops", "--number", "2")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "    2  illegal round, skipped (see problems below)" in lines
    assert lines[lines.index("Problems:") + 1:] == [
        "  line 11:4: prize-repeated: prize 2 was already revealed in round 1 (line 10)",
        "  line 11:7: card-not-in-hand: Rosa (A) bids 3, already spent in round 1 (line 10)",
        "  line 11:10: wrong-suit: Sam (B) bids with spades, but 2 is written as hearts",
        "  line 13:1: result-unchecked: result not checked: the replay stopped at round 2, "
        "which has a problem",
    ]


def test_no_such_game(run, data_dir):
    path = data_dir / "club.gops"
    result = run("replay", path, "--number", "9")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"gops: error: {path} has 5 games; there is no game 9\n"
    result = run("replay", data_dir / "bom.gops", "--number", "2")
    assert result.stderr.endswith("has 1 game; there is no game 2\n")


def test_file_without_games(run, tmp_path):
    path = tmp_path / "notes.gops"
    path.write_text("{ only a comment }\n; and another\n")
    result = run("replay", path)
    assert result.exit_code == 2
    assert result.stderr == f"gops: error: {path} holds no games\n"
    empty = tmp_path / "empty.gops"
    empty.write_text("")
    assert run("replay", empty).exit_code == 2


def test_game_zero_is_a_usage_error(run, data_dir):
    result = run("replay", data_dir / "club.gops", "--number", "0")
    assert result.exit_code == 2


def test_missing_file(run, tmp_path):
    result = run("replay", tmp_path / "missing.gops")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gops: error: {tmp_path / 'missing.gops'}: cannot read")


def test_encoding(run, data_dir):
    path = data_dir / "latin1.gops"
    assert run("replay", path).exit_code == 2
    result = run("replay", path, "--encoding", "latin-1")
    assert result.exit_code == 0
    assert "José v Müller" in result.stdout
    assert result.stdout.splitlines()[-1] == "Outcome: José 2, Müller 4; unclaimed 0: Müller wins"


# -- the variants: bids of several cards and open prizes -----------------------------------

PAIRS = """[A "Alice"]
[B "Bruno"]
[TieRule "carry"]
[Cards "7"]
[BidCards "2"]

1. 5♦ 7♣+A♣ 6♠+2♠
2. 2♦ 3♣+2♣ 7♠+A♠
3. 4♦ 6♣+5♣ 5♠+4♠
4-7
"""

ROW = """[A "Alice"]
[B "Bruno"]
[TieRule "{rule}"]
[Cards "5"]
[OpenPrizes "3"]

1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦
2. (2♦) 4♣ 4♠ -
3. ({third}) 5♣ A♠ 4♦
4. () A♣ 3♠ 3♦
5. () 2♣ 5♠ A♦
*
"""


def test_bids_of_several_cards_show_their_cards_and_strength(run, tmp_path):
    path = tmp_path / "pairs.gops"
    path.write_text(PAIRS, encoding="utf-8")
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("| 7 cards, tie rule carry, prizes shuffled, bids of 2 cards "
                             "(3 rounds)")
    # round, prize, pool, value, A's cards = strength, B's cards = strength, taken by, score
    assert rows(result.stdout) == [
        ["1", "5", "5", "5", "7♣+A♣", "=", "8", "6♠+2♠", "=", "8", "tie:", "carried", "0-0"],
        ["2", "2", "5+2", "7", "3♣+2♣", "=", "5", "7♠+A♠", "=", "8", "Bruno", "0-7"],
        ["3", "4", "4", "4", "6♣+5♣", "=", "11", "5♠+4♠", "=", "9", "Alice", "4-7"]]
    assert lines[-1] == "Outcome: Alice 4, Bruno 7; unclaimed 0: Bruno wins"


@pytest.mark.parametrize(("rule", "third", "round_2", "round_3", "outcome"), [
    ("discard", "3♦", ["2", "(2)", "4", "A", "2", "4", "4", "-", "tie:", "set", "aside", "2",
                       "5-0"],
     ["3", "(3)", "4", "A", "3", "5", "A", "4", "Alice", "9-0"], "Alice 9, Bruno 4; unclaimed 2"),
    ("carry", "", ["2", "(2)", "4", "A", "2", "4", "4", "-", "tie:", "row", "stays", "5-0"],
     ["3", "()", "4", "A", "2", "5", "A", "4", "Alice", "9-0"], None),
])
def test_open_prizes_show_the_row_the_prize_taken_and_what_a_tie_set_aside(
        run, tmp_path, rule, third, round_2, round_3, outcome):
    path = tmp_path / "row.gops"
    path.write_text(ROW.format(rule=rule, third=third), encoding="utf-8")
    result = run("replay", path)
    lines = result.stdout.splitlines()
    assert lines[0].endswith(f"| 5 cards, tie rule {rule}, prizes shuffled, open prizes "
                             "(a row of 3)")
    assert lines[2].split() == ["round", "revealed", "row", "Alice", "Bruno", "taken", "by",
                                "set", "aside", "score"]
    table = rows(result.stdout)
    # round, revealed, the row on offer, A's bid, B's bid, the prize taken, by whom, score
    assert table[0] == ["1", "(4", "A", "5)", "4", "A", "5", "3", "2", "5", "Alice", "5-0"]
    assert table[1] == round_2
    assert table[2] == round_3
    if outcome is not None:  # the discard game is the worked game of docs/notation.md
        assert result.exit_code == 0, result.output
        assert lines[-1] == f"Outcome: {outcome}: Alice wins"


def test_a_stored_variant_game_replays_from_the_database(run, tmp_path):
    from gops_records.core.importer import import_paths

    (tmp_path / "pairs.gops").write_text(PAIRS, encoding="utf-8")
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "pairs.gops"], db)
    from_file = run("replay", tmp_path / "pairs.gops")
    games = run("games", "--db", db, "--json")
    ref = json.loads(games.stdout.splitlines()[0])["game_ref"]
    stored = run("replay", ref, "--db", db)
    assert stored.exit_code == 0, stored.output
    # the suits are not stored; each seat's cards are shown in its suit, as written here
    assert rows(stored.stdout) == rows(from_file.stdout)
