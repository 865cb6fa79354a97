"""The Typer application every `gops` command registers on, and the CLI's shared helpers."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

from gops_records.errors import GopsError

app = typer.Typer(
    name="gops",
    help="Record, validate, import and study Gops (Goofspiel) games.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
)

#: Exit codes shared by all commands.
EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``gops: error: message`` on stderr and exit (library errors end here)."""
    print(f"gops: error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def fail_on(exc: GopsError) -> NoReturn:
    fail(str(exc))
