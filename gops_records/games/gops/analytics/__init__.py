"""Analytics over the DuckDB store: small, chart-ready polars frames for the dashboard and CLI.

Every function takes a connection (read-only is enough) and a :class:`Filters`, runs
set-based SQL in DuckDB (nothing row by row in Python) and returns a small frame. Every
rate comes with its count ``n`` (or a named count) and a 95% Wilson interval
(``rate``, ``ci_low``, ``ci_high``). What each function computes: docs/analytics.md.
"""

from gops_records.core.stats import wilson, with_wilson
from gops_records.games.gops.analytics.bidding import (
    bid_habits,
    bid_heatmap,
    bid_minus_prize,
    carry_effect,
    player_bidding,
    relative_bids,
)
from gops_records.games.gops.analytics.filters import (
    ALL_GAMES,
    CLASSIC,
    Filters,
    Variant,
    VariantKind,
)
from gops_records.games.gops.analytics.games import (
    GameDetail,
    game_detail,
    list_games,
    list_rejects,
)
from gops_records.games.gops.analytics.pools import (
    carried_per_game,
    carried_per_game_of,
    largest_pools,
    pool_distribution,
    unclaimed_per_game,
    unclaimed_per_game_of,
)
from gops_records.games.gops.analytics.results import (
    date_range,
    evening_filters,
    evenings,
    head_to_head,
    list_events,
    list_matches,
    list_players,
    match_results,
    overview,
    standings,
)
from gops_records.games.gops.analytics.shapes import game_shapes
from gops_records.games.gops.analytics.ties import (
    final_ties,
    tie_streaks,
    tie_streaks_of,
    tie_summary,
    tie_summary_of,
    ties_by_pair,
    ties_by_round,
    ties_by_round_of,
)
from gops_records.games.gops.analytics.variants import (
    CHOICES,
    games_by_variant,
    list_variants,
    open_row_bids,
    row_choices,
    strength_by_prize,
)

__all__ = [
    "ALL_GAMES", "CHOICES", "CLASSIC", "Filters", "GameDetail", "Variant", "VariantKind",
    "bid_habits", "bid_heatmap", "bid_minus_prize", "carry_effect", "player_bidding",
    "relative_bids",
    "carried_per_game", "carried_per_game_of", "largest_pools", "pool_distribution",
    "unclaimed_per_game", "unclaimed_per_game_of", "game_shapes",
    "date_range", "evening_filters", "evenings", "head_to_head", "list_events",
    "list_matches", "list_players",
    "match_results", "overview", "standings",
    "final_ties", "tie_streaks", "tie_streaks_of", "tie_summary", "tie_summary_of",
    "ties_by_pair", "ties_by_round", "ties_by_round_of",
    "game_detail", "list_games", "list_rejects",
    "wilson", "with_wilson",
    "games_by_variant", "list_variants", "open_row_bids", "row_choices", "strength_by_prize",
]
