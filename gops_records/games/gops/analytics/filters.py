"""The filters every analytics function takes, as SQL over the ``games`` table and as URL params.

A :class:`Filters` value is immutable and hashable, so dashboards can use it as a cache key.
It turns into an SQL boolean expression with ``?`` placeholders (:meth:`Filters.games_where`)
and round-trips through ``st.query_params`` (:meth:`Filters.to_query_params`,
:meth:`Filters.from_query_params`), so a filtered view can be shared as a link.

The variant of the rules is one of the filters (:class:`Variant`): the classic game, bids
of k cards, or open prizes in a row of k, written ``classic``, ``bid-cards-2``,
``open-prizes-3`` in the URL (``?variant=open-prizes-3``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum

import duckdb

from gops_records.core.dates import date_bounds, known_rows
from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.rules import MAX_BID_CARDS, TIE_RULES

PLAYER_COUNTS = (2, 3, 4)
_TRUE = ("1", "true", "yes", "on")

# URL parameter names; multi-valued ones appear once per value (?player=A&player=B).
P_EVENT, P_MATCH, P_FROM, P_TO = "event", "match", "from", "to"
P_PLAYER, P_TIE_RULE, P_PLAYERS_N, P_FINISHED = "player", "tie_rule", "n_players", "finished"
P_VARIANT = "variant"


class VariantKind(StrEnum):
    """The three ways a game is played (docs/notation.md, "Variants")."""

    CLASSIC = "classic"
    BID_CARDS = "bid-cards"
    OPEN_PRIZES = "open-prizes"


#: The sizes each kind of variant takes: k cards a bid, a row of k prizes.
_SIZES = {VariantKind.BID_CARDS: range(2, MAX_BID_CARDS + 1),
          VariantKind.OPEN_PRIZES: range(2, MAX_RANK + 1)}


@dataclass(frozen=True)
class Variant:
    """The rules a game is played under, as a filter: the classic game (one card a bid,
    one prize a round), bids of ``k`` cards (``[BidCards "k"]``, k = 2 or 3), or open
    prizes in a row of ``k`` (``[OpenPrizes "k"]``, k = 2 to 13).

    ``str(variant)`` is its URL form (``classic``, ``bid-cards-2``, ``open-prizes-3``),
    which :meth:`parse` reads back; :attr:`label` says it in words.
    """

    kind: VariantKind
    k: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", VariantKind(self.kind))
        if self.kind is VariantKind.CLASSIC:
            if self.k is not None:
                raise ValueError(f"the classic game has no size, not {self.k!r}")
        elif self.k not in _SIZES[self.kind]:
            sizes = _SIZES[self.kind]
            raise ValueError(f"{self.kind.value} takes a size from {sizes.start} to "
                             f"{sizes.stop - 1}, not {self.k!r}")

    @classmethod
    def parse(cls, text: str) -> Variant:
        """The variant written ``classic``, ``bid-cards-K`` or ``open-prizes-K``; raises
        ValueError for anything else."""
        value = text.strip().lower()
        if value == VariantKind.CLASSIC.value:
            return CLASSIC
        for kind in _SIZES:
            prefix = f"{kind.value}-"
            if value.startswith(prefix) and value[len(prefix):].isdigit():
                return cls(kind, int(value[len(prefix):]))
        raise ValueError(f"{text!r} is not a variant: write classic, bid-cards-K (K = 2 or "
                         "3) or open-prizes-K (K = 2 to 13)")

    def __str__(self) -> str:
        return self.kind.value if self.k is None else f"{self.kind.value}-{self.k}"

    @property
    def label(self) -> str:
        """The variant in words: ``classic``, ``bids of 2 cards``, ``open prizes (row of 3)``."""
        if self.kind is VariantKind.BID_CARDS:
            return f"bids of {self.k} cards"
        if self.kind is VariantKind.OPEN_PRIZES:
            return f"open prizes (row of {self.k})"
        return "classic"

    def where(self, alias: str = "g") -> tuple[str, list]:
        """An SQL condition on ``games AS alias`` keeping the games of this variant."""
        if self.kind is VariantKind.BID_CARDS:
            return f"{alias}.bid_cards = ?", [self.k]
        if self.kind is VariantKind.OPEN_PRIZES:
            return f"{alias}.open_prizes = ?", [self.k]
        return f"({alias}.bid_cards = 1 AND {alias}.open_prizes IS NULL)", []

    @classmethod
    def of(cls, bid_cards: int, open_prizes: int | None) -> Variant:
        """The variant of a game with these ``games.bid_cards`` and ``open_prizes``."""
        if open_prizes is not None:
            return cls(VariantKind.OPEN_PRIZES, int(open_prizes))
        if bid_cards > 1:
            return cls(VariantKind.BID_CARDS, int(bid_cards))
        return CLASSIC


#: The classic game: one card a bid, one prize a round.
CLASSIC = Variant(VariantKind.CLASSIC)


@dataclass(frozen=True)
class Filters:
    """Which games an analysis looks at. Empty fields do not filter.

    Within a field the values are alternatives (any of these events); fields combine
    with AND. ``players`` keeps games in which any of the named players played. A date
    bound drops games whose date is unknown.
    """

    events: tuple[str, ...] = ()
    matches: tuple[str, ...] = ()
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    players: tuple[str, ...] = ()
    tie_rule: str | None = None
    n_players: int | None = None
    finished_only: bool = False
    variant: Variant | None = None

    def __post_init__(self) -> None:
        # Lists are accepted for convenience and stored as tuples (kept hashable).
        for name in ("events", "matches", "players"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise TypeError(f"Filters.{name} takes a sequence of names, not the string "
                                f"{value!r}; write ({value!r},)")
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        if isinstance(self.variant, str):  # Filters(variant="open-prizes-3")
            object.__setattr__(self, "variant", Variant.parse(self.variant))
        if self.tie_rule is not None and self.tie_rule not in TIE_RULES:
            raise ValueError(f"tie_rule must be one of {', '.join(TIE_RULES)} or None, "
                             f"not {self.tie_rule!r}")

    @property
    def is_empty(self) -> bool:
        """True when no field filters anything (every game is kept)."""
        return self == Filters()

    def only(self, variant: Variant) -> Filters | None:
        """These filters narrowed to the games of ``variant``; None when they keep other
        variants only (a figure of the classic game, say, when the filter is open prizes)."""
        if self.variant is None:
            return replace(self, variant=variant)
        return self if self.variant == variant else None

    def games_where(self, alias: str = "g") -> tuple[str, list]:
        """An SQL boolean expression over ``games AS alias`` and its ``?`` parameters, in order.

        ``"TRUE"`` and no parameters when the filters are empty.
        """
        parts: list[str] = []
        params: list = []

        def among(column: str, values: tuple[str, ...]) -> None:
            parts.append(f"{column} IN ({', '.join('?' * len(values))})")
            params.extend(values)

        if self.events:
            among(f"{alias}.event", self.events)
        if self.matches:
            among(f"{alias}.match", self.matches)
        dated, bounds = date_bounds(f"{alias}.date", self.date_from, self.date_to)
        parts += dated
        params += bounds
        if self.tie_rule is not None:
            parts.append(f"{alias}.tie_rule = ?")
            params.append(self.tie_rule)
        if self.n_players is not None:
            parts.append(f"{alias}.n_players = ?")
            params.append(self.n_players)
        if self.finished_only:
            parts.append(f"{alias}.finished")
        if self.variant is not None:
            sql, values = self.variant.where(alias)
            parts.append(sql)
            params.extend(values)
        if self.players:
            # the game's own seat columns (schema 11), not a semi join on game_players:
            # 14 ms against 62 at 1,000,000 games; seats C and D only where they exist
            marks = ", ".join("?" * len(self.players))
            parts.append(f"({alias}.player_a IN ({marks}) OR {alias}.player_b IN ({marks}) "
                         f"OR ({alias}.n_players > 2 AND ({alias}.player_c IN ({marks}) "
                         f"OR {alias}.player_d IN ({marks}))))")
            params.extend(self.players * 4)
        return (" AND ".join(parts) or "TRUE"), params

    def to_query_params(self) -> dict[str, str | list[str]]:
        """URL parameters for this filter; empty fields are left out."""
        out: dict[str, str | list[str]] = {}
        if self.events:
            out[P_EVENT] = list(self.events)
        if self.matches:
            out[P_MATCH] = list(self.matches)
        if self.date_from is not None:
            out[P_FROM] = self.date_from.isoformat()
        if self.date_to is not None:
            out[P_TO] = self.date_to.isoformat()
        if self.players:
            out[P_PLAYER] = list(self.players)
        if self.tie_rule is not None:
            out[P_TIE_RULE] = self.tie_rule
        if self.n_players is not None:
            out[P_PLAYERS_N] = str(self.n_players)
        if self.finished_only:
            out[P_FINISHED] = "1"
        if self.variant is not None:
            out[P_VARIANT] = str(self.variant)
        return out

    @classmethod
    def from_query_params(cls, params: Mapping[str, str | list[str]]) -> Filters:
        """The filter a URL describes. Unknown keys and unreadable values are ignored.

        ``params`` may be a plain mapping of key -> value or list of values, or Streamlit's
        ``st.query_params`` itself (its ``get_all`` is used, so repeated keys all count).
        """
        get_all = getattr(params, "get_all", None)

        def many(key: str) -> tuple[str, ...]:
            value = get_all(key) if callable(get_all) else params.get(key)
            values = [value] if isinstance(value, str) else list(value or ())
            seen: dict[str, None] = {}
            for v in values:
                if isinstance(v, str) and v.strip():
                    seen.setdefault(v, None)
            return tuple(seen)

        def one(key: str) -> str | None:
            found = many(key)
            return found[-1].strip() if found else None

        tie_rule = (one(P_TIE_RULE) or "").lower()
        n_text = one(P_PLAYERS_N)
        n_players = int(n_text) if n_text and n_text.isdigit() else None
        try:
            variant = Variant.parse(one(P_VARIANT) or "")
        except ValueError:
            variant = None
        return cls(
            events=many(P_EVENT),
            matches=many(P_MATCH),
            date_from=_date(one(P_FROM)),
            date_to=_date(one(P_TO)),
            players=many(P_PLAYER),
            tie_rule=tie_rule if tie_rule in TIE_RULES else None,
            n_players=n_players if n_players in PLAYER_COUNTS else None,
            finished_only=(one(P_FINISHED) or "").lower() in _TRUE,
            variant=variant,
        )

    def describe(self) -> str:
        """A short human-readable summary, e.g. ``event: Thursday club · finished only``."""
        bits: list[str] = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value in ((), None, False):
                continue
            if isinstance(value, tuple):
                value = ", ".join(value)
            elif isinstance(value, Variant):
                value = value.label
            elif value is True:
                value = "yes"
            bits.append(f"{f.name.replace('_', ' ')}: {value}")
        return " · ".join(bits) or "all games"


def _date(text: str | None) -> dt.date | None:
    """An ISO date (``2026-11-26``; the .gops form ``2026.11.26`` too), or None if unreadable."""
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text.replace(".", "-"))
    except ValueError:
        return None


def games_cte(f: Filters, columns: str = "g.*", name: str = "fg",
              con: duckdb.DuckDBPyConnection | None = None) -> tuple[str, list]:
    """``name AS (SELECT columns FROM games g WHERE <filters>)`` for a WITH clause, and params.

    ``g.date`` is the date as :func:`~gops_records.core.dates.known_date` reads it
    (NULL when Python cannot hold it); pass ``con`` where ``columns`` has the date, to read
    a store without such dates as it is (:func:`~gops_records.core.dates.known_rows`).
    Put it first in the WITH clause so its parameters come first.
    """
    where, params = f.games_where("g")
    return f"{name} AS (SELECT {columns} FROM {known_rows('games', where, 'g', con)})", params


def in_scope(f: Filters, name: str = "fg") -> str:
    """A join clause keeping rows of the games in CTE ``name``; nothing when nothing is filtered.

    Matching millions of rounds to the kept games is the dominant cost of a query that
    reads rounds, so with empty filters the join is left out altogether.
    """
    return "" if f.is_empty else f"SEMI JOIN {name} USING (game_id)"


#: The empty filter: every game.
ALL_GAMES = Filters()
