"""A small tmpfs for the tests that need a disk that fills up or is read-only."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


class Tmpfs:
    """A tmpfs mounted at ``path`` (root only; the tests using it are skipped elsewhere)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read_only(self) -> None:
        subprocess.run(["mount", "-o", "remount,ro", str(self.path)], check=True)


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Tmpfs]:
    """A 12 MiB tmpfs, unmounted afterwards."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield Tmpfs(mount)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
