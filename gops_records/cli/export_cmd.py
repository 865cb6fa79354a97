"""`gops export`: write stored games in a format a game declares (its part ``exports``:
.gops records, CSV round logs, Parquet tables, Gin Rummy hands and score sheets)."""

from __future__ import annotations

import json
import sys
from datetime import date, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.name_completion import complete_event, complete_player
from gops_records.cli.options import DbOption
from gops_records.core.errors import GopsError
from gops_records.core.export_format import export_formats

if TYPE_CHECKING:
    from gops_records.core.games_query import GameFilter


#: The formats --format offers, every game's (an Enum: Typer shows them as choices).
FormatName = StrEnum("FormatName", {f.name.upper(): f.name for f in export_formats()})
FormatName.__doc__ = "A format some installed game writes, by the name --format takes."
#: --format's help: each format and what it writes.
_FORMATS_HELP = "; ".join(f"{f.name}: {f.help}" for f in export_formats()) + "."
#: --out's help: which formats write a folder, which may go to stdout.
_OUT_HELP = ("File to write (a folder for "
             + ", ".join(f.name for f in export_formats() if f.folder) + "); - writes to "
             "stdout (" + ", ".join(f.name for f in export_formats() if not f.folder) + ").")


def parse_date(option: str, value: str | None) -> date | None:
    """YYYY-MM-DD (or YYYY.MM.DD, as records write it) as a date; exit 2 otherwise."""
    if value is None:
        return None
    try:
        return datetime.strptime(value.replace(".", "-"), "%Y-%m-%d").date()
    except ValueError:
        fail(f"{option} {value!r} is not a date like 2026-11-26")


DateFromOption = Annotated[str | None, typer.Option(
    "--from", "--date-from", metavar="YYYY-MM-DD", help="Only games played on or after "
    "this day.", show_default=False)]
DateToOption = Annotated[str | None, typer.Option(
    "--to", "--date-to", metavar="YYYY-MM-DD", help="Only games played on or before this "
    "day.", show_default=False)]
PlayerOption = Annotated[list[str] | None, typer.Option(
    "--player", metavar="NAME", show_default=False, autocompletion=complete_player,
    help="Only games this player played (repeat for any of several); case, accents and "
         "spacing are ignored (gops players lists them).")]
EventOption = Annotated[list[str] | None, typer.Option(
    "--event", metavar="NAME", show_default=False, autocompletion=complete_event,
    help="Only games of this event (repeat for any of several); case, accents and spacing "
         "are ignored (gops events lists them).")]


def selection_of(player: list[str] | None, event: list[str] | None, date_from: str | None,
                 date_to: str | None) -> GameFilter:
    """The games the filter options select (exit 2 for a bad date or an empty range)."""
    from gops_records.core.games_query import GameFilter

    selection = GameFilter(tuple(player or ()), tuple(event or ()),
                           parse_date("--from", date_from), parse_date("--to", date_to))
    if selection.date_from and selection.date_to and selection.date_from > selection.date_to:
        fail(f"--from {date_from} is after --to {date_to}")
    return selection


def _is_stdout(out: str) -> bool:
    """Whether ``out`` is the file standard output writes to."""
    import os

    try:
        mine, theirs = os.stat(out), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # nothing there, or no real stdout
        return False
    return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)


@app.command("export")
def export(
    fmt: Annotated[FormatName, typer.Option(
        "--format", "-f", help=_FORMATS_HELP, show_default=False)],
    out: Annotated[str, typer.Option(
        "--out", "-o", metavar="FILE", show_default=False, help=_OUT_HELP)],
    db: DbOption = None,
    player: PlayerOption = None,
    event: EventOption = None,
    date_from: DateFromOption = None,
    date_to: DateToOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Export stored games; importing the export again gives back the same games (same ids).

    Filters combine: a game is exported when it matches every filter given. Dates are
    compared with the game's full date (games without one are left out by a date filter).
    CSV keeps the tags that have a round-log column; other tags (and the Result tag) are
    left out; its game_ref column holds each game's reference as text a spreadsheet
    keeps (g and 8 hex digits, as the dashboard shows it). With --out - the records go
    to stdout and the summary to stderr. Exit status 0 on success, 2 for usage errors
    (an unknown player: with the names close to it) or a missing database.

    Example:

    \b
        gops export --format gops --out thursday.gops --event "Thursday club" \\
            --from 2026-11-01 --to 2026-11-30
        gops export --format csv --out - --player "Bruno Keller" | head
    """
    import duckdb

    from gops_records.core.export import STDOUT, export_games
    from gops_records.core.export_format import export_format
    from gops_records.core.store.db import resolve_db

    selection = selection_of(player, event, date_from, date_to)
    try:
        summary = export_games(db, out, fmt.value, selection)
    except GopsError as exc:
        fail_on(exc)
    except BrokenPipeError:  # stdout's reader went away: gops stops quietly (cli.app)
        raise
    except (duckdb.IOException, OSError) as exc:  # e.g. --db names a file of another kind
        fail(f"cannot export from {resolve_db(db)} to {out}: {exc}")
    # stdout holds the records then (also when --out names it: /dev/stdout, /dev/fd/1)
    to = sys.stderr if out == STDOUT or _is_stdout(out) else sys.stdout
    if as_json:
        print(json.dumps(summary.as_dict()), file=to)
    else:
        written = export_format(fmt.value)
        noun = written.record + ("" if summary.games == 1 else "s")
        print(f"exported {summary.games} {noun} ({summary.rounds} {written.counts}) as "
              f"{fmt.value} to "
              + ("stdout" if out == STDOUT else out), file=to)
