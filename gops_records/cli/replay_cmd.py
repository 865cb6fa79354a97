"""`gops replay`: show one game round by round, from a file or from the database.

Each game replays its files and its stored records its own way (its part ``replay``, a
:class:`gops_records.core.replay_lookup.GameReplay`); this command asks the registry which
game a file or a stored record belongs to and never names one. The libraries are imported
inside the functions, so `gops` starts without them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, app, fail, fail_on
from gops_records.cli.options import DbOption
from gops_records.cli.validate_cmd import EncodingOption
from gops_records.core import registry
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    from gops_records.core.replay_lookup import GameReplay, Replay

#: The game kinds --game takes, as the help and the messages write them: ``gops|gin``.
KINDS = "|".join(registry.game_names())
#: Every game's notations, for the help: ``.gops records, ...; .gin full hands, ...``.
_NOTATIONS = "; ".join(game.notations for game in registry.games())
#: Each game's name and title, for the help: ``gops: Gops, gin: Gin Rummy``.
_TITLES = ", ".join(f"{game.name}: {game.title}" for game in registry.games())
#: What --game N (a number, the old meaning) prints on stderr before it is obeyed.
DEPRECATED_NUMBER = ("--game N for a game's number in a file is deprecated: use --number N "
                     f"(--game names the game kind: {' or '.join(registry.game_names())})")


@app.command("replay")
def replay(
    what: Annotated[str, typer.Argument(
        metavar="FILE|GAME", show_default=False,
        help=f"A record file ({_NOTATIONS}), or a stored game or hand: its id or its "
             "reference (g...), as gops games lists them.")],
    number: Annotated[int | None, typer.Option(
        "--number", min=1, metavar="N", show_default=False,
        help="Which record of the file (1-based): the N-th game, hand or sheet of its "
             f"notation ({_NOTATIONS}).  [default: 1]")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", metavar=KINDS, show_default=False,
        autocompletion=lambda: list(registry.game_names()),
        help=f"The game kind: look a reference up among one game's stored records only "
             f"({_TITLES}; default: every game). A number here is the deprecated form of "
             "--number N.")] = None,
    db: DbOption = None,
    encoding: EncodingOption = "utf-8",
) -> None:
    """Replay one game round by round: prize, pool on offer, bids, who took it, scores.

    A bid of several cards shows its cards and strength (9♣+4♣ = 13); a game with open
    prizes shows the prizes revealed, the row on offer, the prize taken and by whom, and
    the prize a tie set aside. A Gin Rummy hand (.gin) is shown turn by turn, a score
    sheet (.ginsheet) hand by hand.

    FILE|GAME is a record file when such a file exists (--number N picks its N-th
    record); otherwise a stored record's id or reference (g and 4 to 16 hex digits, as
    gops games and gops games --game gin list them), replayed from the database (--db):
    a Gops game, a Gin Rummy game (its score sheet) or a Gin Rummy hand. A reference
    several records share is refused, naming them. Exit status 0 for a valid game, 1
    when the game has problems (they are listed and the illegal rounds skipped), 2 for
    usage errors.

    Example:

    \b
        gops replay club/2026-11-26.gops --number 3
        gops replay g3f2a9c0 --db club.duckdb
        gops replay g1ac4740b --game gin
    """
    from gops_records.core.game_refs import looks_like_game

    path = Path(what)
    stored = not path.exists() and looks_like_game(what)
    if stored and number is not None:
        fail(f"--number N picks a record of a file; {what} names a stored record")
    kind, number = _kind_and_number(game, number)
    if stored:
        replay_stored(what, db, (kind,) if kind else registry.game_names())
    claimed = registry.file_kind_of(path)  # a file no game's suffix claims: the first game's
    file_game = claimed[0] if claimed else registry.games()[0]
    if kind is not None and kind != file_game.name:
        fail(f"{what} is a {file_game.title} file, not {registry.game(kind).title} "
             "(--game names the game kind)")
    try:
        shown = _replay(file_game.name).replay_file(path, number, encoding)
    except GopsError as exc:
        fail_on(exc)
    show(shown)


def _replay(name: str) -> GameReplay:
    """The part ``replay`` of the game called ``name``."""
    return registry.game(name).part("replay")


def show(shown: Replay) -> NoReturn:
    """Print a replay (its notes on stderr) and exit 0 if its record is valid, else 1."""
    for note in shown.notes:
        print(f"gops: note: {note}", file=sys.stderr)
    typer.echo(shown.text)
    raise typer.Exit(EXIT_OK if shown.valid else EXIT_INVALID)


def _kind_and_number(game: str | None, number: int | None) -> tuple[str | None, int]:
    """The game kind --game names (None: any) and the record number; --game N (a number)
    is the old spelling of --number N and still obeyed, with a note on stderr."""
    if game is None:
        return None, number or 1
    if game.strip().lstrip("+-").isdecimal():
        print(f"gops: note: {DEPRECATED_NUMBER}", file=sys.stderr)
        if number is not None:
            fail("give the record's number once: --number N (--game N is its old form)")
        if int(game) < 1:
            fail(f"--game {game}: a game's number in a file counts from 1 (use --number N)")
        return None, int(game)
    kind = game.strip().lower()
    if kind not in registry.game_names():
        names = " or ".join(f"'{name}'" for name in registry.game_names())
        fail(f"--game takes {names} (the game kind), not {game!r}; a record's "
             "number in a file is --number N")
    return kind, number or 1


def replay_stored(what: str, db: Path | None, kinds: tuple[str, ...]) -> NoReturn:
    """Replay the stored record ``what`` names among the games called ``kinds``."""
    from gops_records.core.replay_lookup import choose
    from gops_records.core.store.db import reading

    noun = _replay(kinds[0]).stored_noun if len(kinds) == 1 else "game"
    try:
        with reading(db) as con:
            found = [f for kind in kinds for f in _replay(kind).find(con, what)]
            close = [] if found else [c for kind in kinds for c in _replay(kind).close(con, what)]
        chosen = choose(what, found, close, noun)
        shown = _replay(chosen.game).replay_stored(db, chosen)
    except GopsError as exc:
        fail_on(exc)
    show(shown)
