"""`gops export` never destroys data: the database, another database, its WAL, a device,
a named pipe or an unrelated file beside the output are refused or written as they are."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import stat
import threading
import time
from pathlib import Path

import duckdb
import pytest
from core.store.gamefiles import SMALL
from paths import ROOT
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths

GIN_SAMPLE = ROOT / "gops_records" / "samples" / "2026-01-15-thursday-club-gin.gin"
ENV = {"COLUMNS": "250", "GOPS_DB": ""}
TEXT_FORMATS = ("gops", "csv", "gin", "ginsheet")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stored")
    (folder / "club.gops").write_text(SMALL)
    shutil.copy(GIN_SAMPLE, folder / "evening.gin")
    db = folder / "club.duckdb"
    summary = import_paths([folder / "club.gops", folder / "evening.gin"], db)
    assert summary.games_rejected == 0 and summary.games_new > 1
    return db


@pytest.fixture
def db(stored: Path, tmp_path: Path) -> Path:
    path = tmp_path / "db" / "club.duckdb"
    path.parent.mkdir()
    shutil.copy(stored, path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def still_a_database(db: Path, before: str) -> None:
    """The database holds the same bytes and still opens with its games."""
    assert digest(db) == before
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 1
        assert con.execute("SELECT count(*) FROM gin_hands").fetchone()[0] > 1


def export(db: Path, fmt: str, out: str | Path):
    return CliRunner().invoke(app, ["export", "--db", str(db), "-f", fmt, "-o", str(out)],
                              env=ENV)


def refused(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "gops: error: refusing to write the export to" in result.stderr
    for word in words:
        assert word in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_the_database_itself_is_refused(db: Path, fmt: str) -> None:
    before = digest(db)
    refused(export(db, fmt, db), "it is the database being exported")
    still_a_database(db, before)


@pytest.mark.parametrize("spelling", ["relative", "dotted", "symlink", "hardlink",
                                      "symlinked folder"])
def test_the_database_under_another_name_is_refused(db: Path, tmp_path: Path,
                                                    monkeypatch, spelling: str) -> None:
    before = digest(db)
    monkeypatch.chdir(tmp_path)
    if spelling == "relative":
        out = Path("db/club.duckdb")
    elif spelling == "dotted":
        out = tmp_path / "db" / ".." / "db" / "." / "club.duckdb"
    elif spelling == "symlink":
        out = tmp_path / "link.gops"
        out.symlink_to(db)
    elif spelling == "hardlink":
        out = tmp_path / "hard.gops"
        os.link(db, out)
    else:
        (tmp_path / "elsewhere").symlink_to(db.parent)
        out = tmp_path / "elsewhere" / "club.duckdb"
    refused(export(db, "gops", out), "it is the database being exported")
    still_a_database(db, before)
    assert out.exists() and (spelling != "symlink" or out.is_symlink())


def test_another_duckdb_database_is_refused(db: Path, stored: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.duckdb"
    shutil.copy(stored, other)
    named_like_text = tmp_path / "notes.csv"  # what it holds counts, not its name
    shutil.copy(stored, named_like_text)
    before, theirs = digest(db), digest(other)
    for fmt in TEXT_FORMATS:
        refused(export(db, fmt, other), "is a DuckDB database")
    refused(export(db, "csv", named_like_text), "is a DuckDB database")
    assert digest(other) == theirs == digest(named_like_text)
    still_a_database(db, before)


def test_the_databases_write_ahead_log_is_refused(db: Path) -> None:
    before = digest(db)
    wal = db.with_name(db.name + ".wal")
    refused(export(db, "gops", wal), "write-ahead log")
    assert not wal.exists()
    wal.write_bytes(b"\x00log")
    refused(export(db, "csv", wal), "write-ahead log")
    assert wal.read_bytes() == b"\x00log"
    wal.unlink()
    still_a_database(db, before)


def _character_device(tmp_path: Path) -> Path:
    """A character device to write to: a null device made here as root (so that a failing
    test cannot replace the system's /dev/null), else /dev/null itself (which a user that
    is not root cannot replace)."""
    if os.geteuid() != 0:
        return Path("/dev/null")
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    return device


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_a_character_device_is_written_as_a_stream(db: Path, tmp_path: Path,
                                                   fmt: str) -> None:
    device = _character_device(tmp_path)
    before = digest(db)
    result = export(db, fmt, device)
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.stat(device).st_mode)  # still the device, not a regular file
    assert not [p for p in device.parent.iterdir() if p.name.endswith(".tmp")]
    still_a_database(db, before)


def test_a_named_pipe_without_a_reader_is_refused_at_once(db: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    refused(export(db, "gops", fifo), "named pipe", "no reader")
    assert time.monotonic() - started < 10
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_named_pipe_with_a_reader_gets_the_export(db: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    deadline = time.monotonic() + 10
    result = export(db, "gops", fifo)
    while result.exit_code == 2 and "no reader" in result.stderr and \
            time.monotonic() < deadline:  # the reader's open may not have happened yet
        time.sleep(0.05)
        result = export(db, "gops", fifo)
    assert result.exit_code == 0, result.output
    reader.join(10)
    assert received and received[0].decode().startswith('[Event "Club"]')
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_socket_is_refused(db: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # a socket's path is short: name it relative
    server = socket.socket(socket.AF_UNIX)
    server.bind("sock")
    try:
        refused(export(db, "gops", "sock"), "socket")
        assert stat.S_ISSOCK(os.stat("sock").st_mode)
    finally:
        server.close()


def test_an_unrelated_file_named_like_the_temporary_file_is_kept(db: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "all.gops"
    keep = tmp_path / "all.gops.tmp"
    keep.write_text("my notes\n")
    result = export(db, "gops", out)
    assert result.exit_code == 0, result.output
    assert keep.read_text() == "my notes\n"
    assert out.read_text().startswith('[Event "Club"]')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.gops", "all.gops.tmp", "db"]


def test_an_existing_text_file_is_replaced(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "old.csv"
    out.write_text("old export\n")
    assert export(db, "csv", out).exit_code == 0
    assert out.read_text().startswith("game,game_ref,")


def test_parquet_refuses_the_database_in_place_of_a_table_file(db: Path,
                                                               tmp_path: Path) -> None:
    before = digest(db)
    refused(export(db, "parquet", db), "it is the database being exported")
    folder = tmp_path / "pq"
    folder.mkdir()
    (folder / "rounds.parquet").symlink_to(db)
    refused(export(db, "parquet", folder), "it is the database being exported")
    (folder / "rounds.parquet").unlink()
    (folder / "bids.parquet").mkdir()
    refused(export(db, "parquet", folder), "is a folder")
    (folder / "bids.parquet").rmdir()
    os.mkfifo(folder / "games.parquet")
    refused(export(db, "parquet", folder), "named pipe")
    still_a_database(db, before)
    (folder / "games.parquet").unlink()
    keep = folder / "games.parquet.tmp"
    keep.write_text("mine")
    assert export(db, "parquet", folder).exit_code == 0
    assert keep.read_text() == "mine"
    assert sorted(p.name for p in folder.iterdir()) == [
        "bids.parquet", "game_players.parquet", "games.parquet", "games.parquet.tmp",
        "rounds.parquet"]


def test_dev_stdout_sent_to_a_file_gets_the_records_and_not_the_summary(
        db: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    target = tmp_path / "records.gops"
    with open(target, "wb") as sink:
        done = subprocess.run([sys.executable, "-m", "gops_records", "export", "--db", str(db),
                               "-f", "gops", "-o", "/dev/stdout"], stdout=sink,
                              stderr=subprocess.PIPE, timeout=120, env={**os.environ, **ENV})
    assert done.returncode == 0, done.stderr
    assert os.path.islink("/dev/stdout") or stat.S_ISCHR(os.stat("/dev/stdout").st_mode)
    assert target.read_text().startswith('[Event "Club"]')
    assert b"exported 1 game" in done.stderr


# -- CSV injection: cells a spreadsheet would run as formulas ------------------------------

import csv  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gops_records.core.export import export_games  # noqa: E402
from gops_records.games.gops.notation import CardToken, GameRecord, RoundRecord, write_game  # noqa: E402
from gops_records.games.gops.roundlogs import FORMULA_STARTS  # noqa: E402

HOSTILE = ['=HYPERLINK("http://evil.example","x")', "+1", "-x", "@x", "\tTab", "'quoted",
           "''twice", "=1+1 ", " Space", "plain"]


def _game(a: str, b: str, event: str, comment: str | None = None) -> str:
    rounds = tuple(RoundRecord(CardToken(p), (CardToken(x), CardToken(y)),
                               comment if i == 0 else None)
                   for i, (p, x, y) in enumerate([(2, 3, 1), (3, 1, 2), (1, 2, 3)]))
    return write_game(GameRecord({"Event": event, "Match": a, "A": a, "B": b, "Cards": "3"},
                                 rounds, None))


def _game_ids(db: Path) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT game_id, map_from_entries(list_filter(tags, lambda t: "
                           "t.key != 'Result')) FROM games ORDER BY game_id").fetchall()


def _comments(db: Path) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT game_id, round_no, comment FROM rounds "
                           "ORDER BY ALL").fetchall()


def _csv_round_trip(records: list[str], folder: Path) -> tuple[Path, Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "games.gops").write_text("\n".join(records), encoding="utf-8")
    first, again = folder / "first.duckdb", folder / "again.duckdb"
    stored = import_paths([folder / "games.gops"], first)
    assert stored.games_rejected == 0
    out = folder / "games.csv"
    export_games(first, out, "csv")
    back = import_paths([out], again)
    assert (back.games_new, back.games_rejected) == (stored.games_new, 0)
    return first, again, out


def _no_formula_cell(out: Path) -> list[list[str]]:
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for row in rows[1:]:
        for name, cell in zip(header, row, strict=True):
            assert not cell.startswith(FORMULA_STARTS) or (name, cell) == ("prize", "-"), \
                (name, cell)
    return rows


def test_csv_cells_that_a_spreadsheet_would_run_are_escaped(tmp_path: Path) -> None:
    records = [_game(a, b, event, comment) for a, b, event, comment in zip(
        HOSTILE, HOSTILE[1:] + HOSTILE[:1], HOSTILE[2:] + HOSTILE[:2], HOSTILE[3:] + HOSTILE[:3],
        strict=True)]
    first, again, out = _csv_round_trip(records, tmp_path)
    rows = _no_formula_cell(out)
    cells = {cell for row in rows[1:] for cell in row}
    assert {'\'=HYPERLINK("http://evil.example","x")', "'+1", "'-x", "'@x", "'\tTab",
            "''quoted", "'''twice", " Space"} <= cells  # a leading space is no formula
    assert "plain" in cells and "'plain" not in cells
    assert _game_ids(again) == _game_ids(first)  # same names, same ids
    assert _comments(again) == _comments(first)


def test_a_hand_written_round_log_keeps_its_quotes(tmp_path: Path) -> None:
    """Only a gops export (its game_ref column) has escaped cells; other logs are read as
    written."""
    (tmp_path / "log.csv").write_text("game,round,prize,bid_a,bid_b,player_a,player_b,cards\n"
                                      "1,1,1,1,1,'=x,''y,1\n")
    import_paths([tmp_path / "log.csv"], tmp_path / "t.duckdb")
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as con:
        assert con.execute("SELECT player_a, player_b FROM games").fetchone() == ("'=x", "''y")


NAMES = st.text(st.sampled_from("=+-@\t' \"\\aZé,;"), min_size=1, max_size=6).filter(
    lambda s: s.strip(" ") != "")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(names=st.lists(NAMES, min_size=3, max_size=3, unique=True))
def test_any_names_come_back_from_csv_with_the_same_ids(names: list[str],
                                                        tmp_path_factory) -> None:
    folder = tmp_path_factory.mktemp("names")
    a, b, event = names
    first, again, out = _csv_round_trip([_game(a, b, event, event)], folder)
    _no_formula_cell(out)
    assert _game_ids(again) == _game_ids(first)
    assert _comments(again) == _comments(first)


@given(st.text(st.sampled_from("=+-@\t\r' x")))
def test_the_escape_is_undone_exactly(text: str) -> None:
    from gops_records.games.gops.roundlogs import escape_cell, unescape_cell

    escaped = escape_cell(text)
    assert unescape_cell(escaped) == text
    assert not escaped.startswith(FORMULA_STARTS)
