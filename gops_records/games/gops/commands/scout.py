"""`gops scout`: how predictable a player is, their habits, and how to beat them."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from gops_records.cli.app import fail_on
from gops_records.cli.name_completion import complete_player
from gops_records.cli.options import DbOption
from gops_records.core.errors import GopsError
from gops_records.games.gops.scouting.defaults import DEFAULT_GAMES


def scout(
    player: Annotated[str, typer.Argument(
        help="The player to scout, as named in the records (case, accents and spacing "
        "ignored).", show_default=False, autocompletion=complete_player)],
    db: DbOption = None,
    vs: Annotated[str | None, typer.Option(
        "--vs", help="Your own name: study only the games the player played against you.",
        show_default=False, autocompletion=complete_player)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the folds and the simulated "
                                      "games: the same seed gives the same report.")] = 0,
    simulations: Annotated[int, typer.Option(
        "--simulations", min=10, help="Games simulated for each reply: the counter-strategy, "
        "the generic strategy (bid the prize) and a random reply.")] = DEFAULT_GAMES,
) -> None:
    """Scout an opponent: predictability, habits and a counter-strategy.

    Fits a transparent model of how PLAYER bids (by the offset from the prize, the
    position in the hand, and the rank matched to the prize's rank, per situation),
    scores it on held-out games against a uniform choice among the cards in hand, lists
    the habits that clearly beat uniform play, and measures a best reply to the model by
    simulating games against it, beside the generic strategy (bid the prize): the gain from
    exploiting PLAYER is the difference. Below 30 games the report says the sample is
    small. The report against anyone with the default seed and simulations, on a player
    with 1,000 classic games or more, is kept in the database until games of the player
    are added, and read back at once (docs/scouting.md, "Kept reports").

    Example:

        gops scout "Bruno Keller" --db club.duckdb

        gops scout "Bruno Keller" --vs "Anna de Vries" --json --seed 7
    """
    from gops_records.core.names import NameKind
    from gops_records.core.store.aliases import resolve_one
    from gops_records.core.store.db import reading
    from gops_records.games.gops.scouting.kept_store import asked, keep

    try:
        with reading(db) as con:  # the kept report if it still holds, else computed
            player = resolve_one(con, NameKind.PLAYER, player, "gops")  # as people type it
            vs = vs if vs is None else resolve_one(con, NameKind.PLAYER, vs, "gops")
            report, to_keep = asked(con, player, vs=vs, seed=seed, simulations=simulations,
                                    chart_data=False)
    except GopsError as exc:
        fail_on(exc)
    if to_keep is not None:  # kept for next time if the file can be written at once
        keep(db, to_keep)
    if as_json:
        print(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        print(report.text())
