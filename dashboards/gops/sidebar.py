"""The Gops pages' sidebar of filters, kept in the URL, and what a page says when the
filters keep no game.

The filters live in the URL (``st.query_params``), so a filtered view can be shared as a
link; :func:`sidebar` turns them into the :class:`~gops_records.games.gops.analytics.Filters`
of the view the Gops pages read (:func:`gops_records.dashboards.data.current_view`). Each
page's own parameters (``evening``, ``game_id``, ...) stay in the URL on that page only.
"""

from __future__ import annotations

import datetime as dt

import streamlit as st
from gops_records.dashboards.data import View
from gops_records.dashboards.gops import data
from gops_records.dashboards.gops.game import P_GAME
from gops_records.dashboards.gops.h2h import P_PAIR
from gops_records.dashboards.gops.players import P_PROFILE
from gops_records.dashboards.gops.scout import P_SCOUT, P_VS
from gops_records.dashboards.gops.session import P_EVENING
from gops_records.dashboards.gops.ui import (
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
from gops_records.dashboards.text import escape_md
from gops_records.dashboards.typed_names import stored_filters

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

FILTER_PARAMS = (P_EVENT, P_MATCH, P_FROM, P_TO, P_PLAYER, P_TIE_RULE, P_PLAYERS_N, P_FINISHED,
                 P_VARIANT)
#: URL parameters that belong to one page (by url_path); dropped when another page shows.
PAGE_PARAMS = {"session": (P_EVENING,), "game": (P_GAME,), "players": (P_PROFILE,),
               "h2h": (P_PAIR,), "scout": (P_SCOUT, P_VS)}
#: What a URL value of these parameters must look like, for the note on an unreadable one.
EXPECTED = {P_FROM: "a date such as 2026-03-06", P_TO: "a date such as 2026-03-06",
            P_TIE_RULE: f"one of {', '.join(TIE_RULES)}",
            P_PLAYERS_N: f"one of {', '.join(map(str, PLAYER_COUNTS))}",
            P_VARIANT: "classic, bid-cards-K (K = 2 or 3) or open-prizes-K (K = 2 to 13)"}


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


def filter_sidebar(base: View, url_path: str) -> Filters:
    """Draw the filters, keep the URL in step with them, and return them."""
    events, matches = data.events(base), data.matches(base)
    first, last = data.date_range(base)
    params = url_params()
    from_url = stored_filters(Filters.from_query_params(params), events,  # names as typed
                              data.players(base.with_filters(Filters())))
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


def sidebar(base: View, url_path: str) -> View:
    """Draw the Gops filters and return the view the Gops pages read (the sidebar of the
    ``pages`` part, :class:`gops_records.dashboards.navigation.GamePages`)."""
    return base.with_filters(filter_sidebar(base, url_path))
