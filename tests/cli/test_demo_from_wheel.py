"""`gops demo` from an installed wheel: the samples are package data, found wherever the
command runs, and the games go into the default database in the user's data folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from paths import ROOT


def _build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "src"  # setuptools builds in the source tree: keep the clone clean
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source)
    for folder in ("gops_records", "dashboards", "pipelines"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path / "dist"), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    return wheel


@pytest.mark.slow
def test_demo_runs_from_the_installed_wheel_in_an_empty_folder(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, timeout=300, capture_output=True)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "COLUMNS": "250"}
    env.pop("GOPS_DB", None)
    env.pop("PYTHONPATH", None)  # a path to a checkout would shadow the installed wheel
    where = subprocess.run([str(python), "-c", "import gops_records; print(gops_records.__file__)"],
                           cwd=empty, env=env, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(venv)  # the wheel's, not the clone's
    demo = subprocess.run([str(venv / "bin" / "gops"), "demo", "--no-dashboard"], cwd=empty,
                          env=env, capture_output=True, text=True, timeout=600)
    assert demo.returncode == 0, demo.stderr
    db = tmp_path / "xdg" / "gops-records" / "gops.duckdb"
    assert demo.stdout.startswith(f"import 1 into {db}: 11 files")
    assert "deliberately broken sample records" in demo.stdout
    assert list(empty.iterdir()) == []  # nothing written where it ran
    con = duckdb.connect(str(db), read_only=True)
    try:
        games = con.execute("SELECT count(*) FROM games").fetchone()[0]
        gin = con.execute("SELECT count(*) FROM gin_games").fetchone()[0]
        sources = con.execute("SELECT sources FROM imports").fetchone()[0]
    finally:
        con.close()
    assert games > 100 and gin > 0
    assert "samples/2026-01-13-gops-society.gops" in sources
