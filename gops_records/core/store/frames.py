"""The shared shapes of the store's frames: the ``rejects`` table every game's reader fills.

A game's own tables have their schemas in the game (e.g. :mod:`gops_records.games.gops.shapes`);
these are what every game's rejects (and the problems ``gops validate`` prints) take
(docs/schema.md).
"""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl
import pyarrow as pa

from gops_records.core.arrow_arrays import numeric
from gops_records.core.problems import Problem

TAGS_DTYPE = pl.List(pl.Struct({"key": pl.String, "value": pl.String}))
ERRORS_DTYPE = pl.List(pl.Struct({"code": pl.String, "message": pl.String, "line": pl.Int32,
                                  "column": pl.Int32, "round": pl.Int32}))
REJECTS_SCHEMA = {"reject_id": pl.String, "source": pl.String, "source_game": pl.Int32,
                  "source_line": pl.Int32, "raw_text": pl.String, "errors": ERRORS_DTYPE}


def text_id(text: str) -> str:
    """A stable 16-hex-digit id of a text (a reject's raw text): the first half of its MD5."""
    return hashlib.md5(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def errors_column(per_row: list[list[Problem]] | list[tuple[Problem, ...]]) -> pl.Series:
    """A column of problem lists (``ERRORS_DTYPE``), built through Arrow: most rows of a
    broken file's chunk have none written out, and Python lists of dicts are slow."""
    sizes = np.fromiter((len(row) for row in per_row), np.int64, len(per_row))
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    flat = [p for row in per_row for p in row]
    # through polars, not pa.array (which imports pandas: core/arrow_arrays.py)
    struct = pa.StructArray.from_arrays(
        [pl.Series([p.code for p in flat], dtype=pl.String).to_arrow(),
         pl.Series([p.message for p in flat], dtype=pl.String).to_arrow(),
         pl.Series([p.line for p in flat], dtype=pl.Int32).to_arrow(),
         pl.Series([p.column for p in flat], dtype=pl.Int32).to_arrow(),
         pl.Series([p.round for p in flat], dtype=pl.Int32).to_arrow()],
        names=["code", "message", "line", "column", "round"])
    return pl.Series(pa.ListArray.from_arrays(numeric(offsets), struct)).cast(ERRORS_DTYPE)


def whole_file_rejects(text: str, problem: Problem, source: str) -> pl.DataFrame:
    """The one reject of a whole file that could not be read as records (no
    ``source_game``, no ``source_line``)."""
    return pl.DataFrame({
        "reject_id": [text_id(text)], "source": [source], "source_game": [None],
        "source_line": [None], "raw_text": [text], "errors": [[problem.as_dict()]],
    }, schema=REJECTS_SCHEMA)
