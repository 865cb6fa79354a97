"""`gops` reads plain option values (str, bool, int, paths) without pydantic: Typer built a
pydantic adapter for each, which imported pydantic at every start (cli/app.py,
``_PlainRuntimeParam``). The values and the errors a user sees stay what they were."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from gops_records.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "250"}

PROBE = """
import contextlib, io, json, sys
sys.argv = ["gops", *json.loads(sys.argv[1])]
from gops_records.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
    main()
print(json.dumps({"pydantic": "pydantic" in sys.modules, "out": out.getvalue(),
                  "checked": "gops_records.core.checking" in sys.modules}))
"""


def _probe(args: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)],
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout.splitlines()[-1])


def test_validate_and_scout_help_load_no_pydantic(tmp_path):
    record = tmp_path / "empty.gops"
    record.write_text("", encoding="utf-8")
    for args in (["validate", str(record), "--json"], ["scout", "--help"], ["--version"]):
        result = _probe(args)
        assert result["out"] or result["checked"], args  # the command did run
        assert result["pydantic"] is False, args


def test_bad_numbers_are_usage_errors():
    low = runner.invoke(app, ["scout", "X", "--simulations", "5"], env=ENV)
    assert low.exit_code == 2
    assert "Invalid value for '--simulations': 5 is out of range: it must be at least 10" in (
        low.output)
    word = runner.invoke(app, ["scout", "X", "--seed", "seven"], env=ENV)
    assert word.exit_code == 2 and "'seven' is not a whole number" in word.output


def test_paths_and_numbers_arrive_typed(tmp_path):
    from typer.models import OptionInfo

    from gops_records.cli.app import _PlainRuntimeParam

    number = _PlainRuntimeParam(OptionInfo(min=1, max=3), int)
    assert number._coerce_value(" 2 ", None, None) == 2
    flag = _PlainRuntimeParam(OptionInfo(), bool)
    assert [flag._coerce_value(w, None, None) for w in ("yes", "0", "True")] == [
        True, False, True]
    many = _PlainRuntimeParam(OptionInfo(), list[str])
    assert many._coerce_value(("a", "b"), None, None) == ["a", "b"]
