"""`gops validate`, exit codes, report and --json; help for every command; python -m."""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from gops_records.cli import app

CONTRACT_KEYS = {"source", "game", "line", "players", "valid", "finished", "rounds", "scores",
                 "unclaimed", "winner", "errors"}
ERROR_KEYS = {"code", "message", "line", "column", "round"}


@pytest.fixture
def run():
    runner = CliRunner(env={"COLUMNS": "250"})

    def invoke(*args: str):
        return runner.invoke(app, [str(a) for a in args])

    return invoke


def json_lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


# -- exit codes and the readable report ------------------------------------------------


def test_valid_file_exits_0(run, data_dir):
    result = run("validate", data_dir / "club.gops")
    assert result.exit_code == 0, result.output
    assert result.stdout == "5 games in 1 file: 5 valid, 0 invalid\n"
    assert result.stderr == ""


def test_invalid_file_exits_1_with_located_problems_and_the_offending_text(run, data_dir):
    path = data_dir / "broken.gops"
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{path}:11:4: prize-repeated: prize 2 was already revealed in round 1 (line 10)",
        "    2. 2♦ 3♣ 2♥",
        "       ^",
        f"{path}:11:7: card-not-in-hand: Rosa (A) bids 3, already spent in round 1 (line 10)",
        "    2. 2♦ 3♣ 2♥",
        "          ^",
        f"{path}:11:10: wrong-suit: Sam (B) bids with spades, but 2 is written as hearts",
        "    2. 2♦ 3♣ 2♥",
        "             ^",
        f"{path}:13:1: result-unchecked: result not checked: the replay stopped at round 2, "
        "which has a problem",
        "    2-4",
        "    ^",
        "3 games in 1 file: 2 valid, 1 invalid",
    ]


def test_truncated_file(run, data_dir):
    path = data_dir / "truncated.gops"
    result = run("validate", path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[3].startswith(f"{path}:7:9: syntax: missing terminator at end of file")
    assert lines[4:6] == ["    3. K♦ K♣", "            ^"]
    assert lines[-1] == "1 game in 1 file: 0 valid, 1 invalid"


def test_missing_path_exits_2(run, data_dir):
    result = run("validate", data_dir / "club.gops", "no/such.gops")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "gops: error: no/such.gops: no such file or folder\n"


def test_no_paths_is_a_usage_error(run):
    result = run("validate")
    assert result.exit_code == 2
    assert "Missing argument" in result.stderr


def test_undecodable_bytes_exit_2_and_the_encoding_option_reads_them(run, data_dir):
    path = data_dir / "latin1.gops"
    result = run("validate", path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gops: error: {path}: line 2: bytes are not valid utf-8")
    assert "--encoding latin-1" in result.stderr
    assert result.stdout == "0 games in 0 files: 0 valid, 0 invalid\n"
    result = run("validate", "--encoding", "latin-1", path)
    assert result.exit_code == 0, result.output
    assert result.stdout == "1 game in 1 file: 1 valid, 0 invalid\n"


def test_unreadable_file_does_not_stop_the_others(run, data_dir):
    result = run("validate", data_dir / "latin1.gops", data_dir / "broken.gops")
    assert result.exit_code == 2  # unreadable beats invalid
    assert "prize-repeated" in result.stdout
    assert result.stdout.endswith("3 games in 1 file: 2 valid, 1 invalid\n")


def test_unknown_encoding_exits_2(run, data_dir):
    result = run("validate", "--encoding", "klingon", data_dir / "club.gops")
    assert result.exit_code == 2
    assert "unknown encoding 'klingon'" in result.stderr


def test_bom_and_crlf_files_are_valid(run, data_dir, tmp_path):
    crlf = tmp_path / "crlf.gops"
    text = (data_dir / "club.gops").read_text("utf-8").replace("\n", "\r\n")
    crlf.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = run("validate", data_dir / "bom.gops", crlf)
    assert result.exit_code == 0, result.output
    assert result.stdout == "6 games in 2 files: 6 valid, 0 invalid\n"


def test_crlf_problem_lines_show_no_carriage_return(run, data_dir, tmp_path):
    path = tmp_path / "broken.gops"
    path.write_bytes((data_dir / "broken.gops").read_bytes().replace(b"\n", b"\r\n"))
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == [
        f"{path}:11:4: prize-repeated: prize 2 was already revealed in round 1 (line 10)",
        "    2. 2♦ 3♣ 2♥",
        "       ^",
    ]
    assert "\r" not in result.stdout


def test_offending_text_is_the_line_the_parser_counted(run, tmp_path):
    # a Windows-1252 "…" (0x85) read as Latin-1 is U+0085, which str.splitlines() would
    # take for a line end; the parser does not, and neither may the report
    path = tmp_path / "cp1252.gops"
    path.write_bytes(b'[Event "Caf\xe9 \x85"]\n1. 8 9 9\n2. 8 7 J\n*\n')
    result = run("validate", "--encoding", "latin-1", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == [
        f"{path}:3:4: prize-repeated: prize 8 was already revealed in round 1 (line 2)",
        "    2. 8 7 J",
        "       ^",
    ]


def test_empty_file_has_no_games(run, tmp_path):
    path = tmp_path / "empty.gops"
    path.write_text("; nothing here yet\n")
    result = run("validate", path)
    assert result.exit_code == 0
    assert result.stdout == "0 games in 1 file: 0 valid, 0 invalid\n"


# -- folders ---------------------------------------------------------------------------


def test_folders_are_searched_recursively(run, data_dir, tmp_path):
    (tmp_path / "2026" / "november").mkdir(parents=True)
    shutil.copy(data_dir / "club.gops", tmp_path / "2026" / "november" / "26.gops")
    shutil.copy(data_dir / "broken.gops", tmp_path / "2026" / "b.gops")
    shutil.copy(data_dir / "bom.gops", tmp_path / "a.gops")
    (tmp_path / "2026" / "notes.txt").write_text("not a record")
    result = run("validate", "--json", tmp_path)
    assert result.exit_code == 1
    objs = json_lines(result.stdout)
    assert [(o["source"], o["game"]) for o in objs] == [
        (str(tmp_path / "2026" / "b.gops"), 1),
        (str(tmp_path / "2026" / "b.gops"), 2),
        (str(tmp_path / "2026" / "b.gops"), 3),
        (str(tmp_path / "2026" / "november" / "26.gops"), 1),
        (str(tmp_path / "2026" / "november" / "26.gops"), 2),
        (str(tmp_path / "2026" / "november" / "26.gops"), 3),
        (str(tmp_path / "2026" / "november" / "26.gops"), 4),
        (str(tmp_path / "2026" / "november" / "26.gops"), 5),
        (str(tmp_path / "a.gops"), 1),
    ]
    result = run("validate", tmp_path / "2026" / "november", tmp_path / "a.gops")
    assert result.exit_code == 0
    assert result.stdout == "6 games in 2 files: 6 valid, 0 invalid\n"


# -- --json ----------------------------------------------------------------------------


def test_json_objects_have_exactly_the_contract_keys(run, data_dir):
    path = data_dir / "club.gops"
    result = run("validate", "--json", path)
    assert result.exit_code == 0
    objs = json_lines(result.stdout)
    assert len(objs) == 5
    for number, obj in enumerate(objs, start=1):
        assert set(obj) == CONTRACT_KEYS
        assert obj["source"] == str(path) and obj["game"] == number
    assert objs[0] == {"source": str(path), "game": 1, "line": 5, "players": ["Alice", "Bruno"],
                       "valid": True, "finished": True, "rounds": 13, "scores": [45, 46],
                       "unclaimed": 0, "winner": "Bruno", "errors": []}
    assert [o["line"] for o in objs] == [5, 31, 37, 49, 58]
    assert objs[1]["players"] == ["A", "B"] and objs[1]["winner"] == "B"
    assert objs[2]["players"] == ["Ann", "Ben", "Cy"] and objs[2]["scores"] == [0, 0, 6]
    assert objs[2]["unclaimed"] == 9
    assert objs[3]["finished"] is False and objs[3]["unclaimed"] is None
    assert objs[3]["winner"] is None and objs[3]["rounds"] == 3
    assert objs[4]["winner"] is None and objs[4]["unclaimed"] == 5  # a draw


def test_json_errors(run, data_dir):
    path = data_dir / "broken.gops"
    result = run("validate", "--json", path)
    assert result.exit_code == 1
    objs = json_lines(result.stdout)
    assert [o["valid"] for o in objs] == [True, False, True]
    errors = objs[1]["errors"]
    assert all(set(e) == ERROR_KEYS for e in errors)
    assert errors == [
        {"code": "prize-repeated", "message": "prize 2 was already revealed in round 1 (line 10)",
         "line": 11, "column": 4, "round": 2},
        {"code": "card-not-in-hand",
         "message": "Rosa (A) bids 3, already spent in round 1 (line 10)", "line": 11,
         "column": 7, "round": 2},
        {"code": "wrong-suit", "message": "Sam (B) bids with spades, but 2 is written as hearts",
         "line": 11, "column": 10, "round": 2},
        {"code": "result-unchecked", "message": "result not checked: the replay stopped at "
         "round 2, which has a problem", "line": 13, "column": 1, "round": None},
    ]
    assert objs[1]["line"] == 7


def test_json_keeps_non_ascii_names(run, data_dir):
    result = run("validate", "--json", "--encoding", "latin-1", data_dir / "latin1.gops")
    assert result.exit_code == 0
    assert '"players": ["José", "Müller"]' in result.stdout
    assert json_lines(result.stdout)[0]["winner"] == "Müller"
    assert json_lines(result.stdout)[0]["line"] == 2  # the comment before the tags does not count


def test_json_source_is_the_path_as_given(run, data_dir, monkeypatch):
    monkeypatch.chdir(data_dir)
    result = run("validate", "--json", "bom.gops")
    assert json_lines(result.stdout)[0]["source"] == "bom.gops"


# -- help for every command, and python -m ---------------------------------------------


def all_commands(typer_app, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], object]]:
    """Every command registered on the app, with the words that invoke it (sub-apps too)."""
    found = []
    for command in typer_app.registered_commands:
        name = command.name or command.callback.__name__.rstrip("_").replace("_", "-")
        found.append(((*prefix, name), command))
    for group in typer_app.registered_groups:
        found += all_commands(group.typer_instance, (*prefix, group.name))
    return found


COMMANDS = all_commands(app)


def test_the_commands_of_this_issue_are_registered():
    names = {words for words, _ in COMMANDS}
    assert {("validate",), ("replay",)} <= names


@pytest.mark.parametrize(("words", "command"), COMMANDS,
                         ids=[" ".join(words) for words, _ in COMMANDS])
def test_every_command_has_help_with_an_example(run, words, command):
    name = " ".join(words)
    doc = inspect.getdoc(command.callback) or command.help or ""
    assert doc.strip(), f"gops {name} has no help text"
    result = run(*words, "--help")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Usage: gops {name} ")
    assert "Example" in result.stdout, f"gops {name} --help shows no example"
    assert f"gops {name}" in result.stdout.split("Example", 1)[1]


def test_top_level_help_lists_the_commands(run):
    result = run("--help")
    assert result.exit_code == 0
    assert "validate" in result.stdout and "replay" in result.stdout


def test_python_dash_m_help():
    proc = subprocess.run([sys.executable, "-m", "gops_records", "--help"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "250"})
    assert proc.returncode == 0, proc.stderr
    assert "Usage: gops " in proc.stdout
    assert "validate" in proc.stdout and "replay" in proc.stdout


def test_a_folder_without_records_is_a_usage_error(tmp_path):
    (tmp_path / "notes.txt").write_text("no games here")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)], env={"COLUMNS": "250"})
    assert result.exit_code == 2
    assert "no record files (.gops, .csv, .jsonl, .ndjson, .gin, .ginsheet) in" in result.stderr


def test_json_source_keeps_dot_slash_and_folder_spelling(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club").mkdir()
    game = "1. A♦ A♣ 2♠ *\n"
    (tmp_path / "one.gops").write_text(game)
    (tmp_path / "club" / "two.gops").write_text(game)
    result = CliRunner().invoke(app, ["validate", "--json", "./one.gops", "./club"])
    sources = [json.loads(line)["source"] for line in result.stdout.splitlines()]
    assert sources == ["./one.gops", "./club/two.gops"]


# -- round logs are read as gops import reads them -----------------------------------------


ROUND_LOG = ("game,round,prize,bid_a,bid_b,player_a,player_b,cards\n"
             "1,1,2,3,1,Ann,Bob,3\n1,2,3,Z,2,Ann,Bob,3\n1,3,1,2,3,Ann,Bob,3\n"
             "2,1,2,3,1,Ann,Bob,3\n2,2,3,1,2,Ann,Bob,3\n2,3,1,2,3,Ann,Bob,3\n")


def test_a_csv_round_log_is_validated_as_import_reads_it(run, tmp_path):
    (tmp_path / "club").mkdir()
    path = tmp_path / "club" / "log.csv"
    path.write_text(ROUND_LOG)
    (tmp_path / "club" / "log.jsonl").write_text(
        '{"game": 7, "round": 1, "prize": 1, "bid_a": 1, "bid_b": 1, "cards": 1}\n')
    result = run("validate", tmp_path / "club")  # a folder: .csv and .jsonl are found
    assert result.exit_code == 1
    # the unreadable card is one problem (no unknown-card for a made-up card 0), with its row
    assert result.stdout.splitlines() == [
        f"{path}:3:4: syntax: bid_a 'Z' is not a card: write 1-13 or A, 2-10, J, Q, K",
        "    1,2,3,Z,2,Ann,Bob,3",
        "3 games in 2 files: 2 valid, 1 invalid"]
    objs = json_lines(run("validate", "--json", path).stdout)
    assert [(o["game"], o["line"], o["valid"], o["players"]) for o in objs] == [
        (1, 2, False, ["Ann", "Bob"]), (2, 5, True, ["Ann", "Bob"])]
    assert objs[1]["scores"] == [2, 4] and objs[1]["winner"] == "Bob"
    assert [e["code"] for e in objs[0]["errors"]] == ["syntax"]


def test_validate_and_import_agree_on_a_round_log(run, tmp_path):
    from gops_records.core.importer import import_paths

    path = tmp_path / "log.csv"
    path.write_text(ROUND_LOG)
    objs = json_lines(run("validate", "--json", path).stdout)
    summary = import_paths([path], tmp_path / "t.duckdb")
    assert (summary.games_new, summary.games_rejected) == (
        sum(o["valid"] for o in objs), sum(not o["valid"] for o in objs))


def test_a_file_that_is_not_a_round_log_is_one_invalid_record(run, tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text("Game;Round;Prize;Bid A;Bid B\n1;1;2;3;1\n")
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith(
        f"{path}:1:1: round-log: missing required columns bid_a, bid_b;")
    assert "did you mean 'Bid A' -> bid_a, 'Bid B' -> bid_b?" in result.stdout
    (obj,) = json_lines(run("validate", "--json", path).stdout)
    assert set(obj) == CONTRACT_KEYS
    assert (obj["game"], obj["valid"], obj["errors"][0]["code"]) == (None, False, "round-log")
