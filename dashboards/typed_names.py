"""Names in links as people type them: a URL's ``?player=marta`` or ``?event=thursday+club``
picks the stored ``Marta`` / ``Thursday Club``, by the one rule every command uses
(:func:`gops_records.core.names.matching`: case, accents and spacing ignored). A name that
matches nothing is kept as typed, so the page says that no game matches instead of showing
other games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from gops_records.core.names import matching

F = TypeVar("F")


def as_stored(typed: str | None, names: Sequence[str]) -> str | None:
    """The stored spelling among ``names`` that ``typed`` names (its exact spelling if
    there), else ``typed`` as it is."""
    if typed is None:
        return None
    found = matching(typed, names)
    return found[0] if found else typed


def all_as_stored(typed: Iterable[str], names: Sequence[str]) -> tuple[str, ...]:
    """Every stored spelling each of ``typed`` names (a filter's list: ``thursday club``
    keeps both ``Thursday Club`` and ``Thursday club``, as the commands do), or the typed
    name as it is; each once, in order."""
    out: dict[str, None] = {}
    for t in typed:
        out.update(dict.fromkeys(matching(t, names) or [t]))
    return tuple(out)


def stored_filters(f: F, events: Sequence[str], players: Sequence[str]) -> F:
    """A page's filters (any dataclass with ``events`` and ``players``) from a link, with
    their names as stored."""
    return replace(f, events=all_as_stored(f.events, events),  # type: ignore[type-var]
                   players=all_as_stored(f.players, players))
