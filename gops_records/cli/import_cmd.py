"""`gops import`: load records into DuckDB, quarantining bad ones."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, EXIT_USAGE, app, fail_on, notations
from gops_records.cli.options import DbOption
from gops_records.cli.validate_cmd import EncodingOption
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    from gops_records.core.importer import ImportSummary


@app.command("import")
def import_(
    paths: Annotated[list[Path], typer.Argument(
        metavar="PATH...", show_default=False,
        help=f"Files or folders: {notations()}.")],
    db: DbOption = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit 1 if any record was rejected.")] = False,
    encoding: EncodingOption = "utf-8",
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    reparse: Annotated[bool, typer.Option(
        "--reparse", help="Read every file, even one an earlier import read byte for byte "
                          "(by default such a file is counted, not read, when all its "
                          "records are stored).")] = False,
) -> None:
    """Import game records into the database: valid games are stored, bad ones quarantined.

    Reads Gops records (.gops, CSV / JSONL round logs) and Gin Rummy ones (.gin full
    hands, .ginsheet score sheets), by their extension; folders are searched for them.
    Idempotent: importing the same records again adds nothing and reports them as
    duplicates (a file read before, byte for byte, is counted without reading it again).
    The import is one transaction, so an interrupted import changes nothing.
    The first few rejected records are listed as FILE:LINE: CODE: MESSAGE, then how
    many more; gops rejects lists them all. A file or folder that cannot be read is
    named on stderr and the rest is imported. Exit status 0 when the import succeeded
    (1 with --strict if anything was rejected), 2 for usage errors, a missing path, a
    file or folder that could not be read, or a database locked by another program.

    Example:

        gops import club/2026-11-26.gops logs/ --db club.duckdb
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from gops_records.core.importer import import_paths
    from gops_records.core.sources import SourcesUnreadable, find_files
    from gops_records.core.store.db import shown_path

    unreadable: list[GopsError] = []
    try:  # the import names what cannot be read; here it only sizes the progress bar
        total = sum(_size(p) for p in find_files(paths, unreadable=[]))
        console = Console(stderr=True)
        show = not quiet and console.is_terminal
        with Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                      TimeRemainingColumn(), console=console, disable=not show,
                      transient=True) as bar:
            task = bar.add_task("importing", total=total or None)
            summary = import_paths(
                paths, db, encoding=encoding, reparse=reparse,
                progress=lambda n, name: bar.update(task, advance=n,
                                                    description=Path(name).name))
    except SourcesUnreadable as exc:  # the rest was imported
        summary, unreadable = exc.summary, exc.problems
    except GopsError as exc:
        fail_on(exc)
    if as_json:
        typer.echo(json.dumps({"db": str(shown_path(db)), **summary.as_dict()}))
    else:
        typer.echo(describe_summary(summary, shown_path(db)))
    for note in summary.notes:
        print(f"gops: note: {note}", file=sys.stderr)
    for problem in unreadable:
        print(f"gops: error: {problem}", file=sys.stderr)
    if unreadable:
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_INVALID if strict and summary.games_rejected else EXIT_OK)


def _size(path: Path) -> int:
    """A file's size for the progress bar (0 if it cannot be looked at: the import says)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def describe_summary(s: ImportSummary, db: Path) -> str:
    """The human summary printed after an import, with the first rejected records."""
    rejected = f"{s.games_rejected} rejected"
    if s.games_rejected:
        rejected += f" ({s.rejects_new} newly quarantined, {s.rejects_duplicate} already kept)"
    files = f"{s.files} files"
    if s.files_unchanged:
        files += f" ({s.files_unchanged} unchanged, not read again)"
    lines = [f"import {s.import_id} into {db}: {files}, {s.games_seen} games seen: "
             f"{s.games_new} new, {s.games_duplicate} duplicate, {rejected}; "
             + resolved_text(s)
             + f"{s.seconds:.2f} s, {s.games_per_second:,.0f} games/s"
             + (f" ({s.scout_seconds:.2f} s of it scouting {s.scout_reports} "
                f"player{'s' * (s.scout_reports != 1)})" if s.scout_reports else "")]
    if s.games_rejected:
        lines += [f"  {line}" for line in s.rejected]
        more = s.games_rejected - len(s.rejected)
        command = rejects_command(db)
        lines.append(f"  ... and {more} more rejected; see them all with {command}" if more
                     else f"  see the quarantine with {command}")
    return "\n".join(lines)


def resolved_text(s: ImportSummary) -> str:
    """``resolved N quarantined records; `` when the import found earlier rejects fixed in
    the files it read (and how many of them were rather removed), else ''."""
    from gops_records.core.rejects import ResolvedHow

    if not s.rejects_resolved:
        return ""
    noun = "record" if s.rejects_resolved == 1 else "records"
    removed = s.resolved.get(ResolvedHow.REMOVED, 0)
    return (f"resolved {s.rejects_resolved} quarantined {noun}"
            + (f" ({removed} no longer in {'its file' if removed == 1 else 'their files'})"
               if removed else "") + "; ")


def rejects_command(db: Path) -> str:
    """``gops rejects``, with ``--db`` when the database is not the default one."""
    from gops_records.core.store.db import shown_path

    return "gops rejects" if shown_path(db) == shown_path(None) else f"gops rejects --db {db}"
