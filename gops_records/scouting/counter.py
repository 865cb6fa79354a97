"""The counter-strategy: a best reply to the opponent model, and what it gains per game.

In each round the counter plans the rest of the game: it scores every pairing of one of
its cards with one of the prizes still to be won (this one included) by the expected
margin it brings against the model's bid distribution for that prize, given the cards the
opponent holds now (win: +pool, lose: -pool, tie: 0), finds the pairing of all its cards
with all those prizes that maximises the total (the assignment problem, solved exactly by
the Hungarian method), and plays the card the plan gives this round's prize. Against a
uniformly random opponent that plan is "bid the card ranked as the prize ranks", which is
bidding the prize, the known best reply.

Its worth is measured, not assumed: :func:`measure_gain` plays many two-player games
through the rules engine (:func:`gops_records.simulate.play_game`) between the counter and
a :class:`ModelBot` that bids by sampling the model, and the same number with a uniformly
random reply as the yardstick.
"""

from __future__ import annotations

import math
import random
from collections import Counter as Tally
from dataclasses import dataclass, field

import numpy as np

from gops_records.bots import Bot, RandomBot, Situation
from gops_records.rules import RuleProfile
from gops_records.scouting.model import FastModel, OpponentModel
from gops_records.simulate import play_game

#: Games simulated per yardstick when nothing else is asked for.
DEFAULT_GAMES = 500


class ModelBot(Bot):
    """Bids by sampling the opponent model's distribution for the situation."""

    def __init__(self, model: OpponentModel):
        self.fast = FastModel(model)

    @property
    def name(self) -> str:
        return "model"

    def bid(self, s: Situation, rng: random.Random) -> int:
        below = sum(1 for p in s.upcoming if p < s.prize)
        weights = self.fast.probs(s.prize, s.pool_value, s.hand, below, len(s.upcoming) + 1,
                                  s.profile.cards)
        return rng.choices(s.hand, weights=weights)[0]


class CounterBot(Bot):
    """Plays the best reply to an opponent model (see the module docstring)."""

    def __init__(self, model: OpponentModel):
        self.fast = FastModel(model)
        self.played: Tally[str] = Tally()

    @property
    def name(self) -> str:
        return "counter"

    def bid(self, s: Situation, rng: random.Random) -> int:
        choice = best_reply(self.fast, s)
        self.played[kind_of(choice, s)] += 1
        return choice


def margin_table(model: FastModel, s: Situation) -> list[list[float]]:
    """The expected margin of bidding each card in hand (rows, ascending) on each prize left
    (columns: this round's prize first, then ``s.upcoming``).

    The opponent is ``s.opponents[0]``; the model is asked about each prize as if it were
    on offer now, with the cards the opponent holds now (the pool is the prize itself for
    prizes still to come).
    """
    prizes = [s.prize, *s.upcoming]
    values = [s.pool_value, *s.upcoming]
    opp = s.opponents[0]
    left = len(prizes)
    ranked = sorted(prizes)
    table = [[0.0] * left for _ in s.hand]
    for j, (prize, value) in enumerate(zip(prizes, values, strict=True)):
        probs = model.probs(prize, value, opp, ranked.index(prize), left, s.profile.cards)
        # walk both ascending hands: P(their bid < card) and P(their bid > card)
        k, below, total = 0, 0.0, sum(probs)
        for i, card in enumerate(s.hand):
            while k < len(opp) and opp[k] < card:
                below += probs[k]
                k += 1
            tie = probs[k] if k < len(opp) and opp[k] == card else 0.0
            table[i][j] = value * (below - (total - below - tie))
    return table


def best_reply(model: FastModel, s: Situation) -> int:
    """The card the counter bids in situation ``s`` (two players)."""
    if len(s.hand) == 1:
        return s.hand[0]
    plan = assign_max(margin_table(model, s))
    return s.hand[plan.index(0)] if 0 in plan else s.hand[0]


def assign_max(gain: list[list[float]]) -> list[int]:
    """For each row the column it gets in a maximum-total assignment (-1: none).

    The Hungarian method (shortest augmenting paths with potentials), O(n^2 m) for an
    n x m table with n <= m; a wider-than-tall table is handled by transposing.
    """
    n = len(gain)
    m = len(gain[0]) if n else 0
    if n > m:
        cols = assign_max([list(col) for col in zip(*gain, strict=True)])
        out = [-1] * n
        for j, i in enumerate(cols):
            if i >= 0:
                out[i] = j
        return out
    inf = math.inf
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)      # p[j]: the row matched to column j (1-based; 0 = none)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            row = gain[i0 - 1]
            ui0 = u[i0]
            delta, j1 = inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = -row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = [-1] * n
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out


def kind_of(card: int, s: Situation) -> str:
    """The counter's bid in words, for the summary of what it did."""
    d = card - s.prize
    if len(s.hand) > 1 and card == s.hand[0] and d < 0:
        return "its lowest card"
    if d == 0:
        return "exactly the prize"
    if abs(d) <= 2:
        return f"the prize {'plus' if d > 0 else 'minus'} {abs(d)}"
    if card == s.hand[-1]:
        return "its highest card"
    return "well above the prize" if d > 0 else "well below the prize"


@dataclass(frozen=True, slots=True)
class Gain:
    """Mean score margin per game (seat A minus seat B) over ``games`` simulated games."""

    mean: float
    stderr: float
    games: int


def measure_gain(profile: RuleProfile, me: Bot, opponent: Bot, games: int, seed: int) -> Gain:
    """Play ``games`` two-player games, ``me`` in seat A; the mean and standard error of
    A's score minus B's."""
    if profile.players != 2:
        profile = RuleProfile(profile.cards, 2, profile.tie_rule, profile.prize_order)
    rng = random.Random(seed)
    margins = []
    for _ in range(games):
        g = play_game(profile, [me, opponent], rng)
        margins.append(g.scores[0] - g.scores[1])
    arr = np.asarray(margins, dtype=float)
    se = float(arr.std(ddof=1) / math.sqrt(len(arr))) if len(arr) > 1 else 0.0
    return Gain(float(arr.mean()) if len(arr) else 0.0, se, games)


@dataclass(frozen=True, slots=True)
class CounterStrategy:
    """The counter, its measured gain, and the same for a uniformly random reply."""

    description: str
    counter: Gain
    random: Gain
    profile: RuleProfile
    played: dict[str, float] = field(default_factory=dict)

    @property
    def expected_gain_per_game(self) -> float:
        return self.counter.mean

    @property
    def random_gain_per_game(self) -> float:
        return self.random.mean

    def as_json(self) -> dict:
        return {"description": self.description,
                "expected_gain_per_game": round(self.counter.mean, 2),
                "random_gain_per_game": round(self.random.mean, 2)}


def counter_strategy(model: OpponentModel, profile: RuleProfile, games: int = DEFAULT_GAMES,
                     seed: int = 0) -> CounterStrategy:
    """Measure the counter and the random reply against ``model`` under ``profile``.

    Both face the same prize orders (the same seed).
    """
    opponent = ModelBot(model)
    counter = CounterBot(model)
    gain = measure_gain(profile, counter, opponent, games, seed)
    random_gain = measure_gain(profile, RandomBot(), opponent, games, seed)
    total = sum(counter.played.values())
    played = {k: v / total for k, v in counter.played.most_common()} if total else {}
    return CounterStrategy(_describe(played), gain, random_gain, profile, played)


def _describe(played: dict[str, float]) -> str:
    top = [f"{kind} ({share:.0%} of rounds)" for kind, share in list(played.items())[:3]
           if share >= 0.05]
    mostly = f" Against this player that mostly means bidding {', then '.join(top)}." if top \
        else ""
    return ("Each round, pair your cards with the prizes left so as to maximise the expected "
            "margin against their predicted bids, and play the card paired with this prize."
            + mostly)
