"""The game registry: how a game plugs into the shared layers, which never name one.

A game is a plug-in (OpenSpiel's game registry and python-chess's ``find_variant`` are the
models). Each game is a package under :mod:`gops_records.games` whose ``plugin`` module
declares one :class:`Game` as ``GAME``; :func:`games` finds them by listing that package
(``games/gops/plugin.py``, ``games/gin/plugin.py``), so adding a game touches no shared
file. (Entry points would let games live in other distributions, but reading every
installed distribution's metadata cost about 90 ms at every ``gops`` start.)

The importer, the quarantine, the CLI commands, ``gops upgrade`` and the dashboard's
navigation ask this module (:func:`games`, :func:`game`, :func:`file_kind_of`) and never
import a game; import-linter holds that in CI (pyproject.toml, ``[tool.importlinter]``).

A :class:`Game` is light: names, suffixes and *references* (``"module:attribute"``) to the
parts that do the work, loaded only when used (:func:`load`), so ``gops --help`` does not
import polars, DuckDB or a rules engine. The protocol each part follows is declared by the
shared layer that calls it (e.g. the reader protocol every notation follows
in :mod:`gops_records.core.reading`), next to its caller.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from gops_records.core.errors import GopsError

#: The package every game lives in, one subpackage each.
GAMES_PACKAGE = "gops_records.games"
#: The module of a game's package that declares its :class:`Game` (as ``GAME``).
PLUGIN_MODULE = "plugin"


class UnknownGameError(GopsError, ValueError):
    """A game or a notation was named that no installed game provides."""


@dataclass(frozen=True, slots=True)
class FileKind:
    """One notation a game reads: its name (``gops validate`` and the store's
    ``source_files.reader`` say it), the file suffixes that select it and a reference to its
    reader (the protocol is the importer's). ``order`` sorts the files of one import: a
    notation checked against stored rows of another (a Gin score sheet against the full
    hands) reads after it."""

    name: str
    suffixes: tuple[str, ...]
    label: str
    reader: str
    order: int = 0

    def matches(self, path: str | PurePath) -> bool:
        """Whether the file at ``path`` is written in this notation, by its suffix(es)."""
        name = PurePath(path).name.lower()
        return any(name.endswith(suffix) for suffix in self.suffixes)


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the shared layers see it. Every reference is ``"module:attribute"``,
    loaded by :func:`load` when first used; ``None`` where the game has no such part."""

    name: str                          # the key: ``--game gops``; stored as the game kind
    title: str                         # for people: "Gops", "Gin Rummy"
    files: tuple[FileKind, ...]        # the notations it reads, in help order
    parts: dict[str, str] = field(default_factory=dict)  # part name -> "module:attribute"
    order: int = 0                     # where it comes in lists and help (then by name)

    def part(self, name: str) -> Any:
        """The loaded part called ``name`` (e.g. ``"store"``, ``"replay"``,
        ``"simulator"``, ``"pages"``), or ``None`` if this game has none."""
        ref = self.parts.get(name)
        return None if ref is None else load(ref)

    @property
    def notations(self) -> str:
        """The notations as help texts name them: ``.gops records, CSV / JSONL round logs``."""
        return ", ".join(kind.label for kind in self.files)


def load(ref: str) -> Any:
    """The object a ``"module:attribute"`` reference names, importing its module once."""
    module, _, attribute = ref.partition(":")
    return _loaded(module, attribute)


@functools.cache
def _loaded(module: str, attribute: str) -> Any:
    obj: Any = importlib.import_module(module)
    for name in attribute.split(".") if attribute else ():
        obj = getattr(obj, name)
    return obj


@functools.cache
def games() -> tuple[Game, ...]:
    """Every installed game, by its ``order`` then its name, so that every run and every
    machine sees the same order."""
    package = importlib.import_module(GAMES_PACKAGE)
    found = [load(f"{GAMES_PACKAGE}.{info.name}.{PLUGIN_MODULE}:GAME")
             for info in pkgutil.iter_modules(package.__path__) if info.ispkg]
    loaded = tuple(sorted(found, key=lambda g: (g.order, g.name)))
    if not loaded:
        raise UnknownGameError(f"no game is installed: {GAMES_PACKAGE} holds no game package")
    names = [g.name for g in loaded]
    if len(set(names)) != len(names):
        raise UnknownGameError(f"two installed games share a name: {names}")
    return loaded


def game_names() -> tuple[str, ...]:
    """The names ``--game`` accepts, e.g. ``("gin", "gops")``."""
    return tuple(g.name for g in games())


def game(name: str) -> Game:
    """The game called ``name`` (case-insensitive), or an error naming the choices."""
    for g in games():
        if g.name == name.lower():
            return g
    raise UnknownGameError(f"no game is called {name!r}; choose one of: "
                           f"{', '.join(game_names())}")


def file_kinds() -> tuple[tuple[Game, FileKind], ...]:
    """Every notation of every game, with its game."""
    return tuple((g, kind) for g in games() for kind in g.files)


def suffixes() -> tuple[str, ...]:
    """Every file suffix some game reads (what ``gops import FOLDER`` looks for)."""
    return tuple(s for _, kind in file_kinds() for s in kind.suffixes)


def file_kind_of(path: str | PurePath) -> tuple[Game, FileKind] | None:
    """The game and notation of the file at ``path`` by its suffix, or ``None``. The longest
    matching suffix wins, so ``.gin`` never claims a ``.ginsheet``."""
    matches = [(len(s), g, kind) for g, kind in file_kinds() for s in kind.suffixes
               if PurePath(path).name.lower().endswith(s)]
    if not matches:
        return None
    _, g, kind = max(matches, key=lambda m: m[0])
    return g, kind


def file_kind(name: str) -> tuple[Game, FileKind]:
    """The notation called ``name`` (``gops``, ``csv``, ``jsonl``, ``gin``, ``ginsheet``)."""
    for g, kind in file_kinds():
        if kind.name == name:
            return g, kind
    raise UnknownGameError(f"no notation is called {name!r}; choose one of: "
                           f"{', '.join(k.name for _, k in file_kinds())}")


def parts(name: str) -> Iterable[tuple[Game, Any]]:
    """Every game's loaded part called ``name``, skipping games without one."""
    for g in games():
        if name in g.parts:
            yield g, g.part(name)
