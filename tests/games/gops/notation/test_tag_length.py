"""Issue 21: a tag's value holds at most MAX_TAG_CHARS characters in every notation. A
longer one is a ``tag-value`` problem of its record (the rest of the file is stored): the
store copies an Event into each of its game's bid group rows, and a 3.5 MB one took about
670 MB to import, where the same bytes as a comment take a few MB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games.gops.notation.test_date_range import KINDS, record, stored_dates, verdicts

from gops_records.core.values import MAX_TAG_CHARS, length_problem, tag_problem


def with_event(kind: str, event: str, i: int) -> tuple[str, str]:
    """(file name, text) of one valid game of ``kind`` whose Event is ``event``."""
    name, text = record(kind, "2026.11.26", i)
    if kind == "csv":
        head, *rows = text.splitlines()
        cell = '"' + event.replace('"', '""') + '"'
        return name, "\n".join([head + ",event", *(row + "," + cell for row in rows)]) + "\n"
    if kind == "jsonl":
        rows = [json.loads(line) | {"event": event} for line in text.splitlines()]
        return name, "".join(json.dumps(row) + "\n" for row in rows)
    return name, f'[Event "{event}"]\n' + text


def file_of(kind: str, events: list[str]) -> tuple[str, str]:
    texts = [with_event(kind, event, i)[1] for i, event in enumerate(events, 1)]
    if kind == "csv":
        texts = texts[:1] + [t.split("\n", 1)[1] for t in texts[1:]]
    joined = "".join(texts) if kind in ("csv", "jsonl") else "\n".join(texts)
    return with_event(kind, "", 1)[0], joined


@pytest.mark.parametrize("kind", KINDS)
def test_a_tag_value_over_the_limit_is_a_tag_value_problem_in_every_notation(
        kind: str, tmp_path: Path) -> None:
    longest, too_long = "e" * MAX_TAG_CHARS, "e" * (MAX_TAG_CHARS + 1)
    name, text = file_of(kind, [too_long, longest, "x" * 20_000])
    found = verdicts(name, text)
    assert [v["valid"] for v in found] == [False, True, False], found
    for verdict in (found[0], found[2]):
        assert [e["code"] for e in verdict["errors"]] == ["tag-value"], verdict
        assert f"holds at most {MAX_TAG_CHARS:,}" in verdict["errors"][0]["message"]
    rejected, dates = stored_dates(tmp_path, name, text)
    assert rejected == 2 and len(dates) == 1  # the game at the limit is stored


def test_the_rule_counts_characters_not_bytes() -> None:
    assert length_problem("Event", "♦" * MAX_TAG_CHARS) is None
    problem = length_problem("Site", "♦" * (MAX_TAG_CHARS + 1))
    assert problem is not None and "Site" in problem and f"{MAX_TAG_CHARS + 1:,}" in problem


def test_tag_problem_applies_the_length_and_then_the_date_rule() -> None:
    assert tag_problem("Event", "Thursday club") is None
    assert tag_problem("Date", "2026.02.30") is not None
    assert "characters long" in (tag_problem("Date", "2" * 5000) or "")
    assert tag_problem("Event", "2026.02.30") is None  # only a Date is a date
