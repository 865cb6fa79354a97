"""The solver's fast path: backward induction compiled with numba, every reduction on.

The same recursion as :class:`solver.Solver` with every :class:`reductions.Reduction`
(relabel, symmetry, forced-last, decided-lead; of the matrix shortcuts the saddle point,
which :func:`simplex.game_value` checks first), over integers instead of tuples and
frozensets: a hand is a bitmask of its cards (bit r - 1 for card r), the prizes left a
bitmask of their ranks, and a position one 63-bit key (both relabelled hands, the prizes,
the pool, the lead) in a numba typed dict. No recursion (numba cannot cache recursive
functions): the positions below a new one are found level by level (one card fewer each
level), then solved from the last level up, so every child is solved before its parent.
The profile of the Python recursion put nine tenths of the time in building each game's
entries and in the memo's tuple keys, and under one hundredth in the simplex: this module
moves exactly that part into machine code. Every function is cached by numba
(``cache=True``), and the memo is made and read in compiled code, so a new process
compiles nothing.

The round's outcome (:func:`_outcome`: who takes the pot, what a tie carries) is
re-stated here from :meth:`solver.Solver.matrix`;
tests/games/gops/theory/test_compiled.py holds this path equal to the plain rules on every
reachable position of N <= 5, both tie rules, both
objectives.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types
from numba.typed import Dict, List

from gops_records.games.gops.theory.position import Objective, PrizeOrder, Setting, TieRule
from gops_records.games.gops.theory.simplex import game_value

#: bits of an int64 key (kept non-negative)
KEY_BITS = 63


@dataclass(frozen=True)
class Layout:
    """Where each part of a position sits in its key, and the largest hand it can hold."""

    hand_bits: int  # bits of one relabelled hand (a union of both hands has <= 2k cards)
    prize_bits: int
    pool_bits: int
    lead_offset: int  # added to the lead so it is never negative

    @property
    def max_hand(self) -> int:
        """The most cards a hand may hold for its position to have a key."""
        return self.hand_bits // 2

    @classmethod
    def of(cls, cards: int) -> Layout:
        total = cards * (cards + 1) // 2
        pool_bits = total.bit_length()
        lead_bits = (2 * total).bit_length()
        hand_bits = min(2 * cards, (KEY_BITS - cards - pool_bits - lead_bits) // 2)
        return cls(hand_bits, cards, pool_bits, total)


class FastTable:
    """The compiled memo of one setting: values of positions, kept across calls."""

    def __init__(self, setting: Setting) -> None:
        self.layout = Layout.of(setting.cards)
        lay = self.layout
        if setting.order is PrizeOrder.RANDOM:
            sequence: tuple[int, ...] = ()
        elif setting.order is PrizeOrder.ASCENDING:
            sequence = tuple(range(1, setting.cards + 1))
        elif setting.order is PrizeOrder.DESCENDING:
            sequence = tuple(range(setting.cards, 0, -1))
        else:
            sequence = setting.sequence
        # the prizes' bits in the order they come (empty: a shuffled pile)
        self._sequence = np.array([1 << (p - 1) for p in sequence], dtype=np.int64)
        self._config = np.array([
            setting.objective is Objective.WIN, setting.tie_rule is TieRule.CARRY,
            lay.hand_bits, lay.prize_bits, lay.pool_bits, lay.lead_offset], dtype=np.int64)
        self._memo = _new_memo()  # made and read in compiled code: no compiling per process

    @property
    def max_hand(self) -> int:
        return self.layout.max_hand

    def __len__(self) -> int:
        return _size(self._memo)

    def value(self, hand_a: tuple[int, ...], hand_b: tuple[int, ...], prizes: frozenset[int],
              pool: int, lead: int) -> float:
        """The position's value from A's side (cards as ranks 1..N)."""
        known, number, key = _canonical(self._config, _mask(hand_a), _mask(hand_b),
                                        _mask(prizes), pool, lead)
        if known:
            return number
        return number * _solve(self._config, self._sequence, key, self._memo)


def _mask(cards) -> int:
    out = 0
    for card in cards:
        out |= 1 << (card - 1)
    return out


@njit(cache=True)
def _relabel(a: int, b: int) -> tuple[int, int]:
    """Both hands with their union's cards moved to the lowest bits, in order (a card held
    by both keeps one bit): the :func:`reductions.relabel` of bitmasks."""
    union = a | b
    ra = 0
    rb = 0
    pos = 0
    while union:
        low = union & -union
        if a & low:
            ra |= 1 << pos
        if b & low:
            rb |= 1 << pos
        pos += 1
        union ^= low
    return ra, rb


@njit(cache=True)
def _key(config: np.ndarray, a: int, b: int, prizes: int, pool: int, lead: int) -> int:
    hand_bits, prize_bits, pool_bits, offset = config[2], config[3], config[4], config[5]
    key = lead + offset
    key = (key << pool_bits) | pool
    key = (key << prize_bits) | prizes
    key = (key << hand_bits) | b
    return (key << hand_bits) | a


@njit(cache=True)
def _prize_sum(prizes: int) -> int:
    total = 0
    rank = 1
    while prizes:
        if prizes & 1:
            total += rank
        prizes >>= 1
        rank += 1
    return total


@njit(cache=True)
def _bits(mask: int, out: np.ndarray) -> int:
    """The positions of ``mask``'s set bits, lowest first, into ``out``; their count."""
    count = 0
    pos = 0
    while mask:
        if mask & 1:
            out[count] = pos
            count += 1
        mask >>= 1
        pos += 1
    return count


@njit(cache=True)
def _end(win: bool, lead: int) -> float:
    if not win:
        return 0.0
    return 1.0 if lead > 0 else (-1.0 if lead < 0 else 0.0)


@njit(cache=True)
def _canonical(config: np.ndarray, a: int, b: int, prizes: int, pool: int, lead: int
               ) -> tuple[bool, float, int]:
    """(known, number, key): a position worth ``number`` with no memo entry (no cards left,
    a decided lead, its own mirror), or the memo key of it or its mirror and the sign that
    turns the key's value into its own."""
    win = config[0] == 1
    if a == 0:
        return True, _end(win, lead), 0
    if win:  # decided-lead
        still = pool + _prize_sum(prizes)
        if lead > still:
            return True, 1.0, 0
        if lead < -still:
            return True, -1.0, 0
    a, b = _relabel(a, b)
    if a == b and lead == 0:  # symmetry: a position that is its own mirror
        return True, 0.0, 0
    key = _key(config, a, b, prizes, pool, lead)
    mirror = _key(config, b, a, prizes, pool, -lead)
    if mirror < key:
        return False, -1.0, mirror
    return False, 1.0, key


@njit(cache=True)
def _decode(config: np.ndarray, key: int) -> tuple[int, int, int, int, int]:
    hand_bits, prize_bits, pool_bits, offset = config[2], config[3], config[4], config[5]
    a = key & ((1 << hand_bits) - 1)
    key >>= hand_bits
    b = key & ((1 << hand_bits) - 1)
    key >>= hand_bits
    prizes = key & ((1 << prize_bits) - 1)
    key >>= prize_bits
    pool = key & ((1 << pool_bits) - 1)
    key >>= pool_bits
    return a, b, prizes, pool, key - offset


@njit(cache=True)
def _next_prizes(sequence: np.ndarray, prizes: int, out: np.ndarray) -> int:
    """The ranks of the prizes that can be revealed next into ``out``; their count."""
    if sequence.shape[0] == 0:
        count = _bits(prizes, out)
        for i in range(count):
            out[i] += 1
        return count
    for bit in sequence:
        if prizes & bit:
            rank = 1
            while (1 << (rank - 1)) != bit:
                rank += 1
            out[0] = rank
            return 1
    return 0


@njit(cache=True)
def _outcome(carry: bool, x: int, y: int, pot: int, more: bool) -> tuple[int, int]:
    """The round's outcome for A's card x against B's card y (any order-keeping labels):
    A's gain (+pot, -pot, 0 on a tie) and the pool carried (the pot after a tie under
    carry with a prize still to come, else 0)."""
    if x > y:
        return pot, 0
    if x < y:
        return -pot, 0
    return 0, pot if carry and more else 0


@njit(cache=True)
def _children(config: np.ndarray, sequence: np.ndarray, a: int, b: int, prizes: int,
              pool: int, lead: int, memo, found) -> None:
    """Put into ``found`` the key of every child position of (a, b, ...) that needs a game
    solved and is in neither ``memo`` nor ``found`` yet."""
    win = config[0] == 1
    carry = config[1] == 1
    cards_a = np.empty(64, dtype=np.int64)
    cards_b = np.empty(64, dtype=np.int64)
    ranks = np.empty(64, dtype=np.int64)
    k = _bits(a, cards_a)
    if k == 1:  # forced-last: no position after it needs a game
        return
    _bits(b, cards_b)
    for n in range(_next_prizes(sequence, prizes, ranks)):
        prize = ranks[n]
        rest = prizes & ~(1 << (prize - 1))
        for i in range(k):
            x = cards_a[i]
            for j in range(k):
                y = cards_b[j]
                gain, carried = _outcome(carry, x, y, pool + prize, rest != 0)
                known, _, key = _canonical(config, a & ~(1 << x), b & ~(1 << y), rest,
                                           carried, lead + gain if win else 0)
                if not known and key not in memo and key not in found:
                    found[key] = 0.0


@njit(cache=True)
def _state_value(config: np.ndarray, sequence: np.ndarray, a: int, b: int, prizes: int,
                 pool: int, lead: int, memo) -> float:
    """The mean over the prizes that can come next of each prize's game value, every
    child position's value already in ``memo``."""
    win = config[0] == 1
    carry = config[1] == 1
    cards_a = np.empty(64, dtype=np.int64)
    cards_b = np.empty(64, dtype=np.int64)
    ranks = np.empty(64, dtype=np.int64)
    k = _bits(a, cards_a)
    _bits(b, cards_b)
    grid = np.empty((k, k))
    count = _next_prizes(sequence, prizes, ranks)
    total = 0.0
    for n in range(count):
        prize = ranks[n]
        rest = prizes & ~(1 << (prize - 1))
        for i in range(k):
            x = cards_a[i]
            for j in range(k):
                y = cards_b[j]
                gain, carried = _outcome(carry, x, y, pool + prize, rest != 0)
                if k == 1:  # forced-last
                    grid[i, j] = _end(win, lead + gain) if win else gain
                    continue
                known, number, key = _canonical(config, a & ~(1 << x), b & ~(1 << y), rest,
                                                carried, lead + gain if win else 0)
                child = number if known else number * memo[key]
                grid[i, j] = child if win else gain + child
        total += grid[0, 0] if k == 1 else game_value(grid)
    return total / count


@njit(cache=True)
def _solve(config: np.ndarray, sequence: np.ndarray, root: int, memo) -> float:
    """The value of the position keyed ``root``, with it and every position below it put
    into ``memo``: the positions not yet solved, found level by level (one card fewer
    each), then solved from the last level up, so each one's children are solved first."""
    if root in memo:
        return memo[root]
    levels = List()
    current = Dict.empty(key_type=types.int64, value_type=types.float64)
    current[root] = 0.0
    while len(current) > 0:
        keys = np.empty(len(current), dtype=np.int64)
        for i, key in enumerate(current):
            keys[i] = key
        levels.append(keys)
        found = Dict.empty(key_type=types.int64, value_type=types.float64)
        for key in keys:
            a, b, prizes, pool, lead = _decode(config, key)
            _children(config, sequence, a, b, prizes, pool, lead, memo, found)
        current = found
    for level in range(len(levels) - 1, -1, -1):
        for key in levels[level]:
            a, b, prizes, pool, lead = _decode(config, key)
            memo[key] = _state_value(config, sequence, a, b, prizes, pool, lead, memo)
    return memo[root]


@njit(cache=True)
def _new_memo():
    return Dict.empty(key_type=types.int64, value_type=types.float64)


@njit(cache=True)
def _size(memo) -> int:
    return len(memo)
