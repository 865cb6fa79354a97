"""`gops games`: find stored games by player, event and date, and print them."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from gops_records.cli.app import app, fail_on
from gops_records.cli.export_cmd import (
    DateFromOption,
    DateToOption,
    EventOption,
    PlayerOption,
    selection_of,
)
from gops_records.cli.options import DbOption
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    from gops_records.core.games_query import StoredGame
    from gops_records.games.gin.games import GinGameRow

DEFAULT_LIMIT = 100


class GameKind(StrEnum):
    GOPS = "gops"
    GIN = "gin"


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
    kind: Annotated[GameKind, typer.Option(
        "--game", help="Which game's records: gops, or gin (Gin Rummy games, from full "
                       "hands or score sheets).")] = GameKind.GOPS,
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
        gops games --game gin --player Alice
    """
    from gops_records.core.games_query import find_games
    from gops_records.core.store.db import reading
    from gops_records.games.gin.games import gin_counts

    selection = selection_of(player, event, date_from, date_to)
    if kind is GameKind.GIN:
        gin_games(db, selection, limit, as_json)
        return
    try:
        with reading(db) as con:
            found, total = find_games(con, selection, limit or None)
            gin = gin_counts(con)[1]
    except GopsError as exc:
        fail_on(exc)
    gin_note = f"; {gin} Gin Rummy game{'s' * (gin != 1)} stored: gops games --game gin " \
        "lists them" if gin else ""
    if as_json:
        _print_json(found, total)
        return
    if found:
        typer.echo(table(found))
    noun = "game" if total == 1 else "games"
    shown = f"{total} {noun}" if len(found) == total else \
        f"the newest {len(found)} of {total} games (--limit 0 shows every one)"
    typer.echo(f"{shown}" + (f"; gops replay {found[0].ref} replays one" if found else
                             " match these filters") + gin_note)


def _print_json(found: list, total: int) -> None:
    """One JSON object per game found, and a note when the limit left some out."""
    for game in found:
        typer.echo(json.dumps(game.as_json(), ensure_ascii=False))
    if len(found) < total:
        print(f"gops: note: {len(found)} of {total} games printed (the newest); --limit 0 "
              "prints every one", file=sys.stderr)


def table(found: list[StoredGame]) -> str:
    """The games as aligned columns."""
    rows = [("date", "event", "round", "players", "result", "winner", "game", "id")]
    for g in found:
        rows.append((g.shown_date, g.event or "", g.round or "", " v ".join(g.players),
                     g.result or "*", g.winner or ("draw" if g.finished else ""), g.ref,
                     str(g.game_id)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                     .rstrip() for row in rows)


def gin_games(db, selection, limit: int, as_json: bool) -> None:
    """`gops games --game gin`: the stored Gin Rummy games."""
    from gops_records.core.store.db import reading
    from gops_records.games.gin.games import find_gin_games

    try:
        with reading(db) as con:
            found, total = find_gin_games(con, selection, limit or None)
    except GopsError as exc:
        fail_on(exc)
    if as_json:
        _print_json(found, total)
        return
    if found:
        typer.echo(gin_table(found))
    noun = "Gin Rummy game" if total == 1 else "Gin Rummy games"
    typer.echo(f"{total} {noun}" if len(found) == total else
               f"the newest {len(found)} of {total} Gin Rummy games (--limit 0 shows every one)")


def gin_table(found: list[GinGameRow]) -> str:
    """The Gin Rummy games as aligned columns."""
    rows = [("date", "event", "match", "game", "players", "hands won", "totals", "winner",
             "score", "from", "ref")]
    for g in found:
        players = " v ".join(p or "?" for p in g.players)
        winner = (g.winner or "?") + (" (blitz)" if g.blitz else "") if g.finished else \
            "unfinished"
        rows.append((g.shown_date, g.event or "", g.match, str(g.game_no), players,
                     f"{g.hands_won[0]}-{g.hands_won[1]}", f"{g.totals[0]}-{g.totals[1]}", winner,
                     str(g.game_score) if g.game_score is not None else "", g.recorded,
                     g.ref))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                     .rstrip() for row in rows)
