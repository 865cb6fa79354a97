"""gops lake build on a LocalCluster of 2 workers: the lake equals `gops import` of the
same files (game ids, counts per table, scores, rejects), rebuilding adds nothing, a
worker killed mid-build changes nothing, a hostile file is a reject."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import cloudpickle
import polars as pl
import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.lake.build import SchedulerUnreachable, build
from gops_records.core.lake.chunk import Chunk, ChunkResult, read_chunk
from gops_records.core.samples import samples_folder
from gops_records.core.store import lake
from gops_records.core.store.db import connect

TABLES = ("games", "game_players", "rounds", "bids", "rejects", "gin_hands", "gin_turns",
          "gin_melds", "gin_games")

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers run the test's task


def _gops(*args: str) -> None:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    """The samples; generated games in every notation and layout (2 to 4 players, bids
    of several cards, open prizes, broken records, Gin hands; the same games again as a
    CSV and a JSONL round log and with CRLF line ends); a copy of a file under another
    name (the same bytes), and a hostile file."""
    root = tmp_path_factory.mktemp("sources")
    shutil.copytree(samples_folder(), root / "samples")
    gen = root / "generated"
    gen.mkdir()
    _gops("simulate", "-n", "12", "--seed", "3", "--broken", "3", "--out", str(gen / "a.gops"))
    _gops("simulate", "-n", "6", "--seed", "4", "--players", "3", "--bid-cards", "2",
          "--out", str(gen / "b.gops"))
    _gops("simulate", "-n", "6", "--seed", "5", "--players", "4", "--open-prizes", "3",
          "--tie-rule", "discard", "--out", str(gen / "c.gops"))
    _gops("simulate", "--game", "gin", "-n", "3", "--seed", "6", "--broken", "2",
          "--out", str(gen / "d.gin"))
    scratch = tmp_path_factory.mktemp("scratch") / "s.duckdb"
    _gops("import", str(gen / "a.gops"), "--db", str(scratch))
    _gops("export", "--format", "csv", "--out", str(gen / "a-again.csv"), "--db", str(scratch))
    log = pl.read_csv(gen / "a-again.csv", infer_schema=False)
    log.head(log.height // 2).write_ndjson(gen / "a-half.jsonl")
    (gen / "b-crlf.gops").write_bytes((gen / "b.gops").read_bytes().replace(b"\n", b"\r\n"))
    first = sorted((root / "samples").glob("*.gops"))[0]
    (root / "copy").mkdir()
    shutil.copy(first, root / "copy" / "same-games.gops")
    (root / "copy" / "reordered.gops").write_bytes(b"\n\n" + first.read_bytes())
    (root / "copy" / "hostile.gops").write_bytes(b"\xff\xfe\x00garbage [A \"x\n" * 50)
    return root


@pytest.fixture(scope="module")
def database(sources, tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("db") / "gops.duckdb"
    imported = import_paths([sources], db)
    db.with_suffix(".counts").write_text(repr(_counts(imported)))
    return db


def _counts(summary) -> tuple[int, ...]:
    return (summary.games_seen, summary.games_new, summary.games_duplicate,
            summary.games_rejected, summary.rejects_new, summary.rejects_duplicate)


def _answers(con) -> dict:
    out = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    out["game_ids"] = sorted(r[0] for r in con.execute("SELECT game_id FROM games").fetchall())
    out["scores"] = sorted(con.execute(
        "SELECT game_id, seat, player, score, outcome FROM game_players").fetchall())
    out["results"] = sorted(con.execute(
        "SELECT game_id, result, winner, source, source_game FROM games").fetchall())
    out["rejects"] = sorted(con.execute(
        "SELECT reject_id, source, source_line, raw_text FROM rejects").fetchall())
    out["hands"] = sorted(con.execute("SELECT hand_id, points FROM gin_hands").fetchall())
    return out


def _db_answers(database: Path) -> dict:
    con = connect(database, read_only=True)
    try:
        return _answers(con)
    finally:
        con.close()


def test_lake_equals_import_and_rebuild_adds_nothing(sources, database, tmp_path):
    summary = build([sources], tmp_path / "lake", workers=2)
    assert summary.games_rejected >= 1 and summary.commits
    con = lake.connect(tmp_path / "lake")
    got = _answers(con)
    con.close()
    want = _db_answers(database)
    assert got == want
    assert got["games"] > 300 and got["gin_hands"] > 100
    assert summary.games_duplicate > 0
    assert repr(_counts(summary)) == database.with_suffix(".counts").read_text()
    assert any(Path(s).name == "hostile.gops" for _, s, _, _ in got["rejects"])
    files = sorted(p for p in (tmp_path / "lake").rglob("*.parquet"))
    again = build([sources], tmp_path / "lake", workers=2)
    assert again.commits == [] and again.files_unchanged == again.files
    assert sorted((tmp_path / "lake").rglob("*.parquet")) == files
    # partitions: Hive-style, by game and the year/month of the game's date
    assert any("game=gops/year=2026/month=01" in p.as_posix() for p in files)


def _dies_once(chunk: Chunk) -> ChunkResult:
    """The chunk task, but the worker process dies the first time it runs one."""
    marker = Path(chunk.staging).parent.parent / "killed-once"
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return read_chunk(chunk)
    os.close(fd)
    os._exit(1)


def test_worker_killed_mid_build_duplicates_nothing(sources, database, tmp_path):
    summary = build([sources], tmp_path / "lake", workers=2, task=_dies_once)
    assert (tmp_path / "killed-once").exists() or (tmp_path / "lake" / "killed-once").exists()
    con = lake.connect(tmp_path / "lake")
    got = _answers(con)
    con.close()
    assert got == _db_answers(database)
    assert summary.commits


def test_unreachable_scheduler_is_a_plain_message(sources, tmp_path):
    with pytest.raises(SchedulerUnreachable, match="cannot reach the Dask scheduler at "
                       "tcp://127.0.0.1:9"):
        build([sources], tmp_path / "lake", scheduler="tcp://127.0.0.1:9")


def test_next_months_files_add_only_their_games(sources, database, tmp_path):
    """Built in two steps (the samples, then everything), the lake is the same; the
    second commit adds only the games the first did not hold."""
    first = build([sources / "samples"], tmp_path / "lake", workers=2)
    both = build([sources], tmp_path / "lake", workers=2)
    assert first.commits == [1] and both.commits == [2]
    # the samples, and copy/same-games.gops (a sample's bytes)
    assert both.files_unchanged == len(list((sources / "samples").iterdir())) + 1
    con = lake.connect(tmp_path / "lake")
    got = _answers(con)
    added = con.execute("SELECT count(*) FROM games WHERE import_id = 2").fetchone()[0]
    hands = con.execute("SELECT count(*) FROM gin_hands WHERE import_id = 2").fetchone()[0]
    con.close()
    want = _db_answers(database)
    assert {k: v for k, v in got.items() if k != "results"} == \
        {k: v for k, v in want.items() if k != "results"}
    assert added + hands == both.games_new
    assert 0 < added < got["games"]


def test_files_no_commit_names_are_not_read(sources, tmp_path):
    """What a killed build leaves (staged files, whole files moved into a partition but
    never committed, a commit's temporary file) changes no answer."""
    build([sources / "samples"], tmp_path / "lake", workers=2)
    con = lake.connect(tmp_path / "lake")
    before = _answers(con)
    con.close()
    games = next((tmp_path / "lake" / "games").rglob("*.parquet"))
    shutil.copy(games, games.with_name("part-orphan-0.parquet"))
    (tmp_path / "lake" / lake.STAGING / "00000002-dead").mkdir(parents=True)
    shutil.copy(games, tmp_path / "lake" / lake.STAGING / "00000002-dead" / "x.parquet")
    (tmp_path / "lake" / lake.COMMITS / ".half.tmp").write_text('{"number": 2, "fi')
    con = lake.connect(tmp_path / "lake")
    assert _answers(con) == before
    con.close()
    again = build([sources / "samples"], tmp_path / "lake", workers=2)
    assert again.commits == []


def test_a_commit_number_taken_meanwhile_is_refused(tmp_path):
    root = lake.create(tmp_path / "lake")
    commit = lake.Commit(1, "2026-12-01 10:00:00", "2026-12-01 10:00:01", (), ())
    lake.write_commit(root, commit)
    with pytest.raises(lake.LakeError, match="another build committed 00000001.json"):
        lake.write_commit(root, commit)
    assert [c.number for c in lake.commits(root)] == [1]
    assert not list((root / lake.COMMITS).glob(".*.tmp"))


def test_a_damaged_commit_is_a_plain_error(tmp_path):
    from gops_records.core.store.db import DatabaseUnusable
    from gops_records.core.store.db import connect as open_store

    root = lake.create(tmp_path / "lake")
    (root / lake.COMMITS / "00000001.json").write_text("{not json")
    with pytest.raises(DatabaseUnusable, match="cannot read the lake at .*unreadable commit"):
        open_store(root, read_only=True)
