"""One bad file never takes the other files of an import down with it (issue: faults)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.checking import check_bytes

SAMPLES = Path(__file__).parents[2] / "gops_records" / "samples"
BAD_NAME = os.fsdecode(b"bad\xffname.gops")  # not valid UTF-8: a surrogate escape in str


def _sample_game_count() -> int:
    return sum(c.games - c.invalid for path in sorted(SAMPLES.glob("*.gops"))
               for c in check_bytes(path.read_bytes(), str(path)))


def hostile_files(folder: Path) -> None:
    """One of each hostile file known so far, beside the samples."""
    (folder / BAD_NAME).write_text("[White \"Ann\"]\n1. 8 9 9\n*\n")
    (folder / "nested.jsonl").write_text('{"game":' * 100_000 + "1" + "}" * 100_000 + "\n")
    (folder / "digits.gops").write_text("1. 8 9 9\n" + "4" * 5000 + "-1\n")
    (folder / "long-line.csv").write_bytes(b"game,round\n" + b"x" * (2 << 20) + b"\n")
    (folder / "latin1.gops").write_bytes("[White \"J\u00fcrgen\"]\n1. 8 9 9\n*\n"
                                         .encode("latin-1"))
    (folder / "binary.gops").write_bytes(bytes(range(256)) * 64)
    (folder / "empty.csv").write_bytes(b"")
    (folder / "semicolons.csv").write_text("game;round;prize\n1;1;8\n")
    (folder / "truncated.gops").write_text("[White \"Ann\"]\n[Black \"Bo\"]\n1. 8 9")
    (folder / "brace.gops").write_text("{ never closed\n" * 1000)
    (folder / "deep.gops").write_text("{" * 100_000 + "\n")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.gops")


def test_a_folder_of_samples_and_hostile_files_stores_every_sample_game(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    shutil.copytree(SAMPLES, folder)
    hostile_files(folder)
    summary = import_paths([folder], tmp_path / "t.duckdb")
    with reading(tmp_path / "t.duckdb") as con:
        stored = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        sources = {r[0] for r in con.execute("SELECT DISTINCT source FROM rejects").fetchall()}
        names = {r[0] for r in con.execute("SELECT source FROM source_files").fetchall()}
        gin = con.execute("SELECT (SELECT count(*) FROM gin_hands WHERE recorded = 'full')"
                          " + (SELECT count(*) FROM gin_games WHERE recorded = 'sheet')"
                          ).fetchone()[0]
    # every sample game, plus the one game in the file with the odd name
    assert stored == _sample_game_count() + 1
    assert gin > 0 and summary.games_new == stored + gin  # the Gin samples' records too
    assert any(s.endswith("nested.jsonl") for s in sources)
    assert any(s.endswith("latin1.gops") for s in sources)
    # the odd name is stored with its byte made visible, never refused
    assert str(folder / "bad\\xffname.gops") in names


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")
def test_a_file_name_that_is_not_utf8_is_stored_with_its_byte_made_visible(tmp_path: Path):
    (tmp_path / BAD_NAME).write_text("[White \"Ann\"]\n1. 8 9 J\n2. 8 7 Q\n*\n")
    summary = import_paths([tmp_path], tmp_path / "t.duckdb")
    assert summary.rejects_new == 1
    with reading(tmp_path / "t.duckdb") as con:
        (source,) = con.execute("SELECT source FROM rejects").fetchall()[0]
    assert source == str(tmp_path / "bad\\xffname.gops")
