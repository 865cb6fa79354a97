"""What ``gops simulate`` asks of a game: the ``simulator`` part of a registered game.

The command (:mod:`gops_records.cli.simulate_cmd`) owns the options every game shares
(``--games``, ``--seed``, ``--bots``, ``--broken``, ``--out``, ``--start``, ``--jobs``,
``--game``); each game's :class:`Simulator` declares its own options (:class:`SimOption`),
its help text, checks what it was given and writes the records
(``games/<game>/simulator.py``, over the shared club frame :mod:`gops_records.core.clubs`).
A simulator part must stay light to import: ``gops --help`` builds the command from it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from gops_records.core.errors import GopsError


class SimulateError(GopsError, ValueError):
    """Options a game cannot simulate with; the message names the options to change."""


@dataclass(frozen=True, slots=True)
class SimOption:
    """One option that only one game's simulation has, as ``gops simulate --help`` shows it."""

    name: str                  # the parameter: "tie_rule"
    flags: tuple[str, ...]     # ("--tie-rule",)
    type: Any                  # int, an enum, int | None
    default: Any
    help: str
    after: str                 # the shared option it follows in the help: "seed", "game"
    min: int | None = None
    max: int | None = None
    metavar: str | None = None
    show_default: bool = True

    @property
    def flag(self) -> str:
        """The long flag, as error messages name the option."""
        return next(f for f in self.flags if f.startswith("--"))


@dataclass(frozen=True, slots=True)
class SimRequest:
    """The values of the shared options, and which options the command line gave."""

    games: int
    seed: int
    bots: str | None
    broken: int
    start: str
    jobs: int
    given: frozenset[str]  # parameter names given on the command line

    def bot_names(self, word: str) -> list[str] | None:
        """The names of ``--bots`` (None when not given); ``word`` is what the game calls
        a bot ("personality", "style") in the error for an empty list."""
        if self.bots is None:
            return None
        names = [b.strip() for b in self.bots.split(",") if b.strip()]
        if not names:
            raise SimulateError(f"--bots needs at least one {word}")
        return names

    def start_date(self) -> dt.date:
        """The date ``--start`` names."""
        try:
            return dt.date.fromisoformat(self.start)
        except ValueError:
            raise SimulateError(
                f"--start {self.start!r} is not a date like 2025-01-06") from None


class Report(Protocol):
    """What a run wrote, as the summary on stderr says it."""

    def describe(self, where: str) -> str:
        """The summary; ``where`` is the file written, or ``stdout``."""
        ...


class Run(Protocol):
    """A simulation whose options are checked, ready to write."""

    def write(self, out: TextIO) -> Report:
        """Write every record to ``out``; a :class:`GopsError` says what went wrong."""
        ...


class Simulator(Protocol):
    """A game's part in ``gops simulate`` (the ``simulator`` part of its registry entry).

    The first game with a simulator (registry order) is ``--game``'s default: its
    ``about`` opens the command's help and its ``bots_help`` describes ``--bots``; the
    other games' ``about`` follow the examples."""

    #: The game's own options, in help order.
    options: tuple[SimOption, ...]
    #: How ``--game``'s help names the choice: the game's name, perhaps with what it writes.
    choice: str
    #: Paragraphs of the command's help about this game.
    about: str
    #: Example command lines for the help.
    examples: tuple[str, ...]
    #: ``--bots``'s help when this game is the default.
    bots_help: str
    #: Why another game's options do not apply here (after "--x is for Other"), or None
    #: for ": add --game other".
    foreign: str | None

    def prepare(self, request: SimRequest, own: Mapping[str, Any]) -> Run:
        """Check the shared and own (``own``: name -> value) options; a
        :class:`GopsError` (e.g. :class:`SimulateError`) names what to change."""
        ...
