"""`gops simulate`: club evenings played by bots, written as records of the chosen game.

The command is built from the registry: the options every game shares are declared here,
each game's own options, help text, checks and summary come from its ``simulator`` part
(:class:`gops_records.core.simulator.Simulator`), so this module names no game.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TextIO, TypeVar

import typer

from gops_records.cli.app import app, fail
from gops_records.core import registry
from gops_records.core.clubs import DEFAULT_START
from gops_records.core.errors import GopsError
from gops_records.core.simulator import SimOption, SimRequest, Simulator

R = TypeVar("R")

#: Every game with a simulator, in registry order; the first is ``--game``'s default.
SIMULATORS: dict[str, tuple[registry.Game, Simulator]] = {
    game.name: (game, part) for game, part in registry.parts("simulator")}
if not SIMULATORS:
    raise registry.UnknownGameError("no installed game has a simulator part; install "
                                    "gops-records with pip install -e . so its games register")
_DEFAULT_GAME, _DEFAULT = next(iter(SIMULATORS.values()))

#: ``--game``'s choices.
GameName = StrEnum("GameName", [(name, name) for name in SIMULATORS])  # type: ignore[misc]


def _or(choices: list[str]) -> str:
    return choices[0] if len(choices) == 1 else ", ".join(choices[:-1]) + ", or " + choices[-1]


def _shared() -> list[tuple[str, Any, Any]]:
    """The options every game shares: (name, annotation, default), in help order."""
    return [
        ("games", Annotated[int, typer.Option("--games", "-n", min=0,
                                              help="How many valid games to play.")], 100),
        ("seed", Annotated[int, typer.Option("--seed", help="Random seed: the same seed and "
                                             "options always give the same file.")], 0),
        ("bots", Annotated[str | None, typer.Option(
            "--bots", metavar="NAMES", help=_DEFAULT.bots_help, show_default=False)], None),
        ("broken", Annotated[int, typer.Option("--broken", min=0, help="Also mix in this "
                                               "many records with a deliberate defect.")], 0),
        ("out", Annotated[Path | None, typer.Option(
            "--out", "-o", metavar="FILE", show_default=False,
            help="Write here instead of stdout (- is stdout too).")], None),
        ("start", Annotated[str, typer.Option("--start", metavar="YYYY-MM-DD",
                                              help="Date of the first evening.")],
         DEFAULT_START.isoformat()),
        ("jobs", Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes "
                                             "(the output does not depend on it).")], 1),
        ("game", Annotated[GameName, typer.Option(
            "--game", help=f"Which game: {_or([s.choice for _, s in SIMULATORS.values()])}.")],
         GameName(_DEFAULT_GAME.name)),
    ]


def _own(option: SimOption) -> tuple[str, Any, Any]:
    info = typer.Option(*option.flags, help=option.help, min=option.min, max=option.max,
                        metavar=option.metavar, show_default=option.show_default)
    return option.name, Annotated[option.type, info], option.default


def _parameters() -> list[tuple[str, Any, Any]]:
    """The shared options with each game's own after the one it names."""
    params = []
    for name, annotation, default in _shared():
        params.append((name, annotation, default))
        for _, sim in SIMULATORS.values():
            params += [_own(o) for o in sim.options if o.after == name]
    return params


def _help() -> str:
    """The command's help: the default game's text, every example, the other games'."""
    examples = "\n\n".join(f"    {e}" for _, s in SIMULATORS.values() for e in s.examples)
    others = [s.about for name, (_, s) in SIMULATORS.items() if name != _DEFAULT_GAME.name]
    return "\n\n".join([_DEFAULT.about, "Example:", examples, *others])


def _foreign(game: registry.Game, sim: Simulator, given: frozenset[str]) -> str | None:
    """The error for options of another game given with ``--game`` ``game``, or None."""
    wrong = [(other, option) for _, (other, s) in SIMULATORS.items() if other.name != game.name
             for option in s.options if option.name in given]
    if not wrong:
        return None
    other = wrong[0][0]
    flags = [option.flag for _, option in wrong]
    return (f"{', '.join(flags)} {'is' if len(flags) == 1 else 'are'} for {other.title}"
            + (sim.foreign if sim.foreign is not None else f": add --game {other.name}"))


def simulate(ctx: typer.Context, **values: Any) -> None:
    """Check the shared options and the chosen game's, then write its records (the help
    text is the games' own, set below)."""
    game, sim = SIMULATORS[values["game"].value]
    given = frozenset(name for name in values
                      if ctx.get_parameter_source(name).name == "COMMANDLINE")
    wrong = _foreign(game, sim, given)
    if wrong is not None:
        fail(wrong)
    request = SimRequest(values["games"], values["seed"], values["bots"], values["broken"],
                         values["start"], values["jobs"], given)
    try:
        run = sim.prepare(request, {o.name: values[o.name] for o in sim.options})
    except GopsError as exc:
        fail(str(exc))
    out = values["out"]
    if out is not None and str(out) == "-":
        out = None
    report = _write_records(out, run.write)
    print(report.describe(str(out) if out is not None else "stdout"), file=sys.stderr)


def _write_records(out: Path | None, write: Callable[[TextIO], R]) -> R:
    """``write`` the records into the file ``out``, or to stdout when it is None; exit 2 on
    an error. A reader of stdout that goes away (`gops simulate | head`) is no error: gops
    then stops quietly (cli.app)."""
    try:
        if out is None:
            summary = write(sys.stdout)
            sys.stdout.flush()  # all written before the summary goes to stderr
            return summary
        with open(out, "w", encoding="utf-8", newline="\n") as fh:
            return write(fh)
    except BrokenPipeError:
        raise
    except OSError as exc:
        fail(f"{out or 'stdout'}: cannot write: {exc.strerror or exc}")
    except GopsError as exc:
        fail(str(exc))


_PARAMETERS = _parameters()
simulate.__doc__ = _help()
simulate.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                       annotation=typer.Context)]
    + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                         default=default) for name, annotation, default in _PARAMETERS])
simulate.__annotations__ = {"ctx": typer.Context, "return": None,
                            **{name: annotation for name, annotation, _ in _PARAMETERS}}
app.command("simulate")(simulate)
