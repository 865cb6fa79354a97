"""The Session page's best-of section under AppTest: a match's winner by games, the game
that decided it, games after it and replays; absent when no game has a BestOf tag."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from gops_records.core.importer import import_paths

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
A_WINS = "1. 2♦ 2♣ A♠\n2. A♦ A♣ 2♠\n2-1"
B_WINS = "1. 2♦ A♣ 2♠\n2. A♦ 2♣ A♠\n1-2"
DRAW = "1. 2♦ 2♣ 2♠\n2. A♦ A♣ A♠\n0-0"


def evening(best_of: bool) -> str:
    games = []
    for i, body in enumerate([A_WINS, DRAW, B_WINS, A_WINS, B_WINS], start=1):
        tags = ['[Event "Club"]', '[Date "2026.11.26"]', f'[Round "{i}"]', '[Match "1"]',
                *(['[BestOf "3"]'] if best_of else []), '[A "Alice"]', '[B "Bruno"]',
                '[Cards "2"]']
        games.append("\n".join(tags) + "\n" + body + "\n")
    return "\n".join(games)


def db_of(folder: Path, best_of: bool) -> Path:
    (folder / "evening.gops").write_text(evening(best_of), encoding="utf-8")
    db = folder / "club.duckdb"
    assert import_paths([folder / "evening.gops"], db).games_rejected == 0
    return db


def session(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    at.switch_page("gops/session.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_the_section_shows_the_match_won_by_games(tmp_path: Path, monkeypatch):
    at = session(db_of(tmp_path, best_of=True), monkeypatch)
    assert "Best-of matches" in [h.value for h in at.header]
    (table,) = [pl.from_pandas(df.value) for df in at.dataframe
                if "decided_at" in df.value.columns]
    row = table.row(0, named=True)
    assert (row["match"], row["best_of"], row["games"], row["winner"], row["score"],
            row["decided_at"], row["after_decided"], row["replays"]) == \
        ("1", 3, 5, "Alice", "Alice 2, Bruno 1", 4, 1, 1)


def test_no_section_without_best_of_tags(tmp_path: Path, monkeypatch):
    at = session(db_of(tmp_path, best_of=False), monkeypatch)
    assert "Best-of matches" not in [h.value for h in at.header]
    assert "Matches" in [h.value for h in at.header]  # the cumulative totals stay


def test_the_games_of_the_match_are_flagged_and_the_replay_names_its_draw(tmp_path: Path,
                                                                        monkeypatch):
    from gops_records.core.game_refs import game_ref
    from gops_records.core.store.db import reading

    db = db_of(tmp_path, best_of=True)
    at = session(db, monkeypatch)
    (games,) = [pl.from_pandas(df.value) for df in at.dataframe if "status" in df.value.columns]
    with reading(db) as con:
        draw = con.execute("SELECT game_id FROM games WHERE result = '0-0'").fetchone()[0]
    assert games["status"].to_list() == ["counted", "draw: replayed", "counted", "counted",
                                         "after decided"]
    assert games["replays"].to_list()[2] == game_ref(draw)
    assert games["replays"].drop_nulls().len() == 1
