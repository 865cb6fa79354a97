"""The scouting report: its JSON contract, its terminal text, and the chart data behind it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from gops_records.cards import MAX_RANK
from gops_records.rules import RuleProfile
from gops_records.scouting.counter import GENERIC, CounterStrategy
from gops_records.scouting.evaluate import Predictability
from gops_records.scouting.features import Situations
from gops_records.scouting.habits import Habit
from gops_records.scouting.model import Board, Encoded, OpponentModel

#: Share of the uniform log-loss the model must save to be called (highly) predictable.
PREDICTABLE, HIGHLY_PREDICTABLE = 0.05, 0.25
#: Fewer games than this are a small sample: too few to trust the habits and the model
#: (docs/scouting.md, "Small samples", gives the measurements behind the number).
MIN_GAMES = 30


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
    #: :func:`predicted_bid_by_prize` of this report, made with it (small: 13 x 13 rows)
    predicted: pl.DataFrame | None = field(default=None, repr=False, compare=False)
    #: the player's games of the variants (multi-card bids, open prizes), left out: the
    #: situations, the model and the counter-strategy read classic games only
    variant_games: int = 0

    def variants_note(self) -> str | None:
        """'Classic games only: 12 games of the variants ... left out.', or None."""
        if not self.variant_games:
            return None
        v = self.variant_games
        return (f"Classic games only: {v} game{'s' * (v != 1)} of the variants (multi-card "
                f"bids or open prizes) {'are' if v != 1 else 'is'} left out; the model and "
                "the counter-strategy read one card a bid and one prize a round.")

    def as_json(self) -> dict:
        """player, games, bids, predictability, habits, counter, then small_sample."""
        return {
            "player": self.player,
            "games": self.games,
            "bids": self.bids,
            "predictability": self.predictability.as_json(),
            "habits": [h.as_json() for h in self.habits],
            "counter": self.counter.as_json(),
            "small_sample": self.small_sample,
        }

    @property
    def information_gain(self) -> float:
        """The share of the uniform log-loss the model saves on held-out games (<0: worse)."""
        return self.predictability.information_gain

    @property
    def small_sample(self) -> bool:
        """Fewer than :data:`MIN_GAMES` games: the habits and the model are not to be trusted."""
        return self.games < MIN_GAMES

    def caution(self) -> str | None:
        """What a small sample means for this report, in one sentence (None otherwise)."""
        if not self.small_sample:
            return None
        return (f"Small sample: {self.games} game{'s' * (self.games != 1)} "
                f"(fewer than {MIN_GAMES}). The model has seen few bids, the habits need more "
                "bids to show, and the figures below can move a lot with the next games: "
                "read the intervals, not the point values.")

    def verdict(self) -> str:
        """How predictable, in words, from the held-out information gain; on a small sample
        it says so ('highly predictable, on only 3 games: a small sample')."""
        gain = self.information_gain
        if gain >= HIGHLY_PREDICTABLE:
            words = "highly predictable"
        elif gain >= PREDICTABLE:
            words = "somewhat predictable"
        else:
            words = "about as predictable as a uniformly random bidder"
        if self.small_sample:
            words += f", on only {self.games} game{'s' * (self.games != 1)}: a small sample"
        return words

    def text(self) -> str:
        """The report as the terminal shows it."""
        p, c = self.predictability, self.counter
        against = f" (games against {self.vs} only)" if self.vs else ""
        lines = [f"Scouting {self.player}: {self.games} games, {self.bids} bids{against}"]
        note = self.variants_note()
        if note:
            lines.append(f"  {note}")
        caution = self.caution()
        if caution:
            lines.append(f"  {caution}")
        lines += [
            "",
            f"Predictability on held-out games ({p.folds}-fold, split by game): "
            f"{self.verdict()}",
            f"  {'':24}{'model':>8}{'95% CI':>12}{'uniform':>10}",
            f"  {'exact bid':24}{p.exact:>8.0%}{span(p.exact_ci):>12}{p.baseline_exact:>10.0%}",
            f"  {'bid within one':24}{p.within_one:>8.0%}{span(p.within_one_ci):>12}"
            f"{p.baseline_within_one:>10.0%}",
            f"  {'log-loss (nats per bid)':24}{p.log_loss:>8.3f}{'':>12}"
            f"{p.baseline_log_loss:>10.3f}",
            f"  {'information gain':24}{p.information_gain:>8.0%}"
            f"{span(p.information_gain_ci):>12}{0:>10.0%}",
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
            f"(± {1.96 * c.counter.stderr:.1f} simulation error);",
            f"  the generic strategy ({GENERIC.split(':')[0]}): {c.generic.mean:+.1f} "
            f"(± {1.96 * c.generic.stderr:.1f});",
            f"  a uniformly random reply: {c.random.mean:+.1f} "
            f"(± {1.96 * c.random.stderr:.1f})",
            f"  gain from exploiting {self.player} (counter minus generic): "
            f"{c.exploit.mean:+.1f} points per game{exploit_span(c)}",
        ]
        return "\n".join(lines)


def span(ci: tuple[float | None, float | None], pct: bool = True) -> str:
    """A 95% interval as text: '57-70%', or '' when there is none."""
    low, high = ci
    if low is None or high is None:
        return ""
    return f"{100 * low:.0f}-{100 * high:.0f}%" if pct else f"{low:+.1f} to {high:+.1f}"


def exploit_span(c: CounterStrategy) -> str:
    """'; 95% CI -1.2 to +3.4 (simulation and model)' for the exploit, or ''."""
    if c.exploit_ci is None:
        return f" (± {1.96 * c.exploit.stderr:.1f} simulation error)"
    return f"; 95% CI {span(c.exploit_ci, pct=False)} (simulation and model)"


def predicted_bid_by_prize(source: ScoutReport | OpponentModel,
                           situations: Situations | None = None,
                           cards: int = MAX_RANK, encoded: Encoded | None = None
                           ) -> pl.DataFrame:
    """The model's bid distribution for each prize: columns prize, bid, probability.

    For a report (or a model with ``situations``) each prize's row is the model's
    probabilities averaged over the player's recorded situations with that prize, so the
    chart shows what the model expects in the spots the player actually met. For a bare
    model it is the first round of a ``cards``-card game (full hands, all prizes left).
    With a model, ``encoded`` (the situations as :func:`~gops_records.scouting.model.encode`
    gave them) spares encoding them again.
    """
    if isinstance(source, ScoutReport):
        if source.predicted is not None:
            return source.predicted
        model, situations = source.model, source.situations
        if model is None:
            raise ValueError("this report carries no model (made without one)")
    else:
        model = source
    if situations is not None and len(situations):
        board = encoded if encoded is not None else Board.of(situations)
        prizes = situations.prize
        n = int(situations.cards.max())
    else:
        n = cards
        prizes = np.arange(1, n + 1)
        hand = np.zeros((n, MAX_RANK), dtype=bool)
        hand[:, :n] = True
        board = Board(hand, prizes, prizes.copy(), np.full(n, n), prizes - 1, np.full(n, n))
    probs = model.predict(board)[:, :n]
    counts = np.bincount(prizes, minlength=n + 1)[1:n + 1]
    # each (prize, bid) cell summed in row order, as np.add.at does, in one bincount
    key = (prizes[:, None] * n + np.arange(n)[None, :]).ravel()
    sums = np.bincount(key, weights=probs.ravel(), minlength=(n + 1) * n).reshape(n + 1, n)
    seen = np.flatnonzero(counts) + 1
    mean = sums[seen] / counts[seen - 1][:, None]
    return pl.DataFrame({"prize": np.repeat(seen, n), "bid": np.tile(np.arange(1, n + 1),
                                                                     len(seen)),
                         "probability": mean.ravel()},
                        schema={"prize": pl.Int8, "bid": pl.Int8, "probability": pl.Float64})


def profile_of(frame: pl.DataFrame) -> RuleProfile:
    """The two-player profile of the rules the player's games were most often played under."""
    top = (frame.unique("game_id")
           .group_by("cards", "tie_rule", "prize_order").len()
           .sort(["len", "cards", "tie_rule", "prize_order"], descending=[True, True, False,
                                                                           False])
           .row(0, named=True))
    return RuleProfile(cards=top["cards"], players=2, tie_rule=top["tie_rule"],
                       prize_order=top["prize_order"])
