"""A transparent opponent model: smoothed frequencies of how a player's bid relates to the prize.

Each bid is described three ways (a *view* gives every card in hand a code):

- ``offset``: the card minus the prize (``prize``, ``prize+1``, ``prize-2``, ...);
- ``position``: where the card sits in the hand (lowest, highest, 2nd lowest, ...);
- ``matched``: the card's rank in the hand minus the rank the prize holds among the prizes
  still to be won (0 = "the card ranked as the prize ranks").

Situations fall into 12 buckets: the prize's third among the prizes still to be won (low,
middle, high) times the pool's size (small: under N/2; medium: under 3N/4; big: up to N;
huge: more than N, which only a carried pool reaches; for 13 cards 1-6, 7-9, 10-13, 14+).
Per view and bucket the model counts how often each code was bid, shrunk towards the
view's overall frequencies, which are shrunk towards what uniform play would give. A
view's probability for a card is its code's frequency, shared among the cards in hand
with the same code, renormalised over the hand.

The prediction mixes the three views and a uniform choice over the hand; the mixture
weights are fitted by EM on leave-one-out probabilities (each bid scored by tables that
leave it out), so a view only gains weight when it predicts bids it was not fitted on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gops_records.cards import MAX_RANK
from gops_records.scouting.features import Situations

#: Pseudo-counts: towards uniform play for a view's overall table, towards the overall
#: table for each bucket.
GLOBAL_PRIOR = 2.0
BUCKET_PRIOR = 5.0
EM_STEPS = 60

PRIZE_THIRDS = ("low", "middle", "high")
POOL_SIZES = ("small", "medium", "big", "huge")
N_BUCKETS = len(PRIZE_THIRDS) * len(POOL_SIZES)

OFFSET_SPAN = MAX_RANK - 1  # offsets -12..12
POSITION_NAMES = ("its lowest card", "its highest card", "its 2nd lowest card",
                  "its 2nd highest card", "its 3rd lowest card", "a middle card")
MATCH_SPAN = 3
VIEWS = ("offset", "position", "matched")
_CARDS = np.arange(1, MAX_RANK + 1)


@dataclass(frozen=True)
class Board:
    """What the model looks at, as arrays over situations (hand is an (n, 13) mask)."""

    hand: np.ndarray
    prize: np.ndarray
    pool_value: np.ndarray
    cards: np.ndarray
    prize_index: np.ndarray
    prizes_left: np.ndarray

    @classmethod
    def of(cls, s: Situations) -> Board:
        return cls(s.hand, s.prize, s.pool_value, s.cards, s.prize_index, s.prizes_left)

    @classmethod
    def single(cls, prize: int, pool_value: int, hand: Sequence[int],
               upcoming: Sequence[int], cards: int) -> Board:
        """One situation: ``upcoming`` are the prizes still to come after this one."""
        mask = np.zeros((1, MAX_RANK), dtype=bool)
        mask[0, np.asarray(hand, dtype=np.int64) - 1] = True
        below = sum(1 for p in upcoming if p < prize)
        return cls(mask, np.array([prize]), np.array([pool_value]), np.array([cards]),
                   np.array([below]), np.array([len(upcoming) + 1]))


def buckets(prize_index: np.ndarray, prizes_left: np.ndarray, pool_value: np.ndarray,
            cards: np.ndarray) -> np.ndarray:
    """Bucket number 4 * prize third + pool size, 0..11 (see the module docstring)."""
    third = np.minimum(2, (3 * prize_index) // np.maximum(prizes_left, 1))
    size = np.select([pool_value < np.ceil(cards / 2), pool_value < np.ceil(0.75 * cards),
                      pool_value <= cards], [0, 1, 2], default=3)
    return len(POOL_SIZES) * third + size


def view_codes(board: Board) -> dict[str, np.ndarray]:
    """Per view, an (n, 13) int matrix of each card's code; -1 for cards not in hand."""
    hand = board.hand
    size = hand.sum(axis=1, keepdims=True)
    idx = np.cumsum(hand, axis=1) - 1
    top = size - 1 - idx
    offset = _CARDS[None, :] - board.prize[:, None] + OFFSET_SPAN
    position = np.select([idx == 0, top == 0, idx == 1, top == 1, idx == 2],
                         [0, 1, 2, 3, 4], default=5)
    left = board.prizes_left[:, None]
    scaled = np.where(left > 1, np.rint(board.prize_index[:, None] * (size - 1)
                                        / np.maximum(left - 1, 1)), 0).astype(np.int64)
    matched = np.clip(idx - scaled, -MATCH_SPAN, MATCH_SPAN) + MATCH_SPAN
    return {name: np.where(hand, codes, -1)
            for name, codes in zip(VIEWS, (offset, position, matched), strict=True)}


N_CODES = {"offset": 2 * OFFSET_SPAN + 1, "position": len(POSITION_NAMES),
           "matched": 2 * MATCH_SPAN + 1}


def _multiplicity(codes: np.ndarray) -> np.ndarray:
    """For each card in hand, how many cards in the same hand share its code (0 if absent)."""
    same = (codes[:, :, None] == codes[:, None, :]) & (codes[:, None, :] >= 0)
    return np.where(codes >= 0, same.sum(axis=2), 0)


@dataclass(frozen=True)
class ViewTable:
    """One view's counts per bucket and code, and the smoothed frequencies made from them."""

    view: str
    counts: np.ndarray    # (buckets, codes)
    uniform: np.ndarray   # (codes,) share of each code under uniform play
    freq: np.ndarray      # (buckets, codes) smoothed frequencies, each row sums to 1

    @classmethod
    def fit(cls, view: str, codes: np.ndarray, chosen: np.ndarray, bucket: np.ndarray,
            hand_size: np.ndarray) -> ViewTable:
        k = N_CODES[view]
        counts = np.zeros((N_BUCKETS, k))
        np.add.at(counts, (bucket, chosen), 1.0)
        uniform = np.zeros(k)
        rows, cols = np.nonzero(codes >= 0)
        np.add.at(uniform, codes[rows, cols], 1.0 / hand_size[rows])
        uniform = uniform / max(uniform.sum(), 1e-12) if uniform.sum() else np.full(k, 1.0 / k)
        total = counts.sum()
        overall = (counts.sum(axis=0) + GLOBAL_PRIOR * uniform) / (total + GLOBAL_PRIOR)
        freq = ((counts + BUCKET_PRIOR * overall[None, :])
                / (counts.sum(axis=1, keepdims=True) + BUCKET_PRIOR))
        return cls(view, counts, uniform, freq)

    def loo_weights(self, codes: np.ndarray, chosen: np.ndarray, bucket: np.ndarray
                    ) -> np.ndarray:
        """Unnormalised card weights with each bid's own count taken out of the tables."""
        safe = np.maximum(codes, 0)
        own = (codes == chosen[:, None]).astype(float)
        by_code = self.counts.sum(axis=0)
        total = self.counts.sum() - 1
        overall = (by_code[safe] - own + GLOBAL_PRIOR * self.uniform[safe]) / (
            total + GLOBAL_PRIOR)
        in_bucket = self.counts[bucket[:, None], safe] - own
        return np.where(codes >= 0, in_bucket + BUCKET_PRIOR * overall, 0.0)

    def weights(self, codes: np.ndarray, bucket: np.ndarray) -> np.ndarray:
        return np.where(codes >= 0, self.freq[bucket[:, None], np.maximum(codes, 0)], 0.0)


def _card_probs(weights: np.ndarray, mult: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """Share each code's weight among its cards and normalise over the hand (n, 13)."""
    per_card = np.where(mult > 0, weights / np.maximum(mult, 1), 0.0)
    z = per_card.sum(axis=1, keepdims=True)
    uniform = hand / hand.sum(axis=1, keepdims=True)
    return np.where(z > 0, per_card / np.where(z > 0, z, 1.0), uniform)


@dataclass(frozen=True)
class OpponentModel:
    """Fitted tables per view and the mixture weights (uniform first, then :data:`VIEWS`)."""

    tables: dict[str, ViewTable]
    mixture: np.ndarray
    bids: int

    @classmethod
    def fit(cls, s: Situations) -> OpponentModel:
        """Fit the tables and the mixture weights on the bids in ``s``."""
        board = Board.of(s)
        codes = view_codes(board)
        bucket = buckets(board.prize_index, board.prizes_left, board.pool_value, board.cards)
        size = s.hand_size
        rows = np.arange(len(s))
        col = s.bid - 1
        tables = {}
        scores = [1.0 / size]
        for view in VIEWS:
            c = codes[view]
            chosen = c[rows, col]
            table = ViewTable.fit(view, c, chosen, bucket, size)
            tables[view] = table
            probs = _card_probs(table.loo_weights(c, chosen, bucket), _multiplicity(c), s.hand)
            scores.append(probs[rows, col])
        likelihood = np.column_stack(scores)
        return cls(tables, _em_weights(likelihood), len(s))

    def predict(self, board: Board) -> np.ndarray:
        """(n, 13) probabilities of each card (column r - 1 = card r); 0 outside the hand."""
        codes = view_codes(board)
        bucket = buckets(board.prize_index, board.prizes_left, board.pool_value, board.cards)
        hand = board.hand
        out = self.mixture[0] * hand / hand.sum(axis=1, keepdims=True)
        for weight, view in zip(self.mixture[1:], VIEWS, strict=True):
            c = codes[view]
            out = out + weight * _card_probs(self.tables[view].weights(c, bucket),
                                             _multiplicity(c), hand)
        return out

    def distribution(self, prize: int, pool_value: int, hand: Sequence[int],
                     upcoming: Sequence[int], cards: int) -> dict[int, float]:
        """The probability of each card in ``hand`` for one situation."""
        probs = self.predict(Board.single(prize, pool_value, hand, upcoming, cards))[0]
        return {card: float(probs[card - 1]) for card in hand}

    def main_view(self) -> str | None:
        """The view with the largest weight, or None when uniform play outweighs them all."""
        best = int(np.argmax(self.mixture))
        return None if best == 0 else VIEWS[best - 1]

    def describe(self) -> str:
        """The mixture in words, e.g. 'offset from the prize 93%, uniform 4%, ...'."""
        words = {"offset": "offset from the prize", "position": "position in the hand",
                 "matched": "rank matched to the prize's rank", "uniform": "uniform over the hand"}
        names = ("uniform", *VIEWS)
        parts = sorted(zip(self.mixture, names, strict=True), reverse=True)
        return ", ".join(f"{words[n]} {w:.0%}" for w, n in parts if w >= 0.005)


class FastModel:
    """The same predictions as :meth:`OpponentModel.predict` for one situation at a time, in
    plain Python (no numpy overhead): what simulations call thousands of times per game."""

    __slots__ = ("w", "offset", "position", "matched")

    def __init__(self, model: OpponentModel):
        self.w = [float(x) for x in model.mixture]
        self.offset = model.tables["offset"].freq.tolist()
        self.position = model.tables["position"].freq.tolist()
        self.matched = model.tables["matched"].freq.tolist()

    def probs(self, prize: int, pool_value: int, hand: Sequence[int], prize_index: int,
              prizes_left: int, cards: int) -> list[float]:
        """Probabilities aligned with ``hand`` (ascending); ``prize_index`` counts the prizes
        left below this one, ``prizes_left`` includes it."""
        h = len(hand)
        third = min(2, (3 * prize_index) // max(prizes_left, 1))
        size = (0 if pool_value < math.ceil(cards / 2) else 1
                if pool_value < math.ceil(0.75 * cards) else 2 if pool_value <= cards else 3)
        b = 4 * third + size
        w0, w_off, w_pos, w_match = self.w
        out = [w0 / h] * h
        f = self.offset[b]
        _add(out, w_off, [f[c - prize + OFFSET_SPAN] for c in hand])
        f = self.position[b]
        codes = _POSITION_CODES[h]
        mult = _POSITION_MULT[h]
        _add(out, w_pos, [f[k] / m for k, m in zip(codes, mult, strict=True)])
        f = self.matched[b]
        scaled = round(prize_index * (h - 1) / (prizes_left - 1)) if prizes_left > 1 else 0
        codes = [min(max(i - scaled, -MATCH_SPAN), MATCH_SPAN) + MATCH_SPAN for i in range(h)]
        _add(out, w_match, [f[k] / codes.count(k) for k in codes])
        return out


def _add(out: list[float], weight: float, per_card: list[float]) -> None:
    z = sum(per_card)
    if z <= 0:
        per_card, z = [1.0] * len(out), float(len(out))
    scale = weight / z
    for i, x in enumerate(per_card):
        out[i] += scale * x


def _position_codes(h: int) -> list[int]:
    codes = []
    for i in range(h):
        top = h - 1 - i
        codes.append(0 if i == 0 else 1 if top == 0 else 2 if i == 1 else 3 if top == 1
                     else 4 if i == 2 else 5)
    return codes


_POSITION_CODES = [_position_codes(h) for h in range(MAX_RANK + 1)]
_POSITION_MULT = [[codes.count(k) for k in codes] for codes in _POSITION_CODES]


def _em_weights(likelihood: np.ndarray, steps: int = EM_STEPS) -> np.ndarray:
    """Mixture weights maximising sum log(sum_k w_k L_ik) (with one pseudo-bid per part)."""
    n, k = likelihood.shape
    w = np.full(k, 1.0 / k)
    if n == 0:
        return w
    for _ in range(steps):
        joint = likelihood * w[None, :]
        resp = joint / np.maximum(joint.sum(axis=1, keepdims=True), 1e-300)
        w = (resp.sum(axis=0) + 1.0) / (n + k)
    return w
