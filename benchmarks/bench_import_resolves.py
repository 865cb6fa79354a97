"""What resolving quarantined records in an import costs (issue 24): a file of ``--games``
simulated games with one broken record, imported, fixed, imported again.

    python benchmarks/bench_import_resolves.py                # 20,000 games
    python benchmarks/bench_import_resolves.py --games 50000

Prints four timings, in pairs: the broken file into a fresh database, then the fixed file
into it (its reject open, so the import gathers what the file holds now and applies the
re-check's file rule: one record resolved); and the same two imports into another
database whose reject was marked resolved by hand in between (nothing open: the import
only stores the one new game). The second against the fourth is the cost of resolving
within the import. Nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gops_records.core.importer import import_paths
from gops_records.core.store.db import connect


def _import(label: str, db: Path, file: Path, text: str) -> None:
    file.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    s = import_paths([file], db)
    seconds = time.perf_counter() - start
    resolved = sum(s.resolved.values())
    print(f"{label:<44} {seconds:6.2f} s  new {s.games_new:>6}  rejected "
          f"{s.games_rejected}  resolved {resolved}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made = folder / "made.gops"
        subprocess.run([sys.executable, "-m", "gops_records", "simulate", "--games",
                        str(args.games), "--seed", str(args.seed), "--out", str(made)],
                       check=True, capture_output=True)
        good = made.read_text(encoding="utf-8")
        first = good.index("\n1. ")
        broken = good[:first] + "\n1. Z" + good[first + 4:]  # game 1's first round unreadable
        file = folder / "club.gops"
        print(f"{args.games:,} games, {len(good.encode()) / 1e6:.1f} MB")
        _import("broken, fresh database", folder / "a.duckdb", file, broken)
        _import("fixed: one open reject in it (resolved)", folder / "a.duckdb", file, good)
        _import("broken, another fresh database", folder / "b.duckdb", file, broken)
        con = connect(folder / "b.duckdb")
        try:  # nothing left open: the same import, without resolving
            con.execute("INSERT INTO reject_resolutions SELECT reject_id, now()::TIMESTAMP, "
                        "'removed', NULL, 'by hand' FROM rejects")
        finally:
            con.close()
        _import("fixed: nothing open (baseline)", folder / "b.duckdb", file, good)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
