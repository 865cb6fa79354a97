"""How long `gops scout` takes for a 5,000-game player in a 1,000,000-game database: the
report kept (read back from ``scout_reports``) and computed anew (issue 22's figure:
within 1 s kept, 1.5 s computed).

The database is built the real way, once, and kept under ``benchmarks/out/``:
``gops simulate -n BASE --seed S`` makes BASE games (bench_import.py's file name, so one
reuses the other's), and the file is written COPIES times into one record file, each copy
a different event (``[Event "... #k"]``: new games, the same play), so that simulating a
million games (an hour on a loaded two-core machine) is not needed. In the first copies
one player, the most frequent, is renamed ``Scout Target`` until they have about
``--player-games`` games; ``gops import`` loads the file. A kept database is reused when
it holds exactly the games asked for.

Two figures for each of *kept* and *computed*, ``--repeats`` times, median shown:

- ``gops scout "Scout Target" --json`` as a whole process (Python's start-up and the CLI's
  imports included), timed from start to exit. *Computed*: the kept row is deleted
  first, so the run computes the report (and keeps it); *kept*: the run after it.
- the library call the Scout page makes (``kept_store.report_for`` on a read-only
  connection, opened before the clock starts), with the report kept and with it deleted.

Every child runs under ``resource.setrlimit(RLIMIT_AS)`` (``--memory-gb``), so a runaway
is stopped, not the machine. The load average is printed with the figures: other work on
the machine slows every one of them; so are the CPU seconds of each (user + system, every
thread: on a busy machine the steadier figure). Whether Python writes its bytecode caches
is printed too: with ``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__`` (an editable
install that never wrote one) every start compiles gops' modules again, several tenths of
a second that an installed package (pip compiles it) never pays.

    python benchmarks/bench_scout.py                 # 1,000,000 games (builds once)
    python benchmarks/bench_scout.py --games 100000  # quicker
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
TARGET = "Scout Target"
_EVENT = re.compile(r'^\[Event "([^"]*)"\]$', re.MULTILINE)


def _limit(gb: float):
    def apply() -> None:
        size = int(gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return apply


def _run(args: list[str], gb: float, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, preexec_fn=_limit(gb), check=True, **kwargs)


def base_records(games: int, seed: int, jobs: int, gb: float) -> Path:
    """The simulated file (bench_import.py's name for it), made once and kept."""
    path = OUT / f"games-{games}-seed{seed}.gops"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        print(f"making {path.name} with gops simulate ...", file=sys.stderr, flush=True)
        _run(["gops", "simulate", "--games", str(games), "--seed", str(seed), "--jobs",
              str(jobs), "--out", str(path)], gb)
    return path


def _split_games(text: str) -> list[str]:
    """The records of a .gops file, each from its first tag line."""
    starts = [m.start() for m in _EVENT.finditer(text)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def records(games: int, base: int, seed: int, player_games: int, jobs: int,
            gb: float) -> Path:
    """A file of ``games`` games: copies of the base file, each its own event; the most
    frequent player renamed TARGET in the first copies, up to about ``player_games``."""
    path = OUT / f"scout-{games}-seed{seed}.gops"
    if path.exists():
        return path
    text = base_records(base, seed, jobs, gb).read_text(encoding="utf-8")
    one = _split_games(text)
    names = Counter(re.findall(r'^\[[A-D] "([^"]*)"\]$', text, re.MULTILINE))
    player, per_copy = names.most_common(1)[0]
    renamed = max(1, round(player_games / per_copy))
    print(f"writing {path.name}: {games // len(one)} copies of {len(one)} games; "
          f"{player!r} ({per_copy} games a copy) is {TARGET!r} in {renamed}",
          file=sys.stderr, flush=True)
    tmp = path.with_suffix(".part")
    with tmp.open("w", encoding="utf-8") as out:
        for copy in range(games // len(one)):
            for record in one:
                record = _EVENT.sub(lambda m, k=copy: f'[Event "{m.group(1)} #{k}"]', record,
                                    count=1)
                if copy < renamed:
                    record = record.replace(f' "{player}"]', f' "{TARGET}"]')
                out.write(record)
    tmp.rename(path)
    return path


def database(games: int, base: int, seed: int, player_games: int, jobs: int,
             gb: float) -> Path:
    """The database of those games, imported once with ``gops import``."""
    db = OUT / f"scout-{games}-seed{seed}.duckdb"
    if db.exists():
        import duckdb  # only to count what a kept database holds

        con = duckdb.connect(str(db), read_only=True)
        try:
            if con.execute("SELECT count(*) FROM games").fetchone()[0] == games:
                return db
        finally:
            con.close()
        db.unlink()
    source = records(games, base, seed, player_games, jobs, gb)
    print(f"importing {source.name} ...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    _run(["gops", "import", str(source), "--db", str(db), "--quiet", "--json"], gb,
         stdout=subprocess.DEVNULL)
    print(f"imported in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return db


def _forget(db: Path) -> None:
    """Delete the kept report, so the next ask computes it."""
    from gops_records.core.store.db import connect

    con = connect(db)
    try:
        con.execute("DELETE FROM scout_reports WHERE player = ?", [TARGET])
    finally:
        con.close()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _process_seconds(db: Path, gb: float, cpu: list[float]) -> float:
    """Wall seconds of one `gops scout` process; its CPU seconds (user + system, all its
    threads) are appended to ``cpu``."""
    before = _children_cpu()
    started = time.perf_counter()
    _run(["gops", "scout", TARGET, "--json", "--db", str(db)], gb, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    cpu.append(_children_cpu() - before)
    return wall


#: The Scout page's call, timed in a child of its own (the connection opened first).
_LIBRARY = """
import json, sys, time
from gops_records.core.store.db import reading
from gops_records.games.gops.scouting import kept_store
with reading(sys.argv[1]) as con:
    kept = kept_store.kept_report(con, sys.argv[2]) is not None
    started, cpu = time.perf_counter(), time.process_time()
    kept_store.report_for(con, sys.argv[2])
    print(json.dumps([kept, time.perf_counter() - started, time.process_time() - cpu]))
"""


def _library_seconds(db: Path, gb: float, want_kept: bool, cpu: list[float]) -> float:
    """Wall seconds of the page's call; its CPU seconds (all threads) go to ``cpu``."""
    done = _run([sys.executable, "-c", _LIBRARY, str(db), TARGET], gb, capture_output=True,
                text=True)
    kept, seconds, cpu_seconds = json.loads(done.stdout.splitlines()[-1])  # the last: ours
    assert kept == want_kept, f"the report was {'' if kept else 'not '}kept"
    cpu.append(cpu_seconds)
    return seconds


def _games_of(db: Path) -> tuple[int, int]:
    from gops_records.core.store.db import reading

    with reading(db) as con:
        total = con.execute("SELECT count(*) FROM games").fetchone()[0]
        mine = con.execute("SELECT count(*) FROM games WHERE ? IN (player_a, player_b, "
                           "player_c, player_d)", [TARGET]).fetchone()[0]
    return total, mine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--base", type=int, default=20_000, help="games simulated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player-games", type=int, default=5_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="gops simulate workers")
    parser.add_argument("--memory-gb", type=float, default=8.0,
                        help="address-space limit of every child")
    args = parser.parse_args()
    gb = args.memory_gb
    db = database(args.games, args.base, args.seed, args.player_games, args.jobs, gb)
    total, mine = _games_of(db)
    load_before = os.getloadavg()
    names = ("process computed", "process kept", "library computed", "library kept")
    runs: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.repeats):
        _forget(db)
        runs["library computed"].append(_library_seconds(db, gb, False,
                                                         cpu["library computed"]))
        # computes and keeps
        runs["process computed"].append(_process_seconds(db, gb, cpu["process computed"]))
        runs["process kept"].append(_process_seconds(db, gb, cpu["process kept"]))
        runs["library kept"].append(_library_seconds(db, gb, True, cpu["library kept"]))
    load_after = os.getloadavg()
    print(f"gops scout {TARGET!r}: {mine:,} of {total:,} games; {args.repeats} runs each; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after; bytecode "
          f"{'not ' if sys.flags.dont_write_bytecode else ''}written (PYTHONDONTWRITEBYTECODE)")
    print(f"{'':18} {'median':>8} {'min':>8} {'max':>8}   {'CPU s':>6}")
    for name, seconds in runs.items():
        print(f"{name:18} {statistics.median(seconds):8.2f} {min(seconds):8.2f} "
              f"{max(seconds):8.2f}   {statistics.median(cpu[name]):6.2f}")
    print(json.dumps({"games": total, "player_games": mine, "load_before": load_before,
                      "load_after": load_after, "seconds": runs, "cpu_seconds": cpu}))


if __name__ == "__main__":
    main()
