"""Issue 21: one date rule for every notation. A record's date is YYYY.MM.DD (?? for an
unknown part), a real day, a year from 1000 to 9999; anything else is a ``tag-value``
problem in .gops, round logs (CSV, JSON Lines), .gin and .ginsheet alike, and a date that
validates is stored as that date (year 0 used to be stored, and broke every page)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import pytest
from paths import TESTS

from gops_records.core.checking import check_source
from gops_records.core.importer import import_paths
from gops_records.core.values import FIRST_YEAR, LAST_YEAR, date_problem

GIN_HAND = (TESTS / "games" / "gin" / "issue_example.gin").read_text("utf-8")
SHEET = """[A "Alice"] [B "Bruno"] [Match "Alice-Bruno"] [Game "1"]{date}
1. B up 6 B gin v 35 0-60
2. B up 3 A biggin v 79 129-0
169-0
"""


def record(kind: str, date: str, i: int = 1) -> tuple[str, str]:
    """(file name, text) of one valid game of ``kind`` carrying ``date`` (``i`` tells
    games of one file apart)."""
    if kind == "gops":
        return "g.gops", (f'[Date "{date}"]\n[Round "{i}"]\n[Cards "2"]\n'
                          "1. 2♦ 2♣ A♠\n2. A♦ A♣ 2♠\n*\n")
    if kind == "csv":
        return "g.csv", ("game,round,prize,bid_a,bid_b,cards,date\n"
                         f"{i},1,2,2,1,2,{date}\n{i},2,1,1,2,2,{date}\n")
    if kind == "jsonl":
        rows = [{"game": str(i), "round": r, "prize": p, "bid_a": a, "bid_b": b, "cards": 2,
                 "date": date} for r, p, a, b in ((1, 2, 2, 1), (2, 1, 1, 2))]
        return "g.jsonl", "".join(json.dumps(row) + "\n" for row in rows)
    match = f'[Match "Alice-Bruno {i}"]'
    if kind == "gin":
        return "g.gin", GIN_HAND.replace('[Match "Alice-Bruno"]', match).replace(
            '[Game "1"]', f'[Game "1"] [Date "{date}"]')
    return "g.ginsheet", SHEET.format(date=f' [Date "{date}"]').replace(
        '[Match "Alice-Bruno"]', match)


def records(kind: str, dates: list[str]) -> tuple[str, str]:
    """One file of ``kind`` holding a game for each date."""
    texts = [record(kind, date, i)[1] for i, date in enumerate(dates, 1)]
    if kind == "csv":
        texts = texts[:1] + [t.split("\n", 1)[1] for t in texts[1:]]
    return record(kind, "")[0], "\n".join(texts) if kind in ("gin", "ginsheet", "gops") \
        else "".join(texts)


KINDS = ("gops", "csv", "jsonl", "gin", "ginsheet")


def verdicts(name: str, text: str) -> list[dict]:
    out = []
    for checked in check_source(text.encode(), name, notes=[]):
        out += checked.verdicts.to_dicts()
    return out


def stored_dates(tmp_path: Path, name: str, text: str) -> tuple[int, list]:
    """Import the file into a fresh database: (records rejected, stored dates)."""
    (tmp_path / name).write_text(text, "utf-8")
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path / name], db)
    table = "gin_hands" if name.endswith(("gin", "ginsheet")) else "games"
    with duckdb.connect(str(db), read_only=True) as con:
        dates = [r[0] for r in con.execute(f"SELECT DISTINCT date FROM {table}").fetchall()]
    return summary.games_rejected, dates


BAD = ["0000.01.01", "0999.12.31", "0000.??.??", "10000.01.01", "2026.02.30", "2026.13.01",
       "2026.00.10", "2026.1\u0661.01", "\uff12\uff10\uff12\uff16.01.01", "26/11/2026"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_date_outside_the_rule_is_a_tag_value_problem_in_every_notation(
        kind: str, tmp_path: Path) -> None:
    name, text = records(kind, [*BAD, "2026.11.26"])
    found = verdicts(name, text)
    assert [v["valid"] for v in found] == [False] * len(BAD) + [True], found
    for verdict, date in zip(found, BAD, strict=False):
        assert [e["code"] for e in verdict["errors"]] == ["tag-value"], (date, verdict)
    assert stored_dates(tmp_path, name, text) == (len(BAD), [dt.date(2026, 11, 26)])


@pytest.mark.parametrize("date", ["0000.01.01", "2026.02.30", "10000.01.01", "2026.13.01"])
def test_the_rule_and_its_words_are_the_same_in_gops_gin_and_ginsheet(date: str) -> None:
    messages = {kind: verdicts(*record(kind, date))[0]["errors"][0]["message"]
                for kind in ("gops", "gin", "ginsheet")}
    assert set(messages.values()) == {date_problem(date)}, messages


def test_the_year_message_says_the_range() -> None:
    message = date_problem("0000.01.01")
    assert message is not None and f"{FIRST_YEAR} to {LAST_YEAR}" in message
    assert date_problem("0999.12.31") is not None
    assert date_problem(f"{FIRST_YEAR}.01.01") is None
    assert date_problem(f"{LAST_YEAR}.12.31") is None


GOOD = {"1000.01.01": dt.date(1000, 1, 1), "9999.12.31": dt.date(9999, 12, 31),
        "2024.02.29": dt.date(2024, 2, 29), "2026.11.??": None, "????.??.??": None,
        "????.02.29": None}


@pytest.mark.parametrize("kind", KINDS)
def test_a_date_within_the_rule_validates_and_is_stored_as_that_date(
        kind: str, tmp_path: Path) -> None:
    name, text = records(kind, list(GOOD))
    found = verdicts(name, text)
    assert [v["valid"] for v in found] == [True] * len(GOOD), found
    rejected, dates = stored_dates(tmp_path, name, text)
    assert rejected == 0
    assert sorted(dates, key=str) == sorted(set(GOOD.values()), key=str)


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_a_round_log_says_the_year_rule_in_its_own_words(kind: str) -> None:
    name, text = record(kind, "0000-01-01")
    (verdict,) = verdicts(name, text)
    assert [e["message"] for e in verdict["errors"]] == [
        "date '0000-01-01' has the year 0000: a date's year is from 1000 to 9999 (write ???? "
        "for an unknown year)"]
