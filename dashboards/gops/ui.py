"""What the Gops pages share beyond the shared building blocks: the session-state keys of
the Gops sidebar's widgets, the callback that clears them, and what a page says when the
filters keep no game (with a button that clears them).
"""

from __future__ import annotations

import streamlit as st
from gops_records.dashboards.data import View
from gops_records.dashboards.gops import data

#: Session-state keys of the sidebar widgets.
K_EVENTS, K_MATCHES, K_DATES, K_PLAYERS = "f_events", "f_matches", "f_dates", "f_players"
K_TIE_RULE, K_N_PLAYERS, K_FINISHED = "f_tie_rule", "f_n_players", "f_finished"
K_VARIANT = "f_variant"
WIDGET_KEYS = (K_EVENTS, K_MATCHES, K_DATES, K_PLAYERS, K_TIE_RULE, K_N_PLAYERS, K_FINISHED,
               K_VARIANT)
ANY = "any"


def clear_filters() -> None:
    """Reset every sidebar filter (a button callback: runs before the next script run)."""
    for key in (K_EVENTS, K_MATCHES, K_PLAYERS):
        st.session_state[key] = []
    st.session_state[K_DATES] = ()
    st.session_state[K_TIE_RULE] = ANY
    st.session_state[K_N_PLAYERS] = ANY
    st.session_state[K_FINISHED] = False
    st.session_state[K_VARIANT] = ANY


def no_games(view: View, key: str) -> None:
    """Say why no game shows, with a *Clear filters* button when filters are to blame."""
    st.info(data.explain_empty(view))
    if not view.filters.is_empty:
        st.button("Clear filters", key=f"clear_{key}", on_click=clear_filters,
                  icon=":material/filter_alt_off:", type="primary")
