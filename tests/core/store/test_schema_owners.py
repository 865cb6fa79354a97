"""The schema is put together from its owners and stays what it was (issue 22).

The store declares the shared tables, each game its own, each feature its derived ones,
through the registry; the versions, their names, their SQL and their order are those of
commit 2d343f9 (the last where the store held every table): a new database must have
exactly the schema that commit made, and the store refuses steps that do not make one
schema.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from paths import ROOT
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core import registry
from gops_records.core.store import db as db_module
from gops_records.core.store import migrations
from gops_records.core.store.migrations import Migration, SchemaBroken, check, declared
from gops_records.core.store.schema import MIGRATIONS as SHARED
from gops_records.core.store.schema import versions

#: The last commit where core/store/schema.py held every game's tables.
BEFORE = "2d343f9"

#: The schema as DuckDB describes it (oids left out: they number catalog entries).
DESCRIBE = {
    "tables": "SELECT * EXCLUDE (database_oid, schema_oid, table_oid, estimated_size) "
              "FROM duckdb_tables() WHERE NOT internal ORDER BY table_name",
    "columns": "SELECT * EXCLUDE (database_oid, schema_oid, table_oid) FROM duckdb_columns() "
               "WHERE NOT internal ORDER BY table_name, column_index",
    "views": "SELECT * EXCLUDE (database_oid, schema_oid, view_oid) FROM duckdb_views() "
             "WHERE NOT internal ORDER BY view_name",
    "macros": "SELECT function_name, parameters, macro_definition FROM duckdb_functions() "
              "WHERE NOT internal AND function_type = 'macro' ORDER BY ALL",
    # constraint_index numbers the constraints of the whole catalog, as oids do
    "constraints": "SELECT * EXCLUDE (database_oid, schema_oid, table_oid, constraint_index) "
                   "FROM duckdb_constraints() ORDER BY ALL",
    "migrations": "SELECT version, name FROM schema_migrations ORDER BY version",
}

_MAKE = ("import sys; from gops_records.core.store.db import connect; "
         "connect(sys.argv[1]).close()")


#: What versions after BEFORE's last (14) added, left out of the comparisons with it:
#: version 15's table and macro (name aliases), version 16's table (every bidder's take).
_ADDED_SINCE = ("name_aliases", "gops_name", "round_takes")
_LAST_BEFORE = 14


def _as_before(what: str, row: tuple) -> bool:
    if what == "migrations":
        return row[0] <= _LAST_BEFORE
    return not any(name in str(cell) for cell in row for name in _ADDED_SINCE)


def _described(path: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {what: [row for row in con.execute(sql).fetchall() if _as_before(what, row)]
                for what, sql in DESCRIBE.items()}
    finally:
        con.close()


def _source_of(commit: str, into: Path) -> Path:
    """The package as it was at ``commit`` (``git archive``: no work tree is touched)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
                           capture_output=True)
    if known.returncode:
        pytest.skip(f"commit {commit} is not in this clone (a shallow clone?)")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "gops_records"],
                             capture_output=True, check=True).stdout
    into.mkdir()
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _made_by(source: Path | None, path: Path) -> Path:
    """A new database made by the package at ``source`` (this one if None), in a process
    of its own so that each imports its own package."""
    path.parent.mkdir(parents=True)
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")])
    subprocess.run([sys.executable, "-c", _MAKE, str(path)], check=True, env=env,
                   cwd=path.parent)
    return path


def test_a_new_database_has_exactly_the_schema_the_store_made_before(tmp_path: Path) -> None:
    source = _source_of(BEFORE, tmp_path / "before")
    old = _made_by(source, tmp_path / "old" / "gops.duckdb")
    new = _made_by(None, tmp_path / "new" / "gops.duckdb")
    before, now = _described(old), _described(new)
    assert (len(before["tables"]), len(before["views"]), len(before["migrations"])) == (
        19, 4, 14)  # 16 tables, 5 views users query; schema_migrations, the mark
    for what in DESCRIBE:
        assert now[what] == before[what], what


#: A version 1 database as gops made it then (the package given holds MIGRATIONS[0]).
_MAKE_V1 = """
import sys, duckdb
from gops_records.core.store.schema import MIGRATIONS
con = duckdb.connect(sys.argv[1])
con.execute(MIGRATIONS[0].sql)
con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
con.execute("INSERT INTO schema_migrations VALUES (1, ?, now()::TIMESTAMP)",
            [MIGRATIONS[0].name])
con.close()
"""


def test_a_version_1_database_upgrades_as_it_did_before(tmp_path: Path) -> None:
    source = _source_of(BEFORE, tmp_path / "before")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(source),
                                                      os.environ.get("PYTHONPATH", "")]))
    v1 = tmp_path / "v1.duckdb"
    subprocess.run([sys.executable, "-c", _MAKE_V1, str(v1)], check=True, env=env,
                   cwd=tmp_path)
    upgraded = {}
    for who, package in (("old", source), ("new", None)):
        copy = tmp_path / who / "gops.duckdb"
        copy.parent.mkdir()
        shutil.copyfile(v1, copy)
        more = {} if package is None else {"PYTHONPATH": env["PYTHONPATH"]}
        subprocess.run([sys.executable, "-c", _MAKE, str(copy)], check=True,
                       env=dict(os.environ, **more), cwd=copy.parent)
        upgraded[who] = _described(copy)
    assert upgraded["new"]["migrations"] == upgraded["old"]["migrations"]
    assert len(upgraded["new"]["migrations"]) == 14
    for what in DESCRIBE:
        assert upgraded["new"][what] == upgraded["old"][what], what


def test_each_version_comes_from_its_owner() -> None:
    owners = {v.version: [owner for owner, _ in v.parts] for v in versions()}
    assert owners == {
        1: ["store", "gops:schema"], 2: ["gops:schema"], 3: ["store"], 4: ["gops:schema"],
        5: ["store"], 6: ["store"], 7: ["gops:schema"], 8: ["gin:schema"],
        9: ["gops:schema.bid_groups"], 10: ["gops:schema.scout_reports"],
        11: ["gops:schema"], 12: ["gops:schema"], 13: ["store"], 14: ["store"],
        15: ["store"], 16: ["gops:schema"]}
    fills = [(v.version, owner) for v in versions() for owner, part in v.parts if part.fill]
    assert fills == [(9, "gops:schema.bid_groups")]


def test_the_store_declares_only_shared_tables() -> None:
    shared = {t for step in SHARED for t in step.tables}
    assert shared == {"imports", "rejects", "source_files", "source_file_reads",
                      "source_file_games", "source_file_rejects", "reject_resolutions",
                      "name_aliases"}
    games = {t for v in versions() for owner, part in v.parts if owner != "store"
             for t in part.tables}
    text = "\n".join((ROOT / "gops_records/core/store" / name).read_text()
                     for name in ("schema.py", "migrations.py", "db.py"))
    named = [t for t in games if re.search(rf"[`'\"]{t}[`'\"]|(FROM|JOIN|TABLE|INTO|VIEW) {t}\b",
                                           text)]
    assert named == []


def _step(version: int, name: str | None = "a step") -> Migration:
    return Migration(version, name, "SELECT 1")


@pytest.mark.parametrize(("parts", "says"), [
    ([("store", [_step(1), _step(2)]), ("x:schema", [_step(4)])],
     "version 3 is declared by no installed part"),
    ([("store", [_step(1), _step(2, None)])], "version 2 has no name (its parts: store)"),
    ([("store", [_step(1)]), ("x:schema", [_step(1, "another")])],
     "version 1 has 2 names, one a version: store: 'a step'; x:schema: 'another'"),
    ([("store", [_step(1)]), ("x:schema", "CREATE TABLE t (a INT)")],
     "x:schema declares its schema as str"),
    ([("store", [_step(1)]), ("x:schema", [_step(0)])], "version 0 (x:schema) is not a positive"),
])
def test_steps_that_make_no_schema_are_refused_naming_the_part(parts: list, says: str) -> None:
    with pytest.raises(SchemaBroken, match="do not make one schema") as caught:
        check(parts)
    assert says in str(caught.value)


def test_a_version_keeps_its_parts_in_order_and_one_name() -> None:
    done = check([("store", [Migration(1, None, "A")]), ("g:schema", [Migration(1, "one", "B"),
                                                                      Migration(2, "two", "C")])])
    assert [(v.version, v.name, [p.sql for _, p in v.parts]) for v in done] == [
        (1, "one", ["A", "B"]), (2, "two", ["C"])]


def test_a_game_missing_its_schema_stops_every_open_before_the_file_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    without_gin = tuple(dataclasses.replace(g, parts={k: v for k, v in g.parts.items()
                                                      if g.name != "gin" or k != "schema"})
                        for g in registry.games())
    monkeypatch.setattr(migrations.registry, "games", lambda: without_gin)
    monkeypatch.setattr(db_module, "versions", lambda: check(declared(SHARED)))
    path = tmp_path / "new.duckdb"
    with pytest.raises(SchemaBroken, match="version 8 is declared by no installed part"):
        db_module.connect(path)
    assert not path.exists()
    result = CliRunner().invoke(app, ["upgrade", "--db", str(path)])
    assert result.exit_code == 2, result.output
    assert "version 8 is declared by no installed part" in result.output
    assert "Traceback" not in result.output
