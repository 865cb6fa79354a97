"""Names as people type them on the dashboard: near duplicates on Data quality with the
command that merges them, an alias merging two events on every page, links that name a
player or an event in any case."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from names_fixture import names_db  # noqa: E402

from gops_records.core.names import NameKind  # noqa: E402
from gops_records.core.store.aliases import add_alias  # noqa: E402
from gops_records.core.store.db import connect  # noqa: E402

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT = 30


def start(db: Path, monkeypatch: pytest.MonkeyPatch, page: str | None = None,
          **params: str | list[str]) -> AppTest:
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _near_duplicates(at: AppTest):
    for df in at.dataframe:
        frame = df.value
        if "command" in getattr(frame, "columns", []):
            return frame
    return None


def test_quality_lists_near_duplicates_with_the_command_that_merges_them(tmp_path, monkeypatch):
    db = names_db(tmp_path)
    at = start(db, monkeypatch, "quality.py")
    assert "Names that are probably one" in [h.value for h in at.header]
    found = _near_duplicates(at)
    assert found is not None
    rows = {(r["kind"], r["keep"], r["other"], r["why"]): (r["games"], r["other games"],
                                                           r["command"])
            for r in found.to_dict("records")}
    assert rows[("event", "Thursday Club", "Thursday club", "case")] == (
        2, 1, "gops alias 'Thursday club' 'Thursday Club'")
    assert rows[("player", "Marta", "Márta", "accents")][:2] == (2, 1)
    assert not any("Joost" in key for key in rows)  # nothing near Joost or Karin Vos


def test_an_alias_merges_the_events_on_every_page(tmp_path, monkeypatch):
    db = names_db(tmp_path)
    con = connect(db)
    add_alias(con, "Thursday club", "Thursday Club", NameKind.EVENT)
    con.close()
    at = start(db, monkeypatch)  # the Session page: one event now, of 3 games
    assert at.sidebar.multiselect[0].options == ["Thursday Club"]
    at.switch_page("quality.py").run()
    found = _near_duplicates(at)
    assert found is not None and set(found["kind"]) == {"player"}  # the events are merged


def test_a_link_names_a_player_as_people_type_it(tmp_path, monkeypatch):
    db = names_db(tmp_path)
    at = start(db, monkeypatch, player="joost", event="THURSDAY  club")
    assert at.session_state["f_players"] == ["Joost"]
    assert sorted(at.session_state["f_events"]) == ["Thursday Club", "Thursday club"]
    assert not at.warning or all("not among" not in w.value for w in at.warning)
