"""Data quality: every import with its counts, the files read, and the quarantined records
with their errors.

The sidebar's filters do not apply here: imports and rejects belong to the whole database.
"""

from __future__ import annotations

import re

import polars as pl
import streamlit as st
from gops_records.dashboards import charts, data, names_panel, ui
from gops_records.dashboards.text import code_span, escape_md

from gops_records.core import rejects as quarantine_lib

REJECTS_SHOWN = 200


def show_imports(view: data.View) -> None:
    imports = data.imports(view)
    st.header("Imports")
    st.caption("Every `gops import` (and `gops demo`) run, newest first: games seen, new, "
               "already in the database (duplicate), and rejected into quarantine.")
    if imports.is_empty():
        st.info("Nothing has been imported yet: run `gops import PATH...` or `gops demo`.")
        return
    total = imports.select("games_seen", "games_new", "games_duplicate").sum()
    tally = data.quarantine_counts(view)
    cols = st.columns(4)
    cols[0].metric("Imports", imports.height)
    cols[1].metric("Games stored", int(total["games_new"][0]))
    cols[2].metric("Duplicates skipped", int(total["games_duplicate"][0]))
    cols[3].metric("Records in quarantine", tally.records,
                   help=f"Each bad record is kept once: {tally.open} open, {tally.resolved} "
                        f"resolved. The imports below counted {tally.rejected_at_imports} "
                        "rejections, since an import that reads a record again counts it "
                        "again.")
    ui.table(imports, "imports", hide_index=True, column_config={
        "started_at": st.column_config.DatetimeColumn("started", format="YYYY-MM-DD HH:mm:ss"),
        "finished_at": st.column_config.DatetimeColumn("finished", format="YYYY-MM-DD HH:mm:ss"),
        "games_rejected": st.column_config.NumberColumn(
            "games_rejected", help="records this import rejected, kept or already kept"),
        "seconds": st.column_config.NumberColumn("seconds", format="%.2f")})


def show_files(view: data.View) -> None:
    files = data.source_files(view)
    if files.is_empty():
        return
    st.header("Files")
    st.caption("Every file read, under its latest name, with what it held. An import counts "
               "a file it has read before (the same bytes) without reading it again, as long "
               "as everything it held is still stored.")
    ui.table(files.drop("sha256"), "files", hide_index=True, column_config={
        "import_id": st.column_config.NumberColumn("last import"),
        "bytes": st.column_config.NumberColumn("bytes", format="%d"),
        "games": st.column_config.NumberColumn(
            "games", help="valid records in the file (a game written twice counts twice)"),
        "distinct_games": st.column_config.NumberColumn("distinct games"),
        "rejected": st.column_config.NumberColumn("rejected", help="records quarantined")})


def show_rejects(view: data.View) -> None:
    records = data.quarantine(view, limit=REJECTS_SHOWN)
    st.header("Quarantined records")
    st.caption("Records that failed validation, kept exactly as written with every problem "
               "found. Fix the source file and import it again; `gops rejects --recheck` then "
               "marks the record resolved (so does a record typed again right, or removed "
               "from its file).")
    if not records:
        st.success("No record has been rejected.")
        return
    tally = data.quarantine_counts(view)
    cols = st.columns(3)
    cols[0].metric("In quarantine", tally.records, help="each record kept once")
    cols[1].metric("Open", tally.open, help="not found fixed by `gops rejects --recheck`")
    cols[2].metric("Resolved", tally.resolved,
                   help="fixed and imported, typed again right, or removed from its file")
    show_resolved = bool(tally.resolved) and st.toggle(
        f"Show the {tally.resolved} resolved record{'s' * (tally.resolved != 1)} too",
        key="reject_resolved")
    shown = [r for r in records if show_resolved or not r.resolved]
    if not shown:
        st.success("Every quarantined record is resolved.")
        return
    frame = quarantine_lib.reject_frame(shown)
    codes = (frame["codes"].str.split(", ").explode().value_counts(sort=True)
             .rename({"codes": "problem", "count": "records"}))
    left, right = st.columns([1, 2])
    left.altair_chart(charts.problems_chart(codes), width="stretch")
    right.markdown(f"**Rejected records** (newest import first; up to {REJECTS_SHOWN})")
    listed = frame.select(
        "import_id", pl.col("source").str.replace(r"^.*[\\/]", "").alias("file"),
        "source_game", "source_line", "status", "codes", "n_errors", "first_error")
    ui.table(listed, "rejected records", where=right, csv=frame.drop("raw_text", "errors"),
             hide_index=True, column_config={
                 "import_id": "import", "source_game": "game in file", "source_line": "line",
                 "n_errors": "problems", "first_error": "first problem"})
    show_record(shown)


def show_record(shown: list[quarantine_lib.Reject]) -> None:
    """One record: its status, every problem with the line it points at, its text."""
    st.subheader("Look at one record")
    labels = {i: f"{r.source} · game {r.source_game or '—'} · line {r.source_line or '—'} · "
                 f"{', '.join(r.codes)}" + (" · resolved" if r.resolved else "")
              for i, r in enumerate(shown)}
    pick = st.selectbox("Rejected record", list(labels), format_func=labels.__getitem__,
                        key="reject_pick")
    reject = shown[pick]
    if reject.resolution:
        st.success(f"Resolved ({reject.resolution.how.value}, "
                   f"{reject.resolution.resolved_at:%Y-%m-%d %H:%M}): "
                   f"{escape_md(reject.resolution.note)}")
    errors = [p.as_dict() for p in reject.errors]
    st.error(problem_list(errors))
    lines = quarantine_lib.record_lines(reject)
    st.caption("The line each problem points at:")
    st.code(pointed_lines(reject, lines), language=None)
    st.caption(f"The record exactly as written in {code_span(reject.source)}, numbered "
               "with its lines in that file.")
    st.code(numbered(lines), language=None)


def pointed_lines(reject: quarantine_lib.Reject,
                  lines: list[quarantine_lib.RecordLine]) -> str:
    """Each problem's line (file line number, text, a caret under its column in .gops
    text), or a word when the line is not part of the record's text."""
    out = []
    for p in reject.errors:
        text = quarantine_lib.problem_text(reject, p, lines)
        head = f"line {p.line}" + (f", column {p.column}" if p.column else "") + f": {p.code}"
        if text is None:
            out.append(f"{head}: (line {p.line} is not in the record's text)")
            continue
        out += [head, f"{p.line:>6} | {text}"]
        if reject.caret and p.column and 1 <= p.column <= len(text) + 1:
            out.append(" " * 9 + " " * (p.column - 1) + "^")
    return "\n".join(out)


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


def numbered(lines: list[quarantine_lib.RecordLine]) -> str:
    """The record's lines with their line numbers in the file in front (blank where a
    round log's row cannot be placed), so they match the problems' line numbers."""
    width = max((len(str(line.number)) for line in lines if line.number), default=1)
    return "\n".join(f"{line.number if line.number else '':>{width}} | {line.text}"
                     for line in lines)


def main() -> None:
    view = data.current_view()
    st.title("Data quality")
    st.caption("What went into the database and what was kept out. The sidebar's filters do "
               "not apply on this page.")
    show_imports(view)
    show_files(view)
    show_rejects(view)
    names_panel.show_near_duplicates(view)


if __name__ == "__main__":
    main()
