"""How long the ratings take to recompute from every stored game (docs/ratings.md).

The ratings are recomputed in one pass over every game, in date order, with openskill's
Plackett-Luce model: per-game Python work on the hot path. Two parts are timed:

- ``rate``: :func:`gops_records.core.ratings.rate` from nothing on a placings frame of
  ``--games`` synthetic finished games (2 to 4 players each, drawn from ``--players``
  players, 100 games an evening, shared places by chance) but the last evening; then
  ``update``: rating on from those ratings once the last evening is added (what a page
  does after tonight's import); the frames the pages derive (the table, one player's
  form, the calibration); and writing and reading the history kept beside the database
  (:func:`gops_records.core.ratings.kept_ratings`, Parquet).
- ``placings`` (with ``--db FILE``): reading the placings of a stored database (the SQL
  of each game's part ``ratings``), on a read-only connection.

Each size runs in a child process under ``resource.setrlimit(RLIMIT_AS)``
(``--memory-gb``), so a runaway is stopped, not the machine; the load average is printed
with the figures.

    python benchmarks/bench_ratings.py                          # 100,000 and 1,000,000
    python benchmarks/bench_ratings.py --games 20000 --db benchmarks/out/some.duckdb
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

CHILD = "--child"


def synthetic(games: int, players: int, seed: int = 1):
    """A placings frame of ``games`` games, built columnar with numpy."""
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(seed)
    sizes = rng.choice([2, 2, 2, 3, 4], size=games)
    rows = int(sizes.sum())
    game = np.repeat(np.arange(games, dtype=np.uint64), sizes)
    seat = np.arange(rows) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    # distinct players in a game: a random start and a stride
    start = np.repeat(rng.integers(0, players, games), sizes)
    stride = np.repeat(rng.integers(1, players // 4, games), sizes)
    player = (start + seat * stride) % players
    place = rng.integers(1, np.repeat(sizes, sizes) + 1)  # equal places come by chance
    evening = (game // 100).astype(np.int32) + 10_957  # days since 1970: from 2000-01-01
    return pl.DataFrame({
        "date": pl.Series(evening).cast(pl.Date), "event": pl.Series(["club"] * rows),
        "game_key": pl.Series(game * np.uint64(2654435761) % np.uint64(2**63)),
        "player": "player " + pl.Series(player).cast(pl.String),
        "place": pl.Series(place, dtype=pl.Int64)})


def child(games: int, players: int, db: str | None) -> dict:
    from gops_records.core import ratings

    out: dict = {"games": games}
    t = time.perf_counter()
    placings = synthetic(games, players)
    out["build_s"] = round(time.perf_counter() - t, 2)
    import polars as pl

    last_evening = placings["date"].max()
    before = placings.filter(pl.col("date") < last_evening)
    t = time.perf_counter()
    earlier = ratings.rate(before)
    out["rate_s"] = round(time.perf_counter() - t, 2)
    out["us_per_game"] = round(1e6 * out["rate_s"] / games, 1)
    t = time.perf_counter()
    rated = ratings.rate(placings, earlier.history)  # the last evening imported: rated on
    out["update_s"] = round(time.perf_counter() - t, 2)
    t = time.perf_counter()
    ratings.form(rated.history, rated.table["player"][0])
    ratings.calibration(rated.history)
    ratings.table_of(rated.history)
    out["derive_s"] = round(time.perf_counter() - t, 2)
    out["history_rows"] = rated.history.height
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:  # the history kept beside the database
        path = Path(tmp) / "kept.parquet"
        t = time.perf_counter()
        ratings._keep(rated.history.select(ratings.KEPT_COLUMNS), path)
        out["keep_s"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        pl.read_parquet(path)
        out["read_kept_s"] = round(time.perf_counter() - t, 2)
        out["kept_mb"] = round(path.stat().st_size / 2**20, 1)
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    if db:
        from gops_records.core.store.db import reading

        with reading(db) as con:
            for name in ratings.rated_games():
                t = time.perf_counter()
                found = ratings.placings_of(con, name)
                out[f"placings_{name}_s"] = round(time.perf_counter() - t, 2)
                out[f"placings_{name}_rows"] = found.height
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--db", help="also time reading the placings of this database")
    parser.add_argument("--memory-gb", type=float, default=6.0)
    parser.add_argument(CHILD, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.games[0], args.players, args.db)))
        return
    cap = int(args.memory_gb * 2**30)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)")
    for games in args.games:
        cmd = [sys.executable, __file__, CHILD, "--games", str(games),
               "--players", str(args.players)] + (["--db", args.db] if args.db else [])
        done = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=limit)
        if done.returncode != 0:
            print(f"{games:>9,} games: failed ({done.stderr.strip().splitlines()[-1:]})")
            continue
        r = json.loads(done.stdout.strip().splitlines()[-1])
        extra = "".join(f", {k} {v}" for k, v in r.items() if k.startswith("placings_"))
        print(f"{games:>9,} games: rate {r['rate_s']} s ({r['us_per_game']} µs a game), "
              f"update after one evening {r['update_s']} s, "
              f"table+form+calibration {r['derive_s']} s, {r['history_rows']:,} history "
              f"rows, history kept in {r['keep_s']} s ({r['kept_mb']} MB), read back in "
              f"{r['read_kept_s']} s, peak RSS {r['peak_rss_mb']} MB{extra}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
