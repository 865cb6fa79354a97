"""check_bytes: the verdicts of `gops validate`, window by window, whatever the windows."""

from __future__ import annotations

import pytest
from paths import DATA

from gops_records.core.errors import DecodeError
from gops_records.core.verdicts import echo
from gops_records.games.gops.checking import VERDICT_COLUMNS, check_bytes
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import BrokenRecord, simulate


def verdicts(data: bytes, source: str = "x.gops", **options) -> list[dict]:
    rows = []
    for checked in check_bytes(data, source, **options):
        rows += checked.verdicts.to_dicts()
    return rows


def simulated_text(seed: int, profile: RuleProfile) -> str:
    items = simulate(120, seed, profile, broken=12)
    return "\n".join(i.text if isinstance(i, BrokenRecord) else write_game(i) for i in items)


@pytest.mark.parametrize("profile", [RuleProfile(), RuleProfile(9, 3, TieRule.DISCARD),
                                     RuleProfile(5, 4)])
def test_windows_of_any_size_give_the_same_verdicts(profile: RuleProfile) -> None:
    data = simulated_text(3, profile).encode()
    whole = verdicts(data, chunk_bytes=1 << 30)
    assert any(not g["valid"] for g in whole) and any(g["valid"] for g in whole)
    assert [g["game"] for g in whole] == list(range(1, len(whole) + 1))
    for size in (1, 300, 2_000, 9_000):
        assert verdicts(data, chunk_bytes=size) == whole


def test_worker_processes_give_the_same_verdicts() -> None:
    data = simulated_text(5, RuleProfile()).encode() * 3
    assert verdicts(data, chunk_bytes=4_000, workers=2) == verdicts(data, workers=0)


def test_verdicts_are_what_the_reports_say() -> None:
    text = (DATA / "broken.gops").read_text(encoding="utf-8")
    rows = verdicts(text.encode(), "broken.gops")
    reports = read_reports(text)
    assert len(rows) == len(reports)
    for row, report in zip(rows, reports, strict=True):
        assert tuple(row) == VERDICT_COLUMNS
        assert row["valid"] == report.valid
        assert row["players"] == report.players
        assert row["scores"] == list(report.outcome.scores)
        assert row["winner"] == report.winner
        assert [(e["code"], e["line"], e["column"]) for e in row["errors"]] == \
            [(p.code, p.line, p.column) for p in report.problems]


def test_an_invalid_game_has_no_winner() -> None:
    rows = verdicts(b"[Cards \"2\"]\n1. 2d 2c As\n2. Ad Ac Ac\n*\n")
    (row,) = rows
    assert not row["valid"] and row["winner"] is None and row["unclaimed"] is None
    assert row["scores"] == [2, 0]  # what the playable round gave


@pytest.mark.parametrize("name", ["club.gops", "broken.gops", "truncated.gops", "bom.gops"])
def test_awkward_files_read_as_their_text(name: str) -> None:
    data = (DATA / name).read_bytes()
    rows = verdicts(data, name)
    assert [r["valid"] for r in rows] == [r.valid for r in read_reports(data.decode("utf-8-sig"))]


def test_latin1_needs_its_encoding() -> None:
    data = (DATA / "latin1.gops").read_bytes()
    with pytest.raises(DecodeError, match="--encoding latin-1"):
        verdicts(data, "latin1.gops")
    rows = verdicts(data, "latin1.gops", encoding="latin-1")
    assert [r["valid"] for r in rows] == [r.valid for r in
                                          read_reports(data.decode("latin-1"))]


def test_echo_cuts_a_long_line_around_the_column() -> None:
    line = "x" * 500 + "BAD" + "y" * 500
    shown, column = echo(line, 501, limit=40)
    assert len(shown) <= 46 and shown[column - 1:column + 2] == "BAD"
    assert echo("short", 3) == ("short", 3)
