"""`gops upgrade` of a file it may not write says what upgrading does and what to do.

It said "Importing writes the database file..." as an import does. The file system is made
read-only for real (a read-only bind mount of a folder: root only, skipped elsewhere; as
root, chmod stops no write); a file that may not be written for want of permission is the
same advice, checked without root by the error DuckDB gives.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.store import db as db_module
from gops_records.core.store.db import DatabaseUnusable, connect, latest_version, upgrade
from gops_records.core.store.schema import versions

ENV = {"COLUMNS": "250", "GOPS_DB": ""}


@pytest.fixture
def read_only_view(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A folder and a read-only view of it (a read-only bind mount), unmounted afterwards."""
    folder, view = tmp_path / "rw", tmp_path / "ro"
    folder.mkdir()
    view.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    if subprocess.run(["mount", "--bind", str(folder), str(view)],
                      capture_output=True).returncode:
        pytest.skip("cannot bind-mount here")
    try:
        done = subprocess.run(["mount", "-o", "remount,bind,ro", str(view)],
                              capture_output=True)
        if done.returncode:
            pytest.skip(f"cannot make a bind mount read-only: {done.stderr.decode().strip()}")
        yield folder, view
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)


def _older_database(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gops database one version behind this gops."""
    with monkeypatch.context() as patch:
        older = tuple(v for v in versions() if v.version < latest_version())
        patch.setattr(db_module, "versions", lambda: older)
        con = duckdb.connect(str(path))
        db_module.migrate(con)
        con.close()


def _state(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_upgrading_a_file_on_a_read_only_file_system_says_what_upgrade_needs(
        read_only_view: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    folder, view = read_only_view
    _older_database(folder / "old.duckdb", monkeypatch)
    before = _state(folder)
    result = CliRunner().invoke(app, ["upgrade", "--db", str(view / "old.duckdb")], env=ENV)
    assert result.exit_code == 2, result.output
    message = result.stderr
    assert message.startswith("gops: error: ") and message.count("\n") == 1
    assert str(view / "old.duckdb") in message and "Read-only file system" in message
    assert "Importing" not in message and "import" not in message.lower()
    assert "gops upgrade rewrites the file in place" in message
    assert "copy the file to a folder you can write and upgrade the copy" in message
    assert "Traceback" not in result.output
    assert _state(folder) == before


def test_a_file_up_to_date_on_a_read_only_file_system_is_up_to_date(
        read_only_view: tuple[Path, Path]) -> None:
    folder, view = read_only_view
    connect(folder / "new.duckdb").close()
    before = _state(folder)
    result = CliRunner().invoke(app, ["upgrade", "--db", str(view / "new.duckdb")], env=ENV)
    assert result.exit_code == 0, result.output
    assert f"schema version {latest_version()}, up to date" in result.stdout
    assert _state(folder) == before


def test_an_upgrade_without_permission_gets_the_upgrade_advice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The words depend on the command, not on root: DuckDB's 'Permission denied' for a
    read-write open gets the upgrade's advice from upgrade, the import's from an import."""
    path = tmp_path / "old.duckdb"
    _older_database(path, monkeypatch)
    real = duckdb.connect

    def refuse_writes(database, read_only=False, **kwargs):
        if not read_only and str(database) == str(path):
            raise duckdb.IOException(f'IO Error: Cannot open file "{path}": Permission denied')
        return real(database, read_only=read_only, **kwargs)

    monkeypatch.setattr(db_module.duckdb, "connect", refuse_writes)
    with pytest.raises(DatabaseUnusable, match="gops upgrade rewrites the file in place"):
        upgrade(path)
    with pytest.raises(DatabaseUnusable, match="Importing writes the database file"):
        connect(path)


def test_a_recheck_without_permission_gets_the_recheck_advice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """gops rejects --recheck writes its verdicts: on a file it may not write it says so in
    its own words, not the import's."""
    path = tmp_path / "gops.duckdb"
    connect(path).close()
    real = duckdb.connect

    def refuse_writes(database, read_only=False, **kwargs):
        if not read_only and str(database) == str(path):
            raise duckdb.IOException(f'IO Error: Cannot open file "{path}": Permission denied')
        return real(database, read_only=read_only, **kwargs)

    monkeypatch.setattr(db_module.duckdb, "connect", refuse_writes)
    result = CliRunner().invoke(app, ["rejects", "--recheck", "--db", str(path)], env=ENV)
    assert result.exit_code == 2, result.output
    assert "gops rejects --recheck marks rejects resolved" in result.stderr
    assert "Importing writes" not in result.stderr
