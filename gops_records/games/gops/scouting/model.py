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

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.scouting.features import Situations

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
    # the pool's size is how many of the rising thresholds N/2, 3N/4 (rounded up) and
    # N + 1 it reaches: small 0, medium 1, big 2, huge 3
    size = ((pool_value >= np.ceil(cards / 2)).astype(np.int64)
            + (pool_value >= np.ceil(0.75 * cards)) + (pool_value > cards))
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


def _histogram(codes: np.ndarray, width: int) -> np.ndarray:
    """(n, width): how many cards of each hand have each code (one bincount)."""
    n = len(codes)
    held = codes >= 0
    rows = np.broadcast_to(np.arange(n)[:, None], codes.shape)
    flat = (rows * width + codes)[held]
    return np.bincount(flat, minlength=n * width).reshape(n, width).astype(float)


def _multiplicity(codes: np.ndarray) -> np.ndarray:
    """For each card in hand, how many cards in the same hand share its code (0 if absent)."""
    if not codes.size:
        return np.zeros(codes.shape, dtype=np.int64)
    hist = _histogram(codes, int(codes.max()) + 1)
    rows = np.arange(len(codes))[:, None]
    return np.where(codes >= 0, hist[rows, np.maximum(codes, 0)], 0).astype(np.int64)


@dataclass(frozen=True)
class PresentGroups:
    """Situations that share their bucket and the codes present in the hand: ``group`` is
    each situation's group, ``present`` and ``bucket`` one row per group. Many situations
    share them (a position or matched view has a few dozen groups in 65,000 bids), so the
    leave-one-out normaliser is summed once per group instead of once per bid; the sum of
    one row does not depend on the others (numpy's einsum), so the values are the same."""

    group: np.ndarray
    present: np.ndarray
    bucket: np.ndarray

    @classmethod
    def of(cls, bucket: np.ndarray, present: np.ndarray) -> PresentGroups:
        """Groups numbered in the order of their key (the present codes as bits, then the
        bucket), as np.unique numbers them; each group's row is one of its members'."""
        width = present.shape[1]
        powers = np.left_shift(1, np.arange(width)).astype(float)
        # einsum, not BLAS: OpenBLAS threads cost several times the product on 2 busy
        # cores (the sums of distinct powers of two are exact either way)
        key = (np.einsum("ij,j->i", present, powers).astype(np.int64)
               + (bucket.astype(np.int64) << width))
        first, group = key_groups(key)
        return cls(group, present.take(first, axis=0), bucket[first])


def key_groups(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal keys grouped, numbered in the order of the keys as np.unique numbers them: one
    index of each group (any member, not always the first: one unstable sort) and each
    key's group."""
    order = np.argsort(key)
    ordered = key[order]
    starts = np.ones(len(key), dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    group = np.empty(len(key), dtype=np.int64)
    group[order] = np.cumsum(starts) - 1
    return order[starts], group


@dataclass(frozen=True)
class Encoded:
    """A board as the model reads it, computed once (see :func:`encode`): per view each
    card's code and how many cards of its hand share that code, each hand's histogram of
    codes (``hist``; ``present`` = hist > 0 as 0/1, ``uniform`` = hist / hand size: the
    share of each code a uniform bid gives); the bucket and the size of each hand."""

    hand: np.ndarray
    bucket: np.ndarray
    hand_size: np.ndarray
    codes: dict[str, np.ndarray]
    mult: dict[str, np.ndarray]
    present: dict[str, np.ndarray]
    uniform: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.bucket)

    def picked(self, view: str, bid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The code and the multiplicity of each situation's bid card under ``view``
        (``bid``: one card per situation), made once per view for the same bids."""
        cache = self.__dict__.setdefault("_picked", {})
        found = cache.get(view)
        if found is None or found[0] is not bid:
            rows, col = np.arange(len(bid)), bid - 1
            flat = rows * MAX_RANK + col
            found = (bid, self.codes[view].take(flat), self.mult[view].take(flat))
            cache[view] = found
        return found[1], found[2]

    def present_groups(self, view: str) -> PresentGroups:
        """The situations grouped by bucket and the codes present in the hand (what the
        leave-one-out's normaliser reads), made once per view; needs ``present``."""
        cache = self.__dict__.setdefault("_groups", {})
        if view not in cache:
            cache[view] = PresentGroups.of(self.bucket, self.present[view])
        return cache[view]

    def take(self, rows: np.ndarray, fitting: bool = True) -> Encoded:
        """The situations at ``rows`` (a boolean mask or an index array); without
        ``fitting``, only what predicting needs (not the histograms)."""
        def pick(d: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
            return {v: a[rows] for v, a in d.items()} if fitting else {}

        return Encoded(self.hand[rows], self.bucket[rows], self.hand_size[rows],
                       {v: a[rows] for v, a in self.codes.items()},
                       {v: a[rows] for v, a in self.mult.items()}, pick(self.present),
                       pick(self.uniform))


_BITS = np.left_shift(1, np.arange(MAX_RANK))  # column r - 1 (card r) -> bit r - 1


@dataclass(frozen=True)
class _HandTables:
    """Everything :func:`encode` reads from a hand, for each of the 2^13 hands (``mask``:
    the hand as a bit mask, bit r - 1 = card r), made once by :func:`view_codes` itself.

    The position view depends on the hand only; the matched view on the hand and the
    prize's scaled rank (``scaled``, 0..13), its histogram on the hand's size and that rank
    only; the offset view's histogram is the hand shifted by the prize.
    """

    size: np.ndarray               # [mask]
    position: np.ndarray           # [mask, card] code (-1: not held)
    position_mult: np.ndarray      # [mask, card]
    position_present: np.ndarray   # [mask, code]
    position_uniform: np.ndarray   # [mask, code]
    matched: np.ndarray            # [scaled, mask, card] code, int8 (-1: not held)
    matched_mult: np.ndarray       # [scaled, mask, card]
    matched_present: np.ndarray    # [size, scaled, code]
    matched_uniform: np.ndarray    # [size, scaled, code]

    @classmethod
    @functools.cache
    def make(cls) -> _HandTables:
        masks = np.arange(1 << MAX_RANK)
        count = len(masks)
        hand = ((masks[:, None] >> np.arange(MAX_RANK)[None, :]) & 1) == 1
        size = hand.sum(axis=1)
        rows = np.arange(count)[:, None]
        tops = np.full(count, MAX_RANK)
        position = view_codes(Board(hand, tops, tops, tops, tops * 0, tops))["position"]
        position_hist = _histogram(position, N_CODES["position"])
        index = (np.cumsum(hand, axis=1) - 1).astype(np.int8)
        scaled = np.arange(MAX_RANK + 1, dtype=np.int8)[:, None, None]
        matched = np.clip(index[None] - scaled, -MATCH_SPAN, MATCH_SPAN) + MATCH_SPAN
        matched[:, ~hand] = -1
        # the matched histogram of a hand of n cards (its indices are 0..n-1), and so the
        # multiplicity of each index of such a hand: [n, scaled, index]
        n = np.arange(MAX_RANK + 1)[:, None, None]
        at = np.arange(MAX_RANK)[None, None, :]
        code = np.clip(at - np.arange(MAX_RANK + 1)[None, :, None], -MATCH_SPAN,
                       MATCH_SPAN) + MATCH_SPAN
        matched_hist = np.stack([((code == c) & (at < n)).sum(axis=2)
                                 for c in range(N_CODES["matched"])], axis=2).astype(float)
        by_index = np.take_along_axis(matched_hist, np.broadcast_to(
            code, matched_hist.shape[:2] + (MAX_RANK,)), axis=2)    # [n, scaled, index]
        flat = size[:, None] * MAX_RANK + np.maximum(index, 0)        # [mask, card]
        per_scaled = by_index.transpose(1, 0, 2).reshape(MAX_RANK + 1, -1)
        matched_mult = np.where(hand[None], np.take(per_scaled, flat, axis=1), 0.0)
        per = np.maximum(size, 1)[:, None]
        sizes = np.maximum(np.arange(MAX_RANK + 1), 1)[:, None, None]
        return cls(size, position,
                   np.where(position >= 0, position_hist[rows, np.maximum(position, 0)], 0.0),
                   (position_hist > 0).astype(float), position_hist / per,
                   matched.astype(np.int8), matched_mult, (matched_hist > 0).astype(float),
                   matched_hist / sizes)


def _shifted_hand(hand: np.ndarray, prize: np.ndarray) -> np.ndarray:
    """The offset view's histogram (n, 25): column card - prize + 12 is 1 where the card is
    held (one card per code)."""
    n = len(prize)
    width = N_CODES["offset"]
    padded = np.zeros((n, width + MAX_RANK), dtype=bool)
    padded[:, OFFSET_SPAN:OFFSET_SPAN + MAX_RANK] = hand
    windows = np.lib.stride_tricks.sliding_window_view(padded, width, axis=1)
    return windows[np.arange(n), prize - 1].astype(float)


def encode(board: Board, fitting: bool = True) -> Encoded:
    """The codes, multiplicities, histograms and buckets of every situation of ``board``
    (without ``fitting``, only what predicting needs: not ``present`` and ``uniform``).

    The same as reading :func:`view_codes` and counting each hand's codes, but the hand's
    part is looked up by the hand's bit mask in :class:`_HandTables`, so encoding a
    situation costs a few lookups instead of sorting its cards into codes again.
    """
    t = _HandTables.make()
    hand = board.hand
    mask = hand.astype(np.int64) @ _BITS
    bucket = buckets(board.prize_index, board.prizes_left, board.pool_value, board.cards)
    size = t.size.take(mask)
    offset = np.where(hand, _CARDS[None, :] - board.prize[:, None] + OFFSET_SPAN, -1)
    left = board.prizes_left
    scaled = np.where(left > 1, np.rint(board.prize_index * (size - 1)
                                        / np.maximum(left - 1, 1)), 0).astype(np.int64)
    at = scaled * len(t.size) + mask
    # the lookups are row gathers: take() is several times faster than fancy indexing
    codes = {"offset": offset, "position": t.position.take(mask, axis=0),
             "matched": t.matched.reshape(-1, MAX_RANK).take(at, axis=0).astype(np.int64)}
    mult = {"offset": hand.astype(float), "position": t.position_mult.take(mask, axis=0),
            "matched": t.matched_mult.reshape(-1, MAX_RANK).take(at, axis=0)}
    present, uniform = {}, {}
    if fitting:
        shifted = (_shifted_hand(hand, board.prize) if ((board.prize >= 1)
                   & (board.prize <= MAX_RANK)).all() else _histogram(offset, N_CODES["offset"]))
        by_size = size * (MAX_RANK + 1) + scaled       # [size, scaled] of the matched tables
        width = N_CODES["matched"]
        present = {"offset": (shifted > 0).astype(float),
                   "position": t.position_present.take(mask, axis=0),
                   "matched": t.matched_present.reshape(-1, width).take(by_size, axis=0)}
        uniform = {"offset": shifted / np.maximum(size, 1)[:, None],
                   "position": t.position_uniform.take(mask, axis=0),
                   "matched": t.matched_uniform.reshape(-1, width).take(by_size, axis=0)}
    return Encoded(hand, bucket, size, codes, mult, present, uniform)


@dataclass(frozen=True)
class ViewTable:
    """One view's counts per bucket and code, and the smoothed frequencies made from them."""

    view: str
    counts: np.ndarray    # (buckets, codes)
    uniform: np.ndarray   # (codes,) share of each code under uniform play
    freq: np.ndarray      # (buckets, codes) smoothed frequencies, each row sums to 1

    @classmethod
    def fit(cls, view: str, chosen: np.ndarray, bucket: np.ndarray,
            uniform: np.ndarray) -> ViewTable:
        """Count the ``chosen`` codes per bucket; ``uniform`` (codes,) is the summed share of
        each code under uniform play over the same bids, the prior of the overall table."""
        k = N_CODES[view]
        counts = np.bincount(bucket * k + chosen, minlength=N_BUCKETS * k).reshape(
            N_BUCKETS, k).astype(float)
        uniform = uniform / uniform.sum() if uniform.sum() > 0 else np.full(k, 1.0 / k)
        total = counts.sum()
        overall = (counts.sum(axis=0) + GLOBAL_PRIOR * uniform) / (total + GLOBAL_PRIOR)
        freq = ((counts + BUCKET_PRIOR * overall[None, :])
                / (counts.sum(axis=1, keepdims=True) + BUCKET_PRIOR))
        return cls(view, counts, uniform, freq)

    def loo_chosen(self, chosen: np.ndarray, mult: np.ndarray, bucket: np.ndarray,
                   present: np.ndarray, hand_size: np.ndarray,
                   rows: np.ndarray | None = None,
                   groups: PresentGroups | None = None) -> np.ndarray:
        """Each bid's probability of its own card under this view, from tables with that
        bid's own count taken out (leave-one-out).

        A code's weight in bucket b is counts[b, code] + BUCKET_PRIOR * overall[code]; the
        bid's own count comes off its bucket and off the overall table. A card gets its
        code's weight shared among the ``mult`` cards with that code, normalised over the
        hand: over the codes ``present`` in the hand, each once. ``rows`` picks the bids
        from ``present`` when it holds more (one row per bid otherwise); ``groups``
        (:meth:`Encoded.present_groups` of the rows of ``present``) spares summing the
        normaliser of equal rows again.
        """
        denom = self.counts.sum() - 1 + GLOBAL_PRIOR
        overall = (self.counts.sum(axis=0) + GLOBAL_PRIOR * self.uniform) / denom
        weight = self.counts + BUCKET_PRIOR * overall[None, :]          # (buckets, codes)
        own = 1.0 + BUCKET_PRIOR / denom
        at = np.arange(len(bucket)) if rows is None else rows
        # einsum, not BLAS: OpenBLAS threads cost more than they save on 25-wide rows
        if groups is None:
            z = np.einsum("ij,ij->i", present[at], weight[bucket]) - own
        else:
            per_group = np.einsum("ij,ij->i", groups.present, weight[groups.bucket])
            z = per_group.take(groups.group.take(at)) - own
        mine = weight.take(bucket * weight.shape[1] + chosen) - own
        return np.where(z > 0, mine / np.maximum(mult, 1) / np.where(z > 0, z, 1.0),
                        1.0 / np.maximum(hand_size, 1))


def _position_code(low: int, high: int) -> int:
    """The position view's code of the card ``low`` places above the lowest and ``high``
    below the highest (:data:`POSITION_NAMES`; :func:`view_codes`' order of tests)."""
    for code, hit in enumerate((low == 0, high == 0, low == 1, high == 1, low == 2)):
        if hit:
            return code
    return 5


def _card_probs(weights: np.ndarray, mult: np.ndarray, hand: np.ndarray,
                single: bool = False) -> np.ndarray:
    """Share each code's weight among its cards and normalise over the hand (n, 13).
    ``single``: every code has one card at most (the offset view), so nothing is shared.
    ``weights`` is 0 for the cards not in the hand (their multiplicity is 0 too); it is
    overwritten."""
    per_card = weights
    if not single:
        per_card /= np.maximum(mult, 1)
    z = per_card.sum(axis=1, keepdims=True)
    if (z > 0).all():
        return per_card / z
    uniform = hand / hand.sum(axis=1, keepdims=True)
    return np.where(z > 0, per_card / np.where(z > 0, z, 1.0), uniform)


@dataclass(frozen=True)
class OpponentModel:
    """Fitted tables per view and the mixture weights (uniform first, then :data:`VIEWS`)."""

    tables: dict[str, ViewTable]
    mixture: np.ndarray
    bids: int

    @classmethod
    def fit(cls, s: Situations, encoded: Encoded | None = None,
            rows: np.ndarray | None = None) -> OpponentModel:
        """Fit the tables and the mixture weights on the bids in ``s`` (only those at
        ``rows``, a boolean mask, if given).

        ``encoded`` is :func:`encode` of ``Board.of(s)`` when the caller has it already
        (cross-validation encodes every bid once and fits on parts of it).
        """
        enc = encoded if encoded is not None else encode(Board.of(s))
        at = np.arange(len(s)) if rows is None else np.flatnonzero(rows)
        weight = None if rows is None else np.asarray(rows, dtype=float)
        size = enc.hand_size.take(at)
        bucket = enc.bucket.take(at)
        tables = {}
        scores = [1.0 / size]
        for view in VIEWS:
            chosen_all, mult_all = enc.picked(view, s.bid)
            chosen = chosen_all.take(at)
            share = enc.uniform[view]
            uniform = share.sum(axis=0) if weight is None else np.einsum("i,ij->j", weight, share)
            table = ViewTable.fit(view, chosen, bucket, uniform)
            tables[view] = table
            scores.append(table.loo_chosen(chosen, mult_all.take(at), bucket, enc.present[view],
                                           size, at, enc.present_groups(view)))
        likelihood = np.column_stack(scores)
        return cls(tables, _em_weights(likelihood), len(at))

    def predict(self, board: Board | Encoded) -> np.ndarray:
        """(n, 13) probabilities of each card (column r - 1 = card r); 0 outside the hand."""
        enc = board if isinstance(board, Encoded) else encode(board, fitting=False)
        return self._stack.predict(enc, np.zeros(len(enc), dtype=np.int64))

    @functools.cached_property
    def _stack(self) -> ModelStack:
        """This model as a stack of one, made once (callers that ask one situation at a
        time, as the equilibrium's backward induction does, ask thousands of times)."""
        return ModelStack.of([self])

    @functools.cached_property
    def _plain(self) -> tuple[list[float], dict[str, list[list[float]]]]:
        """The mixture weights and each view's table as Python lists, made once for
        :meth:`distribution` (a row's ``tolist`` per call was a tenth of its cost)."""
        return self.mixture.tolist(), {view: self.tables[view].freq.tolist()
                                       for view in VIEWS}

    def distribution(self, prize: int, pool_value: int, hand: Sequence[int],
                     upcoming: Sequence[int], cards: int) -> dict[int, float]:
        """The probability of each card in ``hand`` for one situation.

        The arithmetic of :meth:`predict` (:func:`encode`, :meth:`ModelStack.predict`) in
        plain Python: for one situation numpy's cost per call was most of the work, and
        the equilibrium's backward induction asks thousands of single situations. Equal
        to :meth:`predict` up to the order of a sum's terms (a few ulps; tested)."""
        held = sorted(hand)
        h = len(held)
        below = sum(1 for p in upcoming if p < prize)
        left = len(upcoming) + 1
        third = min(2, (3 * below) // max(left, 1))
        size = (int(pool_value >= math.ceil(cards / 2))
                + int(pool_value >= math.ceil(0.75 * cards)) + int(pool_value > cards))
        bucket = len(POOL_SIZES) * third + size
        scaled = round(below * (h - 1) / max(left - 1, 1)) if left > 1 else 0
        codes = {"offset": [card - prize + OFFSET_SPAN for card in held],
                 "position": [_position_code(i, h - 1 - i) for i in range(h)],
                 "matched": [min(max(i - scaled, -MATCH_SPAN), MATCH_SPAN) + MATCH_SPAN
                             for i in range(h)]}
        mix, freqs = self._plain
        out = [mix[0] / h] * h
        for k, view in enumerate(VIEWS, start=1):
            freq = freqs[view][bucket]
            view_codes = codes[view]
            per_card = [freq[c] if view == "offset" else freq[c] / view_codes.count(c)
                        for c in view_codes]
            z = sum(per_card)
            probs = [x / z for x in per_card] if z > 0 else [1.0 / h] * h
            out = [o + mix[k] * p for o, p in zip(out, probs, strict=True)]
        by_card = dict(zip(held, out, strict=True))
        return {card: by_card[card] for card in hand}

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


@dataclass(frozen=True)
class ModelStack:
    """Several fitted models side by side, so one call predicts each situation with its own
    model (the simulations play games against many models at once)."""

    mixture: np.ndarray            # (models, 1 + views)
    #: per view: (models, buckets, 1 + codes), each code's frequency one column to the
    #: right of column 0, which holds 0: what a card not held (code -1) reads
    freq: dict[str, np.ndarray]

    @classmethod
    def of(cls, models: Sequence[OpponentModel]) -> ModelStack:
        def padded(view: str) -> np.ndarray:
            freq = np.stack([m.tables[view].freq for m in models])
            return np.concatenate([np.zeros(freq.shape[:2] + (1,)), freq], axis=2)

        return cls(np.stack([m.mixture for m in models]), {v: padded(v) for v in VIEWS})

    def __len__(self) -> int:
        return len(self.mixture)

    def predict(self, enc: Encoded, model: np.ndarray) -> np.ndarray:
        """(n, 13) card probabilities of each situation under model ``model[i]`` of the stack."""
        hand = enc.hand
        w = self.mixture[model]
        out = w[:, :1] * hand / enc.hand_size[:, None]
        row = (model * N_BUCKETS + enc.bucket)[:, None]
        for k, view in enumerate(VIEWS, start=1):
            # one gather from the flat table: (model, bucket, code) -> frequency, 0 for a
            # card not held (code -1 reads the row's column 0)
            width = N_CODES[view] + 1
            weights = self.freq[view].reshape(-1).take(row * width + 1 + enc.codes[view])
            out += w[:, k:k + 1] * _card_probs(weights, enc.mult[view], hand,
                                               single=view == "offset")
        return out


def _em_weights(likelihood: np.ndarray, steps: int = EM_STEPS) -> np.ndarray:
    """Mixture weights maximising sum log(sum_k w_k L_ik) (with one pseudo-bid per part).

    Each EM step: the responsibilities r_ik = w_k L_ik / (L w)_i summed over bids are
    w_k (L^T (1 / L w))_k, two matrix-vector products.
    """
    n, k = likelihood.shape
    w = np.full(k, 1.0 / k)
    if n == 0:
        return w
    lik = np.ascontiguousarray(likelihood.T)  # (parts, bids): each product reads rows
    for _ in range(steps):
        mix = np.maximum(w @ lik, 1e-300)
        w = (w * (lik @ (1.0 / mix)) + 1.0) / (n + k)
    return w
