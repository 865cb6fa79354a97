"""Gops in ``gops simulate``: its options, its help, its checks and its summary (the
``simulator`` part, :class:`gops_records.core.simulator.Simulator`).

Light to import (``gops --help`` reads it): the simulator itself
(:mod:`gops_records.games.gops.simulate`, the record writer) loads only when a run starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from gops_records.core.errors import GopsError
from gops_records.core.simulator import SimOption, SimRequest, SimulateError
from gops_records.games.gops.bots import BOTS
from gops_records.games.gops.rules import PrizeOrder, RuleProfile, TieRule

if TYPE_CHECKING:
    import datetime as dt

    from gops_records.games.gops.simulate import SimulationSummary

#: The options only Gops has, shown after --seed.
OPTIONS: tuple[SimOption, ...] = (
    SimOption("players", ("--players",), int, 2, "Players per game (2-4).", "seed",
              min=2, max=4),
    SimOption("tie_rule", ("--tie-rule",), TieRule, TieRule.CARRY,
              "What a tie does to the pool.", "seed"),
    SimOption("cards", ("--cards",), int, 13, "Cards per suit (rounds per game).", "seed",
              min=1, max=13),
    SimOption("prize_order", ("--prize-order",), PrizeOrder, PrizeOrder.SHUFFLED,
              "Order of the prize pile.", "seed"),
    SimOption("bid_cards", ("--bid-cards",), int, 1, "Cards in every bid (1-3); a game has "
              "floor(cards / k) rounds ([BidCards \"k\"]).", "seed", min=1, max=3),
    SimOption("open_prizes", ("--open-prizes",), int | None, None,
              "Play with a row of K face-up prizes ([OpenPrizes \"K\"]); does not combine "
              "with --bid-cards.", "seed", min=2, max=13, metavar="K", show_default=False),
)


@dataclass(frozen=True, slots=True)
class GopsReport:
    """What a Gops run wrote, for the summary on stderr."""

    summary: SimulationSummary
    profile: RuleProfile
    seed: int

    def describe(self, where: str) -> str:
        """The summary ``gops simulate`` prints on stderr."""
        summary, profile = self.summary, self.profile
        what = f"{summary.games:,} games"
        if summary.broken:
            kinds = ", ".join(f"{k} {n}" for k, n in summary.defects.items())
            what += f" + {summary.broken:,} broken ({kinds})"
        rules = (f"{profile.players} players, {profile.cards} cards, tie rule "
                 f"{profile.tie_rule.value}, prizes {profile.prize_order.value}")
        if profile.bid_cards > 1:
            rules += f", bids of {profile.bid_cards} cards ({profile.rounds} rounds)"
        if profile.open_prizes is not None:
            rules += f", a row of {profile.open_prizes} open prizes"
        evenings = f"{summary.evenings:,} club evening" + ("" if summary.evenings == 1
                                                             else "s")
        lines = [f"gops simulate: {what} in {evenings}; {rules}; seed {self.seed}",
                 f"  {summary.seconds:.2f} s ({summary.games_per_second:,.0f} games/s), "
                 f"written to {where}"]
        by_kind: dict[str, list[str]] = {}
        for name, personality in summary.players.items():
            by_kind.setdefault(personality, []).append(name)
        for personality in BOTS:
            if personality in by_kind:
                lines.append(f"  {personality}: {', '.join(by_kind[personality])}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class GopsRun:
    """A checked Gops simulation, ready to write as .gops."""

    games: int
    seed: int
    profile: RuleProfile
    bots: list[str] | None
    broken: int
    start: dt.date
    jobs: int

    def write(self, out: TextIO) -> GopsReport:
        from gops_records.games.gops.simulate import write_simulation

        summary = write_simulation(out, self.games, self.seed, self.profile, self.bots,
                                   self.broken, self.start, self.jobs)
        return GopsReport(summary, self.profile, self.seed)


class GopsSimulator:
    """Gops club evenings of three-game matches between bots of six personalities."""

    options = OPTIONS
    choice = "gops"
    about = (
        "Simulate club evenings between bots with distinct personalities and write .gops "
        "records.\n\n"
        "Each named player always plays one personality (see docs/bots.md): random, prize, "
        "prize-plus-one, saver, chaser, noisy. Games come in club evenings (Event, Site, "
        "Date) of three-game matches (Match, Round). --broken mixes in records with a known "
        "defect (a spent card, a repeated prize, a wrong result, ...) for the quarantine. "
        "A summary goes to stderr.")
    examples = (
        "gops simulate --games 500 --seed 7 --players 3 --out club.gops",
        "gops simulate -n 2000 --seed 1 --bots prize,random --tie-rule discard",
        "gops simulate -n 200 --bid-cards 2    or    gops simulate -n 200 --open-prizes 3",
    )
    bots_help = ("Comma-separated personalities to draw players from "
                 f"({', '.join(BOTS)}); default: all.")
    foreign = None

    def prepare(self, request: SimRequest, own: Mapping[str, Any]) -> GopsRun:
        from gops_records.games.gops.simulate import roster

        names = request.bot_names("personality")
        if names is not None:
            roster(names)
        first = request.start_date()
        cards, bid_cards, open_prizes = own["cards"], own["bid_cards"], own["open_prizes"]
        if request.broken and cards < 3:
            raise SimulateError("broken records need games of at least 3 cards")
        try:
            profile = RuleProfile(cards, own["players"], own["tie_rule"], own["prize_order"],
                                  bid_cards, open_prizes)
        except GopsError as exc:
            raise SimulateError(
                f"{exc} (--cards {cards}, --bid-cards {bid_cards}"
                + (f", --open-prizes {open_prizes})" if open_prizes is not None else ")")
            ) from None
        if request.broken and profile.rounds < 3:
            raise SimulateError("broken records need games of at least 3 rounds")
        return GopsRun(request.games, request.seed, profile, names, request.broken, first,
                       request.jobs)


#: The part the registry names (games/gops/plugin.py).
SIMULATOR = GopsSimulator()
