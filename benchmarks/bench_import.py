"""Import benchmark: a simulated file of a million two-player games, imported into a fresh
database, then again twice (all duplicates): as ``gops import`` does it by default (the
file is unchanged, so it is counted from ``source_files``, not read) and with
``--reparse`` (read in full), next to a bare replay of the same games in OpenSpiel
(pyspiel); a file of broken games and one 100 MB line; and a layout matrix: the same games
written in every layout of ``gops_records.games.gops.notation.layouts`` (all rounds on one line, 4-7
a line, suit letters, no suits or numbers, lower case with T, comments, CRLF with a BOM),
each checked to validate to the same games, with ``gops validate`` and ``gops import``
games/s and OpenSpiel's replay beside them. Prints tables; also writes
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
    from gops_records.games.gops.reading import read_reports

    text = records(games, 5, tie_rule="discard").read_text(encoding="utf-8")
    ours = [list(r.outcome.scores) for r in read_reports(text)]
    _, theirs = pyspiel_replay(moves(text))
    same = sum(a == [int(x) for x in b] for a, b in zip(ours, theirs, strict=True))
    return same, len(ours)


def layout_files(games: int, seed: int) -> list[tuple[str, Path, list]]:
    """The same simulated games written in every layout of the matrix (made once, kept
    under benchmarks/out/), with each game's moves for OpenSpiel."""
    from gops_records.games.gops.notation import GameRecord
    from gops_records.games.gops.notation.layouts import LAYOUTS, write_games_in_layout
    from gops_records.games.gops.rules import RuleProfile
    from gops_records.games.gops.simulate import simulate

    paths = [(layout, OUT / f"layout-{games}-seed{seed}-{i}.gops")
             for i, layout in enumerate(LAYOUTS)]
    played = None
    if not all(path.exists() for _, path in paths):
        print(f"writing {games:,} games in {len(LAYOUTS)} layouts ...", file=sys.stderr)
        played = [r for r in simulate(games, seed, RuleProfile()) if isinstance(r, GameRecord)]
        for i, (layout, path) in enumerate(paths):
            path.write_bytes(write_games_in_layout(played, layout, seed + i))
    canonical = paths[0][1].read_text(encoding="utf-8")
    return [(layout.name, path, moves(canonical)) for layout, path in paths]


def layout_matrix(games: int, seed: int, spiel_games: int) -> list[dict]:
    """For each layout: gops validate and gops import (fresh) of the file, and beside
    them OpenSpiel's bare replay of the same games."""
    rows = []
    for name, path, replayed in layout_files(games, seed):
        checked = run(["gops", "validate", "--json", str(path)], stdout=subprocess.PIPE)
        verdicts = [json.loads(line) for line in checked.stdout.splitlines()]
        assert len(verdicts) == games and all(v["valid"] for v in verdicts), name
        db = OUT / "layout.duckdb"
        for stale in (db, db.with_name(db.name + ".wal")):
            stale.unlink(missing_ok=True)
        imported = run(["gops", "import", str(path), "--db", str(db), "--json", "--quiet"])
        assert json.loads(imported.stdout)["games_new"] == games, name
        quiet = run(["gops", "validate", str(path)], stdout=subprocess.DEVNULL)
        spiel_seconds, _ = pyspiel_replay(replayed[:spiel_games])
        rows.append({"layout": name, "mb": path.stat().st_size / 1e6,
                     "validate_seconds": quiet.seconds, "validate_peak_mb": quiet.peak_mb,
                     "import_seconds": imported.seconds, "import_peak_mb": imported.peak_mb,
                     "pyspiel_rate": min(spiel_games, len(replayed)) / spiel_seconds})
    return rows


def hostile_rows(broken_games: int, line_mb: int) -> list[tuple[str, str, str]]:
    """A file of broken games only, and one 100 MB line of games, validated and imported."""
    from gops_records.games.gops.simulate import BrokenRecord, simulate

    out = []
    path = OUT / f"broken-{broken_games}.gops"
    if not path.exists():
        items = simulate(0, 3, broken=broken_games)
        path.write_text("\n".join(i.text for i in items if isinstance(i, BrokenRecord)),
                        encoding="utf-8")
    line = OUT / f"line-{line_mb}mb.gops"
    if not line.exists():
        unit = b"1. 4d 3c 5s 2. 5d 4c 3s "
        line.write_bytes(b'[Event "x"] ' + unit * (line_mb * 2**20 // len(unit)))
    for label, target in ((f"{broken_games:,} broken games", path),
                          (f"one {line_mb} MB line", line)):
        db = OUT / "hostile.duckdb"
        for stale in (db, db.with_name(db.name + ".wal")):
            stale.unlink(missing_ok=True)
        validated = run(["gops", "validate", str(target)], stdout=subprocess.DEVNULL)
        imported = run(["gops", "import", str(target), "--db", str(db), "--json", "--quiet"])
        seen = json.loads(imported.stdout)["games_seen"]
        out.append((f"{label}: validate", f"{validated.seconds:.1f} s, "
                    f"{validated.peak_mb:,.0f} MB", f"{seen / validated.seconds:,.0f} games/s"))
        out.append((f"{label}: import", f"{imported.seconds:.1f} s, "
                    f"{imported.peak_mb:,.0f} MB", f"{seen / imported.seconds:,.0f} games/s"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--layout-games", type=int, default=200_000,
                        help="games of each file of the layout matrix (0: skip it)")
    parser.add_argument("--broken-games", type=int, default=50_000,
                        help="games of the all-broken file (0: skip the hostile rows)")
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

    sample = first_games(path, opts.pyspiel_games)
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
        "pyspiel": len(replayed) / spiel_seconds,
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
    if opts.broken_games:
        rows += hostile_rows(opts.broken_games, 100)
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
    matrix = layout_matrix(opts.layout_games, opts.seed, min(opts.pyspiel_games,
                                                             opts.layout_games)) \
        if opts.layout_games else []
    if matrix:
        n = opts.layout_games
        best_v = min(r["validate_seconds"] for r in matrix)
        best_i = min(r["import_seconds"] for r in matrix)
        print(f"\nlayout matrix, {n:,} games a file (import: fresh, end to end)\n")
        print("| layout | MB | validate games/s | import games/s | import peak MB "
              "| OpenSpiel games/s | import / OpenSpiel |")
        print("|---|---|---|---|---|---|---|")
        for r in matrix:
            v_rate, i_rate = n / r["validate_seconds"], n / r["import_seconds"]
            print(f"| {r['layout']} | {r['mb']:.0f} | {v_rate:,.0f} | {i_rate:,.0f} "
                  f"| {r['import_peak_mb']:,.0f} | {r['pyspiel_rate']:,.0f} "
                  f"| {i_rate / r['pyspiel_rate']:.2f}x |")
        worst_v = max(r["validate_seconds"] for r in matrix) / best_v
        worst_i = max(r["import_seconds"] for r in matrix) / best_i
        print(f"\nslowest layout / fastest: validate {worst_v:.2f}x, import {worst_i:.2f}x "
              "(goal: within 1.3x)")
    results = {"games": opts.games, "file_mb": size_mb, "fresh_seconds": fresh.seconds,
               "fresh_inside_seconds": fresh_json["seconds"], "fresh_cpu_seconds": fresh.cpu,
               "fresh_peak_mb": fresh.peak_mb, "reimport_seconds": again.seconds,
               "reimport_cpu_seconds": again.cpu, "reimport_peak_mb": again.peak_mb,
               "reread_seconds": reread.seconds, "reread_cpu_seconds": reread.cpu,
               "reread_peak_mb": reread.peak_mb,
               "rates": rate, "pyspiel_scores_match": [same, checked],
               "validate_seconds": validate.seconds if validate else None,
               "validate_games": opts.validate_games, "goals": goals, "layouts": matrix,
               "load_average": [load_before, os.getloadavg()[0]]}
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
