"""Shared fixtures: the folder of awkward record files, and a known 13-card game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"

#: A whole 13-card game, hand-checked: prizes, A's bids, B's bids, round by round.
#: Carry: A 45, B 46 (Bruno wins). Discard: A 34, B 38, 19 unclaimed (the 8 and the J).
CLUB_PRIZES = [8, 5, 13, 2, 12, 3, 10, 7, 1, 11, 4, 9, 6]
CLUB_A = [9, 7, 13, 1, 11, 2, 12, 10, 3, 8, 6, 5, 4]
CLUB_B = [9, 11, 12, 2, 13, 3, 10, 1, 4, 8, 5, 6, 7]


@pytest.fixture(scope="session", autouse=True)
def user_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data folder, where the default database lives, is a temporary one for
    every test (and the commands the tests start): no test writes a real user's."""
    home = tmp_path_factory.mktemp("xdg-data-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(home))
        yield home


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def club_game() -> tuple[list[int], list[tuple[int, int]]]:
    """The prizes and the (A, B) bids of the hand-checked club game."""
    return list(CLUB_PRIZES), list(zip(CLUB_A, CLUB_B, strict=True))
