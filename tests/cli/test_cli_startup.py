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
HEAVY = ("gops_records.checking", "gops_records.importer", "gops_records.replay.chunks",
         "gops_records.gin.checking", "streamlit")
#: The data stack itself: a command's help needs none of it.
STACK = ("polars", "duckdb", "numpy", "pyarrow", "gops_records.scouting.scout")

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
    assert "gops_records.checking" in result["loaded"]
    assert "streamlit" not in result["loaded"]


@pytest.mark.parametrize("args", [["--help"], ["scout", "--help"], ["import", "--help"]])
def test_help_leaves_the_data_stack_unloaded(args: list[str]) -> None:
    """The options' defaults come from light modules (scouting.defaults, export_format,
    simulate_defaults): help and a mistyped option answer without polars or DuckDB."""
    result = _probe(args, STACK)
    assert result["out"].startswith("Usage: gops")
    assert result["exists"] == list(STACK)
    assert result["loaded"] == []
