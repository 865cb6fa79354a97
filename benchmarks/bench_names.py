"""What names as people type them cost: the merged views an alias puts on every read-only
connection, and the near-duplicate finder on many names.

    python benchmarks/bench_names.py DB [--names 10000 100000]

DB is a gops database (e.g. ``gops simulate --games 50000`` imported); it is copied to a
temporary folder, where one alias is added, so DB is left as it was. Prints the median of
5 runs of each read, without and with the alias, and the finder's time per size.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import string
import tempfile
import time
from pathlib import Path

from gops_records.core.name_lists import list_names, merge_suggestions
from gops_records.core.names import NameKind, near_duplicates
from gops_records.core.store.aliases import add_alias
from gops_records.core.store.db import connect, reading
from gops_records.games.gops import analytics
from gops_records.games.gops.analytics.filters import Filters

RUNS = 5


def _median_ms(fn) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def reads(db: Path, one: str) -> dict[str, float]:
    """Median times of a few reads, ``one`` the player whose standings are read."""
    with reading(db) as con:
        return {
            "open a read-only connection": _median_ms(lambda: reading(db).__enter__().close()),
            "standings (every game)": _median_ms(lambda: analytics.standings(con, Filters())),
            "standings of one player": _median_ms(
                lambda: analytics.standings(con, Filters(players=(one,)))),
            "gops players (list_names)": _median_ms(lambda: list_names(con, NameKind.PLAYER)),
            "near duplicates of the database": _median_ms(lambda: merge_suggestions(con)),
        }


def synthetic_names(n: int, seed: int = 7) -> dict[str, int]:
    """``n`` random two-word names (5-9 letters each), a tenth of them retyped with one
    letter changed or in other case, with random counts."""
    rng = random.Random(seed)
    out: dict[str, int] = {}
    while len(out) < n:
        name = " ".join("".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 9)))
                        .capitalize() for _ in range(2))
        out[name] = rng.randint(1, 500)
        if rng.random() < 0.1:
            i = rng.randrange(len(name))
            out[name[:i] + rng.choice(string.ascii_lowercase) + name[i + 1:]] = 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db", type=Path)
    parser.add_argument("--names", type=int, nargs="*", default=[10_000, 100_000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "copy.duckdb"
        shutil.copyfile(args.db, db)
        with reading(db) as con:
            games = con.execute("SELECT count(*) FROM games").fetchone()[0]
            players = [r.name for r in list_names(con, NameKind.PLAYER)]
        before = reads(db, players[0])
        con = connect(db, writer="alias")
        add_alias(con, players[-1], players[0])
        con.close()
        after = reads(db, players[0])  # now with the other's games
    print(f"{games:,} games, {len(players)} players; median of {RUNS} runs, ms")
    print(f"{'read':36} {'no alias':>10} {'1 alias':>10}")
    for what in before:
        print(f"{what:36} {before[what]:10.1f} {after[what]:10.1f}")
    for n in args.names:
        counts = synthetic_names(n)
        start = time.perf_counter()
        pairs = near_duplicates(counts)
        print(f"near_duplicates of {len(counts):,} names: {time.perf_counter() - start:.2f} s, "
              f"{len(pairs):,} pairs")


if __name__ == "__main__":
    main()
