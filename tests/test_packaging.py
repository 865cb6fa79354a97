"""The wheel ships one top-level package, gops_records, with every subpackage in it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _folder(package: str) -> Path:
    mapped = CONFIG["package-dir"]
    for prefix in sorted(mapped, key=len, reverse=True):
        if package == prefix or package.startswith(prefix + "."):
            return ROOT / mapped[prefix] / Path(*package[len(prefix):].split(".")[1:])
    raise AssertionError(f"{package} has no folder")


def test_every_folder_of_python_code_is_a_listed_package() -> None:
    listed = set(CONFIG["packages"])
    folders = {p.parent for root in ("gops_records", "dashboards", "pipelines")
               for p in (ROOT / root).rglob("*.py") if "__pycache__" not in p.parts}
    assert {_folder(package) for package in listed} == folders
    assert all(name == "gops_records" or name.startswith("gops_records.") for name in listed)


@pytest.mark.slow
def test_the_wheel_holds_only_gops_records(tmp_path: Path) -> None:
    source = tmp_path / "src"  # setuptools builds in the source tree: keep the clone clean
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    shutil.copy(ROOT / "README.md", source)
    for folder in ("gops_records", "dashboards", "pipelines"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path), str(source)], capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"gops_records"}
    for shipped in ("gops_records/dashboards/app.py", "gops_records/pipelines/make_samples.py",
                    "gops_records/py.typed", "gops_records/core/store/schema.py"):
        assert shipped in names
