"""The navigation comes from the game registry: every page keeps its bookmarked URL path
and title, the shared pages join the home section, and two games cannot clash."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from gops_records.dashboards.navigation import (
    SHARED_PAGES,
    GamePages,
    Navigation,
    NavigationError,
    PageSpec,
)

from gops_records.core import registry

HERE = Path(__file__).resolve().parents[2] / "dashboards"
#: (section, title, url_path) as users bookmark them.
BOOKMARKED = [
    ("Gops", "Session", "session"), ("Gops", "Players", "players"), ("Gops", "Scout", "scout"),
    ("Gops", "Ties and pools", "ties"), ("Gops", "Head-to-head", "h2h"),
    ("Gops", "Game viewer", "game"), ("Gops", "Data quality", "quality"),
    ("Gin Rummy", "Gin standings", "gin-standings"), ("Gin Rummy", "How hands end", "gin-hands"),
    ("Gin Rummy", "Knocks and gin", "gin-knocks"),
]


def test_the_installed_games_make_the_bookmarked_pages():
    nav = Navigation.of(registry.games())
    listed = [(title, p.title, p.url_path) for title, files in nav.files(HERE).items()
              for _, p in files]
    assert listed == BOOKMARKED
    assert nav.default_url == "session"
    for files in nav.files(HERE).values():
        assert all(path.is_file() for path, _ in files)


def test_each_page_draws_its_games_sidebar():
    nav = Navigation.of(registry.games())
    gops, gin = (g.part("pages") for g in registry.games())
    assert nav.sidebar_of("") is nav.sidebar_of("session") is gops.sidebar
    assert nav.sidebar_of("quality") is gops.sidebar  # a shared page: the home sidebar
    assert nav.sidebar_of("gin-knocks") is gin.sidebar
    with pytest.raises(NavigationError, match="no page has the URL path 'nowhere'"):
        nav.sidebar_of("nowhere")


def _game(name: str, *pages: PageSpec) -> registry.Game:
    """A game with these pages (each name once: the registry loads a reference once)."""
    part = GamePages(pages, sidebar=lambda base, url: base)
    game = registry.Game(name, name.title(), (), parts={"pages": f"{__name__}:{name}"})
    globals()[name] = part  # what the reference loads
    return game


def test_two_games_may_not_share_a_url_path():
    one = _game("one", PageSpec("A", "a.py", ":material/home:", "a", default=True))
    two = _game("two", PageSpec("B", "b.py", ":material/home:", "a"))
    with pytest.raises(NavigationError, match="share the URL path"):
        Navigation.of([one, two])
    clash = _game("three", replace(SHARED_PAGES[0], title="Mine"))
    with pytest.raises(NavigationError, match="quality"):
        Navigation.of([one, clash])


def test_exactly_one_page_opens_the_dashboard():
    home = _game("home", PageSpec("A", "a.py", ":material/home:", "a", default=True))
    rival = _game("rival", PageSpec("B", "b.py", ":material/home:", "b", default=True))
    other = _game("other", PageSpec("C", "c.py", ":material/home:", "c"))
    with pytest.raises(NavigationError, match="found it in 2: Home, Rival"):
        Navigation.of([home, rival])
    with pytest.raises(NavigationError, match="found it in 0"):
        Navigation.of([other])
    nav = Navigation.of([other, home])
    assert [s.title for s in nav.sections] == ["Other", "Home"]
    assert nav.sections[1].pages[-1] == SHARED_PAGES[0]  # shared pages join the home
