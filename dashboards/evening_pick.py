"""The *Evening* picker: a page that opens on the latest evening in view (the Gops Session
page, the Gin standings).

An evening is a date and an event (``2026-03-06 · Friday cup``), the rows of an
``evenings`` query, newest first. The picker follows the latest evening as the filters
change, until the user picks an earlier one or all of them; the choice lives in the URL
(``param``; absent for the latest evening, ``all`` for every evening in view), so a view
can be shared as a link. A link's evening that is not in view warns and shows the latest.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

import polars as pl
import streamlit as st
from gops_records.dashboards.text import escape_md

ALL_EVENINGS = "all"


class EveningFilters(Protocol):
    """A game's filters as far as an evening narrows them (a frozen dataclass: the Gops
    ``Filters``, the Gin ``GinFilters``)."""

    events: tuple[str, ...]
    date_from: dt.date | None
    date_to: dt.date | None


F = TypeVar("F", bound=EveningFilters)


def one_evening(f: F, date: dt.date, event: str | None) -> F:
    """``f`` narrowed to one evening of the picker: that date, and that event when it has
    one (an evening without an Event tag is the whole date)."""
    return replace(f, date_from=date, date_to=date,  # type: ignore[type-var]
                   events=(event,) if event is not None else f.events)


def evening_label(date: dt.date, event: str | None) -> str:
    """How an evening is named in the picker and in the URL: ``2026-03-06 · Friday cup``."""
    return f"{date.isoformat()} · {event if event is not None else 'no event'}"


@dataclass(frozen=True)
class EveningPicker:
    """A page's picker: its URL parameter, the prefix of its session-state keys, what its
    evenings count (a column of the rows: ``games``, ``hands``) and how many are listed."""

    param: str
    key: str
    count: str
    listed: int

    def _k(self, name: str) -> str:
        return f"{self.key}_{name}"

    def pick(self, evenings: pl.DataFrame) -> tuple[dict | None, str | None]:
        """Draw the picker; the row of the evening picked (the latest by default) and its
        label, or (None, None) for all evenings in view (also when none is dated)."""
        if evenings.is_empty():  # only undated records: no evening to pick
            return None, None
        rows = {evening_label(r["date"], r["event"]): r for r in evenings.iter_rows(named=True)}
        labels = [*rows, ALL_EVENINGS]
        latest = labels[0]
        state = st.session_state
        pick, follow, url = self._k("pick"), self._k("latest"), self._k("url")
        wanted = st.query_params.get(self.param)
        if wanted is not None and wanted not in labels:
            # Only a link (or an edited address) is told: an evening picked here that a
            # filter then leaves out quietly gives way to the latest one.
            if state.get(url) != wanted:
                st.warning(f"The link's evening {escape_md(wanted)} is not among the "
                           "evenings in view; the latest one shows.")
            wanted = None
        if wanted is not None and state.get(url) != wanted:
            state[pick] = wanted
            state[follow] = wanted == latest
        elif state.get(pick) not in labels or state.get(follow, True):
            state[pick] = latest  # follow the latest evening as the filters change

        def describe(label: str) -> str:
            if label == ALL_EVENINGS:
                more = "+" if len(rows) >= self.listed else ""
                return f"All evenings in view ({len(rows)}{more})"
            counted = rows[label][self.count]
            return f"{label}{' (latest)' if label == latest else ''} · {counted} {self.count}"

        state[self._k("latest_label")] = latest
        choice = st.selectbox("Evening", labels, key=pick, format_func=describe,
                              on_change=self._picked,
                              help="The page opens on the latest evening the filters keep; "
                                   "pick an earlier one, or all of them.")
        state[url] = None if choice == latest else choice
        if choice == latest:
            st.query_params.pop(self.param, None)
        else:
            st.query_params[self.param] = choice
        if choice == ALL_EVENINGS:
            return None, None
        return rows[choice], choice

    def widen(self) -> None:
        """The *All evenings* button's callback: every evening in view."""
        st.session_state[self._k("pick")] = ALL_EVENINGS
        st.session_state[self._k("latest")] = False

    def _picked(self) -> None:
        """The user picked an evening: follow the latest one only if that is what they
        picked."""
        state = st.session_state
        state[self._k("latest")] = state[self._k("pick")] == state.get(self._k("latest_label"))
