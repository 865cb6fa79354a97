"""Options shared by several commands, and the game kinds the registry offers them."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from gops_records.core import registry

DbOption = Annotated[Path | None, typer.Option(
    "--db", "--lake", metavar="FILE", help="DuckDB file (default: $GOPS_DB, else gops.duckdb in "
    "your data folder, e.g. ~/.local/share/gops-records/, whatever folder you run in); "
    "--lake DIR reads a Parquet lake instead (gops lake build, docs/lake.md).",
    show_default=False)]

#: The games ``--game`` takes (:func:`gops_records.core.registry.game_names`, in the
#: registry's order: the first is the default), as an Enum Typer offers as choices.
GameKind = StrEnum("GameKind", {name.upper(): name for name in registry.game_names()})
GameKind.__doc__ = "An installed game, by the name --game takes."
#: The game a command takes without --game: the registry's first.
DEFAULT_GAME = next(iter(GameKind))


def games_help() -> str:
    """Each game as ``--game`` help names it, with the notations its records come from:
    ``gops (Gops games, from .gops records, ...), or gin (Gin Rummy games, from ...)``."""
    return ", or ".join(f"{game.name} ({game.title} games, from {game.notations})"
                        for game in registry.games())
