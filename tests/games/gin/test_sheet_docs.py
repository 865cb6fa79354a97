"""The score sheets of docs/gin.md: the valid ones check clean, each problem example gives
exactly its code at its line and column."""

from __future__ import annotations

import re

import pytest
from paths import ROOT

from gops_records.games.gin.sheet import parse_sheets, write_sheets
from gops_records.games.gin.sheet_check import check_sheet

DOC = (ROOT / "docs" / "gin.md").read_text("utf-8")
SHEETS = re.findall(r"```ginsheet\n(.*?)```", DOC, re.S)
PROBLEMS = re.findall(r"```ginsheet-problem ([a-z-]+) (\d+):(\d+)\n(.*?)```", DOC, re.S)
#: every sheet code but those needing several records (match, sheet-mismatch: test_sheet.py)
ALONE = {"dealer", "hand-points", "running-total", "knock-over-limit", "knock-forbidden",
         "after-game-end", "game-score", "incomplete", "tag-value"}


def test_the_docs_show_an_example_of_each_sheet_code():
    assert len(SHEETS) == 2
    assert {code for code, *_ in PROBLEMS} == ALONE


@pytest.mark.parametrize("text", SHEETS)
def test_a_documented_sheet_is_valid_and_reads_back_from_its_canonical_form(text):
    (parsed,) = parse_sheets(text)
    report = check_sheet(parsed)
    assert report.valid and report.finished, report.problems
    assert report.score.scores == parsed.record.result
    assert [p.record for p in parse_sheets(write_sheets([parsed.record]))] == [parsed.record]


@pytest.mark.parametrize(("code", "line", "column", "text"), PROBLEMS)
def test_a_documented_problem_is_found_where_the_docs_say(code, line, column, text):
    (parsed,) = parse_sheets(text)
    assert [(p.code, p.line, p.column) for p in check_sheet(parsed).problems] == [
        (code, int(line), int(column))]
