"""Hostile and damaged input: every failure a located problem, in bounded time and memory."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from paths import ROOT

from gops_records.core.importer import import_paths
from gops_records.core.sources import SourceError, read_regular_file
from gops_records.core.store.db import reading
from gops_records.games.gops.checking import check_bytes
from gops_records.games.gops.reading import read_reports

SAMPLES = ROOT / "gops_records" / "samples"


def codes(text: str) -> list[list[str]]:
    return [[p.code for p in r.problems] for r in read_reports(text)]


@pytest.mark.parametrize("text", [
    "1. 8 9 9\n" + "4" * 5000 + "-1\n",
    '[Result "' + "7" * 5000 + '-1"]\n1. 8 9 9\n*\n',
    "1" * 5000 + ". 8 9 9\n*\n",
    '[Cards "' + "1" * 5000 + '"]\n*\n',
])
def test_numbers_of_thousands_of_digits_are_located_problems(text):
    (report,) = read_reports(text)
    assert not report.valid
    assert all(len(p.message) < 300 for p in report.problems)


def test_a_missing_terminator_before_a_game_without_tags_splits_the_games():
    reports = read_reports("1. 8 9 9 2. 5 7 J\n1. 8 9 9 *\n")
    assert len(reports) == 2
    assert codes("1. 8 9 9 2. 5 7 J\n1. 8 9 9 *\n") == [["syntax"], []]
    assert "before the next game's round 1" in reports[0].problems[0].message


def test_cr_only_line_ends_give_each_problem_its_line():
    (report,) = read_reports("[A \"x\"]\r1. 8 9 9\r2. 8 7 J\r*\r")
    assert [(p.code, p.line) for p in report.problems] == [("prize-repeated", 3)]


def test_problems_per_game_are_capped_with_a_count_of_the_rest():
    (report,) = read_reports("1. 8 9 9 " + "x " * 500 + "*")
    assert len(report.problems) == 51
    assert report.problems[-1].code == "more-problems"
    assert report.problems[-1].message.startswith("450 more problems")


def test_one_long_line_of_problems_is_echoed_in_short_pieces():
    line = b"[Event \"x\"] " + b"1. 4d 3c 5s zz " * 20_000 + b"*\n"
    out = [line for c in check_bytes(line, "x", readable=True) for line in c.report]
    assert out and max(len(x) for x in out) < 300


def test_only_regular_files_are_read(tmp_path):
    fifo = tmp_path / "pipe.gops"
    os.mkfifo(fifo)
    with pytest.raises(SourceError, match="not a regular file .a named pipe."):
        read_regular_file(fifo)  # returns at once: opening a pipe does not wait for a writer
    with pytest.raises(SourceError, match="character device"):
        read_regular_file("/dev/zero")


def test_validate_refuses_a_fifo_plainly(tmp_path):
    fifo = tmp_path / "pipe.gops"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "gops_records", "validate", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_hostile_files_beside_the_samples_take_nothing_down(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    for sample in SAMPLES.glob("*.gops"):
        (folder / sample.name).write_bytes(sample.read_bytes())
    hostile = {
        "digits.gops": b"1. 8 9 9\n" + b"4" * 5000 + b"-1\n",
        "result.gops": b'[Result "' + b"7" * 5000 + b'-1"]\n*\n',
        "braces.gops": b"{" * 10_000 + b"\n1. 8 9 9 *\n",
        "binary.gops": bytes(range(256)) * 10,
        "nul.gops": b"\x00" * 1000,
        "crlf-bom.gops": b"\xef\xbb\xbf1. 8 9 9\r\n*\r\n",
    }
    for name, data in hostile.items():
        (folder / name).write_bytes(data)
    db = tmp_path / "t.duckdb"
    summary = import_paths([folder], db)
    expected = sum(len(read_reports(p.read_text("utf-8"))) for p in SAMPLES.glob("*.gops"))
    with reading(db) as con:
        stored = con.execute("SELECT count(*) FROM games").fetchone()[0]
        rejected = con.execute("SELECT count(*) FROM rejects").fetchone()[0]
    valid = sum(r.valid for p in SAMPLES.glob("*.gops") for r in read_reports(p.read_text()))
    assert stored == valid + 1  # the samples' valid games, and the CRLF one
    assert summary.games_seen >= expected and rejected >= len(hostile) - 1


def test_deeply_nested_json_lines_and_an_sqlite_file_are_plain_problems(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "deep.jsonl").write_text('{"game": ' * 100_000 + "1" + "}" * 100_000 + "\n")
    (folder / "club.gops").write_bytes((SAMPLES / "2026-01-13-gops-society.gops").read_bytes())
    db = tmp_path / "t.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_new > 0 and summary.games_rejected == 1


def test_connections_never_load_extensions_on_their_own(tmp_path):
    import sqlite3

    from gops_records.core.store.db import DatabaseUnusable, connect

    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE t (x)")
    with pytest.raises(DatabaseUnusable, match="is not a gops database") as refused:
        connect(path, timeout=1).close()
    assert "download" not in str(refused.value)
    text = tmp_path / "notes.duckdb"
    text.write_text("hello, this is not a database at all\n")
    with pytest.raises(DatabaseUnusable, match="is not a gops database"):
        connect(text, timeout=1).close()


def test_a_wrong_round_number_past_the_last_round_is_described_not_a_crash():
    # found by the fuzzer: the message read the round numbers after they were cut to N
    (report,) = read_reports('[Cards "3"]\n1. A A 2\n1 3 2. 2 2 3\n3. 3 3 A\n*\n')
    assert [(p.code, p.line) for p in report.problems if p.code == "round-number"] == [
        ("round-number", 3), ("round-number", 4)]
    assert report.problems[3].message == "round numbered 3 is round 4"
