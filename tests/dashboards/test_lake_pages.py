"""Every dashboard page over a Parquet lake (gops dashboard --lake DIR) under AppTest:
the same metrics, tables and titles as over a database imported from the same files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from gops_records.core.importer import import_paths
from gops_records.core.samples import samples_folder

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
PAGES = ("gops/session.py", "gops/players.py", "gops/ties.py", "gops/h2h.py",
         "gops/game.py", "quality.py", "gops/scout.py", "gin/standings.py",
         "gin/hands.py", "gin/knocks.py")
TIMEOUT = 60


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> tuple[Path, Path]:
    """A lake and a database of the samples."""
    root = tmp_path_factory.mktemp("lake-pages")
    # in a process of its own: after AppTest has run a page, this process's __main__ is
    # the app script, which Dask's spawned workers would run again
    subprocess.run([sys.executable, "-m", "gops_records", "lake", "build",
                    str(samples_folder()), "--lake", str(root / "lake"), "--workers", "2"],
                   check=True, capture_output=True)
    import_paths([samples_folder()], root / "db.duckdb")
    return root / "lake", root / "db.duckdb"


def shown(store: Path, page: str, monkeypatch: pytest.MonkeyPatch) -> dict:
    """What a page shows over ``store``: titles, headers, metrics and tables."""
    monkeypatch.setenv("GOPS_DB", str(store))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return {
        "titles": [t.value for t in at.title] + [h.value for h in at.header],
        "metrics": [(m.label, m.value) for m in at.metric],
        # the imports list shows when each ran and for how long: not the same twice
        "tables": [df.value.to_string() for df in at.dataframe
                   if "started_at" not in df.value.columns],
        "errors": [e.value for e in at.error],
    }


@pytest.mark.parametrize("page", PAGES)
def test_page_over_the_lake_shows_what_the_database_shows(stores, page, monkeypatch):
    lake, db = stores
    over_lake = shown(lake, page, monkeypatch)
    over_db = shown(db, page, monkeypatch)
    assert over_lake == over_db
    assert over_lake["titles"]  # (errors: the quarantined records shown, as over the db)
