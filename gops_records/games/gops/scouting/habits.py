"""Habits in plain words, each tested against what uniform play would do in the same spots.

A habit is an event that can happen in some situations ("bids exactly the prize", looked at
whenever the player still holds the prize's card). For each we count the situations it
applies to (n) and how often it happened (k). Under uniform play over the hand the event
has a known chance in every situation (1/h for one card, m/h for m cards), so k follows a
Poisson-binomial law; its upper tail gives a p-value (exact up to :data:`EXACT_UP_TO`
situations, beyond that the saddlepoint approximation, within a few percent of it there).
All habits are tested at once with Holm's step-down correction, and a habit is shown only
when its adjusted p-value is below :data:`ALPHA` *and* its 95% interval starts at least
:data:`MARGIN` above the uniform rate. The interval takes the game as the unit (the bids
of one game go together): the game-clustered interval of
:mod:`gops_records.core.stats`. A uniformly random bidder therefore shows no habits
(a false one in at most 1% of players).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gops_records.core.stats import clustered_rates
from gops_records.games.gops.cards import MAX_RANK, rank_name
from gops_records.games.gops.scouting.features import Situations
from gops_records.games.gops.scouting.results import Habit

ALPHA = 0.01
MARGIN = 0.05
MIN_SUPPORT = 20
EARLY_ROUNDS = 4
#: Up to this many situations the Poisson-binomial tail is computed exactly.
EXACT_UP_TO = 2000


@dataclass(frozen=True, slots=True)
class Test:
    """One candidate habit after counting: n situations, k events, the uniform chances, and
    the same counts per game (``k_games``, ``n_games``: one entry per game)."""

    key: str
    what: str      # the event in words, e.g. 'bids exactly the prize'
    unit: str      # 'of the time' or 'of games'
    when: str      # e.g. ' when it holds that card'
    n: int
    k: int
    chances: np.ndarray
    k_games: np.ndarray
    n_games: np.ndarray

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def baseline(self) -> float:
        return float(self.chances.mean()) if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        """The rate's 95% interval, the game the unit (game-clustered)."""
        return intervals([self])[0]


def intervals(tests: list[Test]) -> list[tuple[float, float]]:
    """Each test's :meth:`Test.interval`, computed together."""
    rates = clustered_rates([(t.k_games, t.n_games) for t in tests])
    return [(0.0, 1.0) if r.low is None else (r.low, r.high) for r in rates]


def _log_binom_pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    logfact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])
    with np.errstate(divide="ignore"):
        return (logfact[n] - logfact[k] - logfact[n - k]
                + k * np.log(p) + (n - k) * np.log1p(-p))


def upper_tail(k: int, chances: np.ndarray) -> float:
    """P(X >= k) for X a sum of independent Bernoulli(chances): the Poisson-binomial tail,
    exact up to :data:`EXACT_UP_TO` trials, else by :func:`saddlepoint_tail`."""
    if k <= 0:
        return 1.0
    if k > len(chances):
        return 0.0
    values, counts = np.unique(np.round(chances, 12), return_counts=True)
    if len(chances) > EXACT_UP_TO:
        return saddlepoint_tail(k, values, counts)
    pmf = np.ones(1)
    for p, m in zip(values, counts, strict=True):
        if p <= 0:
            continue
        part = np.zeros(m + 1)
        if p >= 1:
            part[m] = 1.0
        else:
            part = np.exp(_log_binom_pmf(int(m), float(p)))
        pmf = _convolve(pmf, part)
    return float(min(1.0, max(0.0, pmf[k:].sum()))) if k < len(pmf) else 0.0


def saddlepoint_tail(k: int, values: np.ndarray, counts: np.ndarray) -> float:
    """P(X >= k) for X the sum of ``counts[i]`` Bernoulli(``values[i]``): the Lugannani-Rice
    saddlepoint formula with Daniels' continuity correction for a lattice variable.

    K(t) = sum m log(1 - p + p e^t) is the cumulant generating function; t solves
    K'(t) = k - 1/2, w = sign(t) sqrt(2 (t (k - 1/2) - K(t))), u = 2 sinh(t / 2)
    sqrt(K''(t)), and P(X >= k) ~ 1 - Phi(w) + phi(w) (1/u - 1/w).
    """
    sure = int(counts[values >= 1].sum())
    keep = (values > 0) & (values < 1)
    p, m = values[keep], counts[keep].astype(float)
    k -= sure
    if k <= 0:
        return 1.0
    if k > m.sum():
        return 0.0
    x = k - 0.5
    mean, var = float((m * p).sum()), float((m * p * (1 - p)).sum())

    def slope(t: float) -> float:  # K'(t), increasing in t
        e = p * math.exp(t)
        return float((m * e / (1 - p + e)).sum())

    lo, hi = -1.0, 1.0
    while slope(lo) > x:
        lo *= 2
    while slope(hi) < x:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        step = (mid, hi) if slope(mid) < x else (lo, mid)
        if step == (lo, hi):  # converged: every further step would give the same
            break
        lo, hi = step
    t = (lo + hi) / 2
    e = p * math.exp(t)
    cgf = float((m * np.log1p(p * math.expm1(t))).sum())
    curvature = float((m * e * (1 - p) / (1 - p + e) ** 2).sum())
    w2 = 2 * (t * x - cgf)
    if abs(t) < 1e-4 or w2 <= 0:  # at the mean: the normal, continuity-corrected
        return float(0.5 * math.erfc((x - mean) / math.sqrt(2 * var)))
    w = math.copysign(math.sqrt(w2), t)
    u = 2 * math.sinh(t / 2) * math.sqrt(curvature)
    tail = 0.5 * math.erfc(w / math.sqrt(2))
    density = math.exp(-w * w / 2) / math.sqrt(2 * math.pi)
    return float(min(1.0, max(0.0, tail + density * (1 / u - 1 / w))))


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if min(len(a), len(b)) < 64:
        return np.convolve(a, b)
    size = len(a) + len(b) - 1
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)
    return np.clip(out, 0.0, None)


def holm(p_values: list[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# -- the catalogue -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Bids:
    """Per-bid arrays the catalogue is written in."""

    s: Situations
    size: np.ndarray       # cards in hand
    index: np.ndarray      # 0-based position of the bid in the hand
    holds: np.ndarray      # (n, 13) hand mask
    cards: np.ndarray      # N
    held: np.ndarray       # (n, 14): column c = how many cards of rank <= c it holds

    @classmethod
    def of(cls, s: Situations) -> _Bids:
        held = np.zeros((len(s), MAX_RANK + 1), dtype=np.int64)
        np.cumsum(s.hand, axis=1, out=held[:, 1:])
        return cls(s, s.hand_size, _upto(held, s.bid) - 1, s.hand, s.cards, held)

    def has(self, card: np.ndarray) -> np.ndarray:
        ok = (card >= 1) & (card <= MAX_RANK)
        return ok & self.holds[np.arange(len(card)), np.clip(card, 1, MAX_RANK) - 1]

    def upto(self, card: np.ndarray) -> np.ndarray:
        """How many cards of rank ``card`` or below each hand holds (any integer card)."""
        return _upto(self.held, card)


def _upto(held: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Column ``card`` (clipped to 0..13) of each row of ``held``."""
    return held.take(np.arange(len(card)) * (MAX_RANK + 1) + np.clip(card, 0, MAX_RANK))


def _bid_tests(b: _Bids) -> list[Test]:
    s, h = b.s, b.size
    prize, bid = s.prize, s.bid
    two = h >= 2
    one_card = 1.0 / np.maximum(h, 1)
    above = h - b.upto(prize)
    below = b.upto(prize - 1)
    near = b.upto(prize + 1) - b.upto(prize - 2)
    third = np.minimum(2, (3 * s.prize_index) // np.maximum(s.prizes_left, 1))
    n = int(np.bincount(s.cards).argmax()) if len(s) else MAX_RANK
    big = np.ceil(0.75 * s.cards)
    small = np.ceil(s.cards / 2)
    carried_big = s.cards + 2
    top_third = np.ceil(h / 3)
    matched = np.rint(s.prize_index * (h - 1) / np.maximum(s.prizes_left - 1, 1))
    specs = [
        ("prize", "bids exactly the prize", " when it holds that card",
         two & b.has(prize), bid == prize, one_card),
        ("prize+1", "bids the prize plus one", " when it holds that card",
         two & b.has(prize + 1), bid == prize + 1, one_card),
        ("prize-1", "bids the prize minus one", " when it holds that card",
         two & b.has(prize - 1), bid == prize - 1, one_card),
        ("near", "bids within one of the prize", "",
         two & (near > 0) & (near < h), np.abs(bid - prize) <= 1, near / np.maximum(h, 1)),
        ("above", "bids above the prize", "",
         two & (above > 0) & (above < h), bid > prize, above / np.maximum(h, 1)),
        ("below", "bids below the prize", "",
         two & (below > 0) & (below < h), bid < prize, below / np.maximum(h, 1)),
        ("matched", "bids the card ranked in its hand as the prize ranks among the prizes left",
         "", two & (h == s.prizes_left), b.index == matched, one_card),
        ("lowest-on-low", "throws its lowest card on the low prizes (the bottom third of "
         "those left)", "", two & (third == 0), b.index == 0, one_card),
        ("highest-on-big", f"bids its highest card when the pool is worth "
         f"{math.ceil(0.75 * n)} or more", "", two & (s.pool_value >= big),
         b.index == h - 1, one_card),
        ("high-on-carried", f"bids high (the top third of its hand) when a carried pool is "
         f"worth {n + 2} or more", "", (h >= 3) & (s.carried > 0)
         & (s.pool_value >= carried_big), b.index >= h - top_third, top_third / np.maximum(h, 1)),
        ("low-on-small", f"bids one of its three lowest cards when the pool is worth less "
         f"than {math.ceil(n / 2)}", "", (h >= 4) & (s.pool_value < small), b.index <= 2,
         3.0 / np.maximum(h, 1)),
        ("above-when-behind", "bids above the prize when behind on points", "",
         two & (above > 0) & (above < h) & (s.score_diff < 0), bid > prize,
         above / np.maximum(h, 1)),
        ("below-when-ahead", "bids below the prize when ahead on points", "",
         two & (below > 0) & (below < h) & (s.score_diff > 0), bid < prize,
         below / np.maximum(h, 1)),
    ]
    tests = []
    games = s.games
    for key, what, when, eligible, event, chance in specs:
        hit = eligible & event
        tests.append(Test(key, what, "of the time", when, int(eligible.sum()), int(hit.sum()),
                          np.asarray(chance, float)[eligible],
                          np.bincount(s.game[hit], minlength=games),
                          np.bincount(s.game[eligible], minlength=games)))
    return tests


def _game_tests(s: Situations) -> list[Test]:
    """Per-game habits: spending the top card early."""
    games = np.unique(s.game)
    early = np.zeros(s.games, dtype=bool)
    spent_top = (s.bid == s.cards) & (s.round_no <= EARLY_ROUNDS)
    np.logical_or.at(early, s.game[spent_top], True)
    rounds = np.zeros(s.games, dtype=np.int64)
    np.maximum.at(rounds, s.game, s.round_no)
    cards = np.zeros(s.games, dtype=np.int64)
    cards[s.game] = s.cards
    eligible = np.zeros(s.games, dtype=bool)
    eligible[games] = True
    eligible &= (cards > 2 * EARLY_ROUNDS) & ((rounds >= EARLY_ROUNDS) | early)
    n = int(np.bincount(s.cards).argmax()) if len(s) else MAX_RANK
    chance = EARLY_ROUNDS / np.maximum(cards, 1)
    return [Test("top-early", f"spends the {_top_name(n)} before round {EARLY_ROUNDS + 1}",
                 "of games", "", int(eligible.sum()), int((eligible & early).sum()),
                 chance[eligible], (eligible & early).astype(np.int64),
                 eligible.astype(np.int64))]


def _top_name(n: int) -> str:
    return {13: "king", 12: "queen", 11: "jack"}.get(n, f"top card ({rank_name(n)})")


def candidate_tests(s: Situations) -> list[Test]:
    """Every habit looked for, counted on ``s`` (before any testing)."""
    return _bid_tests(_Bids.of(s)) + _game_tests(s)


def find_habits(s: Situations, alpha: float = ALPHA, margin: float = MARGIN,
                min_support: int = MIN_SUPPORT) -> list[Habit]:
    """The habits that clear their uniform-play baseline, the largest lift first."""
    tests = [t for t in candidate_tests(s) if t.n >= min_support]
    p_values = [upper_tail(t.k, t.chances) for t in tests]
    found = []
    for t, adj, (low, high) in zip(tests, holm(p_values), intervals(tests), strict=True):
        if adj <= alpha and low >= t.baseline + margin:
            found.append(Habit(t.key, describe(t, low, high), t.rate, t.n, (low, high),
                               t.baseline, adj))
    found.sort(key=lambda h: h.rate - h.baseline, reverse=True)
    return found


def describe(t: Test, low: float, high: float) -> str:
    """E.g. 'bids exactly the prize 64% of the time (n=211, 95% CI 57-70%; uniform play 9%)'."""
    share = (f"in {_pct(t.rate)} of games" if t.unit == "of games"
             else f"{_pct(t.rate)} of the time{t.when}")
    return (f"{t.what} {share} (n={t.n}, 95% CI "
            f"{_pct(low, False)}-{_pct(high)}; uniform play {_pct(t.baseline)})")


def _pct(x: float, sign: bool = True) -> str:
    return f"{100 * x:.0f}" + ("%" if sign else "")
