"""`gops ratings`: every player's rating, with its uncertainty, or one player's form.

A thin shell over :mod:`gops_records.core.ratings`; the games come through the registry
(each game's part ``ratings``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.options import DEFAULT_GAME, DbOption, GameKind, games_help
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    import polars as pl

#: The keys of ``--json`` (one object per player per line) and the columns of ``--csv``.
TABLE_KEYS = ("player", "rating", "mu", "sigma", "low", "high", "games", "provisional",
              "last_played", "last_event", "change")
FORM_KEYS = ("player", "date", "event", "games", "wins", "mean_place", "rating_before",
             "rating", "change", "mu", "sigma", "low", "high", "games_total")


@app.command("ratings")
def ratings(
    db: DbOption = None,
    kind: Annotated[GameKind, typer.Option(
        "--game", help=f"Whose ratings: {games_help()}.")] = DEFAULT_GAME,
    player: Annotated[str | None, typer.Option(
        "--player", metavar="NAME",
        help="Show this player's form instead: results and rating by evening (case "
             "and accents aside).")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per player (or evening) per line.")] = False,
    as_csv: Annotated[bool, typer.Option(
        "--csv", help="CSV with a header row.")] = False,
) -> None:
    """Print every player's rating, best first, recomputed from every stored game.

    Each finished game is rated in date order (then event, then game id: an old evening
    imported late gives the same ratings as if it had come first) with openskill's
    Plackett-Luce model; Gops games by their final ranking (equal points share a place),
    Gin Rummy by games won. The rating is the conservative mu - 3 sigma, with its
    interval mu ± 3 sigma; fewer than 10 rated games is provisional (marked ?). Columns:
    player, rating, interval, mu, sigma, games, last played, change (over the player's
    last evening). --player NAME prints that player's form instead, evening by evening.
    --json keys: player, rating, mu, sigma, low, high, games, provisional, last_played,
    last_event, change. The history is kept beside the database
    (DB.ratings-GAME-*.parquet, safe to delete) so that the next run rates only the
    games that changed. docs/ratings.md explains the model. Exit status 0, 2 for usage
    errors (an unknown player, a missing database).

    Example:

    \b
        gops ratings
        gops ratings --game gin --csv
        gops ratings --player "Hana Sato"
    """
    from gops_records.core import ratings as lib
    from gops_records.core.store.db import reading, resolve_db

    if as_json and as_csv:
        fail("choose one of --json and --csv")
    try:
        with reading(db) as con:  # rated on from the history kept beside the database
            rated = lib.kept_ratings(con, kind.value, resolve_db(db))
    except GopsError as exc:
        fail_on(exc)
    frame = rated.table
    if player is not None:
        from gops_records.core import names

        try:  # case, accents and spacing aside; the stored spelling is shown
            found = names.resolve(player, frame["player"].to_list(), what="rated player",
                                  listed_by="gops ratings")
        except GopsError as exc:
            fail_on(exc)
        frame = lib.form(rated.history, found[0])
    keys = TABLE_KEYS if player is None else FORM_KEYS
    frame = frame.select(keys)
    if as_csv:
        typer.echo(frame.write_csv(float_precision=2), nl=False)
    elif as_json:
        for row in frame.iter_rows(named=True):
            typer.echo(json.dumps(_json_row(row), ensure_ascii=False))
    elif player is None:
        _print_table(frame)
    else:
        _print_form(frame)


def _json_row(row: dict) -> dict:
    return {k: (round(v, 3) if isinstance(v, float) else
                v.isoformat() if hasattr(v, "isoformat") else v) for k, v in row.items()}


def _num(value: float, sign: bool = False) -> str:
    return f"{value:+.1f}" if sign else f"{value:.1f}"


def _print_table(frame: pl.DataFrame) -> None:
    from gops_records.core.games_query import aligned

    if frame.is_empty():
        typer.echo("No finished game is stored: nobody is rated yet.")
        return
    rows = [("player", "rating", "interval", "mu", "sigma", "games", "last played",
             "change")]
    for r in frame.iter_rows(named=True):
        rows.append((r["player"], _num(r["rating"]) + ("?" if r["provisional"] else ""),
                     f"{_num(r['low'])} to {_num(r['high'])}", _num(r["mu"]),
                     _num(r["sigma"]), str(r["games"]),
                     str(r["last_played"] or "undated"), _num(r["change"], sign=True)))
    typer.echo(aligned(rows))
    typer.echo(f"{frame.height} players; rating = mu - 3 sigma, ? = provisional (fewer "
               "than 10 rated games); change: over the player's last evening")


def _print_form(frame: pl.DataFrame) -> None:
    from gops_records.core.games_query import aligned

    rows = [("date", "event", "games", "wins", "mean place", "rating", "change",
             "interval")]
    for r in frame.iter_rows(named=True):
        rows.append((str(r["date"] or "undated"), r["event"] or "", str(r["games"]),
                     f"{r['wins']:g}", f"{r['mean_place']:.2f}", _num(r["rating"]),
                     _num(r["change"], sign=True), f"{_num(r['low'])} to {_num(r['high'])}"))
    typer.echo(aligned(rows))
    last = frame.row(-1, named=True)
    typer.echo(f"{last['player']}: {frame.height} evenings, {int(frame['games'].sum())} "
               f"games; rating now {_num(last['rating'])}")
