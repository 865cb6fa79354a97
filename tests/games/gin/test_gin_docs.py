"""The worked hands of docs/gin.md replay to the points they state."""

from __future__ import annotations

import re

import pytest
from paths import ROOT

from gops_records.games.gin.notation import write_hand
from gops_records.games.gin.replay import read_hands

DOC = ROOT / "docs" / "gin.md"
HANDS = re.findall(r"```gin\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_docs_have_their_worked_hands():
    assert len(HANDS) == 3


@pytest.mark.parametrize("text", HANDS)
def test_a_worked_hand_is_valid_and_scores_its_terminator(text):
    (report,) = read_hands(text)
    assert report.valid and report.finished, report.problems
    assert report.result.scores == report.record.result
    assert write_hand(report.record) == text or "3. A s:K♦ K♣   4." in text


def test_the_canonical_examples_are_canonical():
    assert write_hand(read_hands(HANDS[1])[0].record) == HANDS[1]
    assert write_hand(read_hands(HANDS[2])[0].record) == HANDS[2]
    assert read_hands(HANDS[2])[0].result.points == 25
