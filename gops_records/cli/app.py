"""The Typer application every `gops` command registers on, and the CLI's shared helpers."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn, Protocol, get_args, get_origin

import typer
from typer._coercion import RuntimeParam
from typer._param_types import coerce_cli_path
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

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
                _coerce_plainly(param)
            if type(command) is TyperCommand:  # its --help option is made when parsing
                command.__class__ = _PlainCommand

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

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:  # --version and the completion options, added here
            _coerce_plainly(param)
        return params

    def make_context(self, *args, **kwargs):
        with _stop_when_the_reader_goes():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with _stop_when_the_reader_goes():
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # a closed pipe shows here, not at exit


class _PlainCommand(TyperCommand):
    """A command whose options made when parsing (``--help``) coerce without pydantic."""

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:
            _coerce_plainly(param)
        return params


def _name_values(param) -> None:
    if isinstance(param, TyperArgument):
        if param.metavar is None:
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        param.__class__ = _WordArgument
    elif isinstance(param, TyperOption) and param.metavar is None and not param.is_flag:
        word = _WORDS.get(param.display_type(None))
        if word is not None:
            param.metavar = word


#: The words a yes-or-no value may be given as (pydantic's, which Typer used).
_TRUE = frozenset(("1", "true", "t", "yes", "y", "on"))
_FALSE = frozenset(("0", "false", "f", "no", "n", "off", ""))


class _PlainRuntimeParam(RuntimeParam):
    """Typer's coercion of a ``str``, ``bool``, ``int`` or path value, done as Typer's pydantic
    adapter does it but without pydantic: building the adapters imported pydantic at every
    `gops` start (0.09 s with bytecode cached, 0.25 s without), for values as plain as
    these. Every other kind of value keeps Typer's own coercion."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        if get_origin(self.annotation) is list:  # several values: each as one
            one = _PlainRuntimeParam(self.parameter_info, get_args(self.annotation)[0])
            items = value if isinstance(value, (list, tuple)) else [value]
            return [one._coerce_value(item, param, ctx) for item in items]
        info = self.parameter_info
        if self.annotation is str:
            return value if isinstance(value, str) else str(value)
        if self.annotation is bool:
            if isinstance(value, bool):
                return value
            word = str(value).strip().lower()
            if word in _TRUE or word in _FALSE:
                return word in _TRUE
            raise typer.BadParameter(f"{value!r} is not a yes or a no", ctx=ctx, param=param)
        if self.annotation is int:
            try:
                number = value if type(value) is int else int(str(value).strip())
            except ValueError:
                raise typer.BadParameter(f"{value!r} is not a whole number", ctx=ctx,
                                         param=param) from None
            if (info.min is not None and number < info.min) or (
                    info.max is not None and number > info.max):
                bounds = " and ".join(part for part in (
                    f"at least {info.min}" if info.min is not None else "",
                    f"at most {info.max}" if info.max is not None else "") if part)
                raise typer.BadParameter(f"{number} is out of range: it must be {bounds}",
                                         ctx=ctx, param=param)
            return number
        path_type = info.path_type or self.annotation
        if not isinstance(value, path_type):
            value = path_type(value)
        return coerce_cli_path(value, info, path_type=path_type, param=param, ctx=ctx)


def _coerce_plainly(param: Any) -> None:
    """Give ``param`` :class:`_PlainRuntimeParam` when its value is one plain ``str``,
    ``bool``, ``int`` (not clamped) or ``Path``, with no parser of its own."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", True) is not None:
        return
    info, annotation = descriptor.parameter_info, descriptor.annotation
    if get_origin(annotation) is list and len(get_args(annotation)) == 1:
        annotation = get_args(annotation)[0]  # list[str], list[Path]: each value plain
    if descriptor.file_annotation is not None or info.parser is not None or (
            getattr(info, "click_type", None) is not None):
        return
    plain = (annotation in (str, bool) or (annotation is int and not info.clamp)
             or (isinstance(annotation, type) and issubclass(annotation, Path)
                 and info.path_type in (None, annotation)))
    if plain:
        param._runtime_param = _PlainRuntimeParam(parameter_info=info,
                                                  annotation=descriptor.annotation)


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
