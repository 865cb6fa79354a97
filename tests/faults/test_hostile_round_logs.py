"""Hostile round logs (found by the fuzzer): each a reject or a problem, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading

GOOD = [{"game": 1, "round": 1, "prize": 8, "bid_a": 9, "bid_b": 9},
        {"game": 1, "round": 2, "prize": 5, "bid_a": 7, "bid_b": "J"}]


def _jsonl(rows: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def _import(tmp_path: Path, name: str, data: bytes):
    (tmp_path / name).write_bytes(data)
    summary = import_paths([tmp_path / name], tmp_path / "t.duckdb")
    with reading(tmp_path / "t.duckdb") as con:
        errors = [e for (errs,) in con.execute("SELECT errors FROM rejects").fetchall()
                  for e in errs]
        games = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    return summary, games, errors


def test_a_nested_json_row_is_a_reject_of_its_own_and_the_other_rows_are_read(tmp_path):
    deep = '{"game":' * 100_000 + "1" + "}" * 100_000
    summary, games, errors = _import(tmp_path, "log.jsonl", _jsonl([*GOOD, deep]).encode())
    assert games == 1 and summary.games_rejected == 1
    assert [(e["code"], e["line"]) for e in errors] == [("syntax", 3)]
    assert "nested too deeply" in errors[0]["message"]


@pytest.mark.parametrize("row", [
    '{"game": 2, "round": 1, "prize": ' + "7" * 100_000 + ', "bid_a": 1, "bid_b": 2}',
    '{"game": 2, "round": ' + "1" * 5000 + ', "prize": 3, "bid_a": 1, "bid_b": 2}',
    "not json at all",
    "[1, 2, 3]",
], ids=["huge-prize", "huge-round", "not-json", "a-list"])
def test_a_json_row_of_huge_numbers_or_not_an_object_is_a_located_problem(tmp_path, row):
    summary, games, errors = _import(tmp_path, "log.jsonl", _jsonl([*GOOD, row]).encode())
    assert games == 1 and summary.games_rejected == 1
    assert errors and all(e["line"] == 3 for e in errors)
    assert max(len(e["message"]) for e in errors) < 300


@pytest.mark.parametrize("data", [
    b"game,round,prize,bid_a,bid_b\r[x] y\r1,1,8,9,9\r",            # CR-only, a stray CR
    b"game,round,prize,bid_a,bid_b\n1,1,8,9," + b"9" * 200_000 + b"\n",  # a huge field
    b'game,round,prize,bid_a,bid_b\n1,1,8,9,"9\n',                     # an open quote
    b"game,round,prize,bid_a,bid_b\n" + b"1" * 5000 + b",1,8,9,9\n",   # a huge game number
], ids=["stray-cr", "huge-field", "open-quote", "huge-game"])
def test_csv_that_the_csv_module_refuses_is_quarantined_not_a_crash(tmp_path, data):
    summary, games, errors = _import(tmp_path, "log.csv", data)
    # an open quote runs to the end of the file and a long game name is only a name: those
    # two read as a game; the others are quarantined with located problems
    assert summary.games_seen == games + summary.games_rejected >= 1
    assert all(e["line"] >= 1 and len(e["message"]) < 400 for e in errors)
    assert bool(errors) == (summary.games_rejected > 0)
