"""`gops replay`'s shared half: what a game's part ``replay`` does (:class:`GameReplay`),
and which stored record a reference or an id names among the games asked (:func:`choose`).

Each game renders its own files and stored records; the command line (cli/replay_cmd.py)
asks the registry for the games and never names one. Light on purpose: `gops replay`
imports it before it knows whether it reads a file or the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gops_records.core import registry
from gops_records.core.errors import GopsError
from gops_records.core.game_refs import REF_PATTERN, game_ref

if TYPE_CHECKING:
    import duckdb

__all__ = ["Found", "GameReplay", "Replay", "ReplayError", "choose"]


class ReplayError(GopsError):
    """A replay that cannot be shown: no such record in the file, or nothing to replay."""

    code = "replay"


@dataclass(frozen=True, slots=True)
class Found:
    """A stored record a reference or an id names: its game (the registry's name),
    ``game`` or ``hand``, and its id."""

    game: str
    what: str
    id: int

    @property
    def ref(self) -> str:
        return game_ref(self.id)


@dataclass(frozen=True, slots=True)
class Replay:
    """A record shown: the text printed on stdout, whether the record is valid (exit 0,
    else 1), and notes printed on stderr before it (``gops: note: ...``)."""

    text: str
    valid: bool
    notes: tuple[str, ...] = ()


class GameReplay(Protocol):
    """A game's part ``replay``: how `gops replay` shows its files and stored records
    (messages name the game by its registry title).
    Each method raises a GopsError (shown as ``gops: error: ...``, exit 2) for a record
    it cannot show."""

    @property
    def stored_noun(self) -> str:
        """What its stored records are called (``Gops game``, ``Gin Rummy game or hand``)."""

    def replay_file(self, path: Path, number: int, encoding: str) -> Replay:
        """Record ``number`` (1-based) of the file at ``path``: one of the game's notations
        by its suffix (:func:`gops_records.core.registry.file_kind_of`), or for the first
        game any file no game's suffix claims."""

    def find(self, con: duckdb.DuckDBPyConnection, text: str) -> list[Found]:
        """The stored records ``text`` (an id or a reference) names."""

    def close(self, con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
        """References or ids of stored records close to ``text``, for a "did you mean"."""

    def replay_stored(self, db: Path | None, found: Found) -> Replay:
        """A stored record of this game, rebuilt from the database ``db``."""


def choose(text: str, found: list[Found], close: tuple[str, ...] | list[str],
           noun: str = "game") -> Found:
    """The one stored record ``text`` names; :class:`GameNotFound` when it names none
    (with the ``close`` references or ids) or several (naming each, with its game)."""
    from gops_records.core.games_query import GameNotFound

    if len(found) == 1:
        return found[0]
    games = registry.games()
    if found:
        each = ", ".join(f"{f.what} {f.ref} ({registry.game(f.game).title})" for f in found)
        raise GameNotFound(f"{text!r} names several stored records: {each}; give more of "
                           f"its hex digits, or --game {'|'.join(g.name for g in games)}")
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    what = "reference" if REF_PATTERN.fullmatch(text.strip()) else "id"
    listed = "; ".join(["gops games lists them", *(
        f"gops games --game {g.name} the {g.title} ones" for g in games[1:])])
    raise GameNotFound(f"no stored {noun} has the {what} {text!r}{hint} ({listed})")
