"""Entry of the Gops dashboard: routes the pages and draws the shared sidebar of filters.

Started by `gops dashboard` (or `streamlit run dashboards/app.py -- --db PATH`). The
filters live in the URL (``st.query_params``), so a filtered view can be shared as a link;
the pages read them, with the database path, from :func:`dashboards.data.current_view`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import streamlit as st
from gops_records.dashboards import data, gin_ui
from gops_records.dashboards.pages_game import P_GAME
from gops_records.dashboards.pages_h2h import P_PAIR
from gops_records.dashboards.pages_players import P_PROFILE
from gops_records.dashboards.pages_scout import P_SCOUT, P_VS
from gops_records.dashboards.pages_session import P_EVENING
from gops_records.dashboards.text import escape_md
from gops_records.dashboards.ui import (
    ANY,
    K_DATES,
    K_EVENTS,
    K_FINISHED,
    K_MATCHES,
    K_N_PLAYERS,
    K_PLAYERS,
    K_TIE_RULE,
    K_VARIANT,
    WIDGET_KEYS,
    clear_filters,
)

from gops_records.core.store.db import (
    DatabaseLocked,
    DatabaseMissing,
    DatabaseUnusable,
    default_db_path,
)
from gops_records.games.gops.analytics.filters import (
    P_EVENT,
    P_FINISHED,
    P_FROM,
    P_MATCH,
    P_PLAYER,
    P_PLAYERS_N,
    P_TIE_RULE,
    P_TO,
    P_VARIANT,
    PLAYER_COUNTS,
    TIE_RULES,
    Filters,
    Variant,
)

HERE = Path(__file__).resolve().parent
FILTER_PARAMS = (P_EVENT, P_MATCH, P_FROM, P_TO, P_PLAYER, P_TIE_RULE, P_PLAYERS_N, P_FINISHED,
                 P_VARIANT)
#: URL parameters that belong to one page (by url_path); dropped when another page shows.
PAGE_PARAMS = {"session": (P_EVENING,), "game": (P_GAME,), "players": (P_PROFILE,),
               "h2h": (P_PAIR,), "scout": (P_SCOUT, P_VS)}
DEFAULT_URL = "session"  # the default page's url_path (Streamlit serves it at /)
#: The browser tab's icon: an emoji, which Streamlit draws itself (a ``:material/...:``
#: icon would be fetched from an internet font service).
PAGE_ICON = "🃏"
#: What a URL value of these parameters must look like, for the note on an unreadable one.
EXPECTED = {P_FROM: "a date such as 2026-03-06", P_TO: "a date such as 2026-03-06",
            P_TIE_RULE: f"one of {', '.join(TIE_RULES)}",
            P_PLAYERS_N: f"one of {', '.join(map(str, PLAYER_COUNTS))}",
            P_VARIANT: "classic, bid-cards-K (K = 2 or 3) or open-prizes-K (K = 2 to 13)"}


def database_path(argv: list[str]) -> Path:
    """``--db PATH`` after the script's ``--``, else $GOPS_DB, else data/gops.duckdb."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--db", type=Path)
    known, _ = parser.parse_known_args(argv)
    return (known.db or default_db_path()).resolve()


def url_params() -> dict[str, list[str]]:
    return {key: st.query_params.get_all(key) for key in st.query_params}


def load_filters_from_url(f: Filters) -> None:
    """Seed the sidebar widgets from the URL when they have no state of their own.

    That is on a session's first run (a shared link), and after ``st.switch_page``, which
    drops all widget state (the game links pass the filters along in the URL for this).
    Values are taken as they are, also names the database does not hold and dates outside
    its range: the pages then say that no game matches, rather than show other games.
    """
    if all(key in st.session_state for key in WIDGET_KEYS):
        return
    st.session_state[K_EVENTS] = list(f.events)
    st.session_state[K_MATCHES] = list(f.matches)
    st.session_state[K_PLAYERS] = list(f.players)
    st.session_state[K_DATES] = tuple(d for d in (f.date_from, f.date_to) if d is not None)
    st.session_state[K_TIE_RULE] = f.tie_rule or ANY
    st.session_state[K_N_PLAYERS] = f.n_players or ANY
    st.session_state[K_FINISHED] = f.finished_only
    st.session_state[K_VARIANT] = str(f.variant) if f.variant else ANY


def unreadable_params(params: dict[str, list[str]], f: Filters) -> list[str]:
    """Notes on URL filter values that were ignored, e.g. ``from=soon`` (not a date)."""
    kept = f.to_query_params()
    return [f"{key}={escape_md(values[-1])} is not {EXPECTED[key]}"
            for key, values in params.items()
            if key in EXPECTED and key not in kept and any(v.strip() for v in values)]


def _dates(value: object) -> tuple[dt.date | None, dt.date | None]:
    """A date_input range value (empty, half picked or whole) as (from, to)."""
    picked = [d for d in (value if isinstance(value, list | tuple) else [value])
              if isinstance(d, dt.date)]
    if not picked:
        return None, None
    if len(picked) == 1:
        return picked[0], picked[0]
    return min(picked), max(picked)


def _with_chosen(options: list[str], chosen: object) -> list[str]:
    """The options plus any chosen value they lack (from a link), so it stays chosen."""
    extra = [c for c in (chosen or []) if c not in options]
    return [*options, *extra]


def _variant_label(option: str) -> str:
    """A variant option in words (``open-prizes-3`` -> ``open prizes (row of 3)``)."""
    return option if option == ANY else Variant.parse(option).label


def filter_sidebar(base: data.View, url_path: str) -> Filters:
    """Draw the filters, keep the URL in step with them, and return them."""
    events, matches = data.events(base), data.matches(base)
    first, last = data.date_range(base)
    params = url_params()
    from_url = Filters.from_query_params(params)
    load_filters_from_url(from_url)
    side = st.sidebar
    side.header("Filters")
    for note in unreadable_params(params, from_url):
        side.warning(f"Ignored from the link: {note}.")
    side.multiselect("Event", _with_chosen(events, st.session_state[K_EVENTS]), key=K_EVENTS,
                     placeholder="all events",
                     help="A club evening or tournament (the Event tag).")
    picked = [d for d in (st.session_state.get(K_DATES) or ()) if isinstance(d, dt.date)]
    bounds = [d for d in (first, last, *picked) if d is not None]
    side.date_input("Dates", min_value=min(bounds, default=None),
                    max_value=max(bounds, default=None), key=K_DATES,
                    format="YYYY-MM-DD", help="Pick the first and the last day; "
                    "a single day picks one session. Undated games drop out once you pick.",
                    disabled=not bounds)
    side.multiselect("Match", _with_chosen(matches, st.session_state[K_MATCHES]),
                     key=K_MATCHES, placeholder="all matches",
                     help="Games that share a Match tag.")
    date_from, date_to = _dates(st.session_state.get(K_DATES))
    scope = Filters(events=st.session_state[K_EVENTS], matches=st.session_state[K_MATCHES],
                    date_from=date_from, date_to=date_to)
    chosen = list(st.session_state.get(K_PLAYERS) or [])
    players = sorted(set(data.players(base.with_filters(scope))) | set(chosen))
    side.multiselect("Players", players, key=K_PLAYERS, placeholder="everyone",
                     help="Games in which any of these players played.")
    side.selectbox("Tie rule", [ANY, *TIE_RULES], key=K_TIE_RULE,
                   help="carry: a tied prize joins the next one; discard: nobody gets it.")
    side.selectbox("Players per game", [ANY, *PLAYER_COUNTS], key=K_N_PLAYERS)
    variants = _with_chosen([ANY, *map(str, data.variants(base))], [st.session_state[K_VARIANT]])
    side.selectbox("Variant", variants, key=K_VARIANT, format_func=_variant_label,
                   help="The rules: classic, bids of several cards (their sum is the bid), "
                        "or open prizes (a row of face-up prizes; the winner picks one).")
    side.toggle("Finished games only", key=K_FINISHED)
    tie_rule, n_players = st.session_state[K_TIE_RULE], st.session_state[K_N_PLAYERS]
    variant = st.session_state[K_VARIANT]
    f = Filters(events=scope.events, matches=scope.matches, date_from=date_from,
                date_to=date_to, players=st.session_state[K_PLAYERS],
                tie_rule=None if tie_rule == ANY else tie_rule,
                n_players=None if n_players == ANY else int(n_players),
                finished_only=bool(st.session_state[K_FINISHED]),
                variant=None if variant == ANY else Variant.parse(variant))
    side.caption(f"Showing: {escape_md(f.describe())}")
    side.button("Clear filters", on_click=clear_filters, disabled=f.is_empty)
    keep_url_in_step(f, PAGE_PARAMS.get(url_path, ()))
    return f


def keep_url_in_step(f: Filters, page_params: tuple[str, ...]) -> None:
    """Write the filters into the URL, keeping the current page's own parameters."""
    current = url_params()
    target = {k: v for k, v in current.items() if k in page_params}
    target.update({k: v if isinstance(v, list) else [v] for k, v in f.to_query_params().items()})
    if target != current:
        st.query_params.from_dict(target)


def pages() -> list:
    def page(file: str, title: str, icon: str, **kw) -> st.Page:
        return st.Page(HERE / file, title=title, icon=icon, **kw)

    return [
        page("pages_session.py", "Session", ":material/trophy:", url_path="session",
             default=True),
        page("pages_players.py", "Players", ":material/person:", url_path="players"),
        page("pages_scout.py", "Scout", ":material/radar:", url_path="scout"),
        page("pages_ties.py", "Ties and pools", ":material/join_inner:", url_path="ties"),
        page("pages_h2h.py", "Head-to-head", ":material/swords:", url_path="h2h"),
        page("pages_game.py", "Game viewer", ":material/playing_cards:", url_path="game"),
        page("pages_quality.py", "Data quality", ":material/fact_check:", url_path="quality"),
    ]


def main() -> None:
    st.set_page_config(page_title="Gops records", page_icon=PAGE_ICON, layout="wide")
    page = st.navigation({"Gops": pages(), "Gin Rummy": gin_ui.pages(HERE)})
    db = database_path(sys.argv[1:])
    try:
        base = data.View.of(db)
        if gin_ui.is_gin(page):  # the Gin pages draw their own filters
            gin_ui.sidebar(base, page.url_path)
        else:
            f = filter_sidebar(base, page.url_path or DEFAULT_URL)
            st.session_state[data.VIEW_KEY] = base.with_filters(f)
        page.run()
    except DatabaseMissing:
        st.title(page.title)
        st.info(f"There is no database at `{db}` yet. Import some games first:\n\n"
                "    gops import PATH...      # .gops records, CSV or JSONL round logs\n\n"
                "or try the bundled samples with `gops demo`.")
    except DatabaseLocked as exc:
        st.title(page.title)
        st.warning(f"The database is busy: {exc}. Reload the page in a moment.")
    except DatabaseUnusable as exc:
        st.title(page.title)
        st.error(f"Cannot read the database: {exc}. Start the dashboard with "
                 "`gops dashboard --db PATH` on a file made by `gops import`.")


main()
