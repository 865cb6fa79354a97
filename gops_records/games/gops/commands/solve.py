"""`gops solve`: the exact value of a Gops position and both players' equilibrium mixes."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from gops_records.cli.app import fail
from gops_records.core.errors import GopsError
from gops_records.games.gops.rules import TieRule
from gops_records.games.gops.theory.position import Objective

#: The largest hand `gops solve` analyses: the solver's time grows 5 to 30 times a card;
#: 8 cards take 1 to 16 s, 9 cards 9 s to 5.5 minutes of CPU (docs/theory.md,
#: benchmarks/bench_solve.py).
MAX_HAND = 8


class Order(StrEnum):
    """The prize orders a user can name (a given order is for the library)."""

    RANDOM = "random"
    ASCENDING = "ascending"
    DESCENDING = "descending"


def _cards(flag: str, text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        fail(f"{flag} {text!r}: give card ranks as numbers separated by commas, e.g. 1,3,5")


def solve(
    cards: Annotated[int, typer.Option("--cards", min=1, max=13, show_default=False,
                                       help="Cards per suit N: bids and prizes are 1..N.")],
    tie_rule: Annotated[TieRule, typer.Option("--tie-rule", show_default=False,
                                              help="What a tie does to the pool.")],
    objective: Annotated[Objective, typer.Option(
        "--objective", show_default=False, help="points: expected point difference A - B "
        "over the rounds left; win: P(A ahead at the end) - P(B ahead).")],
    order: Annotated[Order, typer.Option("--order", help="The prize order: random (a "
                                         "shuffled pile), ascending or descending.")
                     ] = Order.RANDOM,
    hand_a: Annotated[str | None, typer.Option("--hand-a", metavar="CARDS", show_default=False,
                                               help="A's cards left, e.g. 1,3,5.")] = None,
    hand_b: Annotated[str | None, typer.Option("--hand-b", metavar="CARDS", show_default=False,
                                               help="B's cards left, e.g. 2,3,4.")] = None,
    prizes: Annotated[str | None, typer.Option("--prizes", metavar="CARDS", show_default=False,
                                               help="The prize cards not yet revealed.")
                      ] = None,
    pool: Annotated[int, typer.Option("--pool", help="Points carried from tied rounds "
                                      "(carry rule).")] = 0,
    lead: Annotated[int, typer.Option("--lead", help="A's points minus B's so far (counts "
                                      "for the win objective only).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Solve a position exactly: its value from A's side and the equilibrium mixes.

    For each prize that can be revealed next, prints the value of that prize's game and
    both players' equilibrium mixes over their cards. Without --hand-a, --hand-b and
    --prizes: the start of an N-card game. Hands of at most 8 cards. See docs/theory.md.

    Example:

        gops solve --cards 5 --tie-rule carry --objective points

        gops solve --cards 5 --tie-rule carry --objective win --hand-a 1,3,5 --hand-b 2,3,4
        --prizes 2,4,5 --pool 3 --lead -1 --json
    """
    from gops_records.games.gops.theory import position as positions
    from gops_records.games.gops.theory.solver import Solver

    state_flags = {"--hand-a": _cards("--hand-a", hand_a), "--hand-b": _cards("--hand-b", hand_b),
                   "--prizes": _cards("--prizes", prizes)}
    given = [flag for flag, value in state_flags.items() if value is not None]
    if given and len(given) < 3:
        missing = ", ".join(flag for flag in state_flags if flag not in given)
        fail(f"a position needs --hand-a, --hand-b and --prizes together: {missing} missing")
    if not given and (pool or lead):
        fail("--pool and --lead describe a position: give --hand-a, --hand-b and --prizes too")
    try:
        setting = positions.Setting(cards, tie_rule, objective,
                                    positions.PrizeOrder(order.value))
        if given:
            pos = positions.position(setting, state_flags["--hand-a"], state_flags["--hand-b"],
                                     state_flags["--prizes"], pool, lead)
        else:
            pos = positions.start(setting)
    except GopsError as exc:
        fail(str(exc))
    if pos.rounds_left > MAX_HAND:
        fail(f"a position of {pos.rounds_left} cards a hand: gops solve analyses hands of "
             f"at most {MAX_HAND} cards (9 take from 9 s to about 5.5 minutes of CPU, more far "
             "longer; see docs/theory.md)")
    solver = Solver(setting)
    analysis = solver.analyse(pos)
    if as_json:
        print(json.dumps(_as_json(setting, pos, analysis, solver.states)))
    else:
        print(_text(setting, pos, analysis))


def _clean(value: float) -> float:
    """The value with LP noise below 1e-12 (and a negative zero) shown as 0."""
    return 0.0 if abs(value) < 1e-12 else value


def _as_json(setting, pos, analysis, states: int) -> dict:
    return {
        "value": _clean(analysis.value),
        "cards": setting.cards, "tie_rule": setting.tie_rule.value,
        "objective": setting.objective.value, "order": setting.order.value,
        "hand_a": sorted(pos.hand_a), "hand_b": sorted(pos.hand_b),
        "prizes": sorted(pos.prizes), "pool": pos.pool, "lead": pos.lead,
        "states": states,
        "games": [{"prize": g.prize, "value": _clean(g.value),
                   "mix_a": _mix(g.cards_a, g.mix_a), "mix_b": _mix(g.cards_b, g.mix_b)}
                  for g in analysis.games],
    }


def _mix(cards: tuple[int, ...], mix: tuple[float, ...]) -> list[dict]:
    return [{"card": c, "probability": p} for c, p in zip(cards, mix, strict=True)]


def _text(setting, pos, analysis) -> str:
    unit = "points" if setting.objective is Objective.POINTS else "win minus loss"
    lines = [pos.describe(),
             f"{setting.cards} cards, tie rule {setting.tie_rule.value}, objective "
             f"{setting.objective.value}, prize order {setting.order.value}",
             f"value for A: {_clean(analysis.value):+.6f} ({unit})"]
    if pos.lead and setting.objective is Objective.POINTS:
        lines.append("(the lead does not count under the points objective: the value is "
                     "what the rounds left add)")
    for game in analysis.games:
        lines.append(f"prize {game.prize} revealed: value {_clean(game.value):+.6f}")
        for who, hand, mix in (("A", game.cards_a, game.mix_a), ("B", game.cards_b, game.mix_b)):
            bids = "  ".join(f"{c}: {p:.1%}" for c, p in zip(hand, mix, strict=True) if p > 0)
            lines.append(f"  {who} bids  {bids}")
    return "\n".join(lines)
