"""`gops simulate` writes the same bytes for the same seed and options, for both games.

The digests were taken from the files `gops simulate` wrote at commit 2d343f9, before the
two simulators were put on the shared club frame (gops_records/core/clubs.py) and the
command on the registry; `python tests/cli/check_simulate_against.py 2d343f9` compares a
wider set of runs, summaries and errors with any commit.
"""

from __future__ import annotations

import hashlib

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core import registry
from gops_records.core.simulator import SimOption

RUNS = [
    (["-n", "120", "--seed", "7", "--jobs", "2"],
     "c3f83e4436afba715d68d511d9a910245347a380ef47387be0b96d83467c0895"),
    (["-n", "60", "--seed", "3", "--players", "3", "--tie-rule", "discard", "--broken", "6",
      "--bots", "prize,saver,chaser"],
     "a840756060cbf2b779cc00968156d2bb7b5f37f144778348ba71dea0ad260298"),
    (["-n", "40", "--seed", "5", "--bid-cards", "2", "--cards", "10", "--prize-order",
      "descending", "--broken", "3"],
     "7d4b2453cb0ba4183d0dd1a6466bf775e64f9a0b812cbbc6a05f7dbe2a632817"),
    (["-n", "40", "--seed", "5", "--open-prizes", "3", "--broken", "3", "--start",
      "2026-03-02"],
     "5ae24d58303ac5a85dba6c81a78745424e0965cb90eb574a714abe5c253349b5"),
    (["--game", "gin", "-n", "8", "--seed", "3", "--broken", "4"],
     "3cbf0b20b4d7acd102a140aada9e029e1243a8a21edb8eaf7136d2532e7cfd4e"),
    (["--game", "gin", "--hands", "60", "--seed", "9", "--runs", "ace-low", "--jobs", "2",
      "--bots", "knocker,random"],
     "4418e84c120f0e8db4c0123362d0ec4e43cbd8ddfe125ec95f4d55377192c445"),
]


@pytest.mark.parametrize(("args", "digest"), RUNS, ids=[" ".join(a) for a, _ in RUNS])
def test_the_same_seed_writes_the_same_bytes_as_before(tmp_path, args, digest):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["simulate", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(out.read_bytes()).hexdigest() == digest


def test_game_choices_and_help_come_from_every_registered_simulator():
    result = CliRunner().invoke(app, ["simulate", "--help"], terminal_width=200)
    assert result.exit_code == 0
    with_simulator = [g for g in registry.games() if g.part("simulator") is not None]
    assert [g.name for g in with_simulator] == list(registry.game_names())
    assert f"--game <{'|'.join(registry.game_names())}>" in result.output
    for game in with_simulator:
        simulator = game.part("simulator")
        for option in simulator.options:
            assert option.flag in result.output
        for example in simulator.examples:
            assert example in result.output
    bad = CliRunner().invoke(app, ["simulate", "--game", "chess"])
    assert bad.exit_code == 2 and "'chess' is not one of" in bad.output


class _Third:
    """A third game's simulator: options after --jobs, no words about other games."""

    options = (SimOption("moons", ("--moons",), int, 1, "Moons.", "jobs", min=1),)
    choice = "orbit"
    about = "With --game orbit the bots circle."
    examples = ("gops simulate --game orbit --moons 3",)
    bots_help = "Orbits."
    foreign = None

    def prepare(self, request, own):  # pragma: no cover - never run here
        raise AssertionError


def test_a_third_game_plugs_in_its_options_help_and_errors(monkeypatch):
    from gops_records.cli import simulate_cmd

    third = registry.Game("orbit", "Orbit", ())
    monkeypatch.setitem(simulate_cmd.SIMULATORS, "orbit", (third, _Third()))
    names = [name for name, _, _ in simulate_cmd._parameters()]
    assert names[names.index("jobs") + 1] == "moons"
    assert simulate_cmd._help().endswith("With --game orbit the bots circle.")
    assert "    gops simulate --game orbit --moons 3" in simulate_cmd._help()
    gops, gops_sim = simulate_cmd.SIMULATORS["gops"]
    assert simulate_cmd._foreign(gops, gops_sim, frozenset({"moons", "seed"})) == (
        "--moons is for Orbit: add --game orbit")
    assert simulate_cmd._foreign(third, _Third(), frozenset({"seed", "jobs"})) is None
    assert simulate_cmd._foreign(third, _Third(), frozenset({"cards", "players"})) == (
        "--players, --cards are for Gops: add --game gops")
