"""Analytics over the DuckDB store: small, chart-ready polars frames for the dashboard and CLI.

Every function takes a connection (read-only is enough) and a :class:`Filters`, runs
set-based SQL in DuckDB (nothing row by row in Python) and returns a small frame. Every
rate comes with its count ``n`` (or a named count) and a 95% Wilson interval
(``rate``, ``ci_low``, ``ci_high``). What each function computes: docs/analytics.md.

The names below are loaded when first used (PEP 562), as in
:mod:`gops_records.games.gops.scouting`: importing one analytics module (the bid groups'
schema part, which every open of a database reads) does not load them all.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Each name this package offers, and the module it comes from.
_WHERE = {
    "ALL_GAMES": "gops_records.games.gops.analytics.filters",
    "CLASSIC": "gops_records.games.gops.analytics.filters",
    "Filters": "gops_records.games.gops.analytics.filters",
    "Variant": "gops_records.games.gops.analytics.filters",
    "VariantKind": "gops_records.games.gops.analytics.filters",
    "CHOICES": "gops_records.games.gops.analytics.variants",
    "games_by_variant": "gops_records.games.gops.analytics.variants",
    "list_variants": "gops_records.games.gops.analytics.variants",
    "open_row_bids": "gops_records.games.gops.analytics.variants",
    "row_choices": "gops_records.games.gops.analytics.variants",
    "strength_by_prize": "gops_records.games.gops.analytics.variants",
    "best_of_games": "gops_records.games.gops.analytics.matches",
    "best_of_matches": "gops_records.games.gops.analytics.matches",
    "GameDetail": "gops_records.games.gops.analytics.games",
    "game_detail": "gops_records.games.gops.analytics.games",
    "list_games": "gops_records.games.gops.analytics.games",
    "list_rejects": "gops_records.games.gops.analytics.games",
    "bid_habits": "gops_records.games.gops.analytics.bidding",
    "bid_heatmap": "gops_records.games.gops.analytics.bidding",
    "bid_minus_prize": "gops_records.games.gops.analytics.bidding",
    "carry_effect": "gops_records.games.gops.analytics.bidding",
    "player_bidding": "gops_records.games.gops.analytics.bidding",
    "relative_bids": "gops_records.games.gops.analytics.bidding",
    "carried_per_game": "gops_records.games.gops.analytics.pools",
    "carried_per_game_of": "gops_records.games.gops.analytics.pools",
    "largest_pools": "gops_records.games.gops.analytics.pools",
    "pool_distribution": "gops_records.games.gops.analytics.pools",
    "unclaimed_per_game": "gops_records.games.gops.analytics.pools",
    "unclaimed_per_game_of": "gops_records.games.gops.analytics.pools",
    "game_shapes": "gops_records.games.gops.analytics.shapes",
    "date_range": "gops_records.games.gops.analytics.results",
    "evening_filters": "gops_records.games.gops.analytics.results",
    "evenings": "gops_records.games.gops.analytics.results",
    "head_to_head": "gops_records.games.gops.analytics.results",
    "list_events": "gops_records.games.gops.analytics.results",
    "list_matches": "gops_records.games.gops.analytics.results",
    "list_players": "gops_records.games.gops.analytics.results",
    "match_results": "gops_records.games.gops.analytics.results",
    "overview": "gops_records.games.gops.analytics.results",
    "standings": "gops_records.games.gops.analytics.results",
    "final_ties": "gops_records.games.gops.analytics.ties",
    "tie_streaks": "gops_records.games.gops.analytics.ties",
    "tie_streaks_of": "gops_records.games.gops.analytics.ties",
    "tie_summary": "gops_records.games.gops.analytics.ties",
    "tie_summary_of": "gops_records.games.gops.analytics.ties",
    "ties_by_pair": "gops_records.games.gops.analytics.ties",
    "ties_by_round": "gops_records.games.gops.analytics.ties",
    "ties_by_round_of": "gops_records.games.gops.analytics.ties",
    "wilson": "gops_records.core.stats",
    "with_wilson": "gops_records.core.stats",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
