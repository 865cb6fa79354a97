"""The club frame every game's simulator plays in: members, clubs, evenings, seeds, workers.

A simulated run is club evenings (Event, Site, Date tags) at clubs that take turns week
after week; each evening has its own random stream derived from the run's seed, so the
evenings can be played in any order, in any number of worker processes, and the text is
always the same. This module holds that frame once; a game's simulator keeps only what is
its own: its bots, how one game or hand is played, what an evening plays and how it is
written (``games/<game>/simulate.py``).

Imports nothing but the standard library: ``gops simulate --help`` reads its defaults.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Protocol, TextIO, TypeVar

from gops_records.core.errors import GopsError

#: The day the first week of simulated club evenings starts from (a Monday).
DEFAULT_START = dt.date(2025, 1, 6)


class UnknownBotError(GopsError, ValueError):
    """A bot (personality, style) was named that the game's roster does not have."""


# -- members ---------------------------------------------------------------------------


class Member(Protocol):
    """A named club member; a game's player type adds the bot the name always plays."""

    @property
    def name(self) -> str: ...


T = TypeVar("T")
M = TypeVar("M", bound=Member)
S = TypeVar("S", bound=StrEnum)
E = TypeVar("E")  # a game's evening


class Roster(Generic[M, S]):
    """A game's club members in a fixed order, each bound to one bot style for good (the
    binding does not depend on the seed, so a name plays the same way in every file)."""

    def __init__(self, members: Iterable[M], style: Callable[[M], S], styles: type[S],
                 unknown: str) -> None:
        self.members: tuple[M, ...] = tuple(members)
        self._style = style
        self._styles = styles
        self._unknown = unknown  # how an error names a bot of this game, e.g. "bot"
        self._by_name = {m.name: m for m in self.members}
        self._index = {m.name: i for i, m in enumerate(self.members)}

    def member(self, name: str) -> M:
        """The member called ``name`` (KeyError if there is none)."""
        return self._by_name[name]

    def index(self, member: M) -> int:
        """Where ``member`` stands in the roster (attendees are listed in this order)."""
        return self._index[member.name]

    def of(self, bots: Iterable[str] | None = None) -> list[M]:
        """The members whose style is among ``bots`` (everyone for None); an unknown name
        is an :class:`UnknownBotError` naming the choices."""
        if bots is None:
            return list(self.members)
        wanted = set()
        for name in bots:
            try:
                wanted.add(self._styles(name.strip().lower()))
            except ValueError:
                raise UnknownBotError(
                    f"unknown {self._unknown} {name!r}: choose from "
                    f"{', '.join(self._styles)}") from None
        return [m for m in self.members if self._style(m) in wanted]


# -- clubs and the plan of evenings ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Club:
    """Where simulated evenings happen: the Event and Site tags and the weekday (0 = Monday)."""

    event: str
    site: str
    weekday: int

    def evening(self, week: int, start: dt.date = DEFAULT_START) -> dt.date:
        """The date of this club's evening in week ``week`` after ``start``'s Monday."""
        monday = start - dt.timedelta(days=start.weekday())
        return monday + dt.timedelta(weeks=week, days=self.weekday)


def tag_date(day: dt.date) -> str:
    """A date as every notation's Date tag writes it: YYYY.MM.DD."""
    return f"{day.year:04d}.{day.month:02d}.{day.day:02d}"


@dataclass(frozen=True, slots=True)
class Slot:
    """One evening of a plan: its club and date, and its share of the run."""

    club: Club
    date: dt.date
    size: int    # games, hands, ...: whatever the game counts
    broken: int  # records with a deliberate defect among them


def plan_slots(total: int, broken: int, least: int, clubs: Sequence[Club],
               rng: random.Random, start: dt.date = DEFAULT_START) -> Iterator[Slot]:
    """Split ``total`` (and ``broken`` records) into evenings, the clubs taking turns in
    their order (weekday order, so dates never go back).

    An evening holds ``low`` to ``2 * low`` of the total, ``low`` being ``least`` for small
    runs and growing with the run (``total // 3000``: about 3,000 evenings at most), so the
    dates stay within a few decades; no tiny evening is left at the end. The broken records
    are shared out in proportion, the rest on the last evening.
    """
    low = max(least, total // 3000)
    left, left_broken, index = total, broken, 0
    while left > 0 or left_broken > 0:
        size = min(left, rng.randint(low, 2 * low))
        if size == left or left - size < low // 2:
            size = left  # no tiny evening at the end
        share = (left_broken if size == left
                 else min(left_broken, round(broken * size / max(total, 1))))
        club = index % len(clubs)
        yield Slot(clubs[club], clubs[club].evening(index // len(clubs), start), size, share)
        left -= size
        left_broken -= share
        index += 1


def shuffled_rounds(rng: random.Random, items: Iterable[T]) -> Iterator[T]:
    """``items`` over and over, each round in a fresh order drawn from ``rng`` (how the
    broken records of a run cycle through every kind of defect)."""
    base = tuple(items)
    while True:
        order = list(base)  # each round shuffles the items' own order afresh
        rng.shuffle(order)
        yield from order


# -- seeds -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seeding:
    """How a run's seed becomes random streams: one for the plan of evenings and one for
    each evening (``"<stream>/<seed>/<index>"``), so evenings play in any order.

    ``plan_by_name`` false seeds the plan with the bare seed: a simulator whose files
    predate this frame keeps its plan stream that way, so the same seed gives the same
    file."""

    stream: str
    plan_by_name: bool = True

    def plan(self, seed: int) -> random.Random:
        """The stream that plans the evenings."""
        return random.Random(f"{self.stream}/{seed}" if self.plan_by_name else seed)

    def evening(self, seed: int, index: int) -> str:
        """The seed of evening ``index``'s own stream."""
        return f"{self.stream}/{seed}/{index}"

    def jobs(self, seed: int, plan: Callable[[random.Random], Iterable[E]]
             ) -> Iterator[tuple[E, str]]:
        """Each evening of ``plan`` (given the plan's stream) with its own stream's seed."""
        for index, evening in enumerate(plan(self.plan(seed))):
            yield evening, self.evening(seed, index)


# -- playing evenings in worker processes ----------------------------------------------


class Chunk(Protocol):
    """One evening as text (records apart by a blank line), as a worker returns it."""

    @property
    def text(self) -> str: ...


C = TypeVar("C", bound=Chunk)


def write_evenings(out: TextIO, jobs: Iterable[tuple[E, str]],
                   play: Callable[[tuple[E, str]], C], add: Callable[[C], None],
                   workers: int = 1) -> int:
    """Play each job with ``play`` (a module-level function, so a worker process can run
    it) and write the chunks to ``out`` in the jobs' order, a blank line between evenings;
    ``add`` tallies each written chunk. Returns how many evenings were written (an empty
    one is skipped).

    ``workers > 1`` plays evenings in that many processes (fork where the system has it);
    the text does not change. Memory stays flat: one evening at a time is held here.
    """
    pool = None
    if workers > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork" if "fork" in
                                           multiprocessing.get_all_start_methods()
                                           else "spawn").Pool(workers)
        chunks: Iterator[C] = pool.imap(play, jobs)
    else:
        chunks = map(play, jobs)
    evenings = 0
    try:
        for chunk in chunks:
            if not chunk.text:
                continue
            out.write(("\n" if evenings else "") + chunk.text)
            evenings += 1
            add(chunk)
    except BaseException:
        if pool is not None:  # do not wait for the evenings still queued
            pool.terminate()
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return evenings
