"""`gops rejects`: the quarantine: list it, show one record, re-check them all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gops_records.cli.app import app, fail, fail_on
from gops_records.cli.options import DbOption
from gops_records.cli.validate_cmd import EncodingOption
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    from gops_records.core.rejects import RecheckResult, Reject


@app.command("rejects")
def rejects(
    db: DbOption = None,
    show: Annotated[str | None, typer.Option(
        "--show", metavar="ID", show_default=False,
        help="Show one record (its id, or its first 4 or more hex digits): its status, each "
             "problem with the line it points at, and its text numbered as in its file.")]
    = None,
    do_recheck: Annotated[bool, typer.Option(
        "--recheck", help="Re-check every record first and store which are resolved: fixed "
                          "and imported, typed again right, or removed from its file.")]
    = False,
    open_only: Annotated[bool, typer.Option(
        "--open", help="List only the open records (not resolved).")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per record per line (with --show: one object, "
                       "with its text).")] = False,
    encoding: EncodingOption = "utf-8",
) -> None:
    """List the quarantine: the records gops import rejected, open or resolved.

    Each record is listed as ID STATUS FILE:LINE: CODE: MESSAGE (its first problem).
    --show ID prints one record with every problem and the line it points at. --recheck
    marks a record resolved when a stored game is the record fixed: the same file and
    position now holds it, valid, with the same players; or a stored game has its Event,
    Site, Date, Round, Match and players; or its file, read again (--encoding) at the
    absolute path its import kept, no longer holds it. A file missing there, or one of the
    same name in the current folder, never resolves a record: it stays open, with a note.
    The marks are stored in the reject_resolutions table (docs/schema.md) and
    shown on the dashboard's Data quality page. Exit status 0, 2 for usage errors or a
    missing database.

    Example:

    \b
        gops rejects --db club.duckdb
        gops rejects --show 32fe81a7
        gops rejects --recheck --open --json
    """
    from gops_records.core.rejects import describe, find_reject, list_rejects, recheck
    from gops_records.core.store.db import connect, reading, shown_path

    checked: RecheckResult | None = None
    try:
        if do_recheck:
            if not shown_path(db).exists():
                fail(f"no database at {shown_path(db)}: import some games first "
                     "(gops import PATH, or gops demo)")
            con = connect(db, writer="recheck")
            try:
                checked = recheck(con, encoding=encoding)
            finally:
                con.close()
        with reading(db) as con:
            if show is not None:
                one = find_reject(con, show)
            else:
                records = list_rejects(con, open_only=open_only)
                everything = records if not open_only else list_rejects(con)
    except GopsError as exc:
        fail_on(exc)
    if show is not None:
        typer.echo(json.dumps(one.as_json(with_text=True), ensure_ascii=False) if as_json
                   else describe(one))
        return
    notes = checked.notes if checked else {}
    if as_json:
        for record in records:
            obj = record.as_json()
            if record.reject_id in notes:
                obj["note"] = notes[record.reject_id]
            typer.echo(json.dumps(obj, ensure_ascii=False))
        return
    for record in records:
        typer.echo(listing(record, notes.get(record.reject_id)))
    typer.echo(summary_line(everything, checked, open_only,
                            shown_path(db) if checked else None))


def listing(record: Reject, note: str | None = None) -> str:
    """A record as `gops rejects` lists it: id, status, its first problem; then what is
    known about it (how it was resolved, or what a re-check found)."""
    status = "resolved" if record.resolved else "open"
    line = f"{record.reject_id}  {status:<8}  {record.headline()}"
    if record.resolution:
        line += f"\n{'':<28}{record.resolution.how.value}: {record.resolution.note}"
    elif note:
        line += f"\n{'':<28}note: {note}"
    return line


def summary_line(records: list[Reject], checked: RecheckResult | None, open_only: bool,
                 written: Path | None = None) -> str:
    """The count under the listing, and how to go on (with the database a re-check
    wrote its marks in, ``written``)."""
    resolved = sum(r.resolved for r in records)
    noun = "record" if len(records) == 1 else "records"
    text = (f"{len(records)} quarantined {noun}: {len(records) - resolved} open, {resolved} "
            "resolved" + (" (only the open ones listed)" if open_only and resolved else ""))
    if checked is not None:
        text += (f"; re-checked: {len(checked.newly_resolved)} newly resolved, "
                 f"{len(checked.reopened)} reopened"
                 + (f" (marks stored in {written})" if written else ""))
    if not records:
        return "no record has been rejected"
    print_help = "gops rejects --show ID shows one" + (
        "" if checked else "; gops rejects --recheck finds the fixed ones")
    return f"{text}. {print_help}"


