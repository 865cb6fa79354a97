"""Compare `gops simulate` of this tree with the same command at another commit.

    python tests/cli/check_simulate_against.py 2d343f9

Checks out the commit into a temporary git worktree, runs the same `gops simulate`
commands (both games, variants, broken records, worker processes, errors and --help)
there (PYTHONPATH) and here, and compares what they write: the records byte for byte,
the summary on stderr without its timing. Exit status 1 on any difference. Not a pytest
module: it needs git and takes a minute; tests/cli/test_cli_simulate_bytes.py pins digests.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from paths import ROOT

HERE = ROOT

RUNS: list[list[str]] = [
    ["--help"],
    ["-n", "300", "--seed", "7"],
    ["-n", "200", "--seed", "3", "--players", "3", "--tie-rule", "discard", "--broken", "9"],
    ["-n", "150", "--seed", "5", "--bid-cards", "2", "--jobs", "2", "--bots", "prize,saver",
     "--start", "2026-02-03"],
    ["-n", "120", "--seed", "5", "--open-prizes", "3", "--broken", "4"],
    ["--game", "gin", "-n", "20", "--seed", "3", "--broken", "5"],
    ["--game", "gin", "--hands", "150", "--seed", "9", "--runs", "ace-low", "--jobs", "2",
     "--bots", "knocker,random"],
    # errors: each must say the same thing with the same exit status
    ["-n", "2", "--game", "gin", "--players", "3", "--cards", "5"],
    ["-n", "2", "--runs", "ace-low"],
    ["-n", "2", "--hands", "4"],
    ["-n", "3", "--game", "gin", "--hands", "4"],
    ["-n", "2", "--bots", "wizard"],
    ["-n", "2", "--bots", ","],
    ["-n", "2", "--game", "gin", "--bots", "wizard"],
    ["-n", "2", "--game", "gin", "--bots", ","],
    ["-n", "2", "--start", "2025-13-01"],
    ["-n", "2", "--cards", "2", "--broken", "1"],
    ["-n", "2", "--bid-cards", "3", "--cards", "8", "--broken", "1"],
    ["-n", "2", "--bid-cards", "2", "--open-prizes", "3"],
    ["-n", "2", "--game", "chess"],
]
TIMING = re.compile(r"\d+\.\d+ s \([\d,]+ \w+/s\)")


def run(root: Path, args: list[str]) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(root), COLUMNS="80")
    done = subprocess.run(
        [sys.executable, "-c", "from gops_records.cli import main; main()", "simulate", *args],
        capture_output=True, text=True, env=env, cwd=root, timeout=600)
    return done.returncode, done.stdout, TIMING.sub("<timing>", done.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="the commit to compare with, e.g. 2d343f9")
    commit = parser.parse_args(argv).commit
    differ = 0
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "old"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(old),
                        commit], check=True, capture_output=True)
        try:
            for args in RUNS:
                then, now = run(old, args), run(HERE, args)
                same = then == now
                differ += not same
                print(f"{'same' if same else 'DIFFERS'}: gops simulate {' '.join(args)}")
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force",
                            str(old)], check=False, capture_output=True)
    print(f"{len(RUNS) - differ} of {len(RUNS)} the same as {commit}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
