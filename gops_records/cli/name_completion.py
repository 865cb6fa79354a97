"""Shell completion of player and event names (``--player``, ``--event``, ``gops scout``,
``gops alias``): the stored names starting as typed, compared by their key (case, accents
and spacing ignored), read from the database a ``--db`` already on the line names (else the
default). A completion must never get in the way: any failure (no database, a held lock,
an old file) completes nothing, and the database is opened read-only for at most a second.
"""

from __future__ import annotations

from typing import Any

#: How long a completion waits for a held database before giving up (seconds).
TIMEOUT = 1.0
#: At most this many names are offered.
LIMIT = 200


def _db(ctx: Any) -> Any:
    params = getattr(ctx, "params", None) or {}
    return params.get("db")


def names_starting(ctx: Any, incomplete: str, kind: str) -> list[str]:
    """The stored ``kind`` names (``player`` or ``event``) whose key starts with the key of
    ``incomplete``, most played first (as the database shows them: aliases merged)."""
    try:
        from gops_records.core.names import NameKind, name_key
        from gops_records.core.store.aliases import known_names
        from gops_records.core.store.db import reading

        key = name_key(incomplete)
        with reading(_db(ctx), timeout=TIMEOUT) as con:
            counts = known_names(con, NameKind(kind))
        found = sorted((n for n in counts if name_key(n).startswith(key)),
                       key=lambda n: (-counts[n], n))
        return found[:LIMIT]
    except Exception:  # noqa: BLE001 (a completion fails silently: see the docstring)
        return []


def complete_player(ctx: Any, incomplete: str) -> list[str]:
    """Typer ``autocompletion`` of a player's name."""
    return names_starting(ctx, incomplete, "player")


def complete_event(ctx: Any, incomplete: str) -> list[str]:
    """Typer ``autocompletion`` of an event's name."""
    return names_starting(ctx, incomplete, "event")


def complete_name(ctx: Any, incomplete: str) -> list[str]:
    """Typer ``autocompletion`` of a player's or an event's name (``gops alias``)."""
    return complete_player(ctx, incomplete) + complete_event(ctx, incomplete)
