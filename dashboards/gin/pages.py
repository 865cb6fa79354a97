"""The Gin Rummy pages, as the game registry's ``pages`` part of Gin Rummy names them
(:class:`gops_records.dashboards.navigation.GamePages`): in menu order, with their URL
paths (bookmarked: keep them), and the Gin sidebar of filters."""

from __future__ import annotations

from gops_records.dashboards.gin.ui import sidebar
from gops_records.dashboards.navigation import GamePages, PageSpec

PAGES = GamePages(
    pages=(
        PageSpec("Gin standings", "gin/standings.py", ":material/emoji_events:",
                 "gin-standings"),
        PageSpec("How hands end", "gin/hands.py", ":material/style:", "gin-hands"),
        PageSpec("Knocks and gin", "gin/knocks.py", ":material/front_hand:", "gin-knocks"),
    ),
    sidebar=sidebar,
)
