"""What a scouting report says, as plain values: :class:`ScoutReport` and its parts.

These are the report's results only (no model, no numpy or polars at import), so a kept
report (:mod:`gops_records.games.gops.scouting.kept`) is read back and printed without loading the
machinery that computes one; :mod:`gops_records.games.gops.scouting.scout` computes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gops_records.games.gops.rules import RuleProfile

if TYPE_CHECKING:
    import numpy as np
    import polars as pl

    from gops_records.games.gops.scouting.baseline import EquilibriumBaseline
    from gops_records.games.gops.scouting.features import Situations
    from gops_records.games.gops.scouting.model import OpponentModel

#: The generic strategy, in words: one fixed strategy for every opponent (docs/scouting.md).
GENERIC = ("bid the prize: the card equal to the prize on offer, every round, whoever "
           "the opponent is (the best reply to a uniformly random bidder)")


Interval = tuple[float | None, float | None]


@dataclass(frozen=True, slots=True)
class Predictability:
    """Held-out scores of the model and of uniform play over the hand, with the 95%
    intervals (game the unit) of the model's exact and within-one rates and of its
    information gain (the share of the uniform log-loss it saves)."""

    exact: float
    within_one: float
    log_loss: float
    baseline_exact: float
    baseline_within_one: float
    baseline_log_loss: float
    folds: int = 0
    exact_ci: Interval = (None, None)
    within_one_ci: Interval = (None, None)
    information_gain_ci: Interval = (None, None)

    @property
    def information_gain(self) -> float:
        """1 - log_loss / baseline_log_loss: the share of the uniform log-loss saved (<0: worse)."""
        if self.baseline_log_loss <= 0:
            return 0.0
        return 1.0 - self.log_loss / self.baseline_log_loss

    def as_json(self) -> dict:
        def pair(ci: Interval) -> list[float | None]:
            return [None if x is None else round(x, 4) for x in ci]

        return {"exact": round(self.exact, 4), "within_one": round(self.within_one, 4),
                "log_loss": round(self.log_loss, 4),
                "baseline_exact": round(self.baseline_exact, 4),
                "baseline_within_one": round(self.baseline_within_one, 4),
                "baseline_log_loss": round(self.baseline_log_loss, 4),
                "information_gain": round(self.information_gain, 4),
                "exact_ci": pair(self.exact_ci), "within_one_ci": pair(self.within_one_ci),
                "information_gain_ci": pair(self.information_gain_ci)}


@dataclass(frozen=True, slots=True)
class Habit:
    """A habit that cleared its baseline: the sentence, the rate, its support and 95% CI."""

    key: str
    description: str
    rate: float
    count: int
    ci: tuple[float, float]
    baseline: float
    p_value: float

    def as_json(self) -> dict:
        return {"description": self.description, "rate": round(self.rate, 4),
                "count": self.count, "ci": [round(self.ci[0], 4), round(self.ci[1], 4)]}


@dataclass(frozen=True, slots=True)
class Gain:
    """Mean score margin per game (seat A minus seat B) over ``games`` simulated games."""

    mean: float
    stderr: float
    games: int

    @classmethod
    def of(cls, margins: np.ndarray) -> Gain:
        import numpy as np  # only a computed report needs it (a kept one is read without)

        m = np.asarray(margins, dtype=float)
        se = float(m.std(ddof=1) / math.sqrt(len(m))) if len(m) > 1 else 0.0
        return cls(float(m.mean()) if len(m) else 0.0, se, len(m))


@dataclass(frozen=True, slots=True)
class CounterStrategy:
    """The counter, the generic strategy and a random reply, each measured against the
    model; the exploit (counter minus generic, paired game by game) with its interval."""

    description: str
    counter: Gain
    random: Gain
    profile: RuleProfile
    played: dict[str, float] = field(default_factory=dict)
    generic: Gain = Gain(0.0, 0.0, 0)
    exploit: Gain = Gain(0.0, 0.0, 0)
    #: 95% interval of the exploit: simulation error and, from the folds' models, how
    #: much it moves with the games the model was fitted on (None without fold models);
    #: cross-fitted, it is centred on what a counter gains in games its model never saw.
    exploit_ci: tuple[float, float] | None = None
    #: the exploit for each fold (its counter against the fold's model, or, cross-fitted,
    #: against a model of the fold's games alone, as ``interval`` says)
    fold_exploits: tuple[float, ...] = ()
    #: how the interval was made: "cross-fitted" (what `gops scout` does: docs/scouting.md,
    #: "Scouting on a few games"), "jackknife", or None (no interval)
    interval: str | None = None

    @property
    def expected_gain_per_game(self) -> float:
        return self.counter.mean

    @property
    def random_gain_per_game(self) -> float:
        return self.random.mean

    @property
    def generic_gain_per_game(self) -> float:
        return self.generic.mean

    @property
    def exploit_gain_per_game(self) -> float:
        return self.exploit.mean

    @property
    def exploit_estimate(self) -> float:
        """The exploit as the report states it: the centre of its interval. Cross-fitted,
        that is the folds' mean (what a counter gains in games its model never saw), not
        the optimistic gain against the model it was planned on, which can lie outside
        the interval; otherwise the exploit itself."""
        if self.interval == "cross-fitted" and self.exploit_ci is not None:
            return sum(self.exploit_ci) / 2
        return self.exploit.mean

    def as_json(self) -> dict:
        ci = None if self.exploit_ci is None else [round(x, 2) for x in self.exploit_ci]
        return {"description": self.description,
                "expected_gain_per_game": round(self.counter.mean, 2),
                "random_gain_per_game": round(self.random.mean, 2),
                "generic_gain_per_game": round(self.generic.mean, 2),
                "exploit_gain_per_game": round(self.exploit.mean, 2),
                "exploit_gain_estimate": round(self.exploit_estimate, 2),
                "exploit_gain_ci": ci,
                "generic_strategy": GENERIC,
                "simulated_games": self.counter.games,
                "exploit_gain_ci_method": self.interval,
                "exploit_gain_ci_folds": len(self.fold_exploits)}


#: Share of the uniform log-loss the model must save to be called (highly) predictable.
PREDICTABLE, HIGHLY_PREDICTABLE = 0.05, 0.25
#: Fewer games than this are a small sample: too few to trust the habits and the model
#: (docs/scouting.md, "Small samples", gives the measurements behind the number).
MIN_GAMES = 30
#: Below this many games the report cannot tell whether exploiting the player pays: the
#: model's uncertainty is more than any interval made from those games can show (a
#: player seen in 4 games may look perfectly predictable), so the gain is shown as
#: "cannot tell" (docs/scouting.md, "Scouting on a few games").
MIN_GAMES_TO_TELL = MIN_GAMES
#: ``exploit_verdict``: what the exploit's interval says (JSON and text).
CANNOT_TELL, GAINS, NO_CLEAR_GAIN, LOSES = "cannot tell", "gains", "no clear gain", "loses"


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
    #: the model's mixture in words (``OpponentModel.describe``), kept with the report
    model_description: str = ""
    #: the equilibrium's guaranteed value and the exploitability in endgames
    #: (:mod:`gops_records.games.gops.scouting.equilibrium`; None: none covered)
    equilibrium: EquilibriumBaseline | None = field(default=None, repr=False, compare=False)

    def variants_note(self) -> str | None:
        """'Classic games only: 12 games of the variants ... left out.', or None."""
        if not self.variant_games:
            return None
        v = self.variant_games
        return (f"Classic games only: {v} game{'s' * (v != 1)} of the variants (multi-card "
                f"bids or open prizes) {'are' if v != 1 else 'is'} left out; the model and "
                "the counter-strategy read one card a bid and one prize a round.")

    def as_json(self) -> dict:
        """player, games, bids, predictability, habits, counter, small_sample, then
        can_tell, exploit_verdict and min_games_to_tell (issue 24: keys only added)."""
        return {
            "player": self.player,
            "games": self.games,
            "bids": self.bids,
            "predictability": self.predictability.as_json(),
            "habits": [h.as_json() for h in self.habits],
            "counter": self.counter.as_json(),
            "small_sample": self.small_sample,
            "can_tell": self.can_tell,
            "exploit_verdict": self.exploit_verdict,
            "min_games_to_tell": MIN_GAMES_TO_TELL,
            **({"equilibrium": self.equilibrium.as_json()} if self.equilibrium else {}),
        }

    @property
    def can_tell(self) -> bool:
        """At least :data:`MIN_GAMES_TO_TELL` games: enough to say whether exploiting pays."""
        return self.games >= MIN_GAMES_TO_TELL

    @property
    def exploit_verdict(self) -> str:
        """:data:`CANNOT_TELL` on too few games, else what the exploit's 95% interval
        says: :data:`GAINS` (all above 0), :data:`LOSES` (all below) or
        :data:`NO_CLEAR_GAIN`."""
        if not self.can_tell:
            return CANNOT_TELL
        c = self.counter
        low, high = c.exploit_ci if c.exploit_ci is not None else (
            c.exploit.mean - 1.96 * c.exploit.stderr, c.exploit.mean + 1.96 * c.exploit.stderr)
        return GAINS if low > 0 else LOSES if high < 0 else NO_CLEAR_GAIN

    def exploit_words(self) -> str:
        """The gain from exploiting in one line: the figure and its interval, or, on too
        few games, that the report cannot tell (with the figure against the model)."""
        c = self.counter
        if self.can_tell:
            return f"{c.exploit_estimate:+.1f} points per game{exploit_span(c)}"
        g = self.games
        return (f"cannot tell on {g} game{'s' * (g != 1)} (at least {MIN_GAMES_TO_TELL} "
                f"needed); against a model of so few games it is {c.exploit.mean:+.1f} "
                f"points per game{exploit_span(c)}, which says little about the player")

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
        if self.model_description:
            lines.append(f"  the model reads them by: {self.model_description}")
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
            f"{self.exploit_words()}",
        ]
        if self.equilibrium is not None:
            lines += ["", *self.equilibrium.text_lines()]
        return "\n".join(lines)


def span(ci: tuple[float | None, float | None], pct: bool = True) -> str:
    """A 95% interval as text: '57-70%', or '' when there is none."""
    low, high = ci
    if low is None or high is None:
        return ""
    return f"{100 * low:.0f}-{100 * high:.0f}%" if pct else f"{low:+.1f} to {high:+.1f}"


def exploit_span(c: CounterStrategy) -> str:
    """'; 95% CI -1.2 to +3.4 in games its model never saw (cross-fitted)' for the
    exploit, '; 95% CI ... (simulation and model)' for the jackknife's, or the simulation
    error alone."""
    if c.exploit_ci is None:
        return f" (± {1.96 * c.exploit.stderr:.1f} simulation error)"
    if c.interval == "cross-fitted":
        return (f"; 95% CI {span(c.exploit_ci, pct=False)} in games its model never saw "
                "(cross-fitted)")
    return f"; 95% CI {span(c.exploit_ci, pct=False)} (simulation and model)"

