"""Scaling row: one file of 1M, 3M and 10M two-player games, imported fresh and again.

The bigger files are the million-game file of bench_import.py written several times over,
each copy's Event tag relabelled (``[Event "2 Gops Society"]``), so every game is new:
the games are real simulated play and the bytes per game stay the same. For each size it
prints the fresh import and the re-import (file unchanged: counted, not read) with wall
time, CPU time and the child's peak memory, and the seconds per million games relative to
the 1M file (the goal: linear within 20%).

    python benchmarks/bench_scaling.py                     # 1M, 3M, 10M (about half an hour)
    python benchmarks/bench_scaling.py --sizes 1,3         # in millions

Files are kept under benchmarks/out/ (4.3 GB for 10M); the database is deleted after each
size. Figures depend on what else the machine runs: the load average is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_import import OUT, records, run  # noqa: E402

MILLION = 1_000_000


def scaled_file(base: Path, copies: int) -> Path:
    """``copies`` relabelled copies of ``base`` in one file (made once, cached)."""
    if copies == 1:
        return base
    path = OUT / f"{base.stem}-x{copies}.gops"
    if not path.exists():
        data = base.read_bytes()
        partial = path.with_suffix(".partial")
        with partial.open("wb") as out:
            out.write(data)
            for k in range(2, copies + 1):
                out.write(b"\n")
                out.write(data.replace(b'[Event "', f'[Event "{k} '.encode()))
        partial.rename(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,3,10", help="millions of games, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    opts = parser.parse_args()
    base = records(MILLION, opts.seed)
    rows = []
    for millions in (int(s) for s in opts.sizes.split(",")):
        path = scaled_file(base, millions)
        db = OUT / "scaling.duckdb"
        for stale in (db, db.with_name(db.name + ".wal")):
            stale.unlink(missing_ok=True)
        load = os.getloadavg()[0]
        command = ["gops", "import", str(path), "--db", str(db), "--json", "--quiet"]
        fresh, again = run(command), run(command)
        fresh_json, again_json = json.loads(fresh.stdout), json.loads(again.stdout)
        games = millions * MILLION
        assert fresh_json["games_new"] == games, fresh_json
        assert again_json["games_duplicate"] == games and again_json["files_unchanged"] == 1
        rows.append({"millions": millions, "gb": path.stat().st_size / 1e9, "load": load,
                     "fresh": fresh, "again": again})
        for stale in (db, db.with_name(db.name + ".wal")):
            stale.unlink(missing_ok=True)
        print(f"{millions}M done: fresh {fresh.seconds:.0f} s, again {again.seconds:.0f} s",
              file=sys.stderr, flush=True)
    first = rows[0]
    per_m = first["fresh"].seconds / first["millions"]
    per_m_again = first["again"].seconds / first["millions"]
    print("| games | file GB | fresh s | s per 1M (vs first) | CPU s | peak MB "
          "| re-import s | s per 1M (vs first) | peak MB | load before |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        f, a, m = r["fresh"], r["again"], r["millions"]
        print(f"| {m}M | {r['gb']:.1f} | {f.seconds:.0f} | {f.seconds / m:.1f} "
              f"({f.seconds / m / per_m:.2f}x) | {f.cpu:.0f} | {f.peak_mb:,.0f} "
              f"| {a.seconds:.1f} | {a.seconds / m:.1f} ({a.seconds / m / per_m_again:.2f}x) "
              f"| {a.peak_mb:,.0f} | {r['load']:.1f} |")
    worst = max(r["fresh"].seconds / r["millions"] / per_m for r in rows)
    print(f"\nfresh import, slowest per million / first: {worst:.2f}x (goal: within 1.2x)")


if __name__ == "__main__":
    main()
