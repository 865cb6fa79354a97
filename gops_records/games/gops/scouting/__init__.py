"""Scouting an opponent: how predictable they are, their habits, and how to beat them.

See docs/scouting.md. The entry points are :func:`scout` (a :class:`ScoutReport` from the
database) and :func:`predicted_bid_by_prize` (chart data from a report or a model).

They are loaded when first used (PEP 562), so that ``gops`` can read
:data:`~gops_records.games.gops.scouting.defaults.DEFAULT_GAMES` for its options without loading
polars, DuckDB and the model: every command starts about a second sooner.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gops_records.games.gops.scouting.features import ScoutError
    from gops_records.games.gops.scouting.report import predicted_bid_by_prize
    from gops_records.games.gops.scouting.results import ScoutReport
    from gops_records.games.gops.scouting.scout import scout

_WHERE = {"ScoutError": "features", "ScoutReport": "results",
          "predicted_bid_by_prize": "report", "scout": "scout"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        module = importlib.import_module(f"gops_records.games.gops.scouting.{_WHERE[name]}")
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gops_records.games.gops.scouting' has no attribute {name!r}")


__all__ = ["ScoutError", "ScoutReport", "predicted_bid_by_prize", "scout"]
