"""How the schema is put together from its owners, and checked, before any migration runs.

The store owns the mechanism and the shared tables (imports, rejects, source files, the
mark: :mod:`gops_records.core.store.schema`); each game owns its tables, and each derived
table belongs to the feature that fills it. They declare :class:`Migration` steps under a
registry part (:mod:`gops_records.core.registry`): a game's own tables under ``"schema"``,
a derived table under ``"schema.<feature>"`` (e.g. ``"schema.bid_groups"``). The store
never imports them: :func:`declared` loads every such part of every installed game
(:func:`gops_records.core.store.schema.versions` adds the shared tables and checks them).

**One version, several owners.** A version is one step of the schema, one transaction,
one row of ``schema_migrations``: its number and its name are the contract with every
database already made. Most versions have one owner; a version may have several (version 1
made the shared tables and the Gops ones at once): each owner declares its part of it at
the same number, and exactly one part carries the version's name (the others leave
``name`` None). Within a version the parts run in a fixed order: the store's first, then
the games' in the registry's order (:func:`gops_records.core.registry.games`), each game's
parts in the order its plug-in lists them. So a database made today and one upgraded from
any older version hold the same schema, and the order never depends on the machine.

**The check.** The collected versions must run 1, 2, ... with no gap, and each must have
exactly one name; a part that is not a sequence of :class:`Migration` is refused too.
A plug-in that breaks this (a missing game, a renumbered step, two names for one version)
stops every open of a database with :class:`SchemaBroken`, before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import duckdb

from gops_records.core import registry
from gops_records.core.errors import GopsError

#: The registry part a game declares its own tables under; a derived table's feature
#: declares it under ``PART + "." + feature``.
PART = "schema"
#: Who owns the shared tables, in messages and in :attr:`Version.parts`.
STORE = "store"


@dataclass(frozen=True, slots=True)
class Migration:
    """One owner's part of one schema version: its SQL, then (if any) a step that fills the
    new tables from the rows already stored, in the same transaction. ``fill`` is the step
    or a ``"module:attribute"`` reference to it, loaded only when it runs (so reading the
    schema at every open imports nothing heavy). ``name`` is what
    ``schema_migrations`` records for the version (one part of a version has it, the others
    None); ``tables`` are the tables and views it adds that users may query."""

    version: int
    name: str | None
    sql: str
    fill: Callable[[duckdb.DuckDBPyConnection], None] | str | None = None
    tables: tuple[str, ...] = ()


#: What a ``"schema"`` or ``"schema.<feature>"`` part of a game is: its steps, any order.
SchemaPart: TypeAlias = Sequence[Migration]


@dataclass(frozen=True, slots=True)
class Version:
    """One version as it is applied and recorded: its number, its name and the parts of
    its owners in the order they run (owner, part)."""

    version: int
    name: str
    parts: tuple[tuple[str, Migration], ...]


class SchemaBroken(GopsError):
    """The installed games declare schema steps that do not make one schema."""

    code = "schema-broken"


def check(declared: Iterable[tuple[str, object]]) -> tuple[Version, ...]:
    """The versions the parts ``(owner, steps)`` make, in order, or SchemaBroken saying
    which owner broke what. The order of ``declared`` is the order of parts in a version."""
    parts: dict[int, list[tuple[str, Migration]]] = {}
    problems = []
    for owner, steps in declared:
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence) \
                or not all(isinstance(step, Migration) for step in steps):
            problems.append(f"{owner} declares its schema as {type(steps).__name__}, not a "
                            "sequence of gops_records.core.store.migrations.Migration")
            continue
        for step in steps:
            parts.setdefault(step.version, []).append((owner, step))
    problems += [f"version {v} is declared by no installed part"
                 for v in range(1, max(parts, default=0) + 1) if v not in parts]
    problems += [f"version {v} ({', '.join(o for o, _ in parts[v])}) is not a positive number"
                 for v in sorted(parts) if not isinstance(v, int) or v < 1]
    versions = []
    for v in sorted(p for p in parts if isinstance(p, int) and p >= 1):
        named = [(owner, step.name) for owner, step in parts[v] if step.name is not None]
        if len(named) != 1:
            owners = ", ".join(o for o, _ in parts[v])
            problems.append(f"version {v} has no name (its parts: {owners}); one of them must "
                            "name it" if not named else
                            f"version {v} has {len(named)} names, one a version: "
                            + "; ".join(f"{o}: {n!r}" for o, n in named))
            continue
        versions.append(Version(v, named[0][1], tuple(parts[v])))
    if problems:
        raise SchemaBroken("the schema steps of the installed games do not make one schema: "
                           + "; ".join(problems) + ". Reinstall gops-records (pip install -e "
                           ".) or fix the plug-in that declares them")
    return tuple(versions)


def declared(shared: SchemaPart) -> list[tuple[str, object]]:
    """Every part of the schema: ``shared`` (the store's tables), then each installed game's
    ``"schema"`` and ``"schema.<feature>"`` parts (owner ``"game:part"``), in order."""
    found: list[tuple[str, object]] = [(STORE, shared)]
    for game in registry.games():
        for part in game.parts:
            if part == PART or part.startswith(PART + "."):
                found.append((f"{game.name}:{part}", game.part(part)))
    return found


def tables(versions: Sequence[Version]) -> tuple[str, ...]:
    """The tables and views users may query (docs/schema.md), in the order they were added."""
    return tuple(dict.fromkeys(table for version in versions
                               for _, step in version.parts for table in step.tables))


def fill_step(part: Migration) -> Callable[[duckdb.DuckDBPyConnection], None] | None:
    """The fill step of ``part``, loading it if it is named by reference."""
    return registry.load(part.fill) if isinstance(part.fill, str) else part.fill
