"""`gops export`: write stored games as .gops records, CSV round logs or Parquet tables."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Annotated

import duckdb
import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.options import DbOption
from gops_records.errors import GopsError
from gops_records.export import ExportFormat, GameFilter, export_games
from gops_records.store.db import resolve_db


def _date(option: str, value: str | None) -> date | None:
    """YYYY-MM-DD (or YYYY.MM.DD, as records write it) as a date; exit 2 otherwise."""
    if value is None:
        return None
    try:
        return datetime.strptime(value.replace(".", "-"), "%Y-%m-%d").date()
    except ValueError:
        fail(f"{option} {value!r} is not a date like 2026-11-26")


DateFromOption = Annotated[str | None, typer.Option(
    "--date-from", metavar="YYYY-MM-DD", help="Only games played on or after this day.",
    show_default=False)]
DateToOption = Annotated[str | None, typer.Option(
    "--date-to", metavar="YYYY-MM-DD", help="Only games played on or before this day.",
    show_default=False)]


@app.command("export")
def export(
    fmt: Annotated[ExportFormat, typer.Option(
        "--format", "-f", help="gops: canonical records; csv: round logs with the import's "
        "columns; parquet: a folder with one file per table.", show_default=False)],
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="File to write (a folder for parquet).", show_default=False)],
    db: DbOption = None,
    player: Annotated[list[str] | None, typer.Option(
        "--player", metavar="NAME", show_default=False,
        help="Only games this player played (repeat for any of several).")] = None,
    event: Annotated[list[str] | None, typer.Option(
        "--event", metavar="NAME", show_default=False,
        help="Only games of this event (repeat for any of several).")] = None,
    date_from: DateFromOption = None,
    date_to: DateToOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Export stored games; importing the export again gives back the same games (same ids).

    Filters combine: a game is exported when it matches every filter given. Dates are
    compared with the game's full date (games without one are left out by a date filter).
    CSV keeps the tags that have a round-log column; other tags (and the Result tag) are
    left out. Exit status 0 on success, 2 for usage errors or a missing database.

    Example:

        gops export --format gops --out thursday.gops --event "Thursday club" \\
            --date-from 2026-11-01 --date-to 2026-11-30
    """
    selection = GameFilter(tuple(player or ()), tuple(event or ()),
                           _date("--date-from", date_from), _date("--date-to", date_to))
    if selection.date_from and selection.date_to and selection.date_from > selection.date_to:
        fail(f"--date-from {date_from} is after --date-to {date_to}")
    try:
        summary = export_games(db, out, fmt, selection)
    except GopsError as exc:
        fail_on(exc)
    except (duckdb.IOException, OSError) as exc:  # e.g. --db names a file of another kind
        fail(f"cannot export from {resolve_db(db)} to {out}: {exc}")
    if as_json:
        typer.echo(json.dumps(summary.as_dict()))
    else:
        noun = "game" if summary.games == 1 else "games"
        typer.echo(f"exported {summary.games} {noun} ({summary.rounds} rounds) "
                   f"as {fmt.value} to {out}")
