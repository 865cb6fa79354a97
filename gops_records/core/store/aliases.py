"""Name aliases: one spelling of a player or an event shown as another in every view,
without rewriting a record (``gops alias``, the table ``name_aliases``, schema version 15).

How the merge reaches every view through one place: each game declares, as its registry
part ``names`` (a :class:`GameNames`), which columns of which of its tables hold player and
event names, and where its players and events are counted. Every read-only connection
(:func:`gops_records.core.store.db.connect` and the dashboard's shared reader's cursors)
gets, when the database has aliases, a temporary view over each such table, named as the
table, with those columns mapped through the aliases (:func:`install`). DuckDB reads the
temporary schema first, so every page, every command and every view built on those tables
(``bids``, ``gin_player_hands``) shows the merged names; nothing else is edited and the
stored rows stay as written. A database without aliases gets no view at all. Writers and
``gops export`` (a backup) read the stored spellings.

Users' SQL: the macro ``gops_name(kind, name)`` (created by version 15) gives a name as the
views show it, e.g. ``SELECT gops_name('player', player), count(*) FROM game_players GROUP BY
1``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import duckdb

from gops_records.core import registry
from gops_records.core.errors import GopsError
from gops_records.core.names import NameKind, UnknownName, matching, name_key
from gops_records.core.store.schema import ALIAS_TABLE

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ALIAS_TABLE", "Alias", "AliasRefused", "GameNames", "add_alias", "aliases",
           "canonical", "install", "known_names", "merged_views", "remove_alias"]

class AliasRefused(GopsError, ValueError):
    """An alias that cannot be stored or removed: it names nothing known, would make a
    cycle or a chain, or is already there."""

    code = "alias"


@dataclass(frozen=True, slots=True)
class GameNames:
    """A game's part ``names``: where it stores player and event names.

    ``columns``: table -> ((column, kind), ...), every column an alias maps. ``players`` and
    ``events``: SQL selecting ``name, game_id, date`` (one row per name and game), for the
    lists and counts of ``gops players`` / ``gops events``.
    """

    columns: tuple[tuple[str, tuple[tuple[str, NameKind], ...]], ...]
    players: str
    events: str

    def source(self, kind: NameKind) -> str:
        return self.players if kind is NameKind.PLAYER else self.events


@dataclass(frozen=True, slots=True)
class Alias:
    """``alias`` is shown as ``name`` (both of ``kind``) since ``added_at``."""

    kind: NameKind
    alias: str
    name: str
    added_at: dt.datetime

    def as_json(self) -> dict:
        return {"kind": str(self.kind), "alias": self.alias, "name": self.name,
                "added_at": self.added_at.isoformat(timespec="seconds")}


def game_names() -> tuple[tuple[registry.Game, GameNames], ...]:
    """Every installed game's part ``names``."""
    return tuple(registry.parts("names"))


def aliases(con: duckdb.DuckDBPyConnection) -> list[Alias]:
    """Every stored alias, by kind then alias (read from the stored table, never a view)."""
    rows = con.execute(f"SELECT kind, alias, name, added_at FROM {ALIAS_TABLE} "
                       "ORDER BY kind, alias").fetchall()
    return [Alias(NameKind(r[0]), r[1], r[2], r[3]) for r in rows]


def canonical(found: Iterable[Alias], kind: NameKind, name: str) -> str:
    """``name`` as the views show it."""
    for a in found:
        if a.kind is kind and a.alias == name:
            return a.name
    return name


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _mapped(column: str, found: list[Alias], kind: NameKind) -> str | None:
    cases = [f"WHEN {_sql_text(a.alias)} THEN {_sql_text(a.name)}" for a in found
             if a.kind is kind]
    if not cases:
        return None
    return f'CASE "{column}" {" ".join(cases)} ELSE "{column}" END AS "{column}"'


def merged_views(con: duckdb.DuckDBPyConnection) -> tuple[str, ...]:
    """The statements that put the merged views in a connection's temporary schema (one
    per table holding a name an alias maps); none for a database without aliases."""
    try:
        found = aliases(con)
    except duckdb.CatalogException:  # a database made before version 15 (a test's)
        return ()
    if not found:
        return ()
    catalog = con.execute("SELECT current_database()").fetchone()[0]
    existing = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_catalog = current_database() AND table_schema = 'main'").fetchall()}
    out: list[str] = []
    for _game, names in game_names():
        for table, columns in names.columns:
            if table not in existing:
                continue
            mapped = [m for column, kind in columns
                      if (m := _mapped(column, found, kind)) is not None]
            if mapped:
                out.append(f'CREATE OR REPLACE TEMP VIEW "{table}" AS SELECT * REPLACE '
                           f'({", ".join(mapped)}) FROM "{catalog}".main."{table}"')
    return tuple(out)


def install(con: duckdb.DuckDBPyConnection, views: tuple[str, ...] | None = None) -> int:
    """Put the merged views (:func:`merged_views`, or ``views`` made before for the same
    database) in ``con``'s temporary schema; how many. Read-only connections only: a writer
    would write into the view. A cursor has a temporary schema of its own: install there."""
    views = merged_views(con) if views is None else views
    for statement in views:
        con.execute(statement)
    return len(views)


def known_names(con: duckdb.DuckDBPyConnection, kind: NameKind, game: str | None = None
                ) -> dict[str, int]:
    """Every stored spelling of ``kind`` in every game (or in ``game``), with its number of
    games (as the connection shows them: merged on a read-only connection with aliases)."""
    counts: dict[str, int] = {}
    for g, names in game_names():
        if game is not None and g.name != game:
            continue
        rows = con.execute(f"SELECT name, count(DISTINCT game_id) FROM ({names.source(kind)}) "
                           "WHERE name IS NOT NULL GROUP BY name").fetchall()
        for name, n in rows:
            counts[name] = counts.get(name, 0) + int(n)
    return counts


def stored_spellings(con: duckdb.DuckDBPyConnection, kind: NameKind, game: str | None = None
                     ) -> set[str]:
    """The spellings :func:`known_names` counts, without counting them: a name's lookup
    needs no counts, and counting each name's games over a million games cost 0.45 s of
    CPU against 0.12 s for the names alone."""
    out: set[str] = set()
    for g, names in game_names():
        if game is not None and g.name != game:
            continue
        rows = con.execute(f"SELECT DISTINCT name FROM ({names.source(kind)}) "
                           "WHERE name IS NOT NULL").fetchall()
        out.update(name for name, in rows)
    return out


def _stored(con: duckdb.DuckDBPyConnection, typed: str, kind: NameKind | None,
            other_than: str | None = None) -> tuple[NameKind, str]:
    """The kind and stored spelling ``typed`` names (exact spelling first, then by key),
    ``other_than`` left out (the alias, when its target is typed)."""
    kinds = [kind] if kind is not None else list(NameKind)
    hits = {k: [n for n in matching(typed, known_names(con, k)) if n != other_than]
            for k in kinds}
    hits = {k: v for k, v in hits.items() if v}
    if not hits:
        what = f"{kind}" if kind else "player or event"
        raise AliasRefused(f"no stored {what} is named {typed!r} (gops players and gops "
                           "events list them)")
    if len(hits) > 1:
        raise AliasRefused(f"{typed!r} names both a player and an event: say which with "
                           "--kind player or --kind event")
    (found_kind, spellings), = hits.items()
    if len(spellings) > 1 and spellings[0] != typed:
        raise AliasRefused(f"{typed!r} matches {', '.join(map(repr, spellings))}: type the "
                           "spelling exactly")
    return found_kind, spellings[0]


def add_alias(con: duckdb.DuckDBPyConnection, alias: str, name: str,
              kind: NameKind | None = None) -> Alias:
    """Show ``alias`` as ``name`` in every view (both stored names of one kind, inferred
    when not given). Refused (:class:`AliasRefused`) for a name nothing has, one spelling
    twice, an alias already set, a cycle (``name`` is an alias of ``alias``), or a chain
    (``name`` is itself an alias, or ``alias`` has aliases of its own)."""
    alias_kind, alias_stored = _stored(con, alias, kind)
    if name in (alias, alias_stored):
        raise AliasRefused(f"{alias!r} and {name!r} are the same stored name")
    # NAME is looked for among the names of ALIAS's kind: an alias joins one kind
    _kind, name_stored = _stored(con, name, alias_kind, other_than=alias_stored)
    if alias_stored == name_stored:
        raise AliasRefused(f"{alias!r} and {name!r} are the same stored name")
    found = [a for a in aliases(con) if a.kind is alias_kind]
    by_alias = {a.alias: a.name for a in found}
    if by_alias.get(name_stored) == alias_stored:
        raise AliasRefused(f"{name_stored!r} is already an alias of {alias_stored!r}: "
                           f"the new alias would make a cycle (gops alias --remove "
                           f"{name_stored!r} first, if you want the other way round)")
    if alias_stored in by_alias:
        raise AliasRefused(f"{alias_stored!r} is already an alias of "
                           f"{by_alias[alias_stored]!r} (gops alias --remove "
                           f"{alias_stored!r} first)")
    if name_stored in by_alias:
        raise AliasRefused(f"{name_stored!r} is itself an alias of {by_alias[name_stored]!r}"
                           f": alias {alias_stored!r} to {by_alias[name_stored]!r}")
    fed = sorted(a for a, n in by_alias.items() if n == alias_stored)
    if fed:
        raise AliasRefused(f"{alias_stored!r} has aliases of its own ({', '.join(map(repr, fed))}"
                           f"): alias them to {name_stored!r} first, or remove them")
    added = Alias(alias_kind, alias_stored, name_stored,
                  dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0))
    con.execute(f"INSERT INTO {ALIAS_TABLE} VALUES (?, ?, ?, ?)",
                [str(added.kind), added.alias, added.name, added.added_at])
    return added


def remove_alias(con: duckdb.DuckDBPyConnection, alias: str,
                 kind: NameKind | None = None) -> Alias:
    """Undo an alias (its alias spelling typed as people type it); the removed alias."""
    key = name_key(alias)
    found = [a for a in aliases(con) if (kind is None or a.kind is kind)
             and name_key(a.alias) == key]
    exact = [a for a in found if a.alias == alias]
    found = exact or found
    if not found:
        raise AliasRefused(f"no alias {alias!r} is stored (gops alias --list shows them)")
    if len(found) > 1:
        raise AliasRefused(f"{alias!r} matches {len(found)} aliases: give --kind or the "
                           "exact spelling")
    (gone,) = found
    con.execute(f"DELETE FROM {ALIAS_TABLE} WHERE kind = ? AND alias = ?",
                [str(gone.kind), gone.alias])
    return gone


def merged_counts(counts: Mapping[str, int], found: Iterable[Alias], kind: NameKind
                  ) -> dict[str, int]:
    """``counts`` of stored spellings summed under the names the views show."""
    found = list(found)
    out: dict[str, int] = {}
    for name, n in counts.items():
        shown = canonical(found, kind, name)
        out[shown] = out.get(shown, 0) + n
    return out


def resolve_typed(con: duckdb.DuckDBPyConnection, kind: NameKind, typed: Iterable[str],
                  game: str | None = None, stored: Iterable[str] | None = None
                  ) -> tuple[str, ...]:
    """Every stored spelling typed names name (case, accents and spacing ignored) and the
    names the views show for them: a filter's list that works on the merged views and on
    the stored tables alike. :class:`UnknownName` (with close names) for one naming none.
    ``stored``: :func:`stored_spellings` when the caller has it already."""
    from gops_records.core.names import resolve

    found = aliases(con)
    if stored is None:
        stored = known_names(con, kind, game)
    known = list(stored) + [a.alias for a in found if a.kind is kind]
    what = str(kind)
    listed_by = ("gops players" if kind is NameKind.PLAYER else "gops events") + (
        f" --game {game}" if game else "")
    out: dict[str, None] = {}
    for name in typed:
        for stored in resolve(name, known, what=what, listed_by=listed_by):
            shown = canonical(found, kind, stored)
            out[stored] = None
            out[shown] = None
            out.update(dict.fromkeys(a.alias for a in found
                                     if a.kind is kind and a.name == shown))
    return tuple(out)


__all__ += ["UnknownName", "merged_counts", "resolve_typed"]


def resolve_one(con: duckdb.DuckDBPyConnection, kind: NameKind, typed: str,
                game: str | None = None) -> str:
    """The one name ``typed`` names, as the connection shows it (for a command about one
    player: ``gops scout marta``): its exact spelling if stored, else the one name of its
    key. :class:`UnknownName` for none (with close names) or for several spellings no
    alias joins (saying how to join them)."""
    visible = stored_spellings(con, kind, game)  # read once: a scan of every game
    found = resolve_typed(con, kind, [typed], game=game, stored=sorted(visible))
    shown = list(dict.fromkeys(canonical(aliases(con), kind, n) for n in found))
    shown = [n for n in shown if n in visible] or shown
    if typed in shown or len(shown) == 1:
        return typed if typed in shown else shown[0]
    raise UnknownName(f"{typed!r} matches {', '.join(map(repr, shown))}: type one exactly, "
                      f"or join them with gops alias {shown[1]!r} {shown[0]!r}")


__all__ += ["resolve_one"]
