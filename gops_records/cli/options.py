"""Options shared by several commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DbOption = Annotated[Path | None, typer.Option(
    "--db", metavar="FILE", help="DuckDB file (default: $GOPS_DB, else data/gops.duckdb).",
    show_default=False)]
