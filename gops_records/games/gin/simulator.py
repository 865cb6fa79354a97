"""Gin Rummy in ``gops simulate``: its options, its help, its checks and its summary (the
``simulator`` part, :class:`gops_records.core.simulator.Simulator`).

Light to import (``gops --help`` reads it): the simulator itself
(:mod:`gops_records.games.gin.simulate`, the rules engine) loads only when a run starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from gops_records.core.simulator import SimOption, SimRequest, SimulateError
from gops_records.games.gin.bots import GinStyle
from gops_records.games.gin.melds import RunOrder

if TYPE_CHECKING:
    import datetime as dt

    from gops_records.games.gin.rules import GinProfile
    from gops_records.games.gin.simulate import Budget, GinSimulationSummary

#: The options only Gin Rummy has, shown after --game.
OPTIONS: tuple[SimOption, ...] = (
    SimOption("runs", ("--runs",), RunOrder, RunOrder.CIRCULAR,
              "Gin Rummy: how runs go ([Runs] tag; ace-low is OpenSpiel's rule).", "game"),
    SimOption("hands", ("--hands",), int | None, None,
              "Gin Rummy: play this many hands instead of --games games (the last game "
              "may stay unfinished).", "game", min=0, metavar="N", show_default=False),
)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


@dataclass(frozen=True, slots=True)
class GinReport:
    """What a Gin Rummy run wrote, for the summary on stderr."""

    summary: GinSimulationSummary
    profile: GinProfile
    seed: int

    def describe(self, where: str) -> str:
        """The summary ``gops simulate --game gin`` prints on stderr."""
        summary = self.summary
        what = (f"{_count(summary.hands, 'hand')}, {_count(summary.games, 'finished game')} "
                f"in {_count(summary.matches, 'match', 'matches')}")
        if summary.broken:
            kinds = ", ".join(f"{k} {n}" for k, n in summary.defects.items())
            what += f" + {summary.broken:,} broken hands ({kinds})"
        ends = ", ".join(f"{k.replace('_', ' ')} {n:,}" for k, n in summary.outcomes.items())
        evenings = _count(summary.evenings, "club evening")
        lines = [f"gops simulate: Gin Rummy, {what} in {evenings}; runs "
                 f"{self.profile.runs.value}; seed {self.seed}",
                 f"  hands end: {ends or 'none played'}",
                 f"  {summary.seconds:.2f} s ({summary.hands_per_second:,.0f} hands/s), "
                 f"written to {where}"]
        by_style: dict[str, list[str]] = {}
        for name, style in summary.players.items():
            by_style.setdefault(style, []).append(name)
        for style in GinStyle:
            if style in by_style:
                lines.append(f"  {style}: {', '.join(by_style[style])}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class GinRun:
    """A checked Gin Rummy simulation, ready to write as .gin."""

    budget: Budget
    seed: int
    profile: GinProfile
    bots: list[str] | None
    broken: int
    start: dt.date
    jobs: int

    def write(self, out: TextIO) -> GinReport:
        from gops_records.games.gin.simulate import write_simulation

        summary = write_simulation(out, self.budget, self.seed, self.profile, self.bots,
                                   self.broken, self.start, self.jobs)
        return GinReport(summary, self.profile, self.seed)


class GinSimulator:
    """Gin Rummy club evenings of matches between bots of four styles."""

    options = OPTIONS
    choice = ("gin (Gin Rummy, Oklahoma: hands, games to 100 and matches written as "
              ".gin)")
    about = (
        "With --game gin the bots play Gin Rummy (docs/gin.md): --games N games to 100 (or "
        "--hands N hands) in matches (first to two games) at club evenings, in the styles "
        "knocker, gin-hunter, pile-taker and random; --broken N adds hands with a known "
        "defect.")
    examples = ("gops simulate --game gin -n 30 --broken 5 --out evening.gin",)
    bots_help = ("Comma-separated styles to draw players from "
                 f"({', '.join(GinStyle)}); default: all.")
    foreign = ("; Gin Rummy has two players and a 52-card pack (see gops simulate "
               "--help)")

    def prepare(self, request: SimRequest, own: Mapping[str, Any]) -> GinRun:
        from gops_records.games.gin.rules import GinProfile
        from gops_records.games.gin.simulate import Budget, gin_roster

        hands: int | None = own["hands"]
        if hands is not None and "games" in request.given:
            raise SimulateError("give --games (games to 100) or --hands (hands), not both")
        names = request.bot_names("style")
        if names is not None and len(gin_roster(names)) < 2:
            raise SimulateError("a Gin Rummy match needs two players: name a style with "
                                "more players")
        first = request.start_date()
        budget = Budget(hands=hands) if hands is not None else Budget(games=request.games)
        return GinRun(budget, request.seed, GinProfile(runs=own["runs"]), names,
                      request.broken, first, request.jobs)


#: The part the registry names (games/gin/plugin.py).
SIMULATOR = GinSimulator()
