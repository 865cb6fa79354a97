"""The commands only Gops has (the game's part ``commands``): `gops solve`, `gops scout`,
`gops review`.

Each module holds one command function; :func:`register` adds them to the `gops`
application (the protocol is :class:`gops_records.cli.app.GameCommands`). Like every
command module, these import only what their options need at the top (Typer, light Enums
and defaults) and their library inside the function: `gops --help` and `gops scout
--help` load no data stack (tests/cli/test_cli_startup.py).
"""

from __future__ import annotations

import typer

from gops_records.games.gops.commands.review import review
from gops_records.games.gops.commands.scout import scout
from gops_records.games.gops.commands.solve import solve


def register(app: typer.Typer) -> None:
    """Add `gops solve`, `gops scout` and `gops review` to ``app``."""
    app.command("solve")(solve)
    app.command("scout")(scout)
    app.command("review")(review)
