"""The Data quality page's *Names that are probably one* section: near-duplicate player
and event names of every game (case, accents, spacing, one edit: :mod:`gops_records.core.names`)
with their games, and the ``gops alias`` command that merges each pair.

Read through the shared reader, so names an alias already joins are merged and no longer
offered. The page only shows the command: the dashboard never writes the database.
"""

from __future__ import annotations

import polars as pl
import streamlit as st
from gops_records.dashboards import data, ui
from gops_records.dashboards.text import escape_md

from gops_records.core.name_lists import Suggestion, merge_suggestions

#: ``suggestions(view)``: the near duplicates of the whole database (filters do not apply).
suggestions = data.cached_read(merge_suggestions, filtered=False, name="name_suggestions")


def suggestion_frame(found: list[Suggestion]) -> pl.DataFrame:
    """One row per pair: kind, the name to keep (more games), the other, their games, why,
    and the command that merges them."""
    return pl.DataFrame(
        [{"kind": str(s.kind), "keep": s.pair.name, "games": s.pair.count,
          "other": s.pair.other, "other games": s.pair.other_count, "why": s.pair.reason,
          "command": s.command} for s in found],
        schema={"kind": pl.String, "keep": pl.String, "games": pl.Int64, "other": pl.String,
                "other games": pl.Int64, "why": pl.String, "command": pl.String})


def show_near_duplicates(view: data.View) -> None:
    """The section: a table of the pairs, each with its command, or a line saying none."""
    found = suggestions(view)
    st.header("Names that are probably one")
    st.caption("Player and event names that differ only in case, accents or spacing, or by "
               "one letter (names of 5 characters or more: Ann and Anna stay apart). Each "
               "pair's command shows the less played spelling as the other on every page and "
               "in every command, without changing a record; `gops alias --remove` undoes it.")
    if not found:
        st.success("No two names look like one: nothing to merge.")
        return
    ui.table(suggestion_frame(found), "near-duplicate-names", hide_index=True)
    first = found[0]
    st.markdown(f"For example, to show {escape_md(first.pair.other)} as "
                f"{escape_md(first.pair.name)}:")
    st.code(first.command, language="bash")
