"""Every command is documented (docs/cli.md, every option of it; README's tour shows the
quarantine and the game finder); the CLI's shared conventions: --version, shell
completion, help that names values in words, never in Python types."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import typer
from paths import ROOT
from typer.testing import CliRunner

from gops_records import __version__
from gops_records.cli import app

CLI_DOC = (ROOT / "docs" / "cli.md").read_text()
ENV = {"COLUMNS": "250", "GOPS_DB": ""}
COMMANDS = typer.main.get_command(app).commands  # name -> click command, as `gops` runs them


def _section(name: str) -> str:
    found = re.search(rf"^## `gops {name}`\n(.*?)(?=^## |\Z)", CLI_DOC, re.DOTALL | re.MULTILINE)
    assert found, f"docs/cli.md has no section ## `gops {name}`"
    return found.group(1)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_and_option_is_documented(name: str) -> None:
    section = _section(name)
    assert f"gops {name}" in section  # its synopsis
    for param in COMMANDS[name].params:
        flags = [o for o in param.opts if o.startswith("--") and o != "--help"]
        if flags:
            assert any(flag in section for flag in flags), f"gops {name} {flags[0]} is not in " \
                "docs/cli.md"
    assert f"[`{name}`](#gops-{name})" in CLI_DOC.split("## Conventions")[0], \
        f"docs/cli.md's contents miss gops {name}"


def test_the_documented_commands_all_exist() -> None:
    documented = set(re.findall(r"^## `gops ([a-z-]+)`", CLI_DOC, re.MULTILINE))
    assert documented == set(COMMANDS)


def test_readme_tour_shows_the_quarantine_and_the_game_finder() -> None:
    readme = (ROOT / "README.md").read_text()
    tour = readme.split("## A short tour", 1)[1].split("\n## ", 1)[0]
    for command in ("gops rejects", "gops rejects --recheck", "gops games"):
        assert command in tour, command
    assert "docs/cli.md" in readme


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"], env=ENV)
    assert result.exit_code == 0 and result.stdout == f"gops {__version__}\n"


def test_help_names_values_in_words_not_python_types() -> None:
    runner = CliRunner()
    for name in ["", *COMMANDS]:
        result = runner.invoke(app, [*name.split(), "--help"], env=ENV)
        assert result.exit_code == 0, name
        text = result.stdout
        for python in ("<list[", "<str>", "<int", "<path>", "<float", "{paths}", "{path}",
                       "{player}"):
            assert python not in text, f"gops {name} --help shows {python}"
    usage = runner.invoke(app, ["import", "--help"], env=ENV).stdout.splitlines()[0]
    assert usage == "Usage: gops import [OPTIONS] PATH..."


def test_completion_is_offered_and_completes_commands_and_choices() -> None:
    top = CliRunner().invoke(app, ["--help"], env=ENV).stdout
    assert "--install-completion" in top and "--show-completion" in top

    def complete(words: str, index: int) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "gops_records"], capture_output=True,
                              text=True, timeout=60,
                              env={**os.environ, "_GOPS_COMPLETE": "complete_bash",
                                   "COMP_WORDS": words, "COMP_CWORD": str(index)})
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert complete("gops rej", 1) == ["rejects"]
    assert complete("gops export --format ", 3) == ["gops", "csv", "parquet", "gin", "ginsheet"]
    # Typer finds the shell from the process's parents (shellingham), not from an argument:
    # run it under bash (a second statement keeps bash from exec-ing it away), so the
    # answer does not depend on what started the tests
    script = subprocess.run(["bash", "-c", '"$0" -m gops_records --show-completion; exit $?',
                             sys.executable], capture_output=True, text=True, timeout=60)
    assert script.returncode == 0 and "_GOPS_COMPLETE" in script.stdout
