"""Building blocks every game's pages share: tables and charts with their downloads.

Every table shown with :func:`table` has a *CSV* button beside it and every chart shown
with :func:`chart` *PNG* and *SVG* buttons, rendered here on the server (vl-convert, no
network). The files are made only when a button is pressed (Streamlit calls the function
given as the download's data then), so a page costs nothing more to draw.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import altair as alt
import polars as pl
import streamlit as st
from gops_records.dashboards import charts


def slug(name: str) -> str:
    """A file name made of ``name``: lower case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "table"


def csv_bytes(df: pl.DataFrame) -> bytes:
    """The frame as CSV (UTF-8 with a byte-order mark, so spreadsheets read names right)."""
    return ("\ufeff" + df.write_csv()).encode("utf-8")


def download(label: str, make: Callable[[], bytes], file_name: str, mime: str, key: str,
             where=None) -> None:
    """A download button whose file is made only when pressed."""
    (where or st).download_button(label, data=make, file_name=file_name, mime=mime, key=key,
                                  on_click="ignore", icon=":material/download:",
                                  type="tertiary")


def table(df: pl.DataFrame, name: str, *, where=None, csv: pl.DataFrame | None = None,
          **kwargs):
    """``st.dataframe(df, **kwargs)`` and a CSV download of it (of ``csv`` if given: the
    whole frame behind a shortened display). Returns what st.dataframe returns.

    A date column shows as a date (``2026-12-03``; Streamlit's default adds ``00:00:00``)
    unless ``column_config`` says otherwise."""
    where = where or st
    dates = {c: st.column_config.DateColumn(c, format="YYYY-MM-DD")
             for c, dtype in df.schema.items() if dtype == pl.Date}
    kwargs["column_config"] = dates | (kwargs.get("column_config") or {})
    shown = where.dataframe(df, **kwargs)
    whole = df if csv is None else csv
    download("CSV", lambda: csv_bytes(whole), f"{slug(name)}.csv", "text/csv",
             f"csv_{slug(name)}", where)
    return shown


def chart(figure: alt.TopLevelMixin, name: str, *, where=None) -> None:
    """The chart, then PNG and SVG downloads of it."""
    where = where or st
    where.altair_chart(figure, width="stretch")
    row = where.container(horizontal=True, gap="small")
    download("PNG", lambda: charts.to_png(figure), f"{slug(name)}.png", "image/png",
             f"png_{slug(name)}", row)
    download("SVG", lambda: charts.to_svg(figure), f"{slug(name)}.svg", "image/svg+xml",
             f"svg_{slug(name)}", row)
