"""Data quality: every import with its counts, the files read, and the quarantined records
with their errors.

The sidebar's filters do not apply here: imports and rejects belong to the whole database.
"""

from __future__ import annotations

import re

import polars as pl
import streamlit as st

from dashboards import charts, data

REJECTS_SHOWN = 200


def show_imports(view: data.View) -> None:
    imports = data.imports(view)
    st.header("Imports")
    st.caption("Every `gops import` (and `gops demo`) run, newest first: games seen, new, "
               "already in the database (duplicate), and rejected into quarantine.")
    if imports.is_empty():
        st.info("Nothing has been imported yet: run `gops import PATH...` or `gops demo`.")
        return
    total = imports.select("games_seen", "games_new", "games_duplicate", "games_rejected").sum()
    cols = st.columns(4)
    cols[0].metric("Imports", imports.height)
    cols[1].metric("Games stored", int(total["games_new"][0]))
    cols[2].metric("Duplicates skipped", int(total["games_duplicate"][0]))
    cols[3].metric("Records rejected", int(total["games_rejected"][0]),
                   help="Counted at every import; each bad record is kept once")
    st.dataframe(imports, hide_index=True, column_config={
        "started_at": st.column_config.DatetimeColumn("started", format="YYYY-MM-DD HH:mm:ss"),
        "finished_at": st.column_config.DatetimeColumn("finished", format="YYYY-MM-DD HH:mm:ss"),
        "seconds": st.column_config.NumberColumn("seconds", format="%.2f")})


def show_files(view: data.View) -> None:
    files = data.source_files(view)
    if files.is_empty():
        return
    st.header("Files")
    st.caption("Every file read, under its latest name, with what it held. An import counts "
               "a file it has read before (the same bytes) without reading it again, as long "
               "as everything it held is still stored.")
    st.dataframe(files.drop("sha256"), hide_index=True, column_config={
        "import_id": st.column_config.NumberColumn("last import"),
        "bytes": st.column_config.NumberColumn("bytes", format="%d"),
        "games": st.column_config.NumberColumn(
            "games", help="valid records in the file (a game written twice counts twice)"),
        "distinct_games": st.column_config.NumberColumn("distinct games"),
        "rejected": st.column_config.NumberColumn("rejected", help="records quarantined")})


def show_rejects(view: data.View) -> None:
    rejects = data.rejects(view, REJECTS_SHOWN)
    st.header("Quarantined records")
    st.caption("Records that failed validation, kept exactly as written with every problem "
               "found. Fix the source file and import it again; the fixed game is then stored.")
    if rejects.is_empty():
        st.success("No record has been rejected.")
        return
    codes = (rejects["codes"].str.split(", ").explode().value_counts(sort=True)
             .rename({"codes": "problem", "count": "records"}))
    left, right = st.columns([1, 2])
    left.altair_chart(charts.problems_chart(codes), width="stretch")
    right.markdown(f"**Rejected records** (newest import first; up to {REJECTS_SHOWN})")
    right.dataframe(rejects.select(
        "import_id", pl.col("source").str.replace(r"^.*[\\/]", "").alias("file"),
        "source_game", "source_line", "codes", "n_errors", "first_error"),
        hide_index=True, column_config={
            "import_id": "import", "source_game": "game in file", "source_line": "line",
            "n_errors": "problems", "first_error": "first problem"})
    st.subheader("Look at one record")
    labels = {i: f"{row['source']} · game {row['source_game'] or '—'} · line "
                 f"{row['source_line'] or '—'} · {row['codes']}"
              for i, row in enumerate(rejects.iter_rows(named=True))}
    pick = st.selectbox("Rejected record", list(labels), format_func=labels.__getitem__,
                        key="reject_pick")
    row = rejects.row(pick, named=True)
    st.error(problem_list(row["errors"]))
    st.caption(f"The record exactly as written in `{row['source']}`, numbered with its "
               "lines in that file.")
    st.code(numbered(row["raw_text"], row["source_line"]), language=None)


def where(error: dict) -> str:
    """'line 16, column 20 (round 2)', leaving out what the error does not know."""
    parts = [f"{name} {error[name]}" for name in ("line", "column") if error[name] is not None]
    place = ", ".join(parts) or "no position"
    return place + (f" (round {error['round']})" if error["round"] is not None else "")


def plain(text: str) -> str:
    """``text`` with Markdown's special characters escaped (messages quote record text)."""
    return re.sub(r"([\\`*_\[\]<>$~|])", r"\\\1", text)


def problem_list(errors: list[dict]) -> str:
    """Every problem of a record as a Markdown list, in the order they were found."""
    head = f"{len(errors)} problem{'s' * (len(errors) != 1)} in this record:"
    lines = [f"- {where(e)}: `{e['code']}`: {plain(e['message'])}" for e in errors]
    return "\n".join([head, "", *lines])


def numbered(text: str, first_line: int | None) -> str:
    """The text with file line numbers in front, so they match the errors' line numbers."""
    lines = text.splitlines() or [""]
    start = first_line or 1
    width = len(str(start + len(lines) - 1))
    return "\n".join(f"{start + i:>{width}} | {line}" for i, line in enumerate(lines))


def main() -> None:
    view = data.current_view()
    st.title("Data quality")
    st.caption("What went into the database and what was kept out. The sidebar's filters do "
               "not apply on this page.")
    show_imports(view)
    show_files(view)
    show_rejects(view)


if __name__ == "__main__":
    main()
