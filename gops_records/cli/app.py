"""The Typer application every `gops` command registers on, and the CLI's shared helpers."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, NoReturn, Protocol

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from gops_records import __version__
from gops_records.core import registry
from gops_records.core.errors import GopsError

#: The commands `gops --help` lists first, in this order; the others follow by name.
FIRST = ("validate", "import", "dashboard", "demo")

#: Words shown for a value whose command gives no metavar, instead of a Python type name.
_WORDS = {"<str>": "TEXT", "<int>": "N", "<int range>": "N", "<float>": "NUMBER",
          "<float range>": "NUMBER", "<path>": "PATH", "<list[str]>": "TEXT",
          "<list[Path]>": "PATH"}


class _WordArgument(TyperArgument):
    """An argument shown in help by its metavar alone (``PATH...``), as click shows it,
    not as Typer's ``{paths}... <list[Path]>``."""

    def display_type_rich(self, ctx) -> str | None:
        return None

    def _rich_display_name(self) -> str:
        return self.display_name_raw

    def _usage_display_name(self) -> str:
        return self.display_name_raw if self.required else f"[{self.display_name_raw}]"


class Group(TyperGroup):
    """The `gops` group: help says what each value is in words (``--db FILE``,
    ``PATH...``), never in Python type names (``<list[Path]>``, ``{paths}...``); and every
    command, its help included, stops quietly when standard output's reader goes away."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            for param in command.params:
                _name_values(param)

    def list_commands(self, ctx) -> list[str]:
        """The commands in help order: :data:`FIRST` (what a club does first), then the
        others by name, wherever they come from (the CLI or a game)."""
        return sorted(self.commands, key=lambda name: (
            FIRST.index(name) if name in FIRST else len(FIRST), name))

    # The three places output is written: all of gops (what is left in stdout's buffer
    # is written at the end), parsing (--help) and the command run. Click would catch a
    # closed pipe in the last two itself (exit 1), so each stops gops before it can.
    def main(self, *args, **kwargs):
        with _stop_when_the_reader_goes():
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()

    def make_context(self, *args, **kwargs):
        with _stop_when_the_reader_goes():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with _stop_when_the_reader_goes():
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # a closed pipe shows here, not at exit


def _name_values(param) -> None:
    if isinstance(param, TyperArgument):
        if param.metavar is None:
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        param.__class__ = _WordArgument
    elif isinstance(param, TyperOption) and param.metavar is None and not param.is_flag:
        word = _WORDS.get(param.display_type(None))
        if word is not None:
            param.metavar = word


def notations() -> str:
    """Every game's notations, as the help texts name them: ``.gops records, CSV round
    logs, JSONL round logs (Gops); .gin full hands, .ginsheet score sheets (Gin Rummy)``."""
    return "; ".join(f"{game.notations} ({game.title})" for game in registry.games())


def _titles() -> str:
    """The installed games by title: ``Gops and Gin Rummy``."""
    titles = [game.title for game in registry.games()]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]


#: The top help (`gops --help`): what gops does, and every game's notations.
HELP = (f"Record, validate, import and study {_titles()} games.\n\n"
        f"Notations: {notations()}. Each command has --help with an example; docs/cli.md "
        "describes them all.")

app = typer.Typer(
    name="gops",
    cls=Group,
    help=HELP,
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish, pwsh)
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
)

#: Exit codes shared by all commands.
EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
#: The status when standard output's reader goes away (`gops games | head`): that of a Unix
#: tool killed by SIGPIPE, 128 + 13, as a shell shows it.
EXIT_READER_GONE = 141


@contextmanager
def _stop_when_the_reader_goes() -> Iterator[None]:
    """Standard output's reader went away (`gops games | head` has its lines): stop gops
    with :data:`EXIT_READER_GONE` and not a word, as a Unix tool stops. Standard output
    then points at /dev/null, so what is left in its buffer goes nowhere at exit (Python's
    recipe for a closed pipe); nothing else is written. A command writing to stdout
    therefore lets a write error reach here, never taking it for a problem of its own."""
    try:
        yield
    except BrokenPipeError:
        try:
            fd = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (a test's runner)
            fd = None
        if fd is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        sys.exit(EXIT_READER_GONE)


def _print_version(value: bool) -> None:
    if value:
        print(f"gops {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback(help=HELP)
def main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version of gops and exit.")] = False,
) -> None:
    """The options of `gops` itself (its help is :data:`HELP`)."""


class GameCommands(Protocol):
    """A game's part ``commands``: adds the commands only that game has to ``app``."""

    def __call__(self, app: typer.Typer) -> None: ...


def add_game_commands() -> None:
    """Add every installed game's own commands (its part ``commands``) to :data:`app`."""
    for _, register in registry.parts("commands"):
        register(app)


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``gops: error: message`` on stderr and exit (library errors end here)."""
    print(f"gops: error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def fail_on(exc: GopsError) -> NoReturn:
    fail(str(exc))
