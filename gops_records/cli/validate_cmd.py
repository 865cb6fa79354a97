"""`gops validate`: replay records and report every problem."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, EXIT_USAGE, app, notations
from gops_records.core.errors import GopsError

EncodingOption = Annotated[str, typer.Option(
    "--encoding", metavar="NAME", help="Text encoding of the files (utf-8 with or without "
    "BOM by default; e.g. latin-1).")]


@app.command("validate")
def validate(
    paths: Annotated[list[str], typer.Argument(
        metavar="PATH...", show_default=False,
        help=f"Files or folders: {notations()} (read as gops import reads them).")],
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per record (a game, a hand, a sheet) per line.")]
    = False,
    encoding: EncodingOption = "utf-8",
) -> None:
    """Check game records by replaying every game through the rules engine.

    Prints each problem as FILE:LINE:COL: CODE: MESSAGE with the offending text
    (in a round log, COL counts fields, and the offending row is shown). Gin Rummy
    score sheets are also checked against the full hands of the same game in the
    .gin files given (read first). Exit status: 0 when every game is valid, 1 when
    any is not, 2 for usage errors or unreadable files or folders (each named; the
    rest is checked).

    Example:

        gops validate club/2026-11-26.gops club/older/ --json
    """
    from gops_records.core.checking import CheckState, check_source
    from gops_records.core.reading import read_order
    from gops_records.core.registry import suffixes
    from gops_records.core.sources import find_sources, read_regular_file

    out = sys.stdout
    games = invalid = files = 0
    unreadable = False
    state, notes = CheckState(), []  # e.g. the full hands a later score sheet needs
    problems: list[GopsError] = []  # folders (and entries) that cannot be read
    try:
        found = read_order(list(find_sources(paths, suffixes(), unreadable=problems)),
                           key=lambda f: f[1])
    except GopsError as exc:
        print(f"gops: error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_USAGE) from None
    for problem in problems:
        print(f"gops: error: {problem}", file=sys.stderr)
        unreadable = True
    if not found and not problems:
        print("gops: error: no record files (" + ", ".join(suffixes()) + ") in "
              + ", ".join(map(str, paths)), file=sys.stderr)
        raise typer.Exit(EXIT_USAGE)
    for source, path in found:
        try:
            data = read_regular_file(path)
            for checked in check_source(data, source, encoding, readable=not as_json,
                                        state=state, notes=notes):
                games += checked.games
                invalid += checked.invalid
                if as_json:
                    out.writelines(checked.json_lines())
                elif checked.report:
                    out.write("\n".join(checked.report) + "\n")
        except GopsError as exc:  # reading: a SourceError names the file; a write to stdout
            print(f"gops: error: {exc}", file=sys.stderr)  # that fails is not this file's
            unreadable = True
            continue
        files += 1
    for note in notes:
        print(f"gops: note: {note}", file=sys.stderr)
    if not as_json:
        game_noun = "game" if games == 1 else "games"
        noun = "file" if files == 1 else "files"
        print(f"{games} {game_noun} in {files} {noun}: {games - invalid} valid, "
              f"{invalid} invalid", file=out)
    if unreadable:
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_INVALID if invalid else EXIT_OK)
