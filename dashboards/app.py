"""Entry of the dashboard: routes every installed game's pages and draws the page's sidebar.

Started by `gops dashboard` (or `streamlit run dashboards/app.py -- --db PATH`). The
navigation comes from the game registry (:mod:`gops_records.dashboards.navigation`): a
section per game, each with its pages and its sidebar of filters, which live in the URL
(``st.query_params``) so that a filtered view can be shared as a link. The pages read the
view the sidebar made, with the database path, from
:func:`gops_records.dashboards.data.current_view`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from importlib.metadata import metadata
from pathlib import Path

import streamlit as st
from gops_records.dashboards import data
from gops_records.dashboards.navigation import Navigation

from gops_records.core import registry
from gops_records.core.store.db import (
    DatabaseLocked,
    DatabaseMissing,
    DatabaseUnusable,
    default_db_path,
)

HERE = Path(__file__).resolve().parent
#: The browser tab's title: the product's name ("Gops records"), from its distribution's.
PRODUCT = metadata("gops-records")["Name"].replace("-", " ").replace("_", " ").capitalize()
#: The browser tab's icon: an emoji, which Streamlit draws itself (a ``:material/...:``
#: icon would be fetched from an internet font service).
PAGE_ICON = "🃏"


def database_path(argv: list[str]) -> Path:
    """``--db PATH`` after the script's ``--``, else the default database, the one
    `gops import` writes (:func:`default_db_path`: $GOPS_DB, else the user data folder's)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--db", type=Path)
    known, _ = parser.parse_known_args(argv)
    return (known.db or default_db_path()).resolve()


def pages(nav: Navigation) -> dict[str, list]:
    """Each section's pages, for ``st.navigation``.

    Streamlit serves the page the dashboard opens with at / only (its own path, the
    documented ``/session``, was "Page not found"): a hidden page keeps that path and
    forwards to / with the address's parameters (:func:`forward`)."""
    sections: dict[str, list] = {}
    for title, listed in nav.files(HERE).items():
        sections[title] = []
        for path, p in listed:
            page = st.Page(path, title=p.title, icon=p.icon,
                           url_path="" if p.default else p.url_path, default=p.default)
            sections[title].append(page)
            if p.default:
                sections[title].append(st.Page(forward(page), title=p.title, icon=p.icon,
                                               url_path=p.url_path, visibility="hidden"))
    return sections


def forward(home: st.Page) -> Callable[[], None]:
    """A page that opens ``home`` instead, keeping the address's parameters."""
    def forward_home() -> None:
        st.switch_page(home, query_params={k: st.query_params.get_all(k)
                                           for k in st.query_params})
    return forward_home


def no_database(db: Path) -> str:
    """What to do when there is no database yet: import every game's notations."""
    notations = "; ".join(g.notations for g in registry.games())
    return (f"There is no database at `{db}` yet. Import some games first:\n\n"
            f"    gops import PATH...      # {notations}\n\n"
            "or try the bundled samples with `gops demo`.")


def main() -> None:
    st.set_page_config(page_title=PRODUCT, page_icon=PAGE_ICON, layout="wide")
    nav = Navigation.of(registry.games())
    page = st.navigation(pages(nav))
    if page.url_path == nav.default_url:  # the opening page's own path: forward to /
        page.run()
    db = database_path(sys.argv[1:])
    try:
        base = data.View.of(db)
        url_path = page.url_path or nav.default_url  # the default page is served at /
        st.session_state[data.VIEW_KEY] = nav.sidebar_of(url_path)(base, url_path)
        page.run()
    except DatabaseMissing:
        st.title(page.title)
        st.info(no_database(db))
    except DatabaseLocked as exc:
        st.title(page.title)
        st.warning(f"The database is busy: {exc}. Reload the page in a moment.")
    except DatabaseUnusable as exc:
        st.title(page.title)
        st.error(f"Cannot read the database: {exc}. Start the dashboard with "
                 "`gops dashboard --db PATH` on a file made by `gops import`.")


main()
