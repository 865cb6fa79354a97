"""Scouting an opponent: how predictable they are, their habits, and how to beat them.

See docs/scouting.md. The entry points are :func:`scout` (a :class:`ScoutReport` from the
database) and :func:`predicted_bid_by_prize` (chart data from a report or a model).
"""

from gops_records.scouting.features import ScoutError
from gops_records.scouting.report import ScoutReport, predicted_bid_by_prize
from gops_records.scouting.scout import scout

__all__ = ["ScoutError", "ScoutReport", "predicted_bid_by_prize", "scout"]
