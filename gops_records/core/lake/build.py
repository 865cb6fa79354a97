"""``gops lake build``: record files read as tasks on a Dask cluster, committed to a lake.

The driver (this module) finds the files, skips those whose bytes a commit already read
(same SHA-256 and reader), and sends one :func:`~gops_records.core.lake.chunk.read_chunk`
task per file to the cluster: a ``LocalCluster`` of ``workers`` processes, or the
scheduler at ``scheduler``. The tasks write Parquet under ``_staging``; the driver then
keeps, in file order, each game (its content key) the first time it is seen (a file
holding games already in the lake or in an earlier file of the build has those rows
filtered out), moves the files into their partitions and publishes one commit
(:func:`gops_records.core.store.lake.write_commit`). A worker that dies is replaced and
its task run again by the cluster; only the files of the run whose result came back are
committed, so a retry duplicates nothing. Files of a notation read after others (a Gin
score sheet after the full hands) are built in a later wave, after a commit, with the
committed rows of their game's tables as context.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

from gops_records.core import registry
from gops_records.core.errors import GopsError
from gops_records.core.lake.chunk import Chunk, ChunkResult, WrittenFile, read_chunk
from gops_records.core.reading import BATCH_GAMES, kind_of
from gops_records.core.sources import find_files, source_name
from gops_records.core.store import lake
from gops_records.core.store.loader import LoadCounts

#: Seconds to wait for a scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 10.0


class SchedulerUnreachable(GopsError):
    """The ``--scheduler`` address answered nothing."""


@dataclass
class BuildSummary(LoadCounts):
    """What one build did (the counts are those of ``gops import``'s summary)."""

    commits: list[int] = field(default_factory=list)
    files: int = 0
    files_unchanged: int = 0
    data_files: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"commits": self.commits, "files": self.files,
                "files_unchanged": self.files_unchanged, "data_files": self.data_files,
                "games_seen": self.games_seen, "games_new": self.games_new,
                "games_duplicate": self.games_duplicate, "games_rejected": self.games_rejected,
                "rejects_new": self.rejects_new, "rejects_duplicate": self.rejects_duplicate,
                "seconds": round(self.seconds, 3), "notes": self.notes}


def expand(sources: Iterable[str | Path]) -> list[Path]:
    """Record files named, found under folders, or matched by a glob (``*.gops``)."""
    paths: list[Path] = []
    for source in sources:
        text = str(source)
        if not Path(text).exists() and glob.has_magic(text):
            paths += [Path(p) for p in sorted(glob.glob(text, recursive=True))]
        else:
            paths.append(Path(text))
    return list(find_files(paths, registry.suffixes()))


def sha256_of(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def build(sources: Iterable[str | Path], lake_dir: str | Path, *, workers: int = 2,
          scheduler: str | None = None, encoding: str = "utf-8",
          batch_games: int = BATCH_GAMES, task: Callable[[Chunk], ChunkResult] = read_chunk,
          ) -> BuildSummary:
    """Build (or add to) the lake at ``lake_dir`` from record files, folders and globs.

    ``task`` is the chunk function the cluster runs (the default reads through the
    reading core; a test may wrap it). Raises SchedulerUnreachable, SourceError for a
    path that does not exist, LakeError for a folder that is not a lake."""
    clock = time.perf_counter()
    root = lake.create(lake_dir)
    files = expand(sources)
    summary = BuildSummary(files=len(files))
    with _client(workers, scheduler) as client:
        waves: dict[int, list[Path]] = {}
        for path in files:
            waves.setdefault(kind_of(path)[1].order, []).append(path)
        _build_waves(client, root, [waves[o] for o in sorted(waves)], summary, encoding,
                     batch_games, task)
    summary.seconds = time.perf_counter() - clock
    return summary


class _client:
    """A Dask client: of a LocalCluster of ``workers`` processes, or of ``scheduler``."""

    def __init__(self, workers: int, scheduler: str | None) -> None:
        self.workers, self.scheduler = workers, scheduler
        self.cluster = self.client = None

    def __enter__(self):
        from distributed import Client, LocalCluster

        if self.scheduler:
            try:
                self.client = Client(self.scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise SchedulerUnreachable(
                    f"cannot reach the Dask scheduler at {self.scheduler} "
                    f"(nothing answered in {CONNECT_TIMEOUT:g} s): start one with "
                    "`dask scheduler` and workers with `dask worker ADDRESS`, or leave "
                    "out --scheduler to build on this machine") from exc
            return self.client
        self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                    processes=True, dashboard_address=None)
        self.client = Client(self.cluster)
        return self.client

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _reader_key(notation: str, encoding: str) -> str:
    return f"{notation}:{encoding}"


def _build_waves(client, root: Path, waves: list[list[Path]], summary: BuildSummary,
                 encoding: str, batch_games: int, task) -> None:
    """Read the files wave by wave, then publish them in one commit."""
    started, clock = datetime.now(), time.perf_counter()
    found = lake.commits(root)
    read_before: dict[tuple[str, str], lake.SourceRead | None] = {
        (s.sha256, s.reader): s for c in found for s in c.sources}
    build_no = (found[-1].number if found else 0) + 1
    staging = root / lake.STAGING / f"{build_no:08d}-{uuid.uuid4().hex[:8]}"
    staging.mkdir(parents=True)
    by_table = lake.files_by_table(root, found)
    seen = _stored_keys(root, by_table)
    added: list[lake.DataFile] = []
    reads: list[lake.SourceRead] = []
    try:
        for files in waves:
            todo, repeats = _not_read(files, encoding, read_before, summary)
            chunks = [Chunk(str(Path(path).resolve()), kind_of(path)[1].name, encoding,
                            build_no, str(staging), _context(path, by_table), batch_games,
                            source=source_name(path), sha256=read.sha256, reader=read.reader)
                      for path, read in todo]
            results: list[ChunkResult] = client.gather(client.map(task, chunks, pure=False))
            for (_, read), result in zip(todo, results, strict=True):
                _count(result, seen, summary)
                kept: list[lake.DataFile] = []
                for written in result.files:
                    kept += _keep_new(root, staging, written,
                                      seen.setdefault(written.table, set()))
                added += kept
                for f in kept:  # a later wave's context: this build's files too
                    by_table.setdefault(f.table, []).append(str(root.resolve() / f.path))
                reads.append(lake.SourceRead(
                    read.name, read.sha256, read.reader, read.bytes,
                    result.counts.games_new + result.counts.games_duplicate,
                    result.counts.games_rejected, tuple(result.notes)))
                read_before[(read.sha256, read.reader)] = reads[-1]
            for key in repeats:  # counted from the read of the same bytes, as gops import does
                earlier = read_before[key]
                if earlier is not None:
                    summary.add(LoadCounts(
                        games_seen=earlier.games_valid + earlier.games_rejected,
                        games_duplicate=earlier.games_valid,
                        games_rejected=earlier.games_rejected,
                        rejects_duplicate=earlier.games_rejected))
        if not reads:
            return
        summary.data_files += len(added)
        _fsync_files(root, added)
        lake.write_commit(root, lake.Commit(
            build_no, started.isoformat(sep=" "), datetime.now().isoformat(sep=" "),
            tuple(added), tuple(reads),
            {k: getattr(summary, k) for k in LoadCounts.__dataclass_fields__},
            time.perf_counter() - clock))
        summary.commits.append(build_no)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _not_read(files: list[Path], encoding: str,
              read_before: dict[tuple[str, str], lake.SourceRead | None],
              summary: BuildSummary
              ) -> tuple[list[tuple[Path, lake.SourceRead]], list[tuple[str, str]]]:
    """The files whose bytes no commit (nor an earlier file of this build) read, and the
    keys (SHA-256, reader) of the others."""
    todo, repeats = [], []
    for path in files:
        notation = kind_of(path)[1].name
        digest, size = sha256_of(path)
        read = lake.SourceRead(source_name(path), digest, _reader_key(notation, encoding), size)
        if (digest, read.reader) in read_before:
            summary.files_unchanged += 1
            repeats.append((digest, read.reader))
            continue
        read_before[(digest, read.reader)] = None  # read now: its counts come with it
        todo.append((path, read))
    return todo, repeats


def _count(result: ChunkResult, seen: dict[str, set], summary: BuildSummary) -> None:
    """Add a file's counts as ``gops import`` counts them: a valid record (its content
    key) or a reject (its text) new when no commit nor earlier file held it."""
    counts = result.counts
    valid = counts.games_new + counts.games_duplicate
    known = seen.get(result.valid_table, set()) if result.valid_table else set()
    new = sum(1 for k in result.valid.tolist() if k not in known)
    reject_keys = {k for f in result.files if f.table == "rejects" for k in f.keys.tolist()}
    new_rejects = sum(1 for k in reject_keys if k not in seen.get("rejects", set()))
    summary.add(LoadCounts(games_seen=counts.games_seen, games_new=new,
                           games_duplicate=valid - new, games_rejected=counts.games_rejected,
                           rejects_new=new_rejects,
                           rejects_duplicate=counts.games_rejected - new_rejects))
    summary.notes.extend(result.notes)


def _context(path: Path, by_table: dict[str, list[str]]) -> dict[str, list[str]]:
    """For a notation read after others: the committed files of its game's partitions."""
    game, kind = kind_of(path)
    if kind.order == 0:
        return {}
    mark = f"/game={game.name}/"
    return {t: [p for p in paths if mark in p] for t, paths in by_table.items()}


def _stored_keys(root: Path, by_table: dict[str, list[str]]) -> dict[str, set]:
    """The content keys of the rows committed, by table."""
    con = lake.schema_connection()
    try:
        out: dict[str, set] = {}
        for table in lake.stored_tables(con):
            paths = by_table.get(table)
            key = lake.key_of(con, table)
            if paths and key:
                out[table] = set(con.execute(
                    f"SELECT DISTINCT {key} FROM read_parquet({lake.file_list(paths)}, "
                    "hive_partitioning = false)").fetchnumpy()[key].tolist())
        return out
    finally:
        con.close()


def _keep_new(root: Path, staging: Path, written: WrittenFile, seen: set
              ) -> list[lake.DataFile]:
    """Move a staged file into its partition, without the rows of keys already seen
    (in the lake, or in an earlier file of this build); [] when none is left."""
    keys = written.keys.tolist()
    repeated = [k for k in keys if k in seen]
    staged = staging / written.path
    final = root / written.path
    final.parent.mkdir(parents=True, exist_ok=True)
    rows = written.rows
    if repeated:
        keep = [k for k in keys if k not in seen]
        if not keep:
            staged.unlink()
            return []
        dropped = pl.DataFrame({"k": written.keys[np.isin(  # noqa: F841  (read by name)
            written.keys, np.asarray(repeated, dtype=written.keys.dtype))]})
        con = duckdb.connect(":memory:")
        try:
            key = lake.key_of_file(con, str(staged))
            filtered = staged.with_name("kept-" + staged.name)
            con.execute(f"COPY (SELECT * FROM read_parquet('{staged}') WHERE {key} NOT IN "
                        f"(SELECT k FROM dropped)) TO '{filtered}' (FORMAT parquet)")
            rows = con.execute(f"SELECT count(*) FROM read_parquet('{filtered}')").fetchone()[0]
        finally:
            con.close()
        staged.unlink()
        staged = filtered
    seen.update(keys)
    os.replace(staged, final)
    return [lake.DataFile(written.table, written.path, int(rows))]


def _fsync_files(root: Path, files: list[lake.DataFile]) -> None:
    """The data files on disk before the commit that names them."""
    for f in files:
        with open(root / f.path, "rb") as data:
            os.fsync(data.fileno())
