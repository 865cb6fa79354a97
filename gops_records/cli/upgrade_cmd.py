"""`gops upgrade`: bring a database an older gops wrote up to this gops's schema, in place."""

from __future__ import annotations

import typer

from gops_records.cli.app import app, fail_on
from gops_records.cli.options import DbOption
from gops_records.core.errors import GopsError


@app.command("upgrade")
def upgrade(db: DbOption = None) -> None:
    """Upgrade the database file in place to this gops's schema version.

    Read-only commands (dashboard, export, scout) never change the file: they read an
    older one through an upgraded copy in memory, or, for a big file, ask for this
    command. Every `gops import` upgrades the file too. Each step is one transaction:
    an interrupted upgrade leaves the file as it was.

    Example:

        gops upgrade --db club.duckdb
    """
    from gops_records.core.store.db import shown_path
    from gops_records.core.store.db import upgrade as upgrade_file

    path = shown_path(db)
    try:
        before, after = upgrade_file(path)
    except GopsError as exc:
        fail_on(exc)
    if before == after:
        typer.echo(f"{path}: schema version {after}, up to date")
    else:
        typer.echo(f"{path}: upgraded from schema version {before} to {after}")
