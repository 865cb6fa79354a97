"""A reader that goes away (`gops ... | head`) stops gops quietly, as it stops a Unix tool.

Every command that writes to standard output is run as the shell runs it, in a process of
its own with its output into a real pipe, in two ways: the pipe's reader gone before gops
writes anything (every write fails), and the reader gone after a few bytes of an output far
bigger than a pipe holds (the writer is stopped mid-way: had it finished, its status would
be its own). Either way gops exits with the status of a Unix tool killed by SIGPIPE, 141
(128 + 13), and writes nothing on stderr: not "cannot read" for the files it was reading,
not a traceback, not its summary.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.cli.app import EXIT_READER_GONE
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading

SAMPLES = Path(__file__).resolve().parents[2] / "gops_records" / "samples"
ENV = {**os.environ, "COLUMNS": "250", "GOPS_DB": ""}


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A database of the samples and 1,000 simulated games, and the simulated record file
    (with 600 broken records: `gops validate` has a problem to print for each). Every
    output cut midway is more than twice what a pipe holds (64 KiB)."""
    folder = tmp_path_factory.mktemp("pipe")
    records = folder / "club.gops"
    made = CliRunner().invoke(app, ["simulate", "-n", "1000", "--seed", "11", "--broken",
                                    "600", "--out", str(records)], env={"COLUMNS": "250"})
    assert made.exit_code == 0, made.output
    db = folder / "club.duckdb"
    import_paths([SAMPLES, records], db)
    with reading(db) as con:
        (game,) = con.execute("SELECT game_id FROM games ORDER BY game_id LIMIT 1").fetchone()
    return {"db": str(db), "records": str(records), "samples": str(SAMPLES),
            "game": str(game), "folder": str(folder)}


def _args(command: list[str], club: dict[str, str]) -> list[str]:
    return [part.format(**club) for part in command]


def _gops(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "gops_records", *args]


def _reader_gone_before(args: list[str]) -> subprocess.CompletedProcess:
    """``gops ARGS`` with its output into a pipe whose reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(_gops(args), stdout=write_end, stderr=subprocess.PIPE,
                              env=ENV, timeout=300)
    finally:
        os.close(write_end)


def _reader_gone_after(args: list[str], read: int = 16) -> tuple[int, bytes]:
    """``gops ARGS`` into a pipe whose reader reads ``read`` bytes, then goes."""
    proc = subprocess.Popen(_gops(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=ENV)
    assert proc.stdout is not None
    head = proc.stdout.read(read)
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert len(head) == read  # the command did write before the reader went
    return proc.returncode, err


#: Commands whose output is far bigger than a pipe holds.
BIG_OUTPUT = {
    "validate --json": ["validate", "--json", "{records}", "{samples}"],
    "validate": ["validate", "{records}"],
    "export --out -": ["export", "--format", "gops", "--out", "-", "--db", "{db}"],
    "games": ["games", "--limit", "0", "--db", "{db}"],
    "games --json": ["games", "--json", "--limit", "0", "--db", "{db}"],
    "simulate": ["simulate", "-n", "1000", "--seed", "3"],
    "simulate --game gin": ["simulate", "--game", "gin", "-n", "100", "--seed", "3"],
}
#: Commands with a small output, which only a reader gone before gops writes can cut.
SMALL_OUTPUT = {
    "rejects": ["rejects", "--db", "{db}"],
    "rejects --json": ["rejects", "--json", "--db", "{db}"],
    "replay": ["replay", "{game}", "--db", "{db}"],
    "games --game gin": ["games", "--game", "gin", "--db", "{db}"],
    "import": ["import", "{samples}", "--db", "{folder}/other.duckdb"],
    "upgrade": ["upgrade", "--db", "{db}"],
    "--version": ["--version"],
    "games --help": ["games", "--help"],
}


@pytest.mark.parametrize("name", sorted(BIG_OUTPUT))
def test_a_reader_gone_midway_stops_gops_quietly(club: dict[str, str], name: str) -> None:
    status, err = _reader_gone_after(_args(BIG_OUTPUT[name], club))
    assert err.decode() == ""
    assert status == EXIT_READER_GONE


@pytest.mark.parametrize("name", sorted(BIG_OUTPUT | SMALL_OUTPUT))
def test_a_reader_gone_before_gops_writes_stops_it_quietly(club: dict[str, str],
                                                            name: str) -> None:
    done = _reader_gone_before(_args((BIG_OUTPUT | SMALL_OUTPUT)[name], club))
    assert done.stderr.decode() == ""
    assert done.returncode == EXIT_READER_GONE


def test_the_status_is_what_a_shell_shows_for_a_tool_killed_by_sigpipe() -> None:
    """141 is 128 + SIGPIPE: `set -o pipefail` scripts see the cut as for `yes | head`."""
    import signal

    assert EXIT_READER_GONE == 128 + signal.SIGPIPE
