"""The Gin Rummy pages' shared parts: their sidebar of filters, and what a page says when
the filters keep no hand.

The Gin pages have their own sidebar (the Gops one offers Gops events, tie rules and
variants): events, dates, matches and players of the ``gin_`` tables, turned into a
:class:`~gops_records.games.gin.analytics.GinFilters`. Like the Gops filters they live in the URL
(``gin_event``, ``gin_match``, ``gin_player``, ``gin_from``, ``gin_to``), so a filtered
view can be shared as a link; the Gops parameters already in the URL are kept, so going
back to a Gops page finds its filters. A copy outside the widgets' state keeps the Gin
filters while a Gops page shows (Streamlit drops the state of widgets a page does not draw).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import streamlit as st
from gops_records.dashboards import data
from gops_records.dashboards.gin import data as gin_data
from gops_records.dashboards.text import escape_md
from gops_records.dashboards.typed_names import stored_filters

from gops_records.games.gin.analytics import GinFilters

K_EVENTS, K_MATCHES, K_DATES, K_PLAYERS = "gin_f_events", "gin_f_matches", "gin_f_dates", \
    "gin_f_players"
WIDGET_KEYS = (K_EVENTS, K_MATCHES, K_DATES, K_PLAYERS)
#: The filters as last drawn, outside any widget's state.
SAVED = "gin_filters"
#: The filters the URL was last given, to tell a link or an edited URL from our own writing.
WRITTEN = "gin_filters_in_url"
VIEW_KEY = "gin_view"
P_EVENT, P_MATCH, P_PLAYER, P_FROM, P_TO = "gin_event", "gin_match", "gin_player", \
    "gin_from", "gin_to"
PARAMS = (P_EVENT, P_MATCH, P_PLAYER, P_FROM, P_TO)
#: The Gin standings' evening (``gin_evening``), a parameter of that page alone.
P_EVENING = "gin_evening"
#: Each Gin page's own URL parameters (by url_path): dropped on the other Gin pages (the
#: Gops filters stay in the URL, for the way back to a Gops page).
PAGE_PARAMS = {"gin-standings": (P_EVENING,)}

@dataclass(frozen=True)
class GinView:
    """What a Gin page looks at: the database view (its stamp) and the Gin filters."""

    view: data.View
    filters: GinFilters


def current() -> GinView:
    found = st.session_state.get(VIEW_KEY)
    if not isinstance(found, GinView):
        raise RuntimeError("no Gin Rummy view in this session: start the dashboard with "
                           "`gops dashboard`, which runs dashboards/app.py")
    return found


# -- the filters in the URL ------------------------------------------------------------------


def _date(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def from_params(params: dict[str, list[str]]) -> GinFilters:
    """The filters a link carries (an unreadable date is left out)."""
    def many(key: str) -> tuple[str, ...]:
        return tuple(v for v in params.get(key, []) if v.strip())

    def one(key: str) -> str | None:
        values = params.get(key) or []
        return values[-1] if values else None

    return GinFilters(events=many(P_EVENT), matches=many(P_MATCH), players=many(P_PLAYER),
                      date_from=_date(one(P_FROM)), date_to=_date(one(P_TO)))


def to_params(f: GinFilters) -> dict[str, list[str]]:
    out = {P_EVENT: list(f.events), P_MATCH: list(f.matches), P_PLAYER: list(f.players),
           P_FROM: [f.date_from.isoformat()] if f.date_from else [],
           P_TO: [f.date_to.isoformat()] if f.date_to else []}
    return {k: v for k, v in out.items() if v}


def _seed(f: GinFilters) -> None:
    st.session_state[K_EVENTS] = list(f.events)
    st.session_state[K_MATCHES] = list(f.matches)
    st.session_state[K_PLAYERS] = list(f.players)
    st.session_state[K_DATES] = tuple(d for d in (f.date_from, f.date_to) if d is not None)


def clear_filters() -> None:
    """Reset the Gin filters (a button callback)."""
    _seed(GinFilters())
    st.session_state[SAVED] = GinFilters()


def _with_chosen(options: list[str], chosen: object) -> list[str]:
    return [*options, *[c for c in (chosen or []) if c not in options]]


def _dates(value: object) -> tuple[dt.date | None, dt.date | None]:
    picked = [d for d in (value if isinstance(value, list | tuple) else [value])
              if isinstance(d, dt.date)]
    if not picked:
        return None, None
    return min(picked), max(picked)


def sidebar(base: data.View, url_path: str) -> data.View:
    """Draw the Gin filters, keep the URL in step (another Gin page's own parameters
    dropped), and set the view the page reads (:func:`current`). The sidebar of the
    ``pages`` part (:class:`gops_records.dashboards.navigation.GamePages`): returns the
    database view with the Gin filters."""
    params = {key: st.query_params.get_all(key) for key in st.query_params}
    linked = from_params(params) if any(p in params for p in PARAMS) else None
    if linked is not None:  # names as people type them (?player=marta)
        linked = stored_filters(linked, gin_data.events(base),
                                gin_data.players(base, GinFilters()))
    if not all(key in st.session_state for key in WIDGET_KEYS):
        saved = st.session_state.get(SAVED)
        _seed(linked if linked is not None else
              saved if isinstance(saved, GinFilters) else GinFilters())
    elif linked is not None and linked != st.session_state.get(WRITTEN):
        _seed(linked)  # the URL was changed by hand, or a link opened in this tab
    side = st.sidebar
    side.header("Gin Rummy filters")
    side.multiselect("Event", _with_chosen(gin_data.events(base), st.session_state[K_EVENTS]),
                     key=K_EVENTS, placeholder="all events",
                     help="A club evening or tournament (the Event tag).")
    first, last = gin_data.date_range(base)
    picked = [d for d in (st.session_state.get(K_DATES) or ()) if isinstance(d, dt.date)]
    bounds = [d for d in (first, last, *picked) if d is not None]
    side.date_input("Dates", min_value=min(bounds, default=None),
                    max_value=max(bounds, default=None), key=K_DATES, format="YYYY-MM-DD",
                    help="Pick the first and the last day; a single day picks one evening.",
                    disabled=not bounds)
    side.multiselect("Match", _with_chosen(gin_data.matches(base),
                                           st.session_state[K_MATCHES]),
                     key=K_MATCHES, placeholder="all matches",
                     help="Hands and games that share a Match tag.")
    date_from, date_to = _dates(st.session_state.get(K_DATES))
    scope = GinFilters(events=st.session_state[K_EVENTS], matches=st.session_state[K_MATCHES],
                       date_from=date_from, date_to=date_to)
    players = sorted(set(gin_data.players(base, scope)) | set(st.session_state[K_PLAYERS]))
    side.multiselect("Players", players, key=K_PLAYERS, placeholder="everyone",
                     help="Hands and games in which any of these players played.")
    f = GinFilters(events=scope.events, matches=scope.matches, players=st.session_state[K_PLAYERS],
                   date_from=date_from, date_to=date_to)
    side.caption(f"Showing: {escape_md(f.describe())}")
    side.button("Clear filters", key="gin_clear_filters", on_click=clear_filters,
                disabled=f.is_empty)
    st.session_state[SAVED] = st.session_state[WRITTEN] = f
    others = {k for path, keys in PAGE_PARAMS.items() if path != url_path for k in keys}
    target = {k: v for k, v in params.items() if k not in PARAMS and k not in others} \
        | to_params(f)
    if target != params:
        st.query_params.from_dict(target)
    st.session_state[VIEW_KEY] = GinView(base, f)
    return base.with_filters(f)


def no_hands(gv: GinView, key: str) -> bool:
    """Say why nothing shows and return True when the filters keep no hand."""
    if gin_data.overview(gv.view, gv.filters)["hands"]:
        return False
    if gin_data.overview(gv.view, GinFilters())["hands"] == 0:
        st.info("The database has no Gin Rummy hands yet. Import `.gin` full hands or "
                "`.ginsheet` score sheets with `gops import PATH...`, or try the bundled "
                "samples with `gops demo`.")
    else:
        st.info(f"No Gin Rummy hand matches these filters ({escape_md(gv.filters.describe())}).")
        st.button("Clear filters", key=f"gin_clear_{key}", on_click=clear_filters,
                  icon=":material/filter_alt_off:", type="primary")
    return True
