"""The club frame both simulators share (gops_records/core/clubs.py)."""

from __future__ import annotations

import datetime as dt
import io
import random
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

import pytest

from gops_records.core.clubs import (
    Club,
    Roster,
    Seeding,
    UnknownBotError,
    plan_slots,
    shuffled_rounds,
    tag_date,
    write_evenings,
)
from gops_records.core.errors import GopsError


class Kind(StrEnum):
    CALM = "calm"
    WILD = "wild"


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    kind: Kind


MEMBERS = (Member("Zoe", Kind.WILD), Member("Abe", Kind.CALM), Member("Max", Kind.WILD))
ROSTER = Roster(MEMBERS, attrgetter("kind"), Kind, "test bot")
CLUBS = (Club("Tuesday", "Here", 1), Club("Friday", "There", 4))


def test_a_roster_chooses_by_style_in_its_own_order():
    assert ROSTER.of(None) == list(MEMBERS)
    assert ROSTER.of([" WILD "]) == [MEMBERS[0], MEMBERS[2]]
    assert ROSTER.member("Abe") is MEMBERS[1]
    assert sorted(MEMBERS, key=ROSTER.index, reverse=True) == list(reversed(MEMBERS))
    with pytest.raises(UnknownBotError, match=r"unknown test bot 'mad': choose from calm, wild"):
        ROSTER.of(["calm", "mad"])
    assert issubclass(UnknownBotError, GopsError) and issubclass(UnknownBotError, ValueError)


def test_a_club_meets_on_its_weekday_of_each_week():
    start = dt.date(2026, 1, 8)  # a Thursday: the weeks start on its Monday
    assert CLUBS[0].evening(0, start) == dt.date(2026, 1, 6)
    assert CLUBS[1].evening(2, start) == dt.date(2026, 1, 23)
    assert tag_date(dt.date(987, 3, 4)) == "0987.03.04"


@pytest.mark.parametrize(("total", "broken", "least"), [(0, 5, 20), (7, 0, 20), (500, 13, 20),
                                                        (100_000, 40, 6)])
def test_a_plan_shares_out_the_run_in_turns_and_never_goes_back(total, broken, least):
    slots = list(plan_slots(total, broken, least, CLUBS, random.Random(3)))
    assert sum(s.size for s in slots) == total and sum(s.broken for s in slots) == broken
    assert [s.club for s in slots] == [CLUBS[i % 2] for i in range(len(slots))]
    assert all(a.date < b.date for a, b in zip(slots, slots[1:], strict=False))
    low = max(least, total // 3000)
    assert all(low <= s.size <= 2 * low for s in slots[:-1])
    assert len(slots) == 1 or slots[-1].size >= low // 2


def test_seeding_gives_the_plan_and_each_evening_a_stream_of_its_own():
    named, bare = Seeding("x"), Seeding("x", plan_by_name=False)
    assert named.plan(4).random() == random.Random("x/4").random()
    assert bare.plan(4).random() == random.Random(4).random()
    jobs = list(named.jobs(4, lambda rng: ["a", "b", "c"]))
    assert jobs == [("a", "x/4/0"), ("b", "x/4/1"), ("c", "x/4/2")]


@dataclass(slots=True)
class Text:
    text: str


def play(job: tuple[int, str]) -> Text:
    """An evening of ``job[0]`` lines from its own stream (none for 0)."""
    rng = random.Random(job[1])
    return Text("\n".join(str(rng.random()) for _ in range(job[0])))


@pytest.mark.parametrize("workers", [1, 2])
def test_evenings_are_written_in_order_whatever_the_workers(workers):
    jobs = list(Seeding("w").jobs(1, lambda rng: [2, 0, 3, 1]))
    out, seen = io.StringIO(), []
    evenings = write_evenings(out, iter(jobs), play, seen.append, workers)
    expected = [play(j).text for j in jobs if j[0]]
    assert evenings == 3 and [c.text for c in seen] == expected
    assert out.getvalue() == "\n".join(expected)


def test_shuffled_rounds_give_every_item_once_a_round_in_fresh_orders():
    rng, again = random.Random(5), random.Random(5)
    rounds = shuffled_rounds(rng, Kind)
    drawn = [next(rounds) for _ in range(10)]
    assert all(sorted(drawn[i:i + 2]) == sorted(Kind) for i in range(0, 10, 2))
    expected = []
    for _ in range(5):  # each round shuffles the items' own order, not the last round's
        order = list(Kind)
        again.shuffle(order)
        expected += order
    assert drawn == expected
