"""`gops replay`: show one game round by round, from a file or from the database.

Each game kind replays its files and its stored records its own way; :data:`REPLAYS` is the
one table that names them (a game registry takes it over). The libraries are imported
inside the functions, so `gops` starts without them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from gops_records.cli.app import EXIT_INVALID, EXIT_OK, app, fail, fail_on
from gops_records.cli.gin_replay import close_gin, find_gin, replay_gin, replay_gin_stored
from gops_records.cli.options import DbOption
from gops_records.cli.validate_cmd import EncodingOption
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    import duckdb

#: What --game N (a number, the old meaning) prints on stderr before it is obeyed.
DEPRECATED_NUMBER = ("--game N for a game's number in a file is deprecated: use --number N "
                     "(--game names the game kind: gops or gin)")


@dataclass(frozen=True, slots=True)
class Found:
    """A stored record a reference or an id names: its game kind, ``game`` or ``hand``,
    and its id."""

    kind: str
    what: str
    id: int

    @property
    def ref(self) -> str:
        from gops_records.core.games_query import game_ref

        return game_ref(self.id)


@dataclass(frozen=True, slots=True)
class GameReplay:
    """How `gops replay` shows one game kind: its name in messages, the stored records a
    text names and those close to it, a stored record, and record N of a file."""

    label: str
    stored_noun: str
    is_file: Callable[[Path], bool]
    replay_file: Callable[[Path, int, str], NoReturn]
    find: Callable[[duckdb.DuckDBPyConnection, str], list[Found]]
    close: Callable[[duckdb.DuckDBPyConnection, str], list[str]]
    replay_stored: Callable[[Path | None, Found], NoReturn]


@app.command("replay")
def replay(
    what: Annotated[str, typer.Argument(
        metavar="FILE|GAME", show_default=False,
        help="A record file (.gops, .gin, .ginsheet), or a stored game or Gin Rummy hand: "
             "its id or its reference (g...), as gops games lists them.")],
    number: Annotated[int | None, typer.Option(
        "--number", min=1, metavar="N", show_default=False,
        help="Which record of the file (1-based): a game of a .gops file, a hand of a .gin "
             "file, a sheet of a .ginsheet file.  [default: 1]")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", "-g", metavar="gops|gin", show_default=False,
        autocompletion=lambda: list(REPLAYS),
        help="The game kind: look a reference up among the stored Gops games only, or "
             "among the Gin Rummy games and hands only (default: both). A number here is "
             "the deprecated form of --number N.")] = None,
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
    from gops_records.core.games_query import looks_like_game

    path = Path(what)
    stored = not path.exists() and looks_like_game(what)
    if stored and number is not None:
        fail(f"--number N picks a record of a file; {what} names a stored record")
    kind, number = _kind_and_number(game, number)
    if stored:
        replay_stored(what, db, (kind,) if kind else tuple(REPLAYS))
    file_kind = next((k for k, r in REPLAYS.items() if r.is_file(path)), DEFAULT_KIND)
    if kind is not None and kind != file_kind:
        fail(f"{what} is a {REPLAYS[file_kind].label} file, not {REPLAYS[kind].label} "
             "(--game names the game kind)")
    REPLAYS[file_kind].replay_file(path, number, encoding)


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
    if kind not in REPLAYS:
        fail(f"--game takes 'gops' or 'gin' (the game kind), not {game!r}; a record's "
             "number in a file is --number N")
    return kind, number or 1


def replay_gops_file(path: Path, number: int, encoding: str) -> NoReturn:
    """Print game ``number`` (1-based) of a .gops file or round log; exit 0 if valid."""
    from gops_records.cli.replay_table import render_replay
    from gops_records.core.sources import read_text, source_name
    from gops_records.games.gops.notation import read_reports

    try:
        text = read_text(path, encoding)
    except GopsError as exc:
        fail_on(exc)
    reports = read_reports(text)
    count = len(reports)
    if 1 <= number <= count:
        report = reports[number - 1]
        typer.echo(render_replay(report, f"{source_name(path)} game {number}"))
        raise typer.Exit(EXIT_OK if report.valid else EXIT_INVALID)
    if not count:
        fail(f"{source_name(path)} holds no games")
    noun = "game" if count == 1 else "games"
    fail(f"{source_name(path)} has {count} {noun}; there is no game {number}")


def choose(text: str, found: list[Found], close: tuple[str, ...] | list[str],
           noun: str = "game") -> Found:
    """The one stored record ``text`` names; :class:`GameNotFound` when it names none
    (with the ``close`` references or ids) or several (naming each)."""
    from gops_records.core.games_query import REF_PATTERN, GameNotFound

    if len(found) == 1:
        return found[0]
    if found:
        each = ", ".join(f"{f.what} {f.ref} ({REPLAYS[f.kind].label})" for f in found)
        raise GameNotFound(f"{text!r} names several stored records: {each}; give more of "
                           "its hex digits, or --game gops|gin")
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    what = "reference" if REF_PATTERN.fullmatch(text.strip()) else "id"
    raise GameNotFound(f"no stored {noun} has the {what} {text!r}{hint} (gops games lists "
                       "them; gops games --game gin the Gin Rummy ones)")


def replay_stored(what: str, db: Path | None, kinds: tuple[str, ...]) -> NoReturn:
    """Replay the stored record ``what`` names among the game ``kinds``."""
    from gops_records.core.store.db import reading

    noun = REPLAYS[kinds[0]].stored_noun if len(kinds) == 1 else "game"
    try:
        with reading(db) as con:
            found = [f for kind in kinds for f in REPLAYS[kind].find(con, what)]
            close = [] if found else [c for kind in kinds for c in REPLAYS[kind].close(con, what)]
        chosen = choose(what, found, close, noun)
    except GopsError as exc:
        fail_on(exc)
    REPLAYS[chosen.kind].replay_stored(db, chosen)


def find_gops(con: duckdb.DuckDBPyConnection, text: str) -> list[Found]:
    """The stored Gops games ``text`` names."""
    from gops_records.core.games_query import id_matches

    return [Found("gops", "game", game_id) for game_id in id_matches(con, text)]


def close_gops(con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
    """References or ids of stored Gops games close to ``text``."""
    from gops_records.core.games_query import close_ids

    return close_ids(con, text)


def replay_gops_stored(db: Path | None, found: Found) -> NoReturn:
    """Replay a stored game, rebuilt from the database as gops export writes it."""
    from gops_records.cli.replay_table import render_replay
    from gops_records.core.export import iter_records
    from gops_records.core.games_query import GameFilter
    from gops_records.core.store.db import reading, resolve_db
    from gops_records.games.gops.validate import validate_game

    game_id = found.id
    try:
        with reading(db) as con:
            (record,) = iter_records(con, GameFilter(game_ids=(game_id,)))
            source, position = con.execute("SELECT source, source_game FROM games WHERE "
                                           "game_id = ?", [game_id]).fetchone()
    except GopsError as exc:
        fail_on(exc)
    report = validate_game(record)
    title = (f"game {found.ref} ({game_id}) in {resolve_db(db)}, first imported from "
             f"{source} game {position}")
    typer.echo(render_replay(report, title))
    raise typer.Exit(EXIT_OK if report.valid else EXIT_INVALID)


def _is_gin_file(path: Path) -> bool:
    from gops_records.games.gin.checking import gin_kind

    return gin_kind(path) is not None


#: The game kinds `gops replay` knows, by the name --game takes. A file is of the kind
#: whose is_file says so, else of :data:`DEFAULT_KIND` (a .gops file or a round log).
REPLAYS: dict[str, GameReplay] = {
    "gops": GameReplay("Gops", "Gops game", lambda path: path.suffix.lower() == ".gops",
                       replay_gops_file, find_gops, close_gops, replay_gops_stored),
    "gin": GameReplay("Gin Rummy", "Gin Rummy game or hand", _is_gin_file, replay_gin,
                      find_gin, close_gin, replay_gin_stored),
}
DEFAULT_KIND = "gops"
