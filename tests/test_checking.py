"""check_records (fast path + exact path) says exactly what the exact validator says."""

from __future__ import annotations

from pathlib import Path

import pytest

from gops_records.checking import GameCheck, check_records
from gops_records.errors import DecodeError
from gops_records.notation import iter_games, write_game
from gops_records.rules import RuleProfile, TieRule
from gops_records.simulate import BrokenRecord, simulate
from gops_records.validate import validate_game

DATA = Path(__file__).parent / "data"


def exact(text: str, source: str) -> list[dict]:
    return [GameCheck.of_report(validate_game(r), n).as_json(source)
            for n, r in enumerate(iter_games(text), start=1)]


def fast(text: str, source: str) -> list[dict]:
    return [c.as_json(source) for c in check_records(text.encode("utf-8"), source)]


def simulated_text(seed: int, profile: RuleProfile) -> str:
    items = simulate(120, seed, profile, broken=12)
    return "\n".join(i.text if isinstance(i, BrokenRecord) else write_game(i) for i in items)


@pytest.mark.parametrize("profile", [RuleProfile(), RuleProfile(9, 3, TieRule.DISCARD),
                                     RuleProfile(5, 4)])
def test_simulated_games_with_broken_records_agree(profile: RuleProfile) -> None:
    text = simulated_text(3, profile)
    expected = exact(text, "sim.gops")
    assert any(not g["valid"] for g in expected) and any(g["valid"] for g in expected)
    assert fast(text, "sim.gops") == expected


@pytest.mark.parametrize("name", ["club.gops", "broken.gops", "truncated.gops", "bom.gops"])
def test_awkward_files_agree(name: str) -> None:
    data = (DATA / name).read_bytes()
    text = data.decode("utf-8-sig")
    assert [c.as_json(name) for c in check_records(data, name)] == exact(text, name)


def test_latin1_needs_its_encoding() -> None:
    data = (DATA / "latin1.gops").read_bytes()
    with pytest.raises(DecodeError, match="--encoding latin-1"):
        list(check_records(data, "latin1.gops"))
    checks = list(check_records(data, "latin1.gops", "latin-1"))
    assert checks == [GameCheck.of_report(validate_game(r), n) for n, r in
                      enumerate(iter_games(data.decode("latin-1")), start=1)]
