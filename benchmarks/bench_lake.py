"""Lake benchmark: `gops lake build` on a local Dask cluster against `gops import` of the
same files, then the dashboard's pages over the lake. Prints one table of figures.

    python benchmarks/bench_lake.py                      # 200,000 games in 8 files
    python benchmarks/bench_lake.py --games 40000 --files 4

The record files are made once with ``gops simulate`` (two-player games, one seed a file)
and kept under benchmarks/out/ (which git ignores); every other file is rewritten with
CRLF line ends, so the layouts are mixed. ``gops import`` runs as a subprocess (its peak
memory is the child's maximum RSS); the lake is built in a fresh folder by
:func:`gops_records.core.lake.build.build` on a ``LocalCluster`` of ``--workers``
processes of one thread each, and each worker reports its own maximum RSS at the end.
The games a second per worker core give an estimate (on paper, not run) of 1 billion
games on 100 cores. The dashboard figures replay each page's calls over the lake as
benchmarks/bench_dashboard.py does over a database (first load, then a filter change).
Nothing here asserts a time; figures depend on what else the machine is doing (the load
average is printed).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import Client, LocalCluster

from gops_records.core.lake.build import build

OUT = Path(__file__).resolve().parent / "out"
#: Memory each process of the benchmark may take (the machine is shared).
MEMORY_CAP = 6 << 30


def sources(games: int, files: int, seed: int) -> Path:
    """``files`` record files of ``games`` games in all, made once and kept."""
    folder = OUT / f"lake-sources-{games}-{files}-seed{seed}"
    if folder.exists():
        return folder
    partial = folder.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for i in range(files):
        path = partial / f"month-{i + 1:02d}.gops"
        print(f"making {path.name} with gops simulate ...", file=sys.stderr, flush=True)
        subprocess.run(["gops", "simulate", "--games", str(games // files), "--seed",
                        str(seed + i), "--jobs", "2", "--out", str(path)], check=True,
                       stderr=subprocess.DEVNULL)
        if i % 2:
            path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    partial.rename(folder)
    return folder


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def time_import(folder: Path, work: Path) -> tuple[float, float]:
    """Wall seconds and peak MB of ``gops import`` of the folder into a new database."""
    started = time.perf_counter()
    subprocess.run(["gops", "import", str(folder), "--db", str(work / "import.duckdb"),
                    "--quiet"], check=True, stdout=subprocess.DEVNULL, preexec_fn=_capped)
    seconds = time.perf_counter() - started
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def time_lake(folder: Path, lake: Path, workers: int):
    """The build's summary and each worker's peak MB."""
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, memory_limit=MEMORY_CAP // workers) as cluster, \
            Client(cluster) as client:
        summary = build([folder], lake, scheduler=cluster.scheduler_address)
        peaks = client.run(_peak_mb)
    return summary, sorted(peaks.values())


def dashboard(lake: Path, repeats: int) -> list[tuple[str, float, float]]:
    """Per page: first load and the median filter change, seconds, over the lake."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_dashboard as bd

    facts = bd.Facts.read(lake)
    out = []
    for page in ("Session", "Players", "Ties and pools", "Head-to-head", "Game viewer",
                 "Data quality"):
        _, first, steps = bd.measure(lake, facts, page, repeats)
        changes = sorted(s.seconds for s in steps) or [float("nan")]
        out.append((page, first.seconds, changes[len(changes) // 2]))
    return out


def commit_costs(appends: int = 100) -> str:
    """Our manifest against deltalake (if installed: ``pip install deltalake``): seconds
    an append of a 1,000-row file, and to list the files of ``appends`` commits."""
    try:
        from deltalake import DeltaTable, write_deltalake
    except ImportError:
        return "deltalake not installed: pip install deltalake to compare the commits"
    import pyarrow as pa
    import pyarrow.parquet as pq

    from gops_records.core.store import lake

    table = pa.table({"game_id": pa.array(range(1000), pa.uint64()),
                      "x": pa.array(range(1000), pa.int64())})
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        for _ in range(appends):
            write_deltalake(f"{tmp}/delta", table, mode="append")
        delta = time.perf_counter() - started
        started = time.perf_counter()
        delta_files = len(DeltaTable(f"{tmp}/delta").file_uris())
        delta_list = time.perf_counter() - started
        root = lake.create(Path(tmp) / "own")
        (root / "t").mkdir()
        started = time.perf_counter()
        for i in range(appends):
            path = f"t/part-{i}.parquet"
            pq.write_table(table, root / path)
            with open(root / path, "rb") as data:
                os.fsync(data.fileno())
            lake.write_commit(root, lake.Commit(i + 1, "", "", (lake.DataFile("t", path, 1000),),
                                                ()))
        own = time.perf_counter() - started
        started = time.perf_counter()
        own_files = len(lake.files_by_table(root)["t"])
        own_list = time.perf_counter() - started
    return (f"{appends} appends of 1,000 rows: deltalake {delta / appends * 1000:.1f} ms each, "
            f"ours {own / appends * 1000:.1f} ms each; listing {delta_files} / {own_files} "
            f"files {delta_list * 1000:.1f} / {own_list * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    folder = sources(args.games, args.files, args.seed)
    size = sum(p.stat().st_size for p in folder.iterdir())
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        print("gops import ...", file=sys.stderr, flush=True)
        import_s, import_mb = time_import(folder, work)
        print("gops lake build ...", file=sys.stderr, flush=True)
        summary, peaks = time_lake(folder, work / "lake", args.workers)
        lake_bytes = sum(p.stat().st_size for p in (work / "lake").rglob("*.parquet"))
        again = time.perf_counter()
        rebuilt = build([folder], work / "lake", workers=args.workers)
        rebuild_s = time.perf_counter() - again
        print("dashboard over the lake ...", file=sys.stderr, flush=True)
        pages = dashboard(work / "lake", args.repeats)
    games = summary.games_seen
    per_core = games / summary.seconds / args.workers
    billion_hours = 1e9 / (per_core * 100) / 3600
    print(f"{games:,} games in {args.files} files ({size / 1e6:.0f} MB, LF and CRLF), "
          f"{args.workers} workers; load average before {tuple(round(x, 2) for x in load)}, "
          f"after {tuple(round(x, 2) for x in os.getloadavg())} ({os.cpu_count()} cores)")
    print("| measure | figure |")
    print("|---|---|")
    print(f"| `gops import` (one process) | {import_s:.1f} s ({games / import_s:,.0f} games/s), "
          f"peak {import_mb:,.0f} MB |")
    print(f"| `gops lake build --workers {args.workers}` | {summary.seconds:.1f} s "
          f"({games / summary.seconds:,.0f} games/s; {per_core:,.0f} games/s per worker core),"
          f" peak per worker {', '.join(f'{p:,.0f}' for p in peaks)} MB; "
          f"{summary.data_files} Parquet files, {lake_bytes / 1e6:.0f} MB |")
    print(f"| rebuild, nothing new | {rebuild_s:.1f} s ({rebuilt.files_unchanged} files "
          f"unchanged, commits {rebuilt.commits or 'none'}) |")
    print(f"| 1 billion games on 100 cores (estimate from the per-core rate) | "
          f"{billion_hours:.1f} h |")
    print(f"| commits, ours against deltalake | {commit_costs()} |")
    for page, first, change in pages:
        print(f"| dashboard over the lake, {page}: first load / filter change | "
              f"{first:.2f} s / {change:.2f} s |")


if __name__ == "__main__":
    main()
