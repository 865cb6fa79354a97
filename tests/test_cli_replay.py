"""`gops replay`: a game round by round, its outcome, and its exit codes."""

from __future__ import annotations

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
    result = run("replay", data_dir / "club.gops", "--game", "3")
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
    result = run("replay", data_dir / "club.gops", "--game", "5")
    assert result.exit_code == 0
    assert rows(result.stdout)[-1] == ["13", "5", "5", "5", "5", "5", "tie:", "unclaimed",
                                       "43-43"]
    assert result.stdout.splitlines()[-1] == "Outcome: Bruno 43, Dora 43; unclaimed 5: draw"


def test_invalid_game_lists_problems_and_exits_1(run, data_dir):
    result = run("replay", data_dir / "broken.gops", "--game", "2")
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
    result = run("replay", path, "--game", "9")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"gops: error: {path} has 5 games; there is no game 9\n"
    result = run("replay", data_dir / "bom.gops", "--game", "2")
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
    result = run("replay", data_dir / "club.gops", "--game", "0")
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
