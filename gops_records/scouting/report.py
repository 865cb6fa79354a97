"""The scouting report: its JSON contract, its terminal text, and the chart data behind it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from gops_records.cards import MAX_RANK
from gops_records.rules import RuleProfile
from gops_records.scouting.counter import CounterStrategy
from gops_records.scouting.evaluate import Predictability
from gops_records.scouting.features import Situations
from gops_records.scouting.habits import Habit
from gops_records.scouting.model import Board, OpponentModel

#: Share of the uniform log-loss the model must save to be called (highly) predictable.
PREDICTABLE, HIGHLY_PREDICTABLE = 0.05, 0.25


@dataclass(frozen=True)
class ScoutReport:
    """Everything ``gops scout`` says about one player; :meth:`as_json` is the contract."""

    player: str
    games: int
    bids: int
    predictability: Predictability
    habits: list[Habit]
    counter: CounterStrategy
    vs: str | None = None
    model: OpponentModel | None = field(default=None, repr=False, compare=False)
    situations: Situations | None = field(default=None, repr=False, compare=False)

    def as_json(self) -> dict:
        """Exactly: player, games, bids, predictability, habits, counter."""
        return {
            "player": self.player,
            "games": self.games,
            "bids": self.bids,
            "predictability": self.predictability.as_json(),
            "habits": [h.as_json() for h in self.habits],
            "counter": self.counter.as_json(),
        }

    @property
    def information_gain(self) -> float:
        """The share of the uniform log-loss the model saves on held-out games (<0: worse)."""
        p = self.predictability
        return 1.0 - p.log_loss / p.baseline_log_loss if p.baseline_log_loss > 0 else 0.0

    def verdict(self) -> str:
        gain = self.information_gain
        if gain >= HIGHLY_PREDICTABLE:
            return "highly predictable"
        if gain >= PREDICTABLE:
            return "somewhat predictable"
        return "about as predictable as a uniformly random bidder"

    def text(self) -> str:
        """The report as the terminal shows it."""
        p, c = self.predictability, self.counter
        against = f" (games against {self.vs} only)" if self.vs else ""
        lines = [
            f"Scouting {self.player}: {self.games} games, {self.bids} bids{against}",
            "",
            f"Predictability on held-out games ({p.folds}-fold, split by game): "
            f"{self.verdict()}",
            f"  {'':24}{'model':>8}{'uniform':>10}",
            f"  {'exact bid':24}{p.exact:>8.0%}{p.baseline_exact:>10.0%}",
            f"  {'bid within one':24}{p.within_one:>8.0%}{p.baseline_within_one:>10.0%}",
            f"  {'log-loss (nats per bid)':24}{p.log_loss:>8.3f}{p.baseline_log_loss:>10.3f}",
        ]
        if self.model is not None:
            lines.append(f"  the model reads them by: {self.model.describe()}")
        lines += ["", "Habits (each clears uniform play; Holm-corrected over all habits tested)"]
        if self.habits:
            lines += [f"  - {h.description}" for h in self.habits]
        else:
            lines.append("  none clears uniform play with confidence (with more games, weaker "
                         "habits can show)")
        prof = c.profile
        lines += [
            "",
            f"Counter-strategy ({prof.cards} cards, tie rule {prof.tie_rule.value}, "
            f"{c.counter.games} simulated games each)",
            f"  {c.description}",
            f"  expected gain: {c.counter.mean:+.1f} points per game "
            f"(± {1.96 * c.counter.stderr:.1f});",
            f"  a uniformly random reply: {c.random.mean:+.1f} "
            f"(± {1.96 * c.random.stderr:.1f})",
        ]
        return "\n".join(lines)


def predicted_bid_by_prize(source: ScoutReport | OpponentModel,
                           situations: Situations | None = None,
                           cards: int = MAX_RANK) -> pl.DataFrame:
    """The model's bid distribution for each prize: columns prize, bid, probability.

    For a report (or a model with ``situations``) each prize's row is the model's
    probabilities averaged over the player's recorded situations with that prize, so the
    chart shows what the model expects in the spots the player actually met. For a bare
    model it is the first round of a ``cards``-card game (full hands, all prizes left).
    """
    if isinstance(source, ScoutReport):
        model, situations = source.model, source.situations
        if model is None:
            raise ValueError("this report carries no model (made without one)")
    else:
        model = source
    if situations is not None and len(situations):
        board = Board.of(situations)
        prizes = situations.prize
        n = int(situations.cards.max())
    else:
        n = cards
        prizes = np.arange(1, n + 1)
        hand = np.zeros((n, MAX_RANK), dtype=bool)
        hand[:, :n] = True
        board = Board(hand, prizes, prizes.copy(), np.full(n, n), prizes - 1, np.full(n, n))
    probs = model.predict(board)[:, :n]
    rows = []
    for prize in range(1, n + 1):
        at = prizes == prize
        if not at.any():
            continue
        mean = probs[at].mean(axis=0)
        rows += [(prize, bid, float(mean[bid - 1])) for bid in range(1, n + 1)]
    return pl.DataFrame(rows, schema={"prize": pl.Int8, "bid": pl.Int8,
                                      "probability": pl.Float64}, orient="row")


def profile_of(frame: pl.DataFrame) -> RuleProfile:
    """The two-player profile of the rules the player's games were most often played under."""
    top = (frame.unique("game_id")
           .group_by("cards", "tie_rule", "prize_order").len()
           .sort(["len", "cards", "tie_rule", "prize_order"], descending=[True, True, False,
                                                                           False])
           .row(0, named=True))
    return RuleProfile(cards=top["cards"], players=2, tie_rule=top["tie_rule"],
                       prize_order=top["prize_order"])
