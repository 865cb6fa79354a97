"""Import benchmark: a simulated file of a million two-player games, imported into a fresh
database, then again twice (all duplicates): as ``gops import`` does it by default (the
file is unchanged, so it is counted from ``source_files``, not read) and with
``--reparse`` (read in full), next to the exact per-game path and a bare
replay of the same games in OpenSpiel (pyspiel). Prints one table; also writes it to
benchmarks/out/results.json.

    python benchmarks/bench_import.py                  # the full run (a few minutes)
    python benchmarks/bench_import.py --games 100000   # a quicker one

Record files are made once with ``gops simulate`` and kept under benchmarks/out/ (which
git ignores). Imports run as ``gops import`` in a child process, timed from start to
exit, with the child's peak memory from the kernel (``wait4``). Figures depend on what
else the machine is doing: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

OUT = Path(__file__).parent / "out"
GOALS = {"fresh_seconds": 8.0, "reimport_seconds": 3.0, "peak_mb": 2048.0, "vs_pyspiel": 6.0}
_ROUND = re.compile(r"^(\d+)\. (10|[2-9AJQK])♦ (10|[2-9AJQK])♣ (10|[2-9AJQK])♠$", re.M)
_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@dataclass
class Run:
    """One child process: wall seconds, CPU seconds (user + system, all threads), peak
    memory (MB), what it printed, exit code."""

    seconds: float
    cpu: float
    peak_mb: float
    stdout: str
    code: int


def run(args: list[str], stdout: int | None = subprocess.PIPE) -> Run:
    """Run a command, timing it from start to exit and taking its peak RSS."""
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdout=stdout, stderr=err, text=True)
        out = proc.stdout.read() if proc.stdout else ""
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            err.seek(0)
            sys.exit(f"{' '.join(args)} failed ({code}):\n{err.read()}")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out, code)


def records(games: int, seed: int, **options: str) -> Path:
    """A simulated record file, made once by ``gops simulate`` and cached."""
    name = "-".join([f"games-{games}-seed{seed}", *(f"{k}-{v}" for k, v in options.items())])
    path = OUT / f"{name}.gops"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        extra = [a for k, v in options.items() for a in (f"--{k.replace('_', '-')}", v)]
        print(f"making {path.name} with gops simulate ...", file=sys.stderr, flush=True)
        run(["gops", "simulate", "-n", str(games), "--seed", str(seed), *extra,
             "-o", str(partial)])
        partial.rename(path)
    return path


def first_games(path: Path, games: int) -> str:
    """The text of the first ``games`` games of a canonical simulated file."""
    size = games * 500
    while True:
        with path.open("rb") as f:
            data = f.read(size)
        text = data.decode("utf-8", errors="ignore")
        ends = [m.end() for m in re.finditer(r"\n\n(?=\[)", text)]
        if len(ends) >= games or len(data) < size:
            return text if len(ends) < games else text[:ends[games - 1]]
        size *= 2


def import_three_times(path: Path) -> list[tuple[Run, dict]]:
    """Fresh, again (the file is unchanged: counted, not read), and again with
    ``--reparse`` (read in full, every game found stored)."""
    db = OUT / "bench.duckdb"
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    command = ["gops", "import", str(path), "--db", str(db), "--json", "--quiet"]
    runs = [run(command), run(command), run([*command, "--reparse"])]
    return [(r, json.loads(r.stdout)) for r in runs]


def exact_path(text: str) -> tuple[int, float]:
    """Games and seconds of the exact path (parse, validate, Batch, frames) on ``text``."""
    from gops_records.notation import iter_games
    from gops_records.store.frames import Batch
    from gops_records.validate import validate_game

    start = time.perf_counter()
    batch, games = Batch(), 0
    for number, record in enumerate(iter_games(text), start=1):
        report = validate_game(record)
        if report.valid:
            batch.add_game(report, "sample", number)
        else:
            batch.add_reject(text[record.start:record.end], report.problems, "sample",
                             number, record.line)
        games += 1
    batch.frames()
    return games, time.perf_counter() - start


def moves(text: str) -> list[list[tuple[int, int, int]]]:
    """(prize, A's bid, B's bid) of every round of every game, from canonical text."""
    games: list[list[tuple[int, int, int]]] = []
    for m in _ROUND.finditer(text):
        if m.group(1) == "1":
            games.append([])
        games[-1].append(tuple(_RANKS.get(c) or int(c) for c in m.groups()[1:]))
    return games


def pyspiel_replay(games: list[list[tuple[int, int, int]]]) -> tuple[float, list[list[float]]]:
    """Replay every game in OpenSpiel's goofspiel; seconds taken and each game's returns.

    Prizes are chance outcomes, bids simultaneous actions (both 0-based); OpenSpiel
    plays the last round itself, so only the first 12 are applied.
    """
    import pyspiel

    game = pyspiel.load_game("goofspiel", {"num_cards": 13, "players": 2,
                                           "points_order": "random",
                                           "returns_type": "total_points"})
    returns = []
    start = time.perf_counter()
    for rounds in games:
        state = game.new_initial_state()
        for prize, a, b in rounds[:-1]:
            state.apply_action(prize - 1)
            state.apply_actions([a - 1, b - 1])
        returns.append(state.returns())
    return time.perf_counter() - start, returns


def discard_check(games: int = 2000) -> tuple[int, int]:
    """Our scores against OpenSpiel's on discard games (OpenSpiel discards ties)."""
    from gops_records.notation import iter_games
    from gops_records.validate import validate_game

    text = records(games, 5, tie_rule="discard").read_text(encoding="utf-8")
    ours = [list(validate_game(r).outcome.scores) for r in iter_games(text)]
    _, theirs = pyspiel_replay(moves(text))
    same = sum(a == [int(x) for x in b] for a, b in zip(ours, theirs, strict=True))
    return same, len(ours)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact-games", type=int, default=3_000,
                        help="sample for the exact path's speed")
    parser.add_argument("--pyspiel-games", type=int, default=100_000,
                        help="sample for OpenSpiel's speed")
    parser.add_argument("--validate-games", type=int, default=100_000,
                        help="file size for the `gops validate` time (0: skip)")
    opts = parser.parse_args()
    load_before = os.getloadavg()[0]

    path = records(opts.games, opts.seed)
    size_mb = path.stat().st_size / 1e6
    (fresh, fresh_json), (again, again_json), (reread, reread_json) = import_three_times(path)
    assert fresh_json["games_new"] == opts.games, fresh_json
    for summary, unchanged in ((again_json, 1), (reread_json, 0)):
        assert summary["games_duplicate"] == opts.games, summary
        assert summary["files_unchanged"] == unchanged, summary

    sample = first_games(path, max(opts.exact_games, opts.pyspiel_games))
    exact_games, exact_seconds = exact_path(first_games(path, opts.exact_games))
    clock = time.perf_counter()
    replayed = moves(sample)[:opts.pyspiel_games]
    moves_seconds = time.perf_counter() - clock  # reading the moves from the text (a regex)
    spiel_seconds, _ = pyspiel_replay(replayed)
    same, checked = discard_check()

    validate = None
    if opts.validate_games:
        small = records(opts.validate_games, opts.seed)
        validate = run(["gops", "validate", str(small)], stdout=subprocess.DEVNULL)

    rate = {
        "fresh": opts.games / fresh.seconds, "again": opts.games / again.seconds,
        "reread": opts.games / reread.seconds,
        "exact": exact_games / exact_seconds, "pyspiel": len(replayed) / spiel_seconds,
        "pyspiel_with_reading": len(replayed) / (moves_seconds + spiel_seconds),
    }
    rows = [
        ("record file", f"{opts.games:,} games, {size_mb:,.0f} MB", ""),
        ("fresh import, end to end", f"{fresh.seconds:.1f} s", f"{rate['fresh']:,.0f} games/s"),
        ("  inside gops import", f"{fresh_json['seconds']:.1f} s", ""),
        ("  CPU time (all threads)", f"{fresh.cpu:.1f} s", ""),
        ("  peak memory", f"{fresh.peak_mb:,.0f} MB", ""),
        ("re-import, file unchanged (not read)", f"{again.seconds:.1f} s",
         f"{rate['again']:,.0f} games/s"),
        ("  CPU time (all threads)", f"{again.cpu:.1f} s", ""),
        ("  peak memory", f"{again.peak_mb:,.0f} MB", ""),
        ("re-import, read in full (--reparse)", f"{reread.seconds:.1f} s",
         f"{rate['reread']:,.0f} games/s"),
        ("  CPU time (all threads)", f"{reread.cpu:.1f} s", ""),
        ("  peak memory", f"{reread.peak_mb:,.0f} MB", ""),
        ("exact path (parse, validate, frames)", f"{exact_games:,} games",
         f"{rate['exact']:,.0f} games/s"),
        ("OpenSpiel bare replay (pyspiel)", f"{len(replayed):,} games",
         f"{rate['pyspiel']:,.0f} games/s"),
        ("  with the moves read from the text", f"{len(replayed):,} games",
         f"{rate['pyspiel_with_reading']:,.0f} games/s"),
        ("fresh import vs OpenSpiel replay", f"{rate['fresh'] / rate['pyspiel']:.1f}x", ""),
        ("  vs replay with reading", f"{rate['fresh'] / rate['pyspiel_with_reading']:.1f}x", ""),
        ("re-import (read in full) vs OpenSpiel", f"{rate['reread'] / rate['pyspiel']:.1f}x", ""),
        ("OpenSpiel scores = ours (discard)", f"{same:,} of {checked:,} games", ""),
    ]
    if validate is not None:
        rows.append((f"gops validate, {opts.validate_games:,} games", f"{validate.seconds:.1f} s",
                     f"{opts.validate_games / validate.seconds:,.0f} games/s"))
    rows.append(("load average (1 min) before, after", f"{load_before:.1f}, "
                 f"{os.getloadavg()[0]:.1f}", f"{os.cpu_count()} cores"))
    width = max(len(r[0]) for r in rows)
    print(f"| {'measure':<{width}} | {'value':>22} | {'rate':>16} |")
    print(f"|{'-' * (width + 2)}|{'-' * 24}|{'-' * 18}|")
    for name, value, extra in rows:
        print(f"| {name:<{width}} | {value:>22} | {extra:>16} |")
    goals = {
        "fresh import <= 8 s": fresh.seconds <= GOALS["fresh_seconds"],
        "re-import <= 3 s": again.seconds <= GOALS["reimport_seconds"],
        "re-import read in full (--reparse) <= 3 s": reread.seconds <= GOALS["reimport_seconds"],
        "peak memory < 2 GB": max(fresh.peak_mb, again.peak_mb, reread.peak_mb) < GOALS["peak_mb"],
        ">= 6x OpenSpiel replay": rate["fresh"] / rate["pyspiel"] >= GOALS["vs_pyspiel"],
    }
    print("goals: " + ", ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in goals.items()))
    results = {"games": opts.games, "file_mb": size_mb, "fresh_seconds": fresh.seconds,
               "fresh_inside_seconds": fresh_json["seconds"], "fresh_cpu_seconds": fresh.cpu,
               "fresh_peak_mb": fresh.peak_mb, "reimport_seconds": again.seconds,
               "reimport_cpu_seconds": again.cpu, "reimport_peak_mb": again.peak_mb,
               "reread_seconds": reread.seconds, "reread_cpu_seconds": reread.cpu,
               "reread_peak_mb": reread.peak_mb,
               "rates": rate, "pyspiel_scores_match": [same, checked],
               "validate_seconds": validate.seconds if validate else None,
               "validate_games": opts.validate_games, "goals": goals,
               "load_average": [load_before, os.getloadavg()[0]]}
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
