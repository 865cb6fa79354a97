"""The equilibrium review on the Game viewer and the Players page (AppTest): the game's
rounds with values and costs, each player's accuracy with its count of bids, and the
player's mean cost per evening once their games are reviewed."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.theory.stored_review import review_stored
from gops_records.games.gops.theory.tablebase import beside

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT = 60

# Two 4-card games: in the first Ann throws the 1 on the 4 (her 4 wins it for nothing).
GAMES = """[A "Ann"]
[B "Bob"]
[Date "2026.11.26"]
[Round "{round}"]
[Cards "4"]
[TieRule "carry"]

1. 3 A 4
2. 4 4 3
3. A 2 A
4. 2 3 2
7-3
"""


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("review")
    records = tmp / "evening.gops"
    records.write_text("\n".join(GAMES.format(round=r) for r in (1, 2)))
    db = tmp / "club.duckdb"
    import_paths([records], db)
    return db


def _page(db: Path, monkeypatch, page: str, **params: str) -> AppTest:
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page)
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_the_game_viewer_shows_the_review(small_db, monkeypatch) -> None:
    with reading(small_db) as con:
        (game_id,) = con.execute("SELECT min(game_id) FROM games").fetchone()
    at = _page(small_db, monkeypatch, "gops/game.py", game_id=str(game_id))
    assert "Against the equilibrium" in [h.value for h in at.header]
    labels = [m.label for m in at.metric]
    assert "Accuracy of Ann" in labels and "Accuracy of Bob" in labels
    assert any("bids with a choice" in c.value for c in at.caption)
    frame = at.dataframe[-1].value
    assert list(frame["round"]) == [1, 2, 3, 4]
    assert {"value", "cost_a", "cost_b", "mix_a", "mix_b"} <= set(frame.columns)
    assert (frame["cost_a"] >= 0).all() and (frame["cost_b"] >= 0).all()
    assert frame["cost_a"].iloc[-1] == 0 and frame["cost_b"].iloc[-1] == 0  # forced
    assert any("Costliest bids" in m.value for m in at.markdown)
    # the review was kept beside the database: the tablebase and the game's bids
    assert any(beside(small_db).rglob("*.parquet"))


def test_the_players_page_shows_mean_cost_per_evening(small_db, monkeypatch) -> None:
    with reading(small_db) as con:
        ids = [gid for (gid,) in con.execute("SELECT game_id FROM games").fetchall()]
    for gid in ids:
        review_stored(small_db, gid)
    at = _page(small_db, monkeypatch, "gops/players.py", profile="Ann")
    assert "Against the equilibrium" in [h.value for h in at.header]
    table = next(t.value for t in at.dataframe if "mean_cost" in t.value.columns)
    assert list(table["date"]) == ["2026.11.26"]
    assert list(table["games"]) == [2] and list(table["bids"]) == [6]
    assert any("2 reviewed games (6 bids)" in c.value for c in at.caption)


def test_the_scout_page_shows_the_equilibrium_baseline(scout_db, monkeypatch) -> None:
    at = _page(scout_db, monkeypatch, "gops/scout.py", scout="Pia")
    labels = {m.label: m.value for m in at.metric}
    assert {"Equilibrium guarantees", "Best response to the model", "Exploitability"} \
        <= set(labels)
    assert float(labels["Exploitability"]) >= 0  # a best reply earns at least the value
    assert any("endgames" in c.value and "n = " in c.value for c in at.caption)
