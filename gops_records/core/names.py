"""Player and event names as people type them: one matching key, one resolver, one
near-duplicate finder, for every place a name is typed and every game.

A typed name matches a stored one when their :func:`name_key` is equal: case folded
(``str.casefold``: ``STRASSE`` = ``straße``), accents taken off (Unicode NFKD, then the
combining marks dropped: ``Jose`` = ``José``, ``ﬁ`` = ``fi``), runs of white space made one
space and the ends trimmed. The stored spelling is what every output shows; the key is
only for matching.

:func:`near_duplicates` finds names a club probably meant as one: the same key (case,
accents, spacing), or keys one edit apart (Levenshtein distance 1, measured by
``rapidfuzz``, a well-kept C++ library; candidates come from the deletion neighbourhood of
each key, so the search grows with the number of names, not its square). One edit is only
offered between keys of at least :data:`MIN_EDIT_LENGTH` characters: ``Ann`` and ``Anna``
or ``Bob`` and ``Rob`` are different people far more often than typos.

This module knows no game and no table: callers pass the names they know (the store's
aliases are :mod:`gops_records.core.aliases`).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gops_records.core.errors import GopsError

__all__ = ["MIN_EDIT_LENGTH", "NameKind", "NearDuplicate", "UnknownName", "close_names",
           "matching", "name_key", "near_duplicates", "resolve", "resolve_all"]

#: Keys shorter than this are never offered as one edit apart (``Ann`` / ``Anna``).
MIN_EDIT_LENGTH = 5


class NameKind(StrEnum):
    """What a name names: a player or an event (the kinds an alias takes)."""

    PLAYER = "player"
    EVENT = "event"


class UnknownName(GopsError, LookupError):
    """A typed name that matches no stored name, even ignoring case, accents and spaces."""

    code = "no-name"


def name_key(name: str) -> str:
    """The key two spellings of one name share: case folded, accents dropped (NFKD, then
    the combining marks removed), white space collapsed to single spaces and trimmed.

    >>> name_key("  José   MARÍA ")
    'jose maria'
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # casefold again: NFKD can make letters casefold changes (e.g. compatibility forms)
    return " ".join(bare.casefold().split())


def matching(typed: str, known: Iterable[str]) -> list[str]:
    """The names of ``known`` (stored spellings, in their order, each once) whose key is
    ``typed``'s key; an exact spelling comes first."""
    key = name_key(typed)
    found = list(dict.fromkeys(n for n in known if n is not None and name_key(n) == key))
    if typed in found:
        found.remove(typed)
        found.insert(0, typed)
    return found


def close_names(typed: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` stored names close to ``typed`` (by their keys, with difflib's ratio),
    for a "did you mean"."""
    import difflib

    by_key: dict[str, str] = {}
    for name in known:
        if name is not None:
            by_key.setdefault(name_key(name), name)
    close = difflib.get_close_matches(name_key(typed), list(by_key), n=n, cutoff=0.5)
    return [by_key[k] for k in close]


def resolve(typed: str, known: Sequence[str], *, what: str = "name",
            listed_by: str = "gops players") -> list[str]:
    """The stored spellings ``typed`` names (:func:`matching`), or :class:`UnknownName`
    with the closest names and the command that lists them all."""
    found = matching(typed, known)
    if found:
        return found
    close = close_names(typed, known)
    hint = (f"; did you mean {', '.join(map(repr, close))}?" if close else
            f"; {len(set(known))} {what}s are recorded ({listed_by} lists them)")
    raise UnknownName(f"no stored {what} {typed!r}{hint}")


def resolve_all(typed: Iterable[str], known: Sequence[str], *, what: str = "name",
                listed_by: str = "gops players") -> tuple[str, ...]:
    """Every stored spelling the typed names name, each once, in order (a filter's list)."""
    out: dict[str, None] = {}
    for name in typed:
        out.update(dict.fromkeys(resolve(name, known, what=what, listed_by=listed_by)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class NearDuplicate:
    """Two stored names that are probably one: ``name`` (the one with more games, the
    spelling to keep) and ``other``, their counts, and why (``case``, ``accents``,
    ``spacing``, ``one edit``)."""

    name: str
    other: str
    count: int
    other_count: int
    reason: str

    def as_json(self) -> dict:
        return {"name": self.name, "other": self.other, "count": self.count,
                "other_count": self.other_count, "reason": self.reason}


def _same_key_reason(a: str, b: str) -> str:
    """Why two spellings of one key differ: case, accents or spacing (the first that
    explains it)."""
    if " ".join(a.split()) == " ".join(b.split()):
        return "spacing"
    if a.casefold() == b.casefold() or " ".join(a.casefold().split()) == \
            " ".join(b.casefold().split()):
        return "case"
    return "accents"


def _deletions(key: str) -> set[str]:
    return {key[:i] + key[i + 1:] for i in range(len(key))}


def near_duplicates(counts: Mapping[str, int]) -> list[NearDuplicate]:
    """Pairs of names in ``counts`` (name -> games) that are probably one name, most games
    first. Names of one key pair with the most played spelling; keys one edit apart
    (both at least :data:`MIN_EDIT_LENGTH` long) pair their most played spellings."""
    from rapidfuzz.distance import Levenshtein

    groups: dict[str, list[str]] = defaultdict(list)
    for name in counts:
        if name is not None:
            groups[name_key(name)].append(name)
    pairs: list[NearDuplicate] = []
    heads: dict[str, str] = {}
    for key, names in groups.items():
        names.sort(key=lambda n: (-counts[n], n))
        heads[key] = names[0]
        pairs += [NearDuplicate(names[0], other, counts[names[0]], counts[other],
                                _same_key_reason(names[0], other)) for other in names[1:]]
    # one edit: keys sharing a deletion variant, or one a deletion of the other
    long_keys = [k for k in groups if len(k) >= MIN_EDIT_LENGTH]
    by_variant: dict[str, list[str]] = defaultdict(list)
    for key in long_keys:
        for variant in _deletions(key) | {key}:
            by_variant[variant].append(key)
    seen: set[tuple[str, str]] = set()
    for keys in by_variant.values():
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                pair = (a, b) if a < b else (b, a)
                if a == b or pair in seen:
                    continue
                seen.add(pair)
                if Levenshtein.distance(a, b, score_cutoff=1) <= 1:
                    x, y = sorted((heads[a], heads[b]), key=lambda n: (-counts[n], n))
                    pairs.append(NearDuplicate(x, y, counts[x], counts[y], "one edit"))
    pairs.sort(key=lambda p: (-(p.count + p.other_count), p.name, p.other))
    return pairs
