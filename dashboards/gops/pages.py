"""The Gops pages, as the game registry's ``pages`` part of Gops names them
(:class:`gops_records.dashboards.navigation.GamePages`): in menu order, with their URL
paths (bookmarked: keep them; Session opens the dashboard at ``/``), and the Gops sidebar
of filters."""

from __future__ import annotations

from gops_records.dashboards.gops.sidebar import sidebar
from gops_records.dashboards.navigation import GamePages, PageSpec

PAGES = GamePages(
    pages=(
        PageSpec("Session", "gops/session.py", ":material/trophy:", "session", default=True),
        PageSpec("Players", "gops/players.py", ":material/person:", "players"),
        PageSpec("Scout", "gops/scout.py", ":material/radar:", "scout"),
        PageSpec("Ties and pools", "gops/ties.py", ":material/join_inner:", "ties"),
        PageSpec("Head-to-head", "gops/h2h.py", ":material/swords:", "h2h"),
        PageSpec("Game viewer", "gops/game.py", ":material/playing_cards:", "game"),
    ),
    sidebar=sidebar,
)
