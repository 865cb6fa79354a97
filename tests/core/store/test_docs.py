"""docs/schema.md and docs/import.md stay true: every column documented, examples work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gamefiles import SMALL, club_game
from paths import ROOT

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.core.store.schema import tables

DOCS = ROOT / "docs"


def _blocks(doc: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", (DOCS / doc).read_text(), re.DOTALL)


def _documented_columns(table: str) -> list[str]:
    text = (DOCS / "schema.md").read_text()
    section = re.search(rf"### `{table}`.*?\n(.*?)(?=\n##)", text, re.DOTALL)
    if section is None:  # schema_migrations is documented under its own heading
        section = re.search(r"`schema_migrations`:\n(.*?)(?=\n\n[A-Z])", text, re.DOTALL)
    assert section, f"{table} is not documented"
    return re.findall(r"^\| `(\w+)` \|", section.group(1), re.MULTILINE)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("docs")
    (folder / "a.gops").write_text(
        club_game(1, event="Thursday club", extra_tags='[Date "2026.11.26"]\n[Match "1"]\n')
        + "\n" + SMALL.replace("2-4", "4-2"))
    path = folder / "t.duckdb"
    import_paths([folder], path)
    return path


@pytest.mark.parametrize("table", [*tables(), "schema_migrations"])
def test_every_column_is_documented_in_order(db: Path, table: str) -> None:
    with reading(db) as con:
        actual = [r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position", [table]).fetchall()]
    assert _documented_columns(table) == actual


@pytest.mark.parametrize("query", _blocks("schema.md", "sql") + _blocks("import.md", "sql"))
def test_example_queries_run(db: Path, query: str) -> None:
    with reading(db) as con:
        rows = con.execute(query).fetchall()
    assert rows  # the sample database has something for every example


def test_round_log_examples_import_as_described(tmp_path: Path) -> None:
    (csv_text,) = _blocks("import.md", "csv")
    (jsonl_text,) = _blocks("import.md", "jsonl")
    (tmp_path / "log.csv").write_text(csv_text)
    (tmp_path / "log.jsonl").write_text(jsonl_text)
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path / "log.csv", tmp_path / "log.jsonl"], db)
    # the two files hold the same two games: the second file's are duplicates
    assert (summary.games_new, summary.games_duplicate, summary.games_rejected) == (2, 2, 0)
    with reading(db) as con:
        assert con.execute("SELECT cards, finished, result, winner FROM games "
                           "ORDER BY source_game").fetchall() == [
            (3, True, "2-4", "Bob"), (13, False, None, None)]
        assert con.execute("SELECT comment FROM rounds WHERE comment IS NOT NULL "
                           "ORDER BY prize").fetchall() == [
            ("Ann takes the 2",), ("a comment, with a comma",)]
