"""`gops simulate`: club evenings played by bots, written as .gops (or .gin) records."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO, TypeVar

import typer

from gops_records.cli.app import app, fail
from gops_records.cli.games_cmd import GameKind
from gops_records.core.errors import GopsError
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gops.bots import BOTS
from gops_records.games.gops.rules import PrizeOrder, RuleProfile, TieRule
from gops_records.games.gops.simulate_defaults import DEFAULT_START

if TYPE_CHECKING:
    from gops_records.games.gin.rules import GinProfile
    from gops_records.games.gin.simulate import GinSimulationSummary
    from gops_records.games.gops.simulate import SimulationSummary

S = TypeVar("S")

#: The options that only Gops games have (an error with --game gin when given).
GOPS_ONLY = {"players": "--players", "tie_rule": "--tie-rule", "cards": "--cards",
             "prize_order": "--prize-order", "bid_cards": "--bid-cards",
             "open_prizes": "--open-prizes"}
#: The options that only Gin Rummy has (an error without --game gin when given).
GIN_ONLY = {"runs": "--runs", "hands": "--hands"}


@app.command("simulate")
def simulate(
    ctx: typer.Context,
    games: Annotated[int, typer.Option("--games", "-n", min=0,
                                       help="How many valid games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: the same seed and "
                                      "options always give the same file.")] = 0,
    players: Annotated[int, typer.Option("--players", min=2, max=4,
                                         help="Players per game (2-4).")] = 2,
    tie_rule: Annotated[TieRule, typer.Option("--tie-rule", help="What a tie does to "
                                              "the pool.")] = TieRule.CARRY,
    cards: Annotated[int, typer.Option("--cards", min=1, max=13,
                                       help="Cards per suit (rounds per game).")] = 13,
    prize_order: Annotated[PrizeOrder, typer.Option("--prize-order", help="Order of the "
                                                    "prize pile.")] = PrizeOrder.SHUFFLED,
    bid_cards: Annotated[int, typer.Option("--bid-cards", min=1, max=3, help="Cards in every "
                                           "bid (1-3); a game has floor(cards / k) rounds "
                                           "([BidCards \"k\"]).")] = 1,
    open_prizes: Annotated[int | None, typer.Option(
        "--open-prizes", metavar="K", min=2, max=13, show_default=False,
        help="Play with a row of K face-up prizes ([OpenPrizes \"K\"]); does not combine "
        "with --bid-cards.")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", metavar="NAMES", help="Comma-separated personalities to draw players from "
        f"({', '.join(BOTS)}); default: all.", show_default=False)] = None,
    broken: Annotated[int, typer.Option("--broken", min=0, help="Also mix in this many "
                                        "records with a deliberate defect.")] = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="FILE", show_default=False,
        help="Write here instead of stdout (- is stdout too).")] = None,
    start: Annotated[str, typer.Option("--start", metavar="YYYY-MM-DD",
                                       help="Date of the first evening.")
                     ] = DEFAULT_START.isoformat(),
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes "
                                      "(the output does not depend on it).")] = 1,
    game: Annotated[GameKind, typer.Option(
        "--game", help="Which game: gops, or gin (Gin Rummy, Oklahoma: hands, games to 100 "
        "and matches written as .gin).")] = GameKind.GOPS,
    runs: Annotated[RunOrder, typer.Option(
        "--runs", help="Gin Rummy: how runs go ([Runs] tag; ace-low is OpenSpiel's "
        "rule).")] = RunOrder.CIRCULAR,
    hands: Annotated[int | None, typer.Option(
        "--hands", metavar="N", min=0, show_default=False,
        help="Gin Rummy: play this many hands instead of --games games (the last game "
        "may stay unfinished).")] = None,
) -> None:
    """Simulate club evenings between bots with distinct personalities and write .gops records.

    Each named player always plays one personality (see docs/bots.md): random,
    prize, prize-plus-one, saver, chaser, noisy. Games come in club evenings (Event,
    Site, Date) of three-game matches (Match, Round). --broken mixes in records with a
    known defect (a spent card, a repeated prize, a wrong result, ...) for the
    quarantine. A summary goes to stderr.

    Example:

        gops simulate --games 500 --seed 7 --players 3 --out club.gops

        gops simulate -n 2000 --seed 1 --bots prize,random --tie-rule discard

        gops simulate -n 200 --bid-cards 2    or    gops simulate -n 200 --open-prizes 3

        gops simulate --game gin -n 30 --broken 5 --out evening.gin

    With --game gin the bots play Gin Rummy (docs/gin.md): --games N games to 100 (or
    --hands N hands) in matches (first to two games) at club evenings, in the styles
    knocker, gin-hunter, pile-taker and random; --broken N adds hands with a known defect.
    """
    from gops_records.games.gops.simulate import roster, write_simulation

    given = {name for name in (*GOPS_ONLY, *GIN_ONLY)
             if ctx.get_parameter_source(name).name == "COMMANDLINE"}
    if game is GameKind.GIN:
        wrong = [GOPS_ONLY[n] for n in GOPS_ONLY if n in given]
        if wrong:
            fail(f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} for Gops; Gin "
                 "Rummy has two players and a 52-card pack (see gops simulate --help)")
        if hands is not None and ctx.get_parameter_source("games").name == "COMMANDLINE":
            fail("give --games (games to 100) or --hands (hands), not both")
        _simulate_gin(games, hands, seed, runs, bots, broken, out, start, jobs)
        return
    wrong = [GIN_ONLY[n] for n in GIN_ONLY if n in given]
    if wrong:
        fail(f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} for Gin Rummy: add "
             "--game gin")
    names = None
    if bots is not None:
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if not names:
            fail("--bots needs at least one personality")
        try:
            roster(names)
        except ValueError as exc:
            fail(str(exc))
    try:
        first = dt.date.fromisoformat(start)
    except ValueError:
        fail(f"--start {start!r} is not a date like 2025-01-06")
    if broken and cards < 3:
        fail("broken records need games of at least 3 cards")
    try:
        profile = RuleProfile(cards, players, tie_rule, prize_order, bid_cards, open_prizes)
    except GopsError as exc:
        fail(f"{exc} (--cards {cards}, --bid-cards {bid_cards}"
             + (f", --open-prizes {open_prizes})" if open_prizes is not None else ")"))
    if broken and profile.rounds < 3:
        fail("broken records need games of at least 3 rounds")
    if out is not None and str(out) == "-":
        out = None
    summary = _write_records(out, lambda fh: write_simulation(
        fh, games, seed, profile, names, broken, first, jobs))
    print(describe(summary, profile, seed, out), file=sys.stderr)


def _write_records(out: Path | None, write: Callable[[TextIO], S]) -> S:
    """``write`` the records into the file ``out``, or to stdout when it is None; exit 2 on
    an error. A reader of stdout that goes away (`gops simulate | head`) is no error: gops
    then stops quietly (cli.app)."""
    try:
        if out is None:
            summary = write(sys.stdout)
            sys.stdout.flush()  # all written before the summary goes to stderr
            return summary
        with open(out, "w", encoding="utf-8", newline="\n") as fh:
            return write(fh)
    except BrokenPipeError:
        raise
    except OSError as exc:
        fail(f"{out or 'stdout'}: cannot write: {exc.strerror or exc}")
    except GopsError as exc:
        fail(str(exc))


def describe(summary: SimulationSummary, profile: RuleProfile, seed: int,
             out: Path | None) -> str:
    """The summary `gops simulate` prints on stderr."""
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
    evenings = f"{summary.evenings:,} club evening" + ("" if summary.evenings == 1 else "s")
    lines = [f"gops simulate: {what} in {evenings}; {rules}; "
             f"seed {seed}",
             f"  {summary.seconds:.2f} s ({summary.games_per_second:,.0f} games/s), "
             f"written to {out if out is not None else 'stdout'}"]
    by_kind: dict[str, list[str]] = {}
    for name, personality in summary.players.items():
        by_kind.setdefault(personality, []).append(name)
    for personality in BOTS:
        if personality in by_kind:
            lines.append(f"  {personality}: {', '.join(by_kind[personality])}")
    return "\n".join(lines)


def _start_date(start: str) -> dt.date:
    try:
        return dt.date.fromisoformat(start)
    except ValueError:
        fail(f"--start {start!r} is not a date like 2025-01-06")


def _simulate_gin(games: int, hands: int | None, seed: int, runs: RunOrder,
                  bots: str | None, broken: int, out: Path | None, start: str,
                  jobs: int) -> None:
    """`gops simulate --game gin`: Gin Rummy evenings written as .gin."""
    from gops_records.games.gin import simulate as gin_simulate
    from gops_records.games.gin.rules import GinProfile

    names = None
    if bots is not None:
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if not names:
            fail("--bots needs at least one style")
        try:
            pool = gin_simulate.gin_roster(names)
        except ValueError as exc:
            fail(str(exc))
        if len(pool) < 2:
            fail("a Gin Rummy match needs two players: name a style with more players")
    first = _start_date(start)
    budget = gin_simulate.Budget(hands=hands) if hands is not None else \
        gin_simulate.Budget(games=games)
    profile = GinProfile(runs=runs)
    if out is not None and str(out) == "-":
        out = None
    summary = _write_records(out, lambda fh: gin_simulate.write_simulation(
        fh, budget, seed, profile, names, broken, first, jobs))
    print(describe_gin(summary, profile, seed, out), file=sys.stderr)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def describe_gin(summary: GinSimulationSummary, profile: GinProfile, seed: int,
                 out: Path | None) -> str:
    """The summary `gops simulate --game gin` prints on stderr."""
    from gops_records.games.gin.bots import GIN_BOTS

    what = (f"{_count(summary.hands, 'hand')}, {_count(summary.games, 'finished game')} "
            f"in {_count(summary.matches, 'match', 'matches')}")
    if summary.broken:
        kinds = ", ".join(f"{k} {n}" for k, n in summary.defects.items())
        what += f" + {summary.broken:,} broken hands ({kinds})"
    ends = ", ".join(f"{k.replace('_', ' ')} {n:,}" for k, n in summary.outcomes.items())
    evenings = _count(summary.evenings, "club evening")
    lines = [f"gops simulate: Gin Rummy, {what} in {evenings}; runs {profile.runs.value}; "
             f"seed {seed}",
             f"  hands end: {ends or 'none played'}",
             f"  {summary.seconds:.2f} s ({summary.hands_per_second:,.0f} hands/s), "
             f"written to {out if out is not None else 'stdout'}"]
    by_style: dict[str, list[str]] = {}
    for name, style in summary.players.items():
        by_style.setdefault(style, []).append(name)
    for style in GIN_BOTS:
        if style in by_style:
            lines.append(f"  {style}: {', '.join(by_style[style])}")
    return "\n".join(lines)
