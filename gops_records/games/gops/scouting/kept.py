"""A scouting report as the text it is kept as: :func:`to_record` and :func:`from_record`.

The record is JSON holding every value of the report at full precision (Python writes a
float's shortest exact form, so a report read back equals the one written), plus the
chart data (the predicted bid by prize). Not the model nor the situations: a kept report
is what the page and `gops scout` show, not a way to refit. Reading one needs neither
numpy nor the model; the chart data becomes a polars frame only when asked for.
:mod:`gops_records.games.gops.scouting.kept_store` keeps the records in the database.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from gops_records import __version__
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.scouting.baseline import EquilibriumBaseline
from gops_records.games.gops.scouting.results import (
    CounterStrategy,
    Gain,
    Habit,
    Predictability,
    ScoutReport,
)

#: Bumped whenever the record's layout changes (2: the exploit's interval cross-fitted,
#: and its method kept).
FORMAT = 2
#: The gops that computed a report, and the record's layout: a kept report computed by
#: another version is not shown (the scouting code may have changed since).
VERSION = f"{__version__}/{FORMAT}"

_PREDICTED = ("prize", "bid", "probability")


def to_record(report: ScoutReport) -> str:
    """The report as JSON (every value exact; the chart data as three columns)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "player": report.player, "vs": report.vs, "games": report.games,
        "bids": report.bids, "variant_games": report.variant_games,
        "model_description": report.model_description,
        "equilibrium": None if report.equilibrium is None else dataclasses.asdict(
            report.equilibrium),
        "predictability": dataclasses.asdict(report.predictability),
        "habits": [dataclasses.asdict(h) for h in report.habits],
        "counter": dataclasses.asdict(report.counter),
        "predicted": None if report.predicted is None else {
            name: report.predicted[name].to_list() for name in _PREDICTED},
    }
    return json.dumps(record, ensure_ascii=False, default=_plain)


def from_record(text: str, *, chart_data: bool = True) -> ScoutReport:
    """The report :func:`to_record` wrote; ``chart_data=False`` leaves ``predicted`` out
    (what `gops scout` prints needs none, and polars then stays unloaded)."""
    r = json.loads(text)
    if r.get("format") != FORMAT:
        raise ValueError(f"a kept scouting report of format {r.get('format')!r}, not {FORMAT}")
    p = r["predictability"]
    predictability = Predictability(**{
        **p, **{k: tuple(p[k]) for k in ("exact_ci", "within_one_ci", "information_gain_ci")}})
    habits = [Habit(**{**h, "ci": tuple(h["ci"])}) for h in r["habits"]]
    c = r["counter"]
    counter = CounterStrategy(
        description=c["description"], counter=Gain(**c["counter"]),
        random=Gain(**c["random"]), profile=RuleProfile(**c["profile"]),
        played=c["played"], generic=Gain(**c["generic"]), exploit=Gain(**c["exploit"]),
        exploit_ci=None if c["exploit_ci"] is None else tuple(c["exploit_ci"]),
        fold_exploits=tuple(c["fold_exploits"]), interval=c["interval"])
    predicted = None
    if chart_data and r["predicted"] is not None:
        import polars as pl  # the page has it loaded already; `gops scout` never asks

        predicted = pl.DataFrame(r["predicted"], schema={
            "prize": pl.Int8, "bid": pl.Int8, "probability": pl.Float64})
    return ScoutReport(player=r["player"], games=r["games"], bids=r["bids"],
                       predictability=predictability, habits=habits, counter=counter,
                       vs=r["vs"], predicted=predicted, variant_games=r["variant_games"],
                       model_description=r["model_description"],
                       equilibrium=_baseline(r.get("equilibrium")))


def _baseline(kept: dict | None) -> EquilibriumBaseline | None:
    """The equilibrium baseline of a kept record (None: none, or a record made before it)."""
    if kept is None:
        return None
    return EquilibriumBaseline(**kept)


def _plain(value: Any) -> Any:
    """numpy's scalars as Python's (json writes np.float64 itself; not np.int64)."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
