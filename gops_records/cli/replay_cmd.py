"""`gops replay`: show one game round by round."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, app, fail, fail_on
from gops_records.cli.options import DbOption
from gops_records.cli.validate_cmd import EncodingOption
from gops_records.errors import GopsError


@app.command("replay")
def replay(
    what: Annotated[str, typer.Argument(
        metavar="FILE|GAME", show_default=False,
        help="A record file (.gops), or a stored game: its id or its reference (g...), "
             "as gops games lists them.")],
    game: Annotated[int, typer.Option("--game", "-g", min=1, metavar="N",
                                      help="Which game in the file (1-based).")] = 1,
    db: DbOption = None,
    encoding: EncodingOption = "utf-8",
) -> None:
    """Replay one game round by round: prize, pool on offer, bids, who took it, scores.

    A bid of several cards shows its cards and strength (9♣+4♣ = 13); a game with open
    prizes shows the prizes revealed, the row on offer, the prize taken and by whom, and
    the prize a tie set aside.

    FILE|GAME is a record file when such a file exists; otherwise a stored game's id or
    reference (g and 4 to 16 hex digits, as gops games lists them), replayed from the
    database (--db). Exit status 0 for a valid game, 1 when the game has problems (they
    are listed and the illegal rounds skipped), 2 for usage errors.

    Example:

    \b
        gops replay club/2026-11-26.gops --game 3
        gops replay g3f2a9c0 --db club.duckdb
    """
    from gops_records.cli.gin_replay import replay_gin
    from gops_records.cli.replay_table import render_replay
    from gops_records.games_query import looks_like_game
    from gops_records.gin.checking import gin_kind
    from gops_records.notation import read_reports
    from gops_records.sources import read_text, source_name

    path = Path(what)
    if gin_kind(path):  # a Gin Rummy hand or sheet (.gin, .ginsheet): gops_records.cli.gin_replay
        replay_gin(path, game, encoding)
    if not path.exists() and looks_like_game(what):
        replay_stored(what, db)
    try:
        text = read_text(path, encoding)
    except GopsError as exc:
        fail_on(exc)
    reports = read_reports(text)
    count = len(reports)
    if 1 <= game <= count:
        report = reports[game - 1]
        typer.echo(render_replay(report, f"{source_name(path)} game {game}"))
        raise typer.Exit(EXIT_OK if report.valid else EXIT_INVALID)
    if not count:
        fail(f"{source_name(path)} holds no games")
    noun = "game" if count == 1 else "games"
    fail(f"{source_name(path)} has {count} {noun}; there is no game {game}")


def replay_stored(what: str, db: Path | None) -> None:
    """Replay a stored game, rebuilt from the database as gops export writes it."""
    from gops_records.cli.replay_table import render_replay
    from gops_records.export import iter_records
    from gops_records.games_query import GameFilter, game_ref, resolve_game
    from gops_records.store.db import reading, resolve_db
    from gops_records.validate import validate_game

    try:
        with reading(db) as con:
            game_id = resolve_game(con, what)
            (record,) = iter_records(con, GameFilter(game_ids=(game_id,)))
            source, position = con.execute("SELECT source, source_game FROM games WHERE "
                                           "game_id = ?", [game_id]).fetchone()
    except GopsError as exc:
        fail_on(exc)
    report = validate_game(record)
    title = (f"game {game_ref(game_id)} ({game_id}) in {resolve_db(db)}, first imported from "
             f"{source} game {position}")
    typer.echo(render_replay(report, title))
    raise typer.Exit(EXIT_OK if report.valid else EXIT_INVALID)
