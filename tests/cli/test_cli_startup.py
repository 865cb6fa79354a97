"""`gops` starts without loading what the command run does not use.

Every `gops` start imports every command module (the top-level help lists them all), so a
command module imports its library only inside the command function. Checked in a fresh
interpreter, by which modules are loaded, not by a timing (the machine is shared).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Modules only some commands use, each costly to import (validate, import, replay and
#: the dashboard), so that neither `gops --help` nor `gops scout` may load them.
HEAVY = ("gops_records.core.checking", "gops_records.core.importer",
         "gops_records.games.gops.replay.chunks",
         "gops_records.games.gin.checking", "streamlit",
         # the games' parts a command loads from the registry when it runs, not at start
         "gops_records.games.gops.replays", "gops_records.games.gin.replays",
         "gops_records.games.gops.export", "gops_records.games.gin.export",
         "gops_records.games.gops.games", "gops_records.games.gin.games")
#: The data stack itself: a command's help needs none of it.
STACK = ("polars", "duckdb", "numpy", "pyarrow", "gops_records.games.gops.scouting.scout")

#: Runs ``gops ARGS`` in this interpreter as the console script does, then prints which
#: of the modules named on the command line were loaded, and whether each one exists.
PROBE = """
import contextlib, importlib.util, io, json, sys
args, names = json.loads(sys.argv[1]), json.loads(sys.argv[2])
sys.argv = ["gops", *args]
from gops_records.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
    main()
loaded = [name for name in names if name in sys.modules]
exists = [name for name in names if importlib.util.find_spec(name) is not None]
print(json.dumps({"loaded": loaded, "exists": exists, "out": out.getvalue()}))
"""


def _probe(args: list[str], names: tuple[str, ...]) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args), json.dumps(names)],
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


@pytest.mark.parametrize("args", [["--help"], ["scout", "--help"], ["upgrade", "--help"]])
def test_startup_leaves_heavy_modules_unloaded(args: list[str]) -> None:
    result = _probe(args, HEAVY)
    assert result["out"].startswith("Usage: gops")  # the command did run
    assert result["exists"] == list(HEAVY)  # the names are real modules, not typos
    assert result["loaded"] == []


def test_startup_probe_sees_a_command_load_its_library(tmp_path) -> None:
    """The probe does see a module a command loads: `gops validate` loads the checker."""
    record = tmp_path / "empty.gops"
    record.write_text("", encoding="utf-8")
    result = _probe(["validate", str(record)], HEAVY)
    assert "gops_records.core.checking" in result["loaded"]
    assert "streamlit" not in result["loaded"]


@pytest.mark.parametrize("args", [["--help"], ["scout", "--help"], ["import", "--help"]])
def test_help_leaves_the_data_stack_unloaded(args: list[str]) -> None:
    """The options' defaults come from light modules (scouting.defaults, export_format,
    simulate_defaults): help and a mistyped option answer without polars or DuckDB."""
    result = _probe(args, STACK)
    assert result["out"].startswith("Usage: gops")
    assert result["exists"] == list(STACK)
    assert result["loaded"] == []


def test_scouting_a_kept_report_loads_neither_polars_nor_the_model(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`gops scout` prints a kept report (scouting/kept_store.py) with DuckDB alone: the
    same JSON as the report computed afresh, which loads the whole stack."""
    from gops_records.core.importer import import_paths
    from gops_records.core.store.db import connect, reading
    from gops_records.games.gops.scouting import kept_store
    from gops_records.games.gops.simulate import write_simulation

    monkeypatch.setattr(kept_store, "KEEP_FROM_GAMES", 2)
    records, db = tmp_path / "a.gops", tmp_path / "t.duckdb"
    with records.open("w", encoding="utf-8") as out:
        write_simulation(out, 30, 4, bots=["prize", "random"])
    import_paths([records], db)
    with reading(db) as con:  # what the first `gops scout` does (the threshold lowered)
        player = con.execute("SELECT min(player) FROM game_players").fetchall()[0][0]
        _, row = kept_store.asked(con, player)
    assert kept_store.keep(db, row)
    args = ["scout", player, "--db", str(db), "--json"]
    kept = _probe(args, STACK)
    assert kept["loaded"] == ["duckdb"]
    con = connect(db)
    try:
        con.execute("DELETE FROM scout_reports")
    finally:
        con.close()
    live = _probe(args, STACK)
    assert "gops_records.games.gops.scouting.scout" in live["loaded"] and "numpy" in live["loaded"]
    assert json.loads(kept["out"]) == json.loads(live["out"])
    assert json.loads(kept["out"])["player"] == player
