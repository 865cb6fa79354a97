"""The dashboard's navigation, made from the game registry: each game's ``pages`` part
(a :class:`GamePages`) lists its pages and draws its sidebar; the shared pages (Data
quality) join the section of the game whose page opens the dashboard.

:mod:`gops_records.dashboards.app` routes with this and never names a game or a game's
page. Page files are paths relative to the ``dashboards/`` folder; a URL path is what
users bookmark (``/session``, ``/gin-standings``), so a game keeps its own for good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from gops_records.dashboards.data import View

from gops_records.core.errors import GopsError
from gops_records.core.registry import Game

#: The part of a game (:attr:`gops_records.core.registry.Game.parts`) that lists its pages.
PART = "pages"


class NavigationError(GopsError, ValueError):
    """The installed games' pages cannot make one navigation (two share a URL path, or
    not exactly one opens the dashboard)."""


@dataclass(frozen=True, slots=True)
class PageSpec:
    """One page: its title, its script (relative to ``dashboards/``), its icon (a
    ``:material/...:`` name), its URL path, and whether it opens the dashboard at ``/``."""

    title: str
    file: str
    icon: str
    url_path: str
    default: bool = False


#: The sidebar of a game's pages: ``sidebar(base, url_path)`` draws the game's filters
#: (``url_path``: the page shown) and returns the view its pages read.
Sidebar = Callable[[View, str], View]


@dataclass(frozen=True, slots=True)
class GamePages:
    """A game's ``pages`` part: its pages in menu order, and its sidebar."""

    pages: tuple[PageSpec, ...]
    sidebar: Sidebar


#: The pages every game shares (their scripts at the top of ``dashboards/``).
SHARED_PAGES = (
    PageSpec("Data quality", "quality.py", ":material/fact_check:", "quality"),
)


@dataclass(frozen=True, slots=True)
class Section:
    """One heading of the navigation: a game's title, its pages (and the shared ones in
    the home section), and the sidebar all of them draw."""

    title: str
    pages: tuple[PageSpec, ...]
    sidebar: Sidebar


@dataclass(frozen=True, slots=True)
class Navigation:
    """Every section, in the registry's order of the games."""

    sections: tuple[Section, ...]

    @classmethod
    def of(cls, games: Iterable[Game]) -> Navigation:
        """The navigation of ``games`` (those without a ``pages`` part are left out)."""
        found = [(g.title, g.part(PART)) for g in games if PART in g.parts]
        homes = [title for title, part in found if any(p.default for p in part.pages)]
        if len(homes) != 1:
            raise NavigationError(
                "exactly one game's pages must hold the page the dashboard opens with "
                f"(default=True); found it in {len(homes)}: {', '.join(homes) or 'none'}")
        sections = tuple(Section(title, part.pages + (SHARED_PAGES if title == homes[0]
                                                      else ()), part.sidebar)
                         for title, part in found)
        urls = [p.url_path for s in sections for p in s.pages]
        twice = sorted({u for u in urls if urls.count(u) > 1})
        if twice:
            raise NavigationError(f"two pages share the URL path(s) {', '.join(twice)}; "
                                  "each page needs its own")
        return cls(sections)

    @property
    def default_url(self) -> str:
        """The URL path of the page the dashboard opens with (Streamlit serves it at /)."""
        return next(p.url_path for s in self.sections for p in s.pages if p.default)

    def sidebar_of(self, url_path: str) -> Sidebar:
        """The sidebar the page at ``url_path`` draws ("" is the default page)."""
        url = url_path or self.default_url
        for section in self.sections:
            if any(p.url_path == url for p in section.pages):
                return section.sidebar
        raise NavigationError(f"no page has the URL path {url!r}")

    def files(self, here: Path) -> dict[str, list[tuple[Path, PageSpec]]]:
        """Each section's page scripts under ``here`` (the ``dashboards/`` folder)."""
        return {s.title: [(here / p.file, p) for p in s.pages] for s in self.sections}
