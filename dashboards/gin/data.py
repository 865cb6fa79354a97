"""Cached, read-only reads of the Gin Rummy pages: each is a query of
:mod:`gops_records.games.gin.analytics`, called as ``read(view, filters, *args)``.

They go through :func:`gops_records.dashboards.data.cached_read` (the shared read-only
connection, the database stamp in the cache key), unfiltered (``filtered=False``): the Gin
pages pass their own :class:`~gops_records.games.gin.analytics.GinFilters`, which are hashable,
so they are part of the cache key.
"""

from __future__ import annotations

from gops_records.dashboards.data import cached_read

from gops_records.games.gin import analytics as gin


def _read(query, name: str):
    return cached_read(query, filtered=False, name=f"gin_{name}")


# -- what the sidebar offers -----------------------------------------------------------------
events = _read(gin.list_events, "events")
matches = _read(gin.list_matches, "matches")
date_range = _read(gin.date_range, "date_range")
players = _read(gin.list_players, "players")

# -- standings -------------------------------------------------------------------------------
evenings = _read(gin.evenings, "evenings")
overview = _read(gin.overview, "overview")
standings = _read(gin.standings, "standings")
match_results = _read(gin.match_results, "match_results")
game_results = _read(gin.game_results, "game_results")
head_to_head = _read(gin.head_to_head, "head_to_head")
game_summary = _read(gin.game_summary, "game_summary")
hands_per_game = _read(gin.hands_per_game, "hands_per_game")
game_scores = _read(gin.game_scores, "game_scores")

# -- hands -----------------------------------------------------------------------------------
endings_by_limit = _read(gin.endings_by_limit, "endings_by_limit")
endings_by_player = _read(gin.endings_by_player, "endings_by_player")
seat_effects = _read(gin.seat_effects, "seat_effects")
deadwood_caught = _read(gin.deadwood_caught, "deadwood_caught")
caught_by_player = _read(gin.caught_by_player, "caught_by_player")
pile_draw_endings = _read(gin.pile_draw_endings, "pile_draw_endings")
pile_takers = _read(gin.pile_takers, "pile_takers")
hands = _read(gin.list_hands, "hands")

# -- knocks ----------------------------------------------------------------------------------
undercuts_by_limit = _read(gin.undercuts_by_limit, "undercuts_by_limit")
undercuts_by_deadwood = _read(gin.undercuts_by_deadwood, "undercuts_by_deadwood")
knockers = _read(gin.knockers, "knockers")
knock_deadwood = _read(gin.knock_deadwood, "knock_deadwood")
turns_to_out = _read(gin.turns_to_out, "turns_to_out")
turns_distribution = _read(gin.turns_distribution, "turns_distribution")
