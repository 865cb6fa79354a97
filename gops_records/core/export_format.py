"""The formats `gops export` writes, apart from the exporter (:mod:`gops_records.core.export`).

A module of its own that imports nothing heavy, so the command line can offer the formats
(``gops export --format``) without loading DuckDB and polars at every `gops` start.
"""

from __future__ import annotations

from enum import StrEnum


class ExportFormat(StrEnum):
    GOPS = "gops"
    CSV = "csv"
    PARQUET = "parquet"
    GIN = "gin"            # Gin Rummy full hands (gops_records.games.gin.export)
    GINSHEET = "ginsheet"  # Gin Rummy games as score sheets
