"""The dashboard's Data quality page on the quarantine: counts that agree (each record once,
open and resolved), resolved records marked and hidden until asked for, and the line each
problem points at shown from the record, numbered as in its file."""

from __future__ import annotations

from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from paths import ROOT
from streamlit.testing.v1 import AppTest

from gops_records.core.importer import import_paths
from gops_records.core.rejects import recheck
from gops_records.core.store.db import connect

APP = ROOT / "dashboards" / "app.py"
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")
COMMENTED = "{ tonight, table 2\n  a second line }\n" + BROKEN.replace('"Ann"', '"Anna"')


@pytest.fixture
def db(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("a.gops").write_text(club_game(1) + "\n" + BROKEN)
    Path("c.gops").write_text(COMMENTED)
    path = tmp_path / "q.duckdb"
    for _ in range(3):  # three imports count the same two rejects six times
        import_paths([Path("a.gops"), Path("c.gops")], path, reparse=True)
    Path("a.gops").write_text(club_game(1) + "\n" + SMALL)  # fixed, and imported
    import_paths([Path("a.gops")], path)
    con = connect(path)
    try:
        assert recheck(con).resolved == 1
    finally:
        con.close()
    return path


def _page(db: Path, monkeypatch) -> AppTest:
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    at.switch_page("quality.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_counts_agree_and_resolved_records_are_marked(db: Path, monkeypatch) -> None:
    at = _page(db, monkeypatch)
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Records in quarantine"], metrics["In quarantine"], metrics["Open"],
            metrics["Resolved"]) == ("2", "2", "1", "1")
    help_text = next(m.proto.help for m in at.metric if m.label == "Records in quarantine")
    assert "1 open, 1 resolved" in help_text and "counted 6 rejections" in help_text
    listed = [df.value for df in at.dataframe if "status" in df.value.columns]
    assert list(listed[0]["status"]) == ["open"]  # the resolved one waits for the toggle
    at.toggle(key="reject_resolved").set_value(True).run()
    listed = [df.value for df in at.dataframe if "status" in df.value.columns]
    assert sorted(listed[0]["status"]) == ["open", "resolved: fixed"]
    labels = at.selectbox(key="reject_pick").options
    resolved = next(i for i, label in enumerate(labels) if label.endswith("· resolved"))
    at.selectbox(key="reject_pick").set_value(resolved).run()
    assert any(s.value.startswith("Resolved (fixed, ") and "now valid and stored" in s.value
               for s in at.success)


def test_the_line_a_problem_points_at_is_shown_with_its_file_number(db: Path,
                                                                    monkeypatch) -> None:
    at = _page(db, monkeypatch)
    assert at.selectbox(key="reject_pick").options[0].startswith("c.gops · game 1 · line 3")
    pointed, record = (c.value for c in at.code[:2])
    # the record starts at the comment (line 1) while its first tag is line 3: the
    # problem at line 9 is its round 2, shown with a caret under the card at column 7
    assert "line 9, column 7: card-not-in-hand\n     9 | 2. 3D 3C 2S\n" + " " * 15 + "^" \
        in pointed
    assert record.splitlines()[0] == " 1 | { tonight, table 2"
    assert " 9 | 2. 3D 3C 2S" in record.splitlines()
