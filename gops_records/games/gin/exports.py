"""The formats Gin Rummy writes for `gops export` (the game's part ``exports``). Light on
purpose: the command line reads them for ``--format`` at every start; the writer
(:func:`gops_records.games.gin.export.export_gin`) loads only when an export runs."""

from __future__ import annotations

from gops_records.core.export_format import ExportFormat

_WRITER = "gops_records.games.gin.export:export_gin"

FORMATS = (
    ExportFormat("gin", "Gin Rummy full hands", _WRITER, record="hand", counts="turns"),
    ExportFormat("ginsheet", "Gin Rummy games as score sheets", _WRITER, record="sheet",
                 counts="hands"),
)
