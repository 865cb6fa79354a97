"""Backward induction with a memo: the exact value of every position of a setting.

From a position, each prize that can be revealed next is a zero-sum matrix game: A's card
(row) against B's card (column), each entry the points the bid wins or gives away plus
the value of the position it leads to (``points``), or the value of that position with the
lead updated (``win``). The position's value is the mean of those games' values over the
prizes that can be revealed next (one under a fixed order).

With no reductions this is the plain solver (the oracle): every game by a linear program,
every position kept apart. :mod:`reductions` lists what the fast path may use. With every
reduction and the compiled simplex (the default), positions go to :mod:`compiled` (the
same recursion in machine code, level by level); the Python recursion here stays for the
oracle, for any other set of reductions, and for hands too large for a compiled key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from gops_records.games.gops.theory import matrix_game
from gops_records.games.gops.theory.position import Objective, Position, Setting, TieRule
from gops_records.games.gops.theory.reductions import (
    ALL,
    Reduction,
    canonical_sides,
    decided,
    relabel,
)

Hand = tuple[int, ...]


class Engine(StrEnum):
    """What solves each matrix game's value."""

    #: scipy's HiGHS linear program (the oracle)
    HIGHS = "highs"
    #: the compiled dense simplex of :mod:`simplex` (a saddle point checked first)
    SIMPLEX = "simplex"


@dataclass(frozen=True)
class PrizeGame:
    """The game of one prize that can be revealed next, with one equilibrium."""

    prize: int
    value: float
    cards_a: Hand
    mix_a: tuple[float, ...]
    cards_b: Hand
    mix_b: tuple[float, ...]


@dataclass(frozen=True)
class Analysis:
    """A position's value from A's side and the game of each prize that can come next."""

    value: float
    games: tuple[PrizeGame, ...]


class Solver:
    """Values of positions of one :class:`Setting`, kept in a memo across calls."""

    def __init__(self, setting: Setting, reductions: Iterable[Reduction] = ALL,
                 engine: Engine = Engine.SIMPLEX, compiled: bool = True) -> None:
        self.setting = setting
        self.engine = engine
        self.reductions = frozenset(reductions)
        self.win = setting.objective is Objective.WIN
        self.carry = setting.tie_rule is TieRule.CARRY
        self.memo: dict[tuple, float] = {}
        self._shortcuts = Reduction.MATRIX_SHORTCUTS in self.reductions
        if engine is Engine.SIMPLEX:
            from gops_records.games.gops.theory.simplex import game_value
            self._game_value = game_value
        else:
            self._game_value = self._highs_value
        self._fast = None
        if compiled and engine is Engine.SIMPLEX and self.reductions == ALL:
            from gops_records.games.gops.theory.compiled import FastTable
            self._fast = FastTable(setting)

    @classmethod
    def plain(cls, setting: Setting) -> Solver:
        """The oracle: no reduction, every game by a HiGHS linear program."""
        return cls(setting, (), Engine.HIGHS)

    @property
    def states(self) -> int:
        """How many positions the memo holds (after the reductions in use)."""
        return len(self.memo) + (len(self._fast) if self._fast is not None else 0)

    def value(self, pos: Position) -> float:
        """The position's value from A's side (see :class:`Objective`)."""
        return self._value(tuple(sorted(pos.hand_a)), tuple(sorted(pos.hand_b)),
                           frozenset(pos.prizes), pos.pool, pos.lead if self.win else 0)

    def analyse(self, pos: Position) -> Analysis:
        """The value and, for each prize that can be revealed next, its game's value and
        an equilibrium (both mixes, by linear program)."""
        a, b = tuple(sorted(pos.hand_a)), tuple(sorted(pos.hand_b))
        lead = pos.lead if self.win else 0
        games = []
        for prize in self.setting.next_prizes(pos.prizes):
            sol = matrix_game.solve_lp(self.matrix(a, b, pos.prizes, pos.pool, lead, prize))
            games.append(PrizeGame(prize, sol.value, a, sol.row_mix, b, sol.col_mix))
        value = sum(g.value for g in games) / len(games) if games else self._end(lead)
        return Analysis(value, tuple(games))

    def matrix(self, a: Hand, b: Hand, prizes: frozenset[int], pool: int, lead: int,
               prize: int) -> np.ndarray:
        """The game of ``prize`` revealed: rows A's cards, columns B's, in hand order."""
        rest = prizes - {prize}
        pot = pool + prize
        out = np.empty((len(a), len(b)))
        for i, x in enumerate(a):
            a_rest = a[:i] + a[i + 1:]
            for j, y in enumerate(b):
                b_rest = b[:j] + b[j + 1:]
                gain = pot if x > y else -pot if x < y else 0
                carried = pot if x == y and self.carry and rest else 0
                if self.win:
                    out[i, j] = self._value(a_rest, b_rest, rest, carried, lead + gain)
                else:
                    out[i, j] = gain + self._value(a_rest, b_rest, rest, carried, 0)
        return out

    def _end(self, lead: int) -> float:
        return float(np.sign(lead)) if self.win else 0.0

    def _value(self, a: Hand, b: Hand, prizes: frozenset[int], pool: int, lead: int) -> float:
        if not a:
            return self._end(lead)
        if self._fast is not None and len(a) <= self._fast.max_hand:
            return self._fast.value(a, b, prizes, pool, lead)
        red = self.reductions
        if self.win and Reduction.DECIDED_LEAD in red:
            settled = decided(lead, pool + sum(prizes))
            if settled is not None:
                return settled
        if Reduction.RELABEL in red:
            a, b = relabel(a, b)
        sign = 1
        if Reduction.SYMMETRY in red:
            if a == b and lead == 0:
                return 0.0
            a, b, lead, sign = canonical_sides(a, b, lead)
        key = (a, b, prizes, pool, lead)
        found = self.memo.get(key)
        if found is None:
            found = self._solve(a, b, prizes, pool, lead)
            self.memo[key] = found
        return sign * found

    def _solve(self, a: Hand, b: Hand, prizes: frozenset[int], pool: int, lead: int) -> float:
        nexts = self.setting.next_prizes(prizes)
        total = 0.0
        for prize in nexts:
            if len(a) == 1 and Reduction.FORCED_LAST in self.reductions:
                pot = pool + prize
                gain = pot if a[0] > b[0] else -pot if a[0] < b[0] else 0
                total += self._end(lead + gain) if self.win else gain
                continue
            total += self._game_value(self.matrix(a, b, prizes, pool, lead, prize))
        return total / len(nexts)

    def _highs_value(self, grid: np.ndarray) -> float:
        return matrix_game.game_value(grid, shortcuts=self._shortcuts)


def every_position(setting: Setting, rounds_left: int) -> Iterable[Position]:
    """Every position with ``rounds_left`` cards in each hand that a game of ``setting``
    can reach (pool and lead included: every value a pool or a lead can take), for the
    differential tests and the benchmarks."""
    from itertools import combinations

    from gops_records.games.gops.theory.position import ImpossiblePosition, position

    n = setting.cards
    deck = range(1, n + 1)
    fixed = setting.order_left(rounds_left)
    prize_sets = [fixed] if fixed is not None else list(combinations(deck, rounds_left))
    for prizes in prize_sets:
        revealed = sum(deck) - sum(prizes)
        pools = range(revealed + 1) if setting.tie_rule is TieRule.CARRY else [0]
        for pool in pools:
            leads = range(-(revealed - pool), revealed - pool + 1) \
                if setting.objective is Objective.WIN else [0]
            for lead in leads:
                for a in combinations(deck, rounds_left):
                    for b in combinations(deck, rounds_left):
                        try:
                            yield position(setting, a, b, prizes, pool, lead)
                        except ImpossiblePosition:
                            break  # the pool or lead is out of reach for every hand


def value_against_uniform(setting: Setting, pos: Position) -> float:
    """What A's best reply earns against a B who bids a card of their hand uniformly at
    random every round (A sees the cards spent, as in play): each prize's game becomes A
    choosing the row of best mean. The number that measures uniform play's
    exploitability, and a known figure of the discard game ((N^2 - 1) / 6 points)."""
    win = setting.objective is Objective.WIN
    carry = setting.tie_rule is TieRule.CARRY
    memo: dict[tuple, float] = {}

    def value(a: Hand, b: Hand, prizes: frozenset[int], pool: int, lead: int) -> float:
        if not a:
            return float(np.sign(lead)) if win else 0.0
        key = (a, b, prizes, pool, lead)
        if key not in memo:
            total = 0.0
            nexts = setting.next_prizes(prizes)
            for prize in nexts:
                rest, pot = prizes - {prize}, pool + prize
                best = -np.inf
                for i, x in enumerate(a):
                    mean = 0.0
                    for j, y in enumerate(b):
                        gain = pot if x > y else -pot if x < y else 0
                        carried = pot if x == y and carry and rest else 0
                        child = value(a[:i] + a[i + 1:], b[:j] + b[j + 1:], rest, carried,
                                      lead + gain if win else 0)
                        mean += child if win else gain + child
                    best = max(best, mean / len(b))
                total += best
            memo[key] = total / len(nexts)
        return memo[key]

    return value(tuple(sorted(pos.hand_a)), tuple(sorted(pos.hand_b)), frozenset(pos.prizes),
                 pos.pool, pos.lead if win else 0)
