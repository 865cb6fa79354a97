"""`gops lake build`: record files read on a Dask cluster into a Parquet lake (docs/lake.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from gops_records.cli.app import app, fail_on
from gops_records.core.errors import GopsError

lake_app = typer.Typer(help="Parquet lakes: archives past one machine (docs/lake.md).",
                       no_args_is_help=True)
app.add_typer(lake_app, name="lake")


@lake_app.command("build")
def build(
    sources: Annotated[list[str], typer.Argument(
        metavar="SRC...", help="Record files, folders (searched recursively) or globs.")],
    lake: Annotated[Path, typer.Option("--lake", metavar="DIR",
                                       help="The lake's folder (made if new).")],
    workers: Annotated[int, typer.Option(
        "--workers", min=1, help="Processes of the local Dask cluster.")] = 2,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="tcp://HOST:PORT",
        help="A running Dask scheduler to use instead of a local cluster.")] = None,
    encoding: Annotated[str, typer.Option("--encoding", help="Text encoding of the files.")
                        ] = "utf-8",
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")
                       ] = False,
) -> None:
    """Read record files as tasks on a Dask cluster and commit them to a Parquet lake.

    Files whose bytes the lake already read are skipped; a game in two files is stored
    once; a build killed at any moment leaves the lake as it was. Read the lake with
    --lake DIR on gops games, replay, export, scout, review and dashboard.

    Example:

        gops lake build archive/2026-*/ --lake lake/ --workers 2
    """
    from gops_records.core.lake.build import build as build_lake

    try:
        summary = build_lake(sources, lake, workers=workers, scheduler=scheduler,
                             encoding=encoding)
    except GopsError as exc:
        fail_on(exc)
    if as_json:
        typer.echo(json.dumps(summary.as_dict()))
        return
    typer.echo(f"{lake}: {summary.games_new} new games, {summary.games_duplicate} "
               f"duplicates, {summary.games_rejected} rejected from {summary.files} files "
               f"({summary.files_unchanged} unchanged) in {summary.seconds:.1f} s; "
               f"commits {summary.commits or 'none'}")
    for note in summary.notes:
        typer.echo(f"note: {note}")
