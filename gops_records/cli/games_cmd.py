"""`gops games`: find stored games by player, event and date, and print them.

Each game lists its own stored games (its part ``games``, a
:class:`gops_records.core.games_query.GameListing`); ``--game`` takes the registry's
names, the first game by default.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.export_cmd import (
    DateFromOption,
    DateToOption,
    EventOption,
    PlayerOption,
    selection_of,
)
from gops_records.cli.options import DEFAULT_GAME, DbOption, GameKind, games_help
from gops_records.core import registry
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    from gops_records.core.games_query import GameListing

DEFAULT_LIMIT = 100


@app.command("games")
def games(
    db: DbOption = None,
    player: PlayerOption = None,
    event: EventOption = None,
    date_from: DateFromOption = None,
    date_to: DateToOption = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-n", metavar="N", min=0,
        help="Show at most N games, the newest; 0 shows every one.")] = DEFAULT_LIMIT,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per game per line.")] = False,
    as_csv: Annotated[bool, typer.Option(
        "--csv", help="CSV with a header row: the --json keys as columns (a list's items "
        "joined by ;).")] = False,
    kind: Annotated[GameKind, typer.Option(
        "--game", help=f"Which game's records: {games_help()}.")] = DEFAULT_GAME,
) -> None:
    """Find stored games and print them, newest first: date, event, round, players, result.

    Filters combine as in gops export (a game is listed when it matches every filter
    given; --player and --event may be repeated for any of several). Each game is shown
    with its reference (g and 8 hex digits) and its id: gops replay REF replays it.
    --json prints game_id, game_ref, date, event, players (seat order), scores (seat
    order), winner (a name, or null for a draw or an unfinished game) and more. With
    --game gin the Gin Rummy games are listed instead: date, event, match and game,
    players, hands won, hand totals, winner and game score (--json: game_id, game_ref,
    match, game, players, hands_won, totals, winner, game_score, blitz, ...); gops
    replay REF replays one as its score sheet. Dates print as YYYY-MM-DD. Exit
    status 0, 2 for usage errors (an unknown player: with the names close to it) or a
    missing database.

    Example:

    \b
        gops games --player "Bruno Keller" --from 2026-01-01
        gops games --event "Thursday club" --json
        gops games --player joost --csv > joost.csv
        gops games --game gin --player Alice
    """
    from gops_records.core.store.db import reading

    if as_json and as_csv:
        fail("--json and --csv print the games two ways: give one of them")
    selection = selection_of(player, event, date_from, date_to)
    listed, default = registry.game(kind.value), registry.games()[0]
    listing: GameListing = listed.part("games")
    try:
        with reading(db) as con:
            found, total = listing.find(con, selection, limit or None)
            others = [(game, game.part("games").stored(con)) for game in registry.games()
                      if listed is default and game is not default and "games" in game.parts]
    except GopsError as exc:
        fail_on(exc)
    if as_json:
        _print_json(found, total)
        return
    if as_csv:
        _print_csv(found, total)
        return
    if found:
        typer.echo(listing.table(found))
    # the default listing names the other games' stored ones
    notes = "".join(f"; {n} {game.title} game{'s' * (n != 1)} stored: gops games --game "
                    f"{game.name} lists them" for game, n in others if n)
    typer.echo(listing.summary(found, total) + notes)


def _print_csv(found: list, total: int) -> None:
    """The games as CSV: a header of the --json keys, one row per game (lists joined by
    ``;``, null as an empty cell), and the same note as --json when the limit left some out."""
    import csv

    writer = csv.writer(sys.stdout, lineterminator="\n")
    for i, game in enumerate(found):
        row = game.as_json()
        if i == 0:
            writer.writerow(row)
        writer.writerow([";".join("" if v is None else str(v) for v in value)
                         if isinstance(value, list) else "" if value is None else value
                         for value in row.values()])
    if len(found) < total:
        print(f"gops: note: {len(found)} of {total} games printed (the newest); --limit 0 "
              "prints every one", file=sys.stderr)


def _print_json(found: list, total: int) -> None:
    """One JSON object per game found, and a note when the limit left some out."""
    for game in found:
        typer.echo(json.dumps(game.as_json(), ensure_ascii=False))
    if len(found) < total:
        print(f"gops: note: {len(found)} of {total} games printed (the newest); --limit 0 "
              "prints every one", file=sys.stderr)
