"""The formats Gops writes for `gops export` (the game's part ``exports``). Light on
purpose: the command line reads them for ``--format`` at every start; the writer
(:func:`gops_records.games.gops.export.export_gops`) loads only when an export runs."""

from __future__ import annotations

from gops_records.core.export_format import ExportFormat

_WRITER = "gops_records.games.gops.export:export_gops"

FORMATS = (
    ExportFormat("gops", "canonical records", _WRITER),
    ExportFormat("csv", "round logs with the import's columns", _WRITER),
    ExportFormat("parquet", "a folder with one file per table", _WRITER, folder=True),
)
